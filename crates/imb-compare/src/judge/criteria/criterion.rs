//! A criterion as the references file states it: what it covers, its metric, statistic,
//! reference and bounds; what the user accepts on purpose; the file's chance of a false FAIL
//! and the tests it is split among.

use crate::conditions::Kind;
use crate::read::key::Metric;
use std::collections::BTreeSet;

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

impl Criterion {
    /// What the criterion checks, its name and line aside: equal for two criteria that are one
    /// test.
    pub(super) fn check_key(&self) -> String {
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
