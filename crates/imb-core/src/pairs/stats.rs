//! The paired ratios' statistics: which way a ratio goes and its target (`Goal`), the medians
//! and quartiles of a case (`Summary`).

use super::Pairs;

/// What a pair's ratio compares, and the target it is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// Time ours/raw, at most 1.02.
    Latency,
    /// Throughput ours/raw (raw time over ours), at least 0.98.
    Bandwidth,
}

impl Goal {
    /// Latency below 1 MiB, bandwidth from there: the split of the examples' two sizes.
    pub fn by_size(x: usize) -> Goal {
        if x < 1 << 20 {
            Goal::Latency
        } else {
            Goal::Bandwidth
        }
    }

    fn ratio(self, ours: f64, raw: f64) -> f64 {
        match self {
            Goal::Latency => ours / raw,
            Goal::Bandwidth => raw / ours,
        }
    }

    fn target(self) -> &'static str {
        match self {
            Goal::Latency => "t ours/raw <= 1.02",
            Goal::Bandwidth => "MB/s ours/raw >= 0.98",
        }
    }

    fn met(self, ratio: f64) -> bool {
        match self {
            Goal::Latency => ratio <= 1.02,
            Goal::Bandwidth => ratio >= 0.98,
        }
    }
}

/// Element `at` (a fraction of the count, rounded down) of the sorted values; NaN if none.
fn rank_stat(v: &[f64], at: (usize, usize)) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.get(at.0 * s.len() / at.1).copied().unwrap_or(f64::NAN)
}

/// The median of `v` (the upper one of an even count); NaN if empty.
pub fn median(v: &[f64]) -> f64 {
    rank_stat(v, (1, 2))
}

/// Medians of both sides (in the unit the caller gave them), the median paired ratio and its
/// quartiles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub ours: f64,
    pub raw: f64,
    pub ratio: f64,
    pub q1: f64,
    pub q3: f64,
    pub goal: Goal,
}

impl Pairs {
    /// The per-pair ratios under `goal`.
    pub fn ratios(&self, goal: Goal) -> Vec<f64> {
        let both = self.ours.iter().zip(&self.raw);
        both.map(|(&o, &r)| goal.ratio(o, r)).collect()
    }

    /// Medians and ratio statistics, the side medians mapped through `show` (a unit, a rate).
    pub fn summary(&self, goal: Goal, show: impl Fn(f64) -> f64) -> Summary {
        let ratios = self.ratios(goal);
        Summary {
            ours: show(median(&self.ours)),
            raw: show(median(&self.raw)),
            ratio: median(&ratios),
            q1: rank_stat(&ratios, (1, 4)),
            q3: rank_stat(&ratios, (3, 4)),
            goal,
        }
    }
}

impl Summary {
    /// The target and PASS or FAIL, as printed.
    pub fn verdict(&self) -> String {
        let pass = if self.goal.met(self.ratio) {
            "PASS"
        } else {
            "FAIL"
        };
        format!("{} {pass}", self.goal.target())
    }
}
