//! The change-point rule of a trend ([`super::trend`], doc/ACCEPTANCE.md, "Trends"): the
//! comparison's noise rule carried along a series of runs, segment by segment.

use crate::judge::stats::{median, ratio_interval};
use crate::judge::versus::RESOLUTION;

/// What the rule says of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mark {
    /// The first run with launches: nothing before it to hold it against.
    First,
    /// Within the noise of the runs before it.
    Same,
    /// A change point: its figure moved up (`true`) or down, by `ratio` to the segment before
    /// it, with the interval of that ratio.
    Change {
        up: bool,
        ratio: f64,
        interval: (f64, f64),
    },
    /// Too few launches (in the run, or before it) for an interval: no decision.
    Undecided,
    /// Its conditions differ from the run before it (thread level, program, parameters, …):
    /// not comparable, so no change is judged; a new series starts here.
    Conditions,
    /// Oversubscribed or cut short: not a whole measurement, left out of the series.
    Excluded,
}

/// The rule of the module over `runs`, each the figures of one run's launches, in date order.
pub fn change_points(runs: &[Vec<f64>], confidence: f64) -> Vec<Mark> {
    let mut marks = Vec::with_capacity(runs.len());
    let mut segment: Vec<usize> = Vec::new();
    for (i, x) in runs.iter().enumerate() {
        let pooled: Vec<f64> = segment
            .iter()
            .flat_map(|&j| runs[j].iter().copied())
            .collect();
        if pooled.is_empty() {
            marks.push(if x.is_empty() {
                Mark::Undecided
            } else {
                Mark::First
            });
            if !x.is_empty() {
                segment.push(i);
            }
            continue;
        }
        let interval = if x.len() >= 2 && pooled.len() >= 2 {
            ratio_interval(x, &pooled, confidence)
        } else {
            None
        };
        let Some((lo, hi)) = interval else {
            marks.push(Mark::Undecided);
            if !x.is_empty() {
                segment.push(i);
            }
            continue;
        };
        let pm = median(&pooled);
        // The run-to-run range of the segment, as ratios to its pooled median.
        let (mut r_lo, mut r_hi) = (1.0f64, 1.0f64);
        for &j in &segment {
            let r = median(&runs[j]) / pm;
            if r.is_finite() {
                r_lo = r_lo.min(r);
                r_hi = r_hi.max(r);
            }
        }
        let m = median(x);
        let beyond_print = (m - pm).abs() > RESOLUTION;
        let mark = if beyond_print && lo > r_hi {
            Some(true)
        } else if beyond_print && hi < r_lo {
            Some(false)
        } else {
            None
        };
        match mark {
            Some(up) => {
                marks.push(Mark::Change {
                    up,
                    ratio: m / pm,
                    interval: (lo, hi),
                });
                segment = vec![i];
            }
            None => {
                marks.push(Mark::Same);
                segment.push(i);
            }
        }
    }
    marks
}
