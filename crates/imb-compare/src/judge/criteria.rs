//! Acceptance criteria (`--references FILE.toml`), in ReFrame's manner: per benchmark (or `*`),
//! process count and size range, a metric, a statistic over the launches (the median unless
//! said), a reference (a number, or the baseline's own figure at the same size) and lower and
//! upper tolerances as fractions of the reference. The file's layout is in doc/ACCEPTANCE.md;
//! `settings/acceptance.toml` is an example.
//!
//! The rule, for every launch count (doc/ACCEPTANCE.md, "The rule"): per size, the interval of
//! the ratio figure/reference at the chosen confidence ([`crate::judge::stats`]). A size passes when
//! its interval lies inside the bounds; it fails only when it is shown beyond a bound: its own
//! interval wholly beyond, and a test whose null hypothesis is the bound itself rejecting it
//! with the criterion's sizes and the file's other bounds taken together (against a baseline by
//! permuting whole launches, [`crate::judge::family`]; against a number by Bonferroni over the sizes;
//! exactly for `min` and `max` against a number). The file's chance of any false FAIL is one
//! tail of the intervals, split evenly among its bound tests ([`tests_in`]). Anything else is
//! inconclusive (an interval across a bound, too few launches for one, a zero where a figure
//! belongs). A criterion fails when a size fails, is inconclusive when none fails and one is,
//! and passes when every size it covers passes. Before any figure, the runs must be comparable
//! ([`crate::conditions`]: a difference fails, a condition a run does not record is
//! inconclusive), complete and not oversubscribed, unless the user accepts each of those by
//! name.

use crate::conditions::{self, Difference, Kind};
use crate::error::Error;
use crate::judge::family;
use crate::read::key::{world_counts, Metric, TableKey};
use crate::read::run::Flag;
use crate::read::sides::Side;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use toml::Spanned;

// Every key is read as a TOML value and checked here, not by serde: serde's "invalid type:
// integer `1`, expected a string" names no key, and an error must name it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    #[serde(default)]
    criterion: Vec<Spanned<CritDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CritDoc {
    name: Option<Spanned<toml::Value>>,
    benchmark: Option<Spanned<toml::Value>>,
    processes: Option<Spanned<toml::Value>>,
    mode: Option<Spanned<toml::Value>>,
    bytes: Option<Spanned<toml::Value>>,
    metric: Option<Spanned<toml::Value>>,
    reference: Option<Spanned<toml::Value>>,
    lower: Option<Spanned<toml::Value>>,
    upper: Option<Spanned<toml::Value>>,
    statistic: Option<Spanned<toml::Value>>,
}

/// The smallest and largest reference numbers: beyond any figure a benchmark prints in µs,
/// Mbytes/sec or messages/sec. Outside them a ratio runs to hundreds of digits in every output.
pub const REFERENCE_RANGE: (f64, f64) = (1e-6, 1e12);

/// What a TOML value is, in words.
fn kind(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a floating-point number",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date or time",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// A value's problem: where it is and what is wrong, the key not yet named.
type Bad = (usize, String);

/// A name printed on one line of the report: a string, not blank, and without a control
/// character (a newline breaks the line, an escape sequence drives the terminal) or a
/// direction override (the rest of the line would read backwards).
fn plain_string(v: &Spanned<toml::Value>, what: &str) -> Result<String, Bad> {
    let at = v.span().start;
    match v.get_ref() {
        toml::Value::String(s) if s.trim().is_empty() => Err((at, format!("{what}, not blank"))),
        toml::Value::String(s) if s.chars().any(|c| (c.is_control() && c != '\t') || bidi(c)) => {
            Err((
                at,
                format!(
                    "{what}, without control characters (a newline, an escape) or direction \
                 overrides, not {s:?}"
                ),
            ))
        }
        toml::Value::String(s) => Ok(s.clone()),
        other => Err((at, format!("{what}, not {}", kind(other)))),
    }
}

/// A character that changes the direction of the text after it (U+061C, U+200E, U+200F,
/// U+202A to U+202E, U+2066 to U+2069).
fn bidi(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A number, integer or not, and how an error shows it (as written for an integer, in
/// exponent form when far from 1: 1e308 is not three hundred digits); `what` says which.
fn number(v: &Spanned<toml::Value>, what: &str) -> Result<(f64, String), Bad> {
    match v.get_ref() {
        toml::Value::Float(x) if *x != 0.0 && !(1e-4..1e15).contains(&x.abs()) => {
            Ok((*x, format!("{x:e}")))
        }
        toml::Value::Float(x) => Ok((*x, format!("{x}"))),
        toml::Value::Integer(x) => Ok((*x as f64, format!("{x}"))),
        other => Err((v.span().start, format!("{what}, not {}", kind(other)))),
    }
}

/// A whole number from `min`.
fn whole(v: &Spanned<toml::Value>, min: i64, what: &str) -> Result<u64, Bad> {
    match v.get_ref() {
        toml::Value::Integer(x) if *x >= min => Ok(*x as u64),
        toml::Value::Integer(x) => Err((v.span().start, format!("{what}, not {x}"))),
        other => Err((v.span().start, format!("{what}, not {}", kind(other)))),
    }
}

/// The key of the value at byte `at`, for the TOML reader's own errors (a number too large,
/// a value of the wrong type for the file's one table), whose messages name none: what stands
/// before `=` on its line, on the line where an array over several lines opened, or in the
/// table header there.
fn key_at(text: &str, at: usize) -> Option<&str> {
    let end = text
        .get(at..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |i| at + i);
    for line in text.get(..end)?.rsplit('\n') {
        let line = line.trim();
        let key = if let Some(header) = line.strip_prefix('[') {
            header.trim_start_matches('[').split(']').next()?
        } else if let Some((key, _)) = line.split_once('=') {
            key
        } else {
            continue;
        };
        let key = key.trim();
        // A bare key, dotted ones included (`benchmark.x = 1` makes a table of benchmark).
        let bare = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b));
        return bare.then_some(key);
    }
    None
}

/// What a criterion's figure is held against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    Value(f64),
    Baseline,
}

/// Which figure of a size's launches a criterion judges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Statistic {
    /// The typical launch (the default).
    Median,
    /// The best launch of a time (or the worst of a bandwidth): a contract's "achievable"
    /// figure. An observed extreme: exact, with no interval.
    Min,
    Max,
    /// A quantile of the launches, `p90` = 0.9.
    Quantile(f64),
}

impl Statistic {
    pub fn parse(s: &str) -> Result<Statistic, String> {
        match s {
            "median" => Ok(Statistic::Median),
            "min" => Ok(Statistic::Min),
            "max" => Ok(Statistic::Max),
            // Digits only, without a leading zero: "p+5" and "p05" would be printed "p5".
            p if p.starts_with('p') => match p[1..].parse::<u32>() {
                Ok(k)
                    if (1..=99).contains(&k)
                        && p[1..].bytes().all(|b| b.is_ascii_digit())
                        && !p[1..].starts_with('0') =>
                {
                    Ok(Statistic::Quantile(f64::from(k) / 100.0))
                }
                _ => Err(format!("{s:?}: a percentile is p1 to p99")),
            },
            _ => Err(format!("{s:?}: use median, min, max or p1 to p99")),
        }
    }

    pub fn key(self) -> String {
        match self {
            Statistic::Median => "median".into(),
            Statistic::Min => "min".into(),
            Statistic::Max => "max".into(),
            Statistic::Quantile(p) => format!("p{:.0}", p * 100.0),
        }
    }

    /// The statistic of `x` (not empty).
    pub fn of(self, x: &[f64]) -> f64 {
        match self {
            Statistic::Median => crate::judge::stats::median(x),
            Statistic::Min => x.iter().copied().fold(f64::INFINITY, f64::min),
            Statistic::Max => x.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Statistic::Quantile(p) => crate::judge::stats::quantile(x, p),
        }
    }
}

/// One acceptance criterion.
#[derive(Debug, Clone, PartialEq)]
pub struct Criterion {
    pub name: String,
    /// A benchmark name as printed ("Multi-PingPong" included), or `*` for every table with
    /// the metric's column.
    pub benchmark: String,
    pub processes: Option<usize>,
    pub mode: Option<String>,
    /// Inclusive size range; `None`: every size (and Barrier's sizeless row).
    pub bytes: Option<(u64, u64)>,
    pub metric: Metric,
    pub statistic: Statistic,
    pub reference: Reference,
    /// Allowed deviation as fractions of the reference: `lower` ≤ 0 ≤ `upper`; `None` is
    /// unbounded on that side.
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// The line of its `[[criterion]]` header, for messages.
    pub line: usize,
}

/// Where each line of a text starts, so that a byte offset's line is a binary search: counting
/// from the start for every criterion made a file of many criteria quadratic to read.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        LineStarts(
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    /// The line (from 1) of byte offset `at`.
    fn line_of(&self, at: usize) -> usize {
        self.0.partition_point(|&start| start <= at)
    }
}

/// Read a references file. Every error names the file, the line and the key.
pub fn parse(file: &str, text: &str) -> Result<Vec<Criterion>, Error> {
    let lines = LineStarts::new(text);
    let err = |at: usize, msg: String| Error::Line {
        file: file.to_string(),
        line: lines.line_of(at),
        msg,
    };
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        // toml's message may run over lines; ours is one.
        let msg: Vec<&str> = e.message().lines().map(str::trim).collect();
        // serde names our own type where the file has a table.
        let mut msg = msg
            .join(": ")
            .replace("struct CritDoc", "a [[criterion]] table");
        if let Some(key) = key_at(text, at).filter(|k| !msg.contains(&format!("`{k}`"))) {
            msg = format!("{key}: {msg}");
        }
        err(at, msg)
    })?;
    if doc.criterion.is_empty() {
        return Err(Error::File {
            file: file.to_string(),
            msg: "no [[criterion]] in it".to_string(),
        });
    }
    let mut out = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut checks: HashMap<String, usize> = HashMap::new();
    for c in doc.criterion {
        let header = c.span().start;
        let line = lines.line_of(header);
        let c = c.into_inner();
        let named = |key: &str, (at, msg): Bad| err(at, format!("{key}: {msg}"));
        let required = |key: &str, v: &Option<Spanned<toml::Value>>| {
            v.clone().ok_or_else(|| {
                err(
                    header,
                    format!(
                        "{key}: missing (every [[criterion]] has benchmark, metric and reference)"
                    ),
                )
            })
        };
        let (benchmark, metric_doc, reference) = (
            required("benchmark", &c.benchmark)?,
            required("metric", &c.metric)?,
            required("reference", &c.reference)?,
        );
        let name = c
            .name
            .as_ref()
            .map(|n| plain_string(n, "a string of its own").map_err(|b| named("name", b)))
            .transpose()?;
        let benchmark = plain_string(
            &benchmark,
            "a benchmark name as the tables print it, or \"*\"",
        )
        .map_err(|b| named("benchmark", b))?;
        let processes = c
            .processes
            .as_ref()
            .map(|p| {
                whole(p, 1, "a process count, 1 or more")
                    .map(|n| n as usize)
                    .map_err(|b| named("processes", b))
            })
            .transpose()?;
        let mode = c
            .mode
            .as_ref()
            .map(|m| {
                plain_string(m, "AGGREGATE or NON-AGGREGATE")
                    .and_then(|s| {
                        if matches!(s.as_str(), "AGGREGATE" | "NON-AGGREGATE") {
                            Ok(s)
                        } else {
                            Err((m.span().start, format!("{s:?}: AGGREGATE or NON-AGGREGATE")))
                        }
                    })
                    .map_err(|b| named("mode", b))
            })
            .transpose()?;
        let metric_name = plain_string(
            &metric_doc,
            "t, t_avg, t_min, t_max, mbytes, t_ovrl, t_pure or msg_per_s",
        )
        .map_err(|b| named("metric", b))?;
        let metric = Metric::parse(&metric_name)
            .map_err(|m| err(metric_doc.span().start, format!("metric {m}")))?;
        let reference = match reference.get_ref() {
            toml::Value::String(s) if s == "baseline" => Reference::Baseline,
            _ => {
                let (lo, hi) = REFERENCE_RANGE;
                let want = "a number from 0.000001 to 1e12 in the metric's unit (tolerances are \
                            fractions of it), or \"baseline\"";
                match number(&reference, want) {
                    Ok((x, _)) if (lo..=hi).contains(&x) => Reference::Value(x),
                    Ok((_, x)) => {
                        return Err(err(
                            reference.span().start,
                            format!("reference: {want}, not {x}"),
                        ))
                    }
                    Err(b) => return Err(named("reference", b)),
                }
            }
        };
        let statistic = match &c.statistic {
            None => Statistic::Median,
            Some(st) => {
                let s = plain_string(st, "median, min, max or p1 to p99")
                    .map_err(|b| named("statistic", b))?;
                Statistic::parse(&s).map_err(|m| err(st.span().start, format!("statistic {m}")))?
            }
        };
        if matches!(statistic, Statistic::Min | Statistic::Max) && reference == Reference::Baseline
        {
            let at = c.statistic.as_ref().map_or(header, |s| s.span().start);
            return Err(err(
                at,
                format!(
                    "statistic {:?} against \"baseline\": one extreme launch of each run decides, \
                     and no interval can say whether it is a change or launch noise; use \
                     \"median\" or a percentile (p1 to p99) against the baseline, or a number as \
                     the reference",
                    statistic.key()
                ),
            ));
        }
        let bytes = match &c.bytes {
            None => None,
            Some(b) => {
                let want = "[smallest, largest], smallest not above largest";
                let pair = match b.get_ref() {
                    toml::Value::Array(a) => a.clone(),
                    other => {
                        return Err(err(
                            b.span().start,
                            format!("bytes: [smallest, largest], not {}", kind(other)),
                        ))
                    }
                };
                let sizes: Vec<u64> = pair
                    .iter()
                    .map(|v| match v {
                        toml::Value::Integer(x) if *x >= 0 => Ok(*x as u64),
                        toml::Value::Integer(x) => Err(format!("a size is 0 or more, not {x}")),
                        other => Err(format!("a size is a whole number, not {}", kind(other))),
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|m| err(b.span().start, format!("bytes: {m}")))?;
                match sizes.as_slice() {
                    [lo, hi] if lo <= hi => Some((*lo, *hi)),
                    _ => return Err(err(b.span().start, format!("bytes: {want}"))),
                }
            }
        };
        // A ratio is never below 0, so a lower tolerance of -1 or less could never fail; an
        // upper one beyond a million times the reference is no bound either. -0 is 0, and is
        // printed so.
        let tol = |t: &Option<Spanned<toml::Value>>, name: &str, sign: f64| {
            let Some(v) = t else { return Ok(None) };
            let want = if sign < 0.0 {
                "a fraction of the reference, 0 or below and above -1 (e.g. -0.1)"
            } else {
                "a fraction of the reference, 0 or above, at most 1000000 (e.g. 0.1)"
            };
            match number(v, want) {
                Ok((x, _)) if x * sign >= 0.0 && x.is_finite() && x > -1.0 && x <= 1e6 => {
                    Ok(Some(x + 0.0))
                }
                Ok((_, x)) => Err(err(v.span().start, format!("{name}: {want}, not {x}"))),
                Err(b) => Err(named(name, b)),
            }
        };
        let (lower, upper) = (tol(&c.lower, "lower", -1.0)?, tol(&c.upper, "upper", 1.0)?);
        if lower.is_none() && upper.is_none() {
            return Err(err(
                metric_doc.span().start,
                "neither lower nor upper: the criterion could never fail".to_string(),
            ));
        }
        let name_given = name.is_some();
        let name = name.unwrap_or_else(|| {
            let mut n = format!("{benchmark} {metric_name}");
            if let Some(p) = processes {
                n.push_str(&format!(" np={p}"));
            }
            if let Some((lo, hi)) = bytes {
                n.push_str(&format!(" {lo}..{hi} bytes"));
            }
            n
        });
        // Two criteria of one name would be one test case in JUnit and one row in a report.
        if let Some(first) = names.insert(name.clone(), line) {
            let msg = format!(
                "name {name:?} is the criterion's of line {first} too: give each its own name"
            );
            return Err(match (&c.name, name_given) {
                (Some(n), true) => err(n.span().start, msg),
                _ => err(header, msg),
            });
        }
        let criterion = Criterion {
            name,
            benchmark,
            processes,
            mode,
            bytes,
            metric,
            statistic,
            reference,
            lower,
            upper,
            line,
        };
        // Two criteria that check the same thing under two names count twice in the file's
        // chance of a false FAIL and print one verdict twice.
        if let Some(first) = checks.insert(criterion.check_key(), line) {
            return Err(err(
                header,
                format!(
                    "the criterion of line {first} checks the same (benchmark, processes, mode, \
                     bytes, metric, statistic, reference and bounds): keep one"
                ),
            ));
        }
        out.push(criterion);
    }
    Ok(out)
}

impl Criterion {
    /// What the criterion checks, its name and line aside: equal for two criteria that are one
    /// test.
    fn check_key(&self) -> String {
        let bound = |b: Option<f64>| b.map(f64::to_bits);
        let reference = match self.reference {
            Reference::Value(x) => Some(x.to_bits()),
            Reference::Baseline => None,
        };
        format!(
            "{:?}",
            (
                &self.benchmark,
                self.processes,
                &self.mode,
                self.bytes,
                self.metric,
                self.statistic.key(),
                reference,
                bound(self.lower),
                bound(self.upper),
            )
        )
    }
}

/// The tests a references file makes that can be wrong by chance: one per bound of each
/// criterion, except a `min` or `max` against a number, which is exact (the best launch reached
/// the figure, or did not). At least 1.
pub fn tests_in(criteria: &[Criterion]) -> usize {
    criteria
        .iter()
        .filter(|c| {
            !(matches!(c.statistic, Statistic::Min | Statistic::Max)
                && matches!(c.reference, Reference::Value(_)))
        })
        .map(|c| usize::from(c.lower.is_some()) + usize::from(c.upper.is_some()))
        .sum::<usize>()
        .max(1)
}

/// A confidence in percent as given, "95", "99.9": `{:.0}` printed 0.999 as "100", an
/// interval no finite number of launches has.
pub fn percent(confidence: f64) -> String {
    let p = format!("{:.6}", 100.0 * confidence);
    p.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The chance of any false FAIL over a whole references file at `confidence`: one tail of its
/// intervals, 2.5 % at 95 % (doc/ACCEPTANCE.md, "The rule").
pub fn false_fail_rate(confidence: f64) -> f64 {
    // Rounded to 12 places: 1 - 0.95 is 0.05000000000000004 in binary, and a report that
    // prints 0.025000000000000022 reads as a different rate.
    ((1.0 - confidence) / 2.0 * 1e12).round() / 1e12
}

/// What the user accepts on purpose: figures the program flagged, oversubscribed or cut-short
/// runs, and differences of conditions by kind.
#[derive(Debug, Clone, Default)]
pub struct Acceptance {
    pub flagged: bool,
    pub oversubscribed: bool,
    pub incomplete: bool,
    pub differences: BTreeSet<Kind>,
    /// Conditions judged although a run does not record them (`--accept-unrecorded`): a text
    /// baseline of IMB 3.0 has no MPI library and no hosts.
    pub unrecorded: BTreeSet<Kind>,
}

#[cfg(test)]
impl Acceptance {
    /// What runs built from IMB 3.0 text (the unit tests' launches) need to be judged against
    /// each other: they record no MPI library, no placement and no binding.
    pub(crate) fn text_runs() -> Acceptance {
        Acceptance {
            unrecorded: [Kind::Mpi, Kind::Placement, Kind::Binding].into(),
            ..Acceptance::default()
        }
    }
}

/// A criterion's (or a size's) verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Pass,
    /// The figures cannot decide: an interval straddles a bound, the launches are too few, or
    /// a row or run is not a measurement. Rerun (with more launches).
    Inconclusive,
    Fail,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Inconclusive => "INCONCLUSIVE",
            Verdict::Fail => "FAIL",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Fail => "fail",
        }
    }
}

/// Why a size or a criterion got its verdict other than by its interval: a code for machines
/// (`conditions`, `oversubscribed`, `cut-short`, `no-rows`, `no-baseline`, `not-in-baseline`,
/// `flagged`, `no-figure`, `zero-reference`, `no-interval`, `straddles`) and words.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason {
    pub code: &'static str,
    pub text: String,
}

fn reason(code: &'static str, text: String) -> Option<Reason> {
    Some(Reason { code, text })
}

/// One size a criterion covers.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeCheck {
    pub table: TableKey,
    pub group: Option<u64>,
    pub bytes: Option<u64>,
    /// The criterion's statistic of the new run's launches, and of the baseline's (or the
    /// number).
    pub value: Option<f64>,
    pub reference: Option<f64>,
    /// value / reference.
    pub ratio: Option<f64>,
    /// The interval of the ratio at the confidence; a point for `min` and `max`.
    pub interval: Option<(f64, f64)>,
    /// How far inside its bounds the interval's far end lies, as a fraction of the
    /// reference; negative: beyond.
    pub margin: Option<f64>,
    /// `None`: left out (a zero reference, or a row without a figure accepted on purpose).
    pub verdict: Option<Verdict>,
    pub reason: Option<Reason>,
}

/// One criterion held against one new run.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub criterion: Criterion,
    pub side: String,
    pub verdict: Verdict,
    /// Set when the criterion was decided before any figure (conditions, oversubscription, a
    /// run cut short, no rows).
    pub blocked: Option<Reason>,
    pub sizes: Vec<SizeCheck>,
    /// Launches of the new run and of the baseline (0: no baseline used).
    pub launches: (usize, usize),
    /// Every difference of conditions between the runs judged; those in `accepted` were
    /// accepted by name.
    pub differences: Vec<Difference>,
    pub accepted: Vec<Difference>,
    pub confidence: f64,
    /// The tests of the whole references file (see [`tests_in`]): each bound of this criterion
    /// is shown beyond only at `false_fail_rate(confidence) / tests`.
    pub tests: usize,
}

fn pct(x: f64) -> String {
    format!("{:+.1} %", 100.0 * x)
}

/// A size's place in words: "8 bytes", "8 bytes np=4", "the row group 1".
pub fn size_text(s: &SizeCheck, c: &Criterion) -> String {
    let mut at = s
        .bytes
        .map_or("the row".to_string(), |b| format!("{b} bytes"));
    if let (Some(p), None) = (s.table.processes, c.processes) {
        at.push_str(&format!(" np={p}"));
    }
    if c.benchmark == "*" {
        at = format!("{} {at}", s.table.benchmark);
    }
    if let Some(g) = s.group {
        at.push_str(&format!(" group {g}"));
    }
    at
}

impl Outcome {
    pub fn pass(&self) -> bool {
        self.verdict == Verdict::Pass
    }

    /// The sizes that decided the verdict.
    pub fn judged(&self) -> impl Iterator<Item = &SizeCheck> {
        self.sizes.iter().filter(|s| s.verdict.is_some())
    }

    /// The size that came closest to (or went furthest beyond) a bound: the most severe
    /// verdict, then the smallest margin (no interval counts as the smallest).
    pub fn worst(&self) -> Option<&SizeCheck> {
        self.judged().max_by(|a, b| {
            a.verdict.cmp(&b.verdict).then_with(|| {
                let m = |s: &SizeCheck| s.margin.unwrap_or(f64::NEG_INFINITY);
                m(b).total_cmp(&m(a))
            })
        })
    }

    /// The bounds in words, "unbounded..+25.0 %".
    pub fn bounds(&self) -> String {
        let side = |t: Option<f64>| t.map_or("unbounded".to_string(), pct);
        format!(
            "{}..{}",
            side(self.criterion.lower),
            side(self.criterion.upper)
        )
    }

    fn against(&self) -> String {
        match self.criterion.reference {
            Reference::Value(r) => format!("{r}"),
            Reference::Baseline => "the baseline".to_string(),
        }
    }

    /// "1024 bytes: ratio 1.080 (1.020..1.150)"; a reason other than the interval's in its
    /// words.
    pub fn size_line(&self, s: &SizeCheck) -> String {
        let at = size_text(s, &self.criterion);
        let code = s.reason.as_ref().map(|r| r.code);
        match (&s.reason, s.ratio, s.interval) {
            (Some(r), _, _)
                if !matches!(code, Some("straddles" | "no-interval" | "beyond-alone")) =>
            {
                format!("{at}: {}", r.text)
            }
            (_, Some(q), Some((lo, hi))) if lo == hi => format!("{at}: ratio {q:.3}"),
            (_, Some(q), Some((lo, hi))) => format!("{at}: ratio {q:.3} ({lo:.3}..{hi:.3})"),
            (_, Some(q), None) => format!("{at}: ratio {q:.3}"),
            _ => at,
        }
    }

    /// Why the undecided sizes are undecided, counted by reason: "no 95 % interval from 1
    /// and 1 launches (4 a side needed) at 8 sizes".
    fn undecided_why(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let undecided: Vec<&SizeCheck> = self
            .judged()
            .filter(|s| s.verdict == Some(Verdict::Inconclusive))
            .collect();
        for (code, words) in [
            ("no-interval", ""),
            ("straddles", "an interval across a bound"),
            ("beyond-alone", ""),
            ("flagged", "a row the program flagged"),
            ("no-figure", "a row without a figure"),
            ("zero-figure", "a zero where a figure belongs"),
        ] {
            let these: Vec<&&SizeCheck> = undecided
                .iter()
                .filter(|s| s.reason.as_ref().map(|r| r.code) == Some(code))
                .collect();
            if these.is_empty() {
                continue;
            }
            let words = match (code, these[0].reason.as_ref()) {
                ("beyond-alone", Some(r)) => r.text.replace(" at this size alone", " alone"),
                ("no-interval", Some(r)) => r
                    .text
                    .split_once(", ")
                    .map_or(r.text.clone(), |(_, why)| why.to_string()),
                _ => words.to_string(),
            };
            parts.push(format!("{} at {} size(s)", words, these.len()));
        }
        parts.join("; ")
    }

    /// One line: what was checked, and why it passed, failed or could not be decided.
    pub fn detail(&self) -> String {
        if let Some(b) = &self.blocked {
            return b.text.clone();
        }
        let n = self.judged().count();
        let how = match self.criterion.statistic {
            Statistic::Min | Statistic::Max => format!(
                "the {} over {} launch(es), exact",
                self.criterion.statistic.key(),
                self.launches.0
            ),
            st => {
                let of = if self.launches.1 > 0 {
                    format!("{} and {} launches", self.launches.1, self.launches.0)
                } else {
                    format!("{} launch(es)", self.launches.0)
                };
                format!(
                    "{} % intervals of the {}, {of}",
                    percent(self.confidence),
                    st.key()
                )
            }
        };
        let left = self.sizes.len() - n;
        let left = if left > 0 {
            format!("; {left} size(s) left out")
        } else {
            String::new()
        };
        let worst = self.worst();
        match self.verdict {
            Verdict::Pass => {
                let w = worst.map_or(String::new(), |w| {
                    format!(
                        "; worst {}, margin {}",
                        self.size_line(w),
                        w.margin.map_or("-".into(), pct)
                    )
                });
                format!(
                    "{n} size(s) inside {} of {} ({how}){w}{left}",
                    self.bounds(),
                    self.against()
                )
            }
            v => {
                let mut bad: Vec<&SizeCheck> =
                    self.judged().filter(|s| s.verdict == Some(v)).collect();
                // The most telling first: rows that are no figure, then the furthest beyond.
                let rank = |s: &SizeCheck| match s.reason.as_ref().map(|r| r.code) {
                    Some("no-figure" | "zero-figure") => 0,
                    Some("flagged") => 1,
                    Some("not-in-baseline" | "not-in-new") => 2,
                    Some("straddles" | "beyond-alone") | None => 3,
                    _ => 4,
                };
                bad.sort_by(|a, b| {
                    rank(a).cmp(&rank(b)).then_with(|| {
                        let m = |s: &SizeCheck| s.margin.unwrap_or(0.0);
                        m(a).total_cmp(&m(b))
                    })
                });
                let shown: Vec<String> = bad.iter().take(4).map(|s| self.size_line(s)).collect();
                let more = if bad.len() > 4 {
                    format!("; {} more", bad.len() - 4)
                } else {
                    String::new()
                };
                if v == Verdict::Fail {
                    return format!(
                        "{} of {n} size(s) outside {} of {} ({how}): {}{more}{left}",
                        bad.len(),
                        self.bounds(),
                        self.against(),
                        shown.join("; ")
                    );
                }
                format!(
                    "{} of {n} size(s) undecided against {} of {} ({how}): {}: {}{more}{left}; \
                     rerun with more launches",
                    bad.len(),
                    self.bounds(),
                    self.against(),
                    self.undecided_why(),
                    shown.join("; ")
                )
            }
        }
    }
}

/// One side's launches for a metric, by (table, group, size): each launch's value with the
/// launch's index, and the flags. A size printed in place of a row has flags and no value.
type Figures = BTreeMap<(TableKey, Option<u64>, Option<u64>), (LaunchValues, Vec<Flag>)>;

fn figures(side: &Side, metric: Metric, world: &BTreeMap<String, usize>) -> Figures {
    let mut f = Figures::new();
    for (launch, run) in side.runs.iter().enumerate() {
        for t in &run.tables {
            let Some(col) = metric.column(t) else {
                continue;
            };
            let key = TableKey::of(t, world);
            let (bc, gc) = (t.column("bytes"), t.column("group"));
            // Each size's flags looked up once a table, not searched a row: a table of many
            // rows and as many notes stays linear.
            let mut flags: HashMap<Option<u64>, Vec<Flag>> = HashMap::new();
            for &(b, flag) in &t.flags {
                flags.entry(b).or_default().push(flag);
            }
            for row in &t.rows {
                let at = |c: Option<usize>| c.map(|c| row[c] as u64);
                let e = f.entry((key.clone(), at(gc), at(bc))).or_default();
                e.0.push((launch, row[col]));
                if let Some(fl) = flags.get(&at(bc)) {
                    e.1.extend_from_slice(fl);
                }
            }
            for &(bytes, flag) in t.flags.iter().filter(|(_, f)| !f.has_figure()) {
                f.entry((key.clone(), None, bytes))
                    .or_default()
                    .1
                    .push(flag);
            }
        }
    }
    f
}

/// One size's figures, each with the index of the launch that printed it.
type LaunchValues = Vec<(usize, f64)>;

fn plain(v: &[(usize, f64)]) -> Vec<f64> {
    v.iter().map(|&(_, x)| x).collect()
}

fn covers(c: &Criterion, key: &TableKey, bytes: Option<u64>) -> bool {
    let bench_ok = c.benchmark == "*" || c.benchmark == key.benchmark;
    let procs_ok = c.processes.is_none() || c.processes == key.processes;
    let mode_ok = c.mode.is_none() || c.mode.as_deref() == Some(key.mode.as_str());
    let bytes_ok = match (c.bytes, bytes) {
        (None, _) => true,
        (Some((lo, hi)), Some(b)) => (lo..=hi).contains(&b),
        (Some(_), None) => false,
    };
    bench_ok && procs_ok && mode_ok && bytes_ok
}

/// The interval of the ratio statistic(new) / reference for one size (the module's rule).
fn interval(
    st: Statistic,
    new: &[f64],
    base: Option<&[f64]>,
    reference: f64,
    confidence: f64,
) -> Option<(f64, f64)> {
    let point = |q: f64| Some((q, q));
    match (st, base) {
        (Statistic::Min | Statistic::Max, _) => point(st.of(new) / reference),
        (Statistic::Median, Some(b)) => crate::judge::stats::ratio_interval(new, b, confidence),
        (Statistic::Quantile(p), Some(b)) => {
            // Two independent intervals at sqrt(confidence) each hold together at confidence.
            let each = confidence.sqrt();
            let (nl, nh) = crate::judge::stats::quantile_interval(new, p, each)?;
            let (bl, bh) = crate::judge::stats::quantile_interval(b, p, each)?;
            (bl > 0.0).then(|| (nl / bh, nh / bl))
        }
        (Statistic::Median, None) => {
            let (l, h) = crate::judge::stats::quantile_interval(new, 0.5, confidence)?;
            Some((l / reference, h / reference))
        }
        (Statistic::Quantile(p), None) => {
            let (l, h) = crate::judge::stats::quantile_interval(new, p, confidence)?;
            Some((l / reference, h / reference))
        }
    }
}

/// Where an interval lies against the bounds 1 + lower .. 1 + upper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lies {
    Inside,
    /// Across a bound.
    Across,
    /// Wholly beyond a bound.
    Beyond,
}

/// Where `(lo, hi)` lies, and its margin: how far its far end lies inside the nearest bound.
fn lies(c: &Criterion, (lo, hi): (f64, f64)) -> (Lies, f64) {
    let mut margin = f64::INFINITY;
    let mut at = Lies::Inside;
    let mut worse = |l: Lies| {
        if l == Lies::Beyond || at == Lies::Inside {
            at = l;
        }
    };
    if let Some(u) = c.upper {
        let bound = 1.0 + u;
        margin = margin.min(bound - hi);
        if lo > bound {
            worse(Lies::Beyond);
        } else if hi > bound {
            worse(Lies::Across);
        }
    }
    if let Some(l) = c.lower {
        let bound = 1.0 + l;
        margin = margin.min(lo - bound);
        if hi < bound {
            worse(Lies::Beyond);
        } else if lo < bound {
            worse(Lies::Across);
        }
    }
    (at, margin)
}

/// Launch × size matrices of the sizes `cols` (NaN where a launch lacks a size), for the
/// family-wise test.
fn matrix(cols: &[&[(usize, f64)]], launches: usize) -> family::Launches {
    let mut m = vec![vec![f64::NAN; cols.len()]; launches];
    for (s, col) in cols.iter().enumerate() {
        for &(l, x) in col.iter() {
            if l < launches {
                m[l][s] = x;
            }
        }
    }
    m
}

/// The verdict of every size with an interval (the module's rule): FAIL when the criterion's
/// sizes taken together show one beyond a bound, PASS when its own interval lies inside,
/// INCONCLUSIVE otherwise. `values` holds each size's launches (new, base), `launches` the
/// launch counts (new, base).
fn decide(
    c: &Criterion,
    sizes: &mut [SizeCheck],
    values: &[(LaunchValues, LaunchValues)],
    launches: (usize, usize),
    tail: f64,
) {
    let idx: Vec<usize> = (0..sizes.len())
        .filter(|&i| sizes[i].interval.is_some())
        .collect();
    let k = idx.len();
    if k == 0 {
        return;
    }
    let beyond: Vec<bool> = match (c.statistic, c.reference) {
        // Against the baseline, the median: whole launches permuted (module family).
        (Statistic::Median, Reference::Baseline) => {
            let new_cols: Vec<&[(usize, f64)]> = idx.iter().map(|&i| &values[i].0[..]).collect();
            let base_cols: Vec<&[(usize, f64)]> = idx.iter().map(|&i| &values[i].1[..]).collect();
            let (n, b) = (
                matrix(&new_cols, launches.0),
                matrix(&base_cols, launches.1),
            );
            let mut out = vec![false; k];
            for (bound, side) in [
                (c.upper.map(|u| 1.0 + u), family::Side::Above),
                (c.lower.map(|l| 1.0 + l), family::Side::Below),
            ] {
                let Some(bound) = bound else {
                    continue;
                };
                for (o, p) in out.iter_mut().zip(family::adjusted(&n, &b, bound, side)) {
                    *o |= p <= tail * (1.0 + 1e-9);
                }
            }
            out
        }
        // An observed extreme is exact: beyond is beyond.
        (Statistic::Min | Statistic::Max, _) => idx
            .iter()
            .map(|&i| lies(c, sizes[i].interval.unwrap_or((1.0, 1.0))).0 == Lies::Beyond)
            .collect(),
        // Quantiles and numbers: each size's interval with tails of tail / k (Bonferroni).
        _ => {
            let wide = 1.0 - 2.0 * tail / k as f64;
            idx.iter()
                .map(|&i| {
                    let (new, base) = (plain(&values[i].0), plain(&values[i].1));
                    let base = (c.reference == Reference::Baseline).then_some(&base[..]);
                    let reference = sizes[i].reference.unwrap_or(f64::NAN);
                    interval(c.statistic, &new, base, reference, wide)
                        .is_some_and(|iv| lies(c, iv).0 == Lies::Beyond)
                })
                .collect()
        }
    };
    for (j, &i) in idx.iter().enumerate() {
        let s = &mut sizes[i];
        let (at, margin) = lies(c, s.interval.unwrap_or((f64::NAN, f64::NAN)));
        s.margin = Some(margin);
        // A FAIL needs both: the family's test, and the size's own printed interval wholly
        // beyond the bound, so that a FAIL line can never show an interval inside it.
        (s.verdict, s.reason) = match (beyond[j], at) {
            (true, Lies::Beyond) => (Some(Verdict::Fail), None),
            (_, Lies::Inside) => (Some(Verdict::Pass), None),
            (_, Lies::Across) => (
                Some(Verdict::Inconclusive),
                reason("straddles", "the interval straddles a bound".into()),
            ),
            (false, Lies::Beyond) => (
                Some(Verdict::Inconclusive),
                reason(
                    "beyond-alone",
                    format!(
                        "beyond a bound at this size alone, not with the criterion's {k} sizes \
                         and the file's other bounds taken together (each bound tested at {:.2} %)",
                        100.0 * tail
                    ),
                ),
            ),
        };
    }
}

/// What [`check_size`] found of one size: its figures and interval, or a verdict and the
/// reason when the figures cannot give one.
struct SizeFigures {
    value: Option<f64>,
    reference: Option<f64>,
    interval: Option<(f64, f64)>,
    verdict: Option<Verdict>,
    reason: Option<Reason>,
}

/// One size: the figures of both sides to an interval, or the reason there is none.
fn check_size(
    c: &Criterion,
    bytes: Option<u64>,
    (new, new_flags): (&[f64], &[Flag]),
    base: Option<(&[f64], &[Flag])>,
    acc: &Acceptance,
    confidence: f64,
) -> SizeFigures {
    let none = |verdict: Option<Verdict>, reason| SizeFigures {
        value: None,
        reference: None,
        interval: None,
        verdict,
        reason,
    };
    // A size printed in place of a row has no figure: nothing to judge, unless left out on
    // purpose.
    for (flags, who) in [
        (new_flags, "new"),
        (base.map_or(&[][..], |b| b.1), "baseline"),
    ] {
        if let Some(f) = flags.iter().find(|f| !f.has_figure()) {
            let text = format!("{} ({who}), no figure", f.name());
            return if acc.flagged {
                none(None, reason("no-figure", format!("{text}, left out")))
            } else {
                none(Some(Verdict::Inconclusive), reason("no-figure", text))
            };
        }
    }
    if !acc.flagged {
        for (flags, who) in [
            (new_flags, "new"),
            (base.map_or(&[][..], |b| b.1), "baseline"),
        ] {
            if let Some(f) = flags.first() {
                return none(
                    Some(Verdict::Inconclusive),
                    reason(
                        "flagged",
                        format!("{} ({who}), not a measurement", f.name()),
                    ),
                );
            }
        }
    }
    // A zero is no measurement where something was timed or moved: a time of 0 (below the
    // text's 0.01 µs, or edited), a bandwidth of 0 for bytes that moved. It would pass any
    // upper bound, or give no ratio; either way it must not decide. An empty message's
    // bandwidth is 0 by definition: left out.
    let flagged = !new_flags.is_empty() || base.is_some_and(|b| !b.1.is_empty());
    if !flagged {
        for (values, who) in [(new, "new"), (base.map_or(&[][..], |b| b.0), "baseline")] {
            let Some(at) = values.iter().position(|&x| x == 0.0) else {
                continue;
            };
            let what = if c.metric.higher_is_better() {
                if bytes == Some(0) {
                    return none(
                        None,
                        reason(
                            "zero-reference",
                            "no bandwidth at 0 bytes: no ratio, left out".into(),
                        ),
                    );
                }
                "a bandwidth of 0"
            } else {
                "a time of 0"
            };
            return none(
                Some(Verdict::Inconclusive),
                reason(
                    "zero-figure",
                    format!(
                        "{what} in launch {} of {} ({who}): not a measurement",
                        at + 1,
                        values.len()
                    ),
                ),
            );
        }
    }
    let value = c.statistic.of(new);
    let reference = match (c.reference, base) {
        (Reference::Value(r), _) => r,
        (Reference::Baseline, Some((b, _))) => c.statistic.of(b),
        (Reference::Baseline, None) => {
            return none(
                Some(Verdict::Fail),
                reason("not-in-baseline", "not in the baseline".into()),
            )
        }
    };
    if reference <= 0.0 {
        return SizeFigures {
            value: Some(value),
            reference: Some(reference),
            interval: None,
            verdict: None,
            reason: reason(
                "zero-reference",
                "zero in the baseline: no ratio, left out".into(),
            ),
        };
    }
    let base_values = match c.reference {
        Reference::Baseline => base.map(|b| b.0),
        Reference::Value(_) => None,
    };
    match interval(c.statistic, new, base_values, reference, confidence) {
        Some(iv) => SizeFigures {
            value: Some(value),
            reference: Some(reference),
            interval: Some(iv),
            verdict: None,
            reason: None,
        },
        None => {
            let launches = match base_values {
                Some(b) => format!("{} and {} launches", b.len(), new.len()),
                None => format!("{} launch(es)", new.len()),
            };
            let need = match (c.statistic, base_values) {
                (Statistic::Median, Some(_)) => {
                    format!(
                        "{} a side",
                        crate::judge::stats::launches_needed(confidence)
                    )
                }
                _ => "more".to_string(),
            };
            SizeFigures {
                value: Some(value),
                reference: Some(reference),
                interval: None,
                verdict: Some(Verdict::Inconclusive),
                reason: reason(
                    "no-interval",
                    format!(
                        "ratio {:.3}, no {} % interval from {launches} ({need} needed)",
                        value / reference,
                        percent(confidence)
                    ),
                ),
            }
        }
    }
}

/// The sizes the baseline measured and the new run did not, among those `c` covers, each with
/// the baseline's launches. Not a pass: named, and a FAIL (a shorter ladder is a narrower
/// criterion, `bytes`), unless the new run was cut short and what it has is judged on purpose.
fn not_in_new(
    c: &Criterion,
    fnew: &Figures,
    fbase: &Figures,
    new: &Side,
    acc: &Acceptance,
) -> Vec<(SizeCheck, LaunchValues)> {
    let cut_short = new.runs.iter().any(|r| r.status.cut_short().is_some());
    let mut out = Vec::new();
    for ((key, group, bytes), (vals, _)) in fbase {
        if vals.is_empty()
            || !covers(c, key, *bytes)
            || fnew.contains_key(&(key.clone(), *group, *bytes))
        {
            continue;
        }
        let (verdict, text) = if cut_short && acc.incomplete {
            (
                None,
                format!("not measured by {} (cut short), left out", new.label),
            )
        } else {
            (
                Some(Verdict::Fail),
                format!("in the baseline, not measured by {}", new.label),
            )
        };
        let size = SizeCheck {
            table: key.clone(),
            group: *group,
            bytes: *bytes,
            value: None,
            reference: None,
            ratio: None,
            interval: None,
            margin: None,
            verdict,
            reason: reason("not-in-new", text),
        };
        out.push((size, vals.clone()));
    }
    out
}

/// Why the judged runs cannot be compared: the conditions some of them do not record and the
/// user did not accept (`--accept-unrecorded`), one phrase a condition naming every run that
/// lacks it, in the report's order.
fn unrecorded(judged: &[(&Side, &str)], acc: &Acceptance) -> Option<Reason> {
    let mut missing: Vec<(Kind, &'static str, &str)> = Vec::new();
    for (s, _) in judged {
        for (kind, what) in conditions::unrecorded_by(s) {
            if !acc.unrecorded.contains(&kind) {
                missing.push((kind, what, s.label.as_str()));
            }
        }
    }
    let mut kinds: Vec<Kind> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for (kind, what, _) in &missing {
        if kinds.contains(kind) {
            continue;
        }
        kinds.push(*kind);
        let who: Vec<&str> = missing
            .iter()
            .filter(|m| m.0 == *kind)
            .map(|m| m.2)
            .collect();
        texts.push(format!("{what} not recorded by {}", who.join(", ")));
    }
    if kinds.is_empty() {
        return None;
    }
    let kinds: Vec<&str> = kinds.iter().map(|k| k.key()).collect();
    reason(
        "unrecorded",
        format!(
            "{}: unknown is not equal (keep -json files with provenance, or --accept-unrecorded \
             {} judges them anyway)",
            texts.join("; "),
            kinds.join(",")
        ),
    )
}

/// Hold `c` against `new` (and `base` where its reference is the baseline).
///
/// `tests` is the number of tests of the whole references file ([`tests_in`]): the file's
/// chance of a false FAIL is split among them.
pub fn evaluate(
    c: &Criterion,
    base: Option<&Side>,
    new: &Side,
    acc: &Acceptance,
    confidence: f64,
    tests: usize,
) -> Outcome {
    let base = base.filter(|_| c.reference == Reference::Baseline);
    let mut out = Outcome {
        criterion: c.clone(),
        side: new.label.clone(),
        verdict: Verdict::Fail,
        blocked: None,
        sizes: Vec::new(),
        launches: (new.runs.len(), base.map_or(0, |b| b.runs.len())),
        differences: Vec::new(),
        accepted: Vec::new(),
        confidence,
        tests: tests.max(1),
    };
    let block = |mut o: Outcome, v: Verdict, r: Option<Reason>| {
        o.verdict = v;
        o.blocked = r;
        o
    };
    if c.reference == Reference::Baseline && base.is_none() {
        return block(
            out,
            Verdict::Fail,
            reason(
                "no-baseline",
                "reference \"baseline\" but no BASE given".into(),
            ),
        );
    }
    let mut judged: Vec<(&Side, &str)> = vec![(new, "new")];
    judged.extend(base.map(|b| (b, "base")));
    let mut sides: Vec<&Side> = vec![new];
    sides.extend(base);
    let world = world_counts(&sides);
    let fnew = figures(new, c.metric, &world);
    let fbase = base
        .map(|b| figures(b, c.metric, &world))
        .unwrap_or_default();
    let keys: BTreeSet<&TableKey> = fnew
        .keys()
        .filter(|(k, _, b)| covers(c, k, *b))
        .map(|(k, ..)| k)
        .collect();

    // Comparable first: every difference of conditions between the runs judged, and among
    // each run's launches, on the tables this criterion covers.
    let (a, b) = match base {
        Some(b) => ((b, "base"), (new, "new")),
        None => ((new, "new"), (new, "new")),
    };
    let mut diffs = if base.is_some() {
        conditions::run_differences(a, b)
    } else {
        conditions::side_differences(a)
    };
    let (pa, pb) = (
        conditions::Placements::of(a.0, &world),
        conditions::Placements::of(b.0, &world),
    );
    for k in &keys {
        if base.is_some() {
            diffs.extend(conditions::table_differences(
                k,
                (a.0, a.1, &pa),
                (b.0, b.1, &pb),
            ));
        } else {
            diffs.extend(conditions::table_side_differences(k, (a.0, a.1, &pa)));
        }
    }
    diffs.sort();
    diffs.dedup();
    let (accepted, refused): (Vec<Difference>, Vec<Difference>) = diffs
        .iter()
        .cloned()
        .partition(|d| acc.differences.contains(&d.kind));
    out.differences = diffs;
    out.accepted = accepted;
    if !refused.is_empty() {
        let mut kinds: Vec<&str> = refused.iter().map(|d| d.kind.key()).collect();
        kinds.dedup();
        let texts: Vec<&str> = refused.iter().map(|d| d.text.as_str()).collect();
        return block(
            out,
            Verdict::Fail,
            reason(
                "conditions",
                format!(
                    "conditions differ: {} (not comparable; --accept-difference {} judges them \
                     anyway)",
                    texts.join("; "),
                    kinds.join(",")
                ),
            ),
        );
    }
    if !acc.oversubscribed {
        let over = judged.iter().find_map(|(s, _)| {
            s.runs
                .iter()
                .find_map(|r| r.oversubscribed.clone())
                .map(|w| (s, w))
        });
        if let Some((s, why)) = over {
            return block(
                out,
                Verdict::Fail,
                reason(
                    "oversubscribed",
                    format!(
                        "{} ran oversubscribed ({}): its times measure the scheduler \
                         (--accept-oversubscribed judges them anyway)",
                        s.label,
                        why.split(" (oversubscribed)").next().unwrap_or(&why)
                    ),
                ),
            );
        }
    }
    // Unknown is not equal: against a baseline, a condition that a run does not record could
    // differ unseen. Judged only when accepted by name.
    if base.is_some() {
        if let Some(why) = unrecorded(&judged, acc) {
            return block(out, Verdict::Inconclusive, Some(why));
        }
    }
    if !acc.incomplete {
        let cut = judged.iter().find_map(|(s, _)| {
            s.runs
                .iter()
                .zip(&s.files)
                .find_map(|(r, f)| r.status.cut_short().map(|w| (f.clone(), w.to_string())))
                .or_else(|| {
                    s.runs.iter().find_map(|r| {
                        r.status
                            .cut_short()
                            .map(|w| (s.label.clone(), w.to_string()))
                    })
                })
        });
        if let Some((file, why)) = cut {
            return block(
                out,
                Verdict::Inconclusive,
                reason(
                    "cut-short",
                    format!(
                        "{file} was cut short ({why}): its figures are not a whole run \
                         (--accept-incomplete judges what it has)"
                    ),
                ),
            );
        }
    }
    let mut values = Vec::new();
    for ((key, group, bytes), (vals, flags)) in &fnew {
        if !covers(c, key, *bytes) {
            continue;
        }
        let b = fbase.get(&(key.clone(), *group, *bytes));
        let (nv, bv) = (plain(vals), b.map(|b| plain(&b.0)).unwrap_or_default());
        let SizeFigures {
            value,
            reference,
            interval: iv,
            verdict,
            reason: why,
        } = check_size(
            c,
            *bytes,
            (&nv, flags),
            b.map(|b| (&bv[..], &b.1[..])),
            acc,
            confidence,
        );
        out.sizes.push(SizeCheck {
            table: key.clone(),
            group: *group,
            bytes: *bytes,
            value,
            reference,
            ratio: value.zip(reference).map(|(v, r)| v / r),
            interval: iv,
            margin: None,
            verdict,
            reason: why,
        });
        values.push((vals.clone(), b.map(|b| b.0.clone()).unwrap_or_default()));
    }
    for (size, base_values) in not_in_new(c, &fnew, &fbase, new, acc) {
        out.sizes.push(size);
        values.push((Vec::new(), base_values));
    }
    let tail = false_fail_rate(confidence) / out.tests as f64;
    decide(c, &mut out.sizes, &values, out.launches, tail);
    if out.sizes.is_empty() {
        return block(
            out,
            Verdict::Fail,
            reason(
                "no-rows",
                format!("no row of {} matches the criterion", new.label),
            ),
        );
    }
    out.verdict = match out.judged().map(|s| s.verdict).max().flatten() {
        Some(v) => v,
        // Every size left out: nothing was shown to hold.
        None => {
            out.blocked = reason("no-rows", "no size it covers has a figure to judge".into());
            Verdict::Fail
        }
    };
    out
}

#[cfg(test)]
mod tests;
