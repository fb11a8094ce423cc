//! Reading a references file (`--references FILE.toml`, doc/ACCEPTANCE.md): every key checked
//! here, so that every error names the file, the line and the key.

use super::criterion::{Criterion, Reference, Statistic};
use crate::error::Error;
use crate::read::key::Metric;
use serde::Deserialize;
use std::collections::HashMap;
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
    let r = Reader {
        file,
        lines: LineStarts::new(text),
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
        r.err(at, msg)
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
        let line = r.lines.line_of(header);
        let c = c.into_inner();
        let criterion = r.criterion(&c, header, line, &mut names)?;
        // Two criteria that check the same thing under two names count twice in the file's
        // chance of a false FAIL and print one verdict twice.
        if let Some(first) = checks.insert(criterion.check_key(), line) {
            return Err(r.err(
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

/// A references file being read: its name and where its lines start, for errors.
struct Reader<'a> {
    file: &'a str,
    lines: LineStarts,
}

impl Reader<'_> {
    /// An error at byte `at`, naming the file and the line.
    fn err(&self, at: usize, msg: String) -> Error {
        Error::Line {
            file: self.file.to_string(),
            line: self.lines.line_of(at),
            msg,
        }
    }

    /// A value's problem, with its key named.
    fn named(&self, key: &str, (at, msg): Bad) -> Error {
        self.err(at, format!("{key}: {msg}"))
    }

    /// One `[[criterion]]` (its header at byte `header`, on `line`), its name not one of
    /// `names` (each with its line).
    fn criterion(
        &self,
        c: &CritDoc,
        header: usize,
        line: usize,
        names: &mut HashMap<String, usize>,
    ) -> Result<Criterion, Error> {
        let required = |key: &str, v: &Option<Spanned<toml::Value>>| {
            v.clone().ok_or_else(|| {
                self.err(
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
            .map(|n| plain_string(n, "a string of its own").map_err(|b| self.named("name", b)))
            .transpose()?;
        let benchmark = plain_string(
            &benchmark,
            "a benchmark name as the tables print it, or \"*\"",
        )
        .map_err(|b| self.named("benchmark", b))?;
        let processes = c
            .processes
            .as_ref()
            .map(|p| {
                whole(p, 1, "a process count, 1 or more")
                    .map(|n| n as usize)
                    .map_err(|b| self.named("processes", b))
            })
            .transpose()?;
        let mode = c.mode.as_ref().map(|m| self.mode(m)).transpose()?;
        let metric_name = plain_string(
            &metric_doc,
            "t, t_avg, t_min, t_max, mbytes, t_ovrl, t_pure or msg_per_s",
        )
        .map_err(|b| self.named("metric", b))?;
        let metric = Metric::parse(&metric_name)
            .map_err(|m| self.err(metric_doc.span().start, format!("metric {m}")))?;
        let reference = self.reference(&reference)?;
        let statistic = self.statistic(c, header, reference)?;
        let bytes = c.bytes.as_ref().map(|b| self.bytes(b)).transpose()?;
        let (lower, upper) = (
            self.tolerance(&c.lower, "lower", -1.0)?,
            self.tolerance(&c.upper, "upper", 1.0)?,
        );
        if lower.is_none() && upper.is_none() {
            return Err(self.err(
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
                (Some(n), true) => self.err(n.span().start, msg),
                _ => self.err(header, msg),
            });
        }
        Ok(Criterion {
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
        })
    }

    /// `mode`: AGGREGATE or NON-AGGREGATE.
    fn mode(&self, m: &Spanned<toml::Value>) -> Result<String, Error> {
        plain_string(m, "AGGREGATE or NON-AGGREGATE")
            .and_then(|s| {
                if matches!(s.as_str(), "AGGREGATE" | "NON-AGGREGATE") {
                    Ok(s)
                } else {
                    Err((m.span().start, format!("{s:?}: AGGREGATE or NON-AGGREGATE")))
                }
            })
            .map_err(|b| self.named("mode", b))
    }

    /// `reference`: "baseline", or a number in [`REFERENCE_RANGE`].
    fn reference(&self, reference: &Spanned<toml::Value>) -> Result<Reference, Error> {
        Ok(match reference.get_ref() {
            toml::Value::String(s) if s == "baseline" => Reference::Baseline,
            _ => {
                let (lo, hi) = REFERENCE_RANGE;
                let want = "a number from 0.000001 to 1e12 in the metric's unit (tolerances are \
                            fractions of it), or \"baseline\"";
                match number(reference, want) {
                    Ok((x, _)) if (lo..=hi).contains(&x) => Reference::Value(x),
                    Ok((_, x)) => {
                        return Err(self.err(
                            reference.span().start,
                            format!("reference: {want}, not {x}"),
                        ))
                    }
                    Err(b) => return Err(self.named("reference", b)),
                }
            }
        })
    }

    /// `statistic` (the median when not given); an extreme launch only against a number.
    fn statistic(
        &self,
        c: &CritDoc,
        header: usize,
        reference: Reference,
    ) -> Result<Statistic, Error> {
        let statistic = match &c.statistic {
            None => Statistic::Median,
            Some(st) => {
                let s = plain_string(st, "median, min, max or p1 to p99")
                    .map_err(|b| self.named("statistic", b))?;
                Statistic::parse(&s)
                    .map_err(|m| self.err(st.span().start, format!("statistic {m}")))?
            }
        };
        if matches!(statistic, Statistic::Min | Statistic::Max) && reference == Reference::Baseline
        {
            let at = c.statistic.as_ref().map_or(header, |s| s.span().start);
            return Err(self.err(
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
        Ok(statistic)
    }

    /// `bytes`: [smallest, largest].
    fn bytes(&self, b: &Spanned<toml::Value>) -> Result<(u64, u64), Error> {
        let want = "[smallest, largest], smallest not above largest";
        let pair = match b.get_ref() {
            toml::Value::Array(a) => a.clone(),
            other => {
                return Err(self.err(
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
            .map_err(|m| self.err(b.span().start, format!("bytes: {m}")))?;
        match sizes.as_slice() {
            [lo, hi] if lo <= hi => Ok((*lo, *hi)),
            _ => Err(self.err(b.span().start, format!("bytes: {want}"))),
        }
    }

    /// `lower` (`sign` -1) or `upper` (+1). A ratio is never below 0, so a lower tolerance of
    /// -1 or less could never fail; an upper one beyond a million times the reference is no
    /// bound either. -0 is 0, and is printed so.
    fn tolerance(
        &self,
        t: &Option<Spanned<toml::Value>>,
        name: &str,
        sign: f64,
    ) -> Result<Option<f64>, Error> {
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
            Ok((_, x)) => Err(self.err(v.span().start, format!("{name}: {want}, not {x}"))),
            Err(b) => Err(self.named(name, b)),
        }
    }
}
