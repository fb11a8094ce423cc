//! One criterion's sizes: each side's launches by (table, group, size), and each size's
//! figures to an interval, or the reason there is none.

use super::criterion::{percent, Acceptance, Criterion, Reference, Statistic};
use super::outcome::{reason, Reason, SizeCheck, Verdict};
use super::rule::{interval, plain, LaunchValues};
use crate::read::key::{Metric, TableKey};
use crate::read::run::Flag;
use crate::read::sides::Side;
use std::collections::{BTreeMap, HashMap};

/// One side's launches for a metric, by (table, group, size): each launch's value with the
/// launch's index, and the flags. A size printed in place of a row has flags and no value.
pub(super) type Figures = BTreeMap<(TableKey, Option<u64>, Option<u64>), (LaunchValues, Vec<Flag>)>;

pub(super) fn figures(side: &Side, metric: Metric, world: &BTreeMap<String, usize>) -> Figures {
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

pub(super) fn covers(c: &Criterion, key: &TableKey, bytes: Option<u64>) -> bool {
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

/// What [`check_size`] found of one size: its figures and interval, or a verdict and the
/// reason when the figures cannot give one.
pub(super) struct SizeFigures {
    value: Option<f64>,
    reference: Option<f64>,
    interval: Option<(f64, f64)>,
    verdict: Option<Verdict>,
    reason: Option<Reason>,
}

impl SizeFigures {
    /// No figures: a verdict (or none, left out) and the reason.
    fn none(verdict: Option<Verdict>, reason: Option<Reason>) -> SizeFigures {
        SizeFigures {
            value: None,
            reference: None,
            interval: None,
            verdict,
            reason,
        }
    }
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
    let base_flags = base.map_or(&[][..], |b| b.1);
    if let Some(found) = flagged(new_flags, base_flags, acc) {
        return found;
    }
    let flagged = !new_flags.is_empty() || base.is_some_and(|b| !b.1.is_empty());
    if !flagged {
        if let Some(found) = zero(c, bytes, new, base.map_or(&[][..], |b| b.0)) {
            return found;
        }
    }
    let value = c.statistic.of(new);
    let reference = match (c.reference, base) {
        (Reference::Value(r), _) => r,
        (Reference::Baseline, Some((b, _))) => c.statistic.of(b),
        (Reference::Baseline, None) => {
            return SizeFigures::none(
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
        None => no_interval(c, (value, reference), new, base_values, confidence),
    }
}

/// A size the program flagged on either side: a size printed in place of a row has no figure
/// (nothing to judge, unless left out on purpose); a flagged figure is no measurement unless
/// flagged figures are accepted.
fn flagged(new_flags: &[Flag], base_flags: &[Flag], acc: &Acceptance) -> Option<SizeFigures> {
    for (flags, who) in [(new_flags, "new"), (base_flags, "baseline")] {
        if let Some(f) = flags.iter().find(|f| !f.has_figure()) {
            let text = format!("{} ({who}), no figure", f.name());
            return Some(if acc.flagged {
                SizeFigures::none(None, reason("no-figure", format!("{text}, left out")))
            } else {
                SizeFigures::none(Some(Verdict::Inconclusive), reason("no-figure", text))
            });
        }
    }
    if !acc.flagged {
        for (flags, who) in [(new_flags, "new"), (base_flags, "baseline")] {
            if let Some(f) = flags.first() {
                return Some(SizeFigures::none(
                    Some(Verdict::Inconclusive),
                    reason(
                        "flagged",
                        format!("{} ({who}), not a measurement", f.name()),
                    ),
                ));
            }
        }
    }
    None
}

/// A zero where a figure belongs, on either side. A zero is no measurement where something
/// was timed or moved: a time of 0 (below the text's 0.01 µs, or edited), a bandwidth of 0 for
/// bytes that moved. It would pass any upper bound, or give no ratio; either way it must not
/// decide. An empty message's bandwidth is 0 by definition: left out.
fn zero(c: &Criterion, bytes: Option<u64>, new: &[f64], base: &[f64]) -> Option<SizeFigures> {
    for (values, who) in [(new, "new"), (base, "baseline")] {
        let Some(at) = values.iter().position(|&x| x == 0.0) else {
            continue;
        };
        let what = if c.metric.higher_is_better() {
            if bytes == Some(0) {
                return Some(SizeFigures::none(
                    None,
                    reason(
                        "zero-reference",
                        "no bandwidth at 0 bytes: no ratio, left out".into(),
                    ),
                ));
            }
            "a bandwidth of 0"
        } else {
            "a time of 0"
        };
        return Some(SizeFigures::none(
            Some(Verdict::Inconclusive),
            reason(
                "zero-figure",
                format!(
                    "{what} in launch {} of {} ({who}): not a measurement",
                    at + 1,
                    values.len()
                ),
            ),
        ));
    }
    None
}

/// A size whose launches are too few for an interval: inconclusive, saying how many it has
/// and needs.
fn no_interval(
    c: &Criterion,
    (value, reference): (f64, f64),
    new: &[f64],
    base_values: Option<&[f64]>,
    confidence: f64,
) -> SizeFigures {
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

/// Every size `c` covers: the new run's, each to its figures, interval or reason, then the
/// baseline's that the new run lacks; with each size's launches (new, base) for the rule.
pub(super) fn check_sizes(
    c: &Criterion,
    (fnew, fbase): (&Figures, &Figures),
    new: &Side,
    acc: &Acceptance,
    confidence: f64,
) -> (Vec<SizeCheck>, Vec<(LaunchValues, LaunchValues)>) {
    let mut sizes = Vec::new();
    let mut values = Vec::new();
    for ((key, group, bytes), (vals, flags)) in fnew {
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
        sizes.push(SizeCheck {
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
    for (size, base_values) in not_in_new(c, fnew, fbase, new, acc) {
        sizes.push(size);
        values.push((Vec::new(), base_values));
    }
    (sizes, values)
}
