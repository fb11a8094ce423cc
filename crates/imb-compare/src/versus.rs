//! `imb-compare BASE NEW…`: one baseline against one or more new runs, table by table and size
//! by size, for one figure (the time, or Mbytes/sec), with the changes beyond the noise marked
//! and a one-line summary per table.
//!
//! Beyond the noise (doc/ACCEPTANCE.md, "Reading a comparison"): with enough launches a side
//! for the rank test of [`crate::agree`] to separate them (5 and 5, or 3 and 10), a size
//! changed when that test says so; otherwise, when its ratio new/base lies outside
//! 1 ± `noise` (10 % unless `--noise`), and in both cases by more than the 0.01 that text tables
//! resolve. Rows the program flagged (UNSETTLED, UNRELIABLE) are
//! shown with their flag but never marked and left out of the summary: the run itself said
//! they are not a figure.

use crate::agree::{can_separate, compare, Metric, Separation, TableKey};
use crate::imbtext::Flag;
use crate::sides::Side;
use crate::stats::median;
use std::collections::{BTreeMap, BTreeSet};

/// The default `--noise`: a change under 10 % of one launch against one is within what a
/// size varies from launch to launch on a shared node (doc/METHODOLOGY.md).
pub const NOISE: f64 = 0.10;

/// The step of a text table's figures (`%.2f`); text and `-json` of one run differ by up to
/// half of it.
pub const RESOLUTION: f64 = 0.01;

/// Which way a size moved, in the metric's sense (a higher time is worse, a higher bandwidth
/// better).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Worse,
    Better,
    /// Within the noise.
    Same,
    /// No ratio (a zero figure), or a flagged row.
    Unknown,
}

impl Change {
    pub fn word(self) -> &'static str {
        match self {
            Change::Worse => "worse",
            Change::Better => "better",
            Change::Same | Change::Unknown => "",
        }
    }
}

/// One size of one table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub group: Option<u64>,
    pub bytes: Option<u64>,
    /// Median over each side's launches.
    pub base: f64,
    pub new: f64,
    /// new / base.
    pub ratio: Option<f64>,
    pub change: Change,
    /// "UNSETTLED (new)", … ; empty when neither side flagged the row.
    pub flags: Vec<String>,
}

/// One table both sides printed.
#[derive(Debug, Clone, PartialEq)]
pub struct TableVs {
    pub key: TableKey,
    pub rows: Vec<Row>,
    /// Launches per side (the most any size had).
    pub launches: (usize, usize),
}

/// A table's one-line summary over its unflagged sizes with a ratio.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Geometric mean of the ratios.
    pub geo_mean: Option<f64>,
    /// The size that moved most the wrong way, with its ratio.
    pub worst: Option<(Option<u64>, f64)>,
    pub worse: usize,
    pub better: usize,
    pub sizes: usize,
}

impl TableVs {
    pub fn summary(&self, metric: Metric) -> Summary {
        let used: Vec<(&Row, f64)> = self
            .rows
            .iter()
            .filter(|r| r.flags.is_empty())
            .filter_map(|r| r.ratio.map(|q| (r, q)))
            .collect();
        let geo_mean = (!used.is_empty())
            .then(|| (used.iter().map(|(_, q)| q.ln()).sum::<f64>() / used.len() as f64).exp());
        // Worst: the largest time ratio, or the smallest bandwidth ratio.
        let badness = |q: f64| if metric == Metric::Mbytes { -q } else { q };
        let worst = used
            .iter()
            .max_by(|a, b| badness(a.1).total_cmp(&badness(b.1)))
            .map(|(r, q)| (r.bytes, *q));
        let n = |c: Change| used.iter().filter(|(r, _)| r.change == c).count();
        Summary {
            geo_mean,
            worst,
            worse: n(Change::Worse),
            better: n(Change::Better),
            sizes: used.len(),
        }
    }
}

/// Each side's flags, by table and size.
type FlagIndex = BTreeMap<TableKey, BTreeMap<Option<u64>, BTreeSet<Flag>>>;

fn flag_index(side: &Side, world: &BTreeMap<String, usize>) -> FlagIndex {
    let mut ix = FlagIndex::new();
    for t in side.runs.iter().flat_map(|r| &r.tables) {
        for &(bytes, f) in &t.flags {
            ix.entry(TableKey::of(t, world))
                .or_default()
                .entry(bytes)
                .or_default()
                .insert(f);
        }
    }
    ix
}

/// How a test decides "beyond the noise" for `m` and `n` launches.
pub fn noise_rule(m: usize, n: usize, noise: f64) -> String {
    if can_separate(m, n) {
        format!("rank test at 1 % over {m} and {n} launches")
    } else {
        format!("ratio outside 1 ± {:.0} % (--noise)", noise * 100.0)
    }
}

/// `new` against `base` for `metric`: every table both printed, in key order.
pub fn versus(base: &Side, new: &Side, metric: Metric, noise: f64) -> Vec<TableVs> {
    let world = crate::agree::world_counts(&[base, new]);
    let (fb, fnew) = (flag_index(base, &world), flag_index(new, &world));
    let higher_is_worse = metric != Metric::Mbytes;
    compare(new, base, metric)
        .into_iter()
        .map(|t| {
            let launches = t
                .cells
                .iter()
                .fold((0, 0), |(b, n), c| (b.max(c.b.len()), n.max(c.a.len())));
            let rows = t
                .cells
                .iter()
                .map(|c| {
                    let mut flags = Vec::new();
                    for (ix, who) in [(&fb, "base"), (&fnew, "new")] {
                        if let Some(fs) = ix.get(&t.key).and_then(|m| m.get(&c.bytes)) {
                            flags.extend(fs.iter().map(|f| format!("{} ({who})", f.name())));
                        }
                    }
                    let moved = if can_separate(c.a.len(), c.b.len()) {
                        match c.separation {
                            Separation::Higher => Some(true),
                            Separation::Lower => Some(false),
                            Separation::Overlap => None,
                            Separation::Unknown => return (c, flags, Change::Unknown),
                        }
                    } else {
                        match c.ratio {
                            Some(q) if q > 1.0 + noise => Some(true),
                            Some(q) if q < 1.0 / (1.0 + noise) => Some(false),
                            Some(_) => None,
                            None => return (c, flags, Change::Unknown),
                        }
                    };
                    // Text tables print 2 decimals: a difference within that step is no change.
                    let step = (median(&c.values_a()) - median(&c.values_b())).abs() <= RESOLUTION;
                    let change = match moved {
                        _ if !flags.is_empty() => Change::Unknown,
                        _ if step => Change::Same,
                        None => Change::Same,
                        Some(up) if up == higher_is_worse => Change::Worse,
                        Some(_) => Change::Better,
                    };
                    (c, flags, change)
                })
                .map(|(c, flags, change)| {
                    let med = |v: Vec<f64>| median(&v);
                    Row {
                        group: c.group,
                        bytes: c.bytes,
                        base: med(c.values_b()),
                        new: med(c.values_a()),
                        ratio: c.ratio,
                        change,
                        flags,
                    }
                })
                .collect();
            TableVs {
                key: t.key,
                rows,
                launches,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agree::fixture_side as side;

    #[test]
    fn one_launch_a_side_uses_the_ratio() {
        let lvl = "MPI_THREAD_SINGLE";
        let base = side("base", &[(lvl, &[1.0, 1.0, 1.0, 0.0])]);
        let new = side("new", &[(lvl, &[1.05, 1.5, 0.5, 0.0])]);
        let t = versus(&base, &new, Metric::T, NOISE);
        assert_eq!(t.len(), 1);
        let ch: Vec<_> = t[0].rows.iter().map(|r| r.change).collect();
        assert_eq!(
            ch,
            [Change::Same, Change::Worse, Change::Better, Change::Unknown]
        );
        assert_eq!(t[0].launches, (1, 1));
        let s = t[0].summary(Metric::T);
        assert_eq!((s.worse, s.better, s.sizes), (1, 1, 3));
        assert_eq!(s.worst, Some((Some(8), 1.5)));
        let g = s.geo_mean.unwrap();
        assert!((g - (1.05f64 * 1.5 * 0.5).cbrt()).abs() < 1e-12, "{g}");
        // For a bandwidth the other way round.
        let s = versus(&base, &new, Metric::TAvg, 0.6).remove(0);
        assert!(s.rows.iter().all(|r| r.change != Change::Worse));
    }

    #[test]
    fn several_launches_use_the_rank_test() {
        let lvl = "x";
        let l = |x: &'static [f64]| (lvl, x);
        let base = side(
            "b",
            &[l(&[1.0]), l(&[1.01]), l(&[0.99]), l(&[1.02]), l(&[1.0])],
        );
        // 5 % slower in every launch: beyond the noise by the rank test though under 10 %.
        let new = side(
            "n",
            &[l(&[1.05]), l(&[1.06]), l(&[1.07]), l(&[1.05]), l(&[1.06])],
        );
        let t = versus(&base, &new, Metric::T, NOISE);
        assert_eq!(t[0].rows[0].change, Change::Worse);
        assert_eq!(t[0].launches, (5, 5));
        assert!(noise_rule(5, 5, NOISE).starts_with("rank test"));
        assert_eq!(noise_rule(1, 1, NOISE), "ratio outside 1 ± 10 % (--noise)");
    }

    #[test]
    fn flagged_rows_are_shown_not_judged() {
        let mut new = side("n", &[("x", &[2.0, 1.0])]);
        new.runs[0].tables[0].flags.push((Some(4), Flag::Unsettled));
        let base = side("b", &[("x", &[1.0, 1.0])]);
        let t = versus(&base, &new, Metric::T, NOISE).remove(0);
        assert_eq!(t.rows[0].flags, ["UNSETTLED (new)"]);
        assert_eq!(t.rows[0].change, Change::Unknown);
        assert_eq!(t.summary(Metric::T).sizes, 1);
    }
}
