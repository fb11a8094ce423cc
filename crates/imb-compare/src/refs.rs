//! Acceptance criteria (`--references FILE.toml`), in ReFrame's manner: per benchmark (or `*`),
//! process count and size range, a metric, a reference (a number, or the baseline's own figure
//! at the same size) and lower and upper tolerances as fractions of the reference. The file's
//! layout is in doc/ACCEPTANCE.md; `settings/acceptance.toml` is an example.

use crate::agree::{world_counts, Metric, TableKey};
use crate::error::Error;
use crate::imbtext::Flag;
use crate::sides::Side;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    #[serde(default)]
    criterion: Vec<Spanned<CritDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CritDoc {
    name: Option<String>,
    benchmark: String,
    processes: Option<usize>,
    mode: Option<String>,
    bytes: Option<Spanned<Vec<u64>>>,
    metric: Spanned<String>,
    reference: Spanned<toml::Value>,
    lower: Option<Spanned<f64>>,
    upper: Option<Spanned<f64>>,
}

/// What a criterion's figure is held against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    Value(f64),
    Baseline,
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
    pub reference: Reference,
    /// Allowed deviation as fractions of the reference: `lower` ≤ 0 ≤ `upper`; `None` is
    /// unbounded on that side.
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// The line of its `[[criterion]]` header, for messages.
    pub line: usize,
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Read a references file. Every error names the file and the line.
pub fn parse(file: &str, text: &str) -> Result<Vec<Criterion>, Error> {
    let err = |at: usize, msg: String| Error::Line {
        file: file.to_string(),
        line: line_of(text, at),
        msg,
    };
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        // toml's message may run over lines; ours is one.
        let msg: Vec<&str> = e.message().lines().map(str::trim).collect();
        err(at, msg.join(": "))
    })?;
    if doc.criterion.is_empty() {
        return Err(Error::File {
            file: file.to_string(),
            msg: "no [[criterion]] in it".to_string(),
        });
    }
    let mut out = Vec::new();
    for c in doc.criterion {
        let line = line_of(text, c.span().start);
        let c = c.into_inner();
        let metric = Metric::parse(c.metric.get_ref())
            .map_err(|m| err(c.metric.span().start, format!("metric {m}")))?;
        let reference = match c.reference.get_ref() {
            toml::Value::String(s) if s == "baseline" => Reference::Baseline,
            toml::Value::Float(x) if x.is_finite() && *x >= 0.0 => Reference::Value(*x),
            toml::Value::Integer(x) if *x >= 0 => Reference::Value(*x as f64),
            _ => {
                return Err(err(
                    c.reference.span().start,
                    "reference: a number not below 0, or \"baseline\"".to_string(),
                ))
            }
        };
        let bytes = match &c.bytes {
            None => None,
            Some(b) => match b.get_ref().as_slice() {
                [lo, hi] if lo <= hi => Some((*lo, *hi)),
                _ => {
                    return Err(err(
                        b.span().start,
                        "bytes: [smallest, largest], smallest not above largest".to_string(),
                    ))
                }
            },
        };
        let tol = |t: &Option<Spanned<f64>>, name: &str, sign: f64| match t {
            None => Ok(None),
            Some(v) if v.get_ref() * sign >= 0.0 && v.get_ref().is_finite() => {
                Ok(Some(*v.get_ref()))
            }
            Some(v) => Err(err(
                v.span().start,
                format!(
                    "{name}: a fraction of the reference, {} (e.g. {})",
                    if sign < 0.0 {
                        "0 or below"
                    } else {
                        "0 or above"
                    },
                    if sign < 0.0 { "-0.1" } else { "0.1" }
                ),
            )),
        };
        let (lower, upper) = (tol(&c.lower, "lower", -1.0)?, tol(&c.upper, "upper", 1.0)?);
        if lower.is_none() && upper.is_none() {
            return Err(err(
                c.metric.span().start,
                "neither lower nor upper: the criterion could never fail".to_string(),
            ));
        }
        let name = c.name.unwrap_or_else(|| {
            let mut n = format!("{} {}", c.benchmark, c.metric.get_ref());
            if let Some(p) = c.processes {
                n.push_str(&format!(" np={p}"));
            }
            if let Some((lo, hi)) = bytes {
                n.push_str(&format!(" {lo}..{hi} bytes"));
            }
            n
        });
        out.push(Criterion {
            name,
            benchmark: c.benchmark,
            processes: c.processes,
            mode: c.mode,
            bytes,
            metric,
            reference,
            lower,
            upper,
            line,
        });
    }
    Ok(out)
}

/// Whether a flagged row or an oversubscribed run may still decide a criterion.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lenience {
    pub flagged: bool,
    pub oversubscribed: bool,
}

/// One criterion held against one new run.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub criterion: String,
    pub side: String,
    pub pass: bool,
    /// One line: what was checked and, on failure, why.
    pub detail: String,
    /// The sizes checked.
    pub checked: usize,
}

fn pct(x: f64) -> String {
    format!("{:+.1} %", 100.0 * x)
}

fn bounds(c: &Criterion) -> String {
    let side = |t: Option<f64>| t.map_or("unbounded".to_string(), pct);
    format!("{}..{}", side(c.lower), side(c.upper))
}

fn size(b: Option<u64>) -> String {
    b.map_or("the row".to_string(), |b| format!("{b} bytes"))
}

/// Each side's (table, row) → (median over launches, flags) for one metric.
type Figures = BTreeMap<(TableKey, Option<u64>, Option<u64>), (Vec<f64>, Vec<Flag>)>;

fn figures(side: &Side, metric: Metric, world: &BTreeMap<String, usize>) -> Figures {
    let mut f = Figures::new();
    for t in side.runs.iter().flat_map(|r| &r.tables) {
        let Some(col) = metric.column(t) else {
            continue;
        };
        let (bc, gc) = (t.column("bytes"), t.column("group"));
        for row in &t.rows {
            let at = |c: Option<usize>| c.map(|c| row[c] as u64);
            let e = f
                .entry((TableKey::of(t, world), at(gc), at(bc)))
                .or_default();
            e.0.push(row[col]);
            e.1.extend(t.flags_at(at(bc)));
        }
    }
    f
}

/// Hold `c` against `new` (and `base` where its reference is the baseline).
pub fn evaluate(c: &Criterion, base: Option<&Side>, new: &Side, len: Lenience) -> Outcome {
    let outcome = |pass: bool, checked: usize, detail: String| Outcome {
        criterion: c.name.clone(),
        side: new.label.clone(),
        pass,
        detail,
        checked,
    };
    let over = |s: &Side| s.runs.iter().find_map(|r| r.oversubscribed.clone());
    let mut judged = vec![new];
    if c.reference == Reference::Baseline {
        let Some(b) = base else {
            return outcome(
                false,
                0,
                "reference \"baseline\" but no BASE given".to_string(),
            );
        };
        judged.push(b);
    }
    if !len.oversubscribed {
        if let Some((s, why)) = judged.iter().find_map(|s| over(s).map(|w| (s, w))) {
            return outcome(
                false,
                0,
                format!(
                    "{} ran oversubscribed ({}): its times measure the scheduler \
                     (--accept-oversubscribed judges them anyway)",
                    s.label,
                    why.split(" (oversubscribed)").next().unwrap_or(&why)
                ),
            );
        }
    }
    let mut sides: Vec<&Side> = vec![new];
    sides.extend(base);
    let world = world_counts(&sides);
    let fnew = figures(new, c.metric, &world);
    let fbase = base
        .map(|b| figures(b, c.metric, &world))
        .unwrap_or_default();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut worst: Option<(f64, String)> = None;
    for ((key, group, bytes), (vals, flags)) in &fnew {
        let bench_ok = c.benchmark == "*" || c.benchmark == key.benchmark;
        let procs_ok = c.processes.is_none() || c.processes == Some(key.processes);
        let mode_ok = c.mode.is_none() || c.mode.as_deref() == Some(key.mode.as_str());
        let bytes_ok = match (c.bytes, bytes) {
            (None, _) => true,
            (Some((lo, hi)), Some(b)) => (lo..=hi).contains(b),
            (Some(_), None) => false,
        };
        if !(bench_ok && procs_ok && mode_ok && bytes_ok) {
            continue;
        }
        let at = format!(
            "{}{}",
            size(*bytes),
            if key.processes > 0 && c.processes.is_none() {
                format!(" np={}", key.processes)
            } else {
                String::new()
            }
        ) + &group.map_or(String::new(), |g| format!(" group {g}"));
        checked += 1;
        let value = crate::stats::median(vals);
        let (reference, base_flags) = match c.reference {
            Reference::Value(r) => (r, Vec::new()),
            Reference::Baseline => match fbase.get(&(key.clone(), *group, *bytes)) {
                Some((v, f)) => (crate::stats::median(v), f.clone()),
                None => {
                    failures.push(format!("{at}: not in the baseline"));
                    continue;
                }
            },
        };
        if !len.flagged {
            if let Some(f) = flags.first().or(base_flags.first()) {
                let who = if flags.is_empty() { "baseline" } else { "new" };
                failures.push(format!("{at}: {} ({who}), not a result", f.name()));
                continue;
            }
        }
        let dev = if reference > 0.0 {
            value / reference - 1.0
        } else if value == reference {
            0.0
        } else {
            f64::INFINITY
        };
        let low = c.lower.is_some_and(|l| dev < l);
        let high = c.upper.is_some_and(|u| dev > u);
        if low || high {
            failures.push(format!(
                "{at}: {value:.2} against {reference:.2} ({})",
                pct(dev)
            ));
        } else {
            let far = dev.abs();
            if !worst.as_ref().is_some_and(|w| far <= w.0) {
                worst = Some((far, format!("{at}: {}", pct(dev))));
            }
        }
    }
    let against = match c.reference {
        Reference::Value(r) => format!("{r}"),
        Reference::Baseline => "the baseline".to_string(),
    };
    if checked == 0 {
        return outcome(
            false,
            0,
            format!("no row of {} matches the criterion", new.label),
        );
    }
    if failures.is_empty() {
        let w = worst.map_or(String::new(), |w| format!("; largest deviation {}", w.1));
        return outcome(
            true,
            checked,
            format!("{checked} size(s) within {} of {against}{w}", bounds(c)),
        );
    }
    let shown: Vec<&str> = failures.iter().take(4).map(String::as_str).collect();
    let more = if failures.len() > 4 {
        format!("; {} more", failures.len() - 4)
    } else {
        String::new()
    };
    outcome(
        false,
        checked,
        format!(
            "{} of {checked} size(s) fail {} of {against}: {}{more}",
            failures.len(),
            bounds(c),
            shown.join("; ")
        ),
    )
}

#[cfg(test)]
mod tests;
