//! The rule (doc/ACCEPTANCE.md, "The rule"): a size's interval of the ratio figure/reference,
//! where it lies against the bounds, and the family-wise test over a criterion's sizes that a
//! FAIL needs ([`crate::judge::family`]).

use super::criterion::{Criterion, Reference, Statistic};
use super::outcome::{reason, SizeCheck, Verdict};
use crate::judge::family;

/// One size's figures, each with the index of the launch that printed it.
pub(super) type LaunchValues = Vec<(usize, f64)>;

pub(super) fn plain(v: &[(usize, f64)]) -> Vec<f64> {
    v.iter().map(|&(_, x)| x).collect()
}

/// The interval of the ratio statistic(new) / reference for one size (the module's rule).
pub(super) fn interval(
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
pub(super) fn decide(
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
