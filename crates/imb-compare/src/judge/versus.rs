//! `imb-compare BASE NEW…`: one baseline against one or more new runs, table by table and size
//! by size, for one figure (the time, or Mbytes/sec), with the changes beyond the noise marked,
//! the differences of conditions above each table, and a one-line summary per table.
//!
//! Beyond the noise (doc/ACCEPTANCE.md, "The rule"): a size changed when the table's sizes taken
//! together show it away from a ratio of 1 at the chosen confidence (95 % unless
//! `--confidence`: whole launches permuted, [`crate::judge::family`], the test a criterion fails by),
//! and the medians differ by more than the 0.01 that text tables resolve. Each size also shows
//! its own interval ([`crate::judge::stats::ratio_interval`]). The rule is the criteria's, for every
//! launch count: launches too few for any interval (fewer than 4 a side at 95 %) leave a size
//! undecided, never changed. Rows the
//! program flagged (UNSETTLED, UNRELIABLE, DEFECT, TIME-OUT…) are shown with their flag but
//! never marked and left out of the summary: the run itself said they are not a figure.

use super::agree::compare;
use crate::conditions::{self, Difference};
use crate::judge::family;
use crate::judge::stats::{median, ratio_interval};
use crate::read::key::{world_counts, Metric, TableKey};
use crate::read::run::Flag;
use crate::read::sides::Side;
use std::collections::{BTreeMap, BTreeSet};

/// The default confidence of every interval.
pub const CONFIDENCE: f64 = 0.95;

/// The step of a text table's figures (`%.2f`); text and `-json` of one run differ by up to
/// half of it.
pub const RESOLUTION: f64 = 0.01;

/// Which way a size moved, in the metric's sense (a higher time is worse, a higher bandwidth
/// better).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Worse,
    Better,
    /// Within the noise: the interval holds 1.
    Same,
    /// No interval (too few launches), no ratio (a zero figure), or a flagged row.
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

    /// The machine form (`--csv`, `--json`).
    pub fn key(self) -> &'static str {
        match self {
            Change::Worse => "worse",
            Change::Better => "better",
            Change::Same => "same",
            Change::Unknown => "undecided",
        }
    }
}

/// One size of one table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub group: Option<u64>,
    pub bytes: Option<u64>,
    /// Median over each side's launches (NaN where a side has no figure: a TIME-OUT row).
    pub base: f64,
    pub new: f64,
    /// new / base.
    pub ratio: Option<f64>,
    /// The interval of the ratio at the comparison's confidence.
    pub interval: Option<(f64, f64)>,
    pub change: Change,
    /// Each flag with the side that set it ("base", "new"); empty when neither did.
    pub flags: Vec<(Flag, &'static str)>,
}

impl Row {
    /// The flags in words: "UNSETTLED (new)".
    pub fn flag_words(&self) -> Vec<String> {
        self.flags
            .iter()
            .map(|(f, who)| format!("{} ({who})", f.name()))
            .collect()
    }
}

/// One table both sides printed.
#[derive(Debug, Clone, PartialEq)]
pub struct TableVs {
    pub key: TableKey,
    pub rows: Vec<Row>,
    /// Launches per side, (base, new) (the most any size had).
    pub launches: (usize, usize),
    /// Where this table's ranks ran, when the sides differ there.
    pub differences: Vec<Difference>,
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
    /// Sizes with no interval (too few launches).
    pub undecided: usize,
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
        let badness = |q: f64| if metric.higher_is_better() { -q } else { q };
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
            undecided: n(Change::Unknown),
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

/// How the comparison decides "beyond the noise" for `base` and `new` launches.
pub fn noise_rule(base: usize, new: usize, confidence: f64) -> String {
    let pct = crate::judge::criteria::percent(confidence);
    if ratio_interval(&vec![1.0; new], &vec![1.0; base], confidence).is_some() {
        format!("{pct} % interval of the ratio over {base} and {new} launches")
    } else {
        format!(
            "none: {base} and {new} launches give no {pct} % interval ({} a side at least)",
            crate::judge::stats::launches_needed(confidence)
        )
    }
}

/// For each of the `judged` cells, whether new moved up (`Some(true)`), down, or not beyond
/// the noise, with those cells taken together: the family-wise test of crate::judge::family against
/// a ratio of 1, each way at half the level. `launches` is (base, new).
fn moved(
    cells: &[super::agree::Cell],
    judged: &[usize],
    launches: (usize, usize),
    confidence: f64,
) -> Vec<Option<bool>> {
    let matrix = |pick: fn(&super::agree::Cell) -> &Vec<(usize, f64)>, n: usize| {
        let mut m = vec![vec![f64::NAN; judged.len()]; n];
        for (s, &i) in judged.iter().enumerate() {
            for &(l, x) in pick(&cells[i]) {
                if l < n {
                    m[l][s] = x;
                }
            }
        }
        m
    };
    let (n, b) = (matrix(|c| &c.a, launches.1), matrix(|c| &c.b, launches.0));
    let tail = (1.0 - confidence) / 2.0 * (1.0 + 1e-9);
    let up = family::adjusted(&n, &b, 1.0, family::Side::Above);
    let down = family::adjusted(&n, &b, 1.0, family::Side::Below);
    up.iter()
        .zip(&down)
        .map(|(&u, &d)| {
            if u <= tail {
                Some(true)
            } else if d <= tail {
                Some(false)
            } else {
                None
            }
        })
        .collect()
}

/// The sizes a side printed in place of a row (IMB 2021's time-out), added to `rows` of table
/// `key`: shown, with no figure.
fn no_figure_rows(
    key: &TableKey,
    indexes: [&FlagIndex; 2],
    flags_of: &dyn Fn(Option<u64>) -> Vec<(Flag, &'static str)>,
    rows: &mut Vec<Row>,
) {
    for ix in indexes {
        for (&bytes, fs) in ix.get(key).into_iter().flatten() {
            let no_figure = fs.iter().any(|f| !f.has_figure());
            if no_figure && !rows.iter().any(|r| r.bytes == bytes) {
                rows.push(Row {
                    group: None,
                    bytes,
                    base: f64::NAN,
                    new: f64::NAN,
                    ratio: None,
                    interval: None,
                    change: Change::Unknown,
                    flags: flags_of(bytes),
                });
            }
        }
    }
}

/// `new` against `base` for `metric`: every table both printed, in key order.
pub fn versus(base: &Side, new: &Side, metric: Metric, confidence: f64) -> Vec<TableVs> {
    let world = world_counts(&[base, new]);
    let (fb, fnew) = (flag_index(base, &world), flag_index(new, &world));
    let (pb, pnew) = (
        conditions::Placements::of(base, &world),
        conditions::Placements::of(new, &world),
    );
    let higher_is_worse = !metric.higher_is_better();
    compare(new, base, metric)
        .into_iter()
        .map(|t| {
            let launches = t
                .cells
                .iter()
                .fold((0, 0), |(b, n), c| (b.max(c.b.len()), n.max(c.a.len())));
            let flags_of = |bytes: Option<u64>| {
                let mut flags = Vec::new();
                for (ix, who) in [(&fb, "base"), (&fnew, "new")] {
                    if let Some(fs) = ix.get(&t.key).and_then(|m| m.get(&bytes)) {
                        flags.extend(fs.iter().map(|f| (*f, who)));
                    }
                }
                flags
            };
            // The table's sizes taken together (crate::judge::family): which moved beyond the noise.
            let judged: Vec<usize> = (0..t.cells.len())
                .filter(|&i| {
                    let c = &t.cells[i];
                    flags_of(c.bytes).is_empty()
                        && c.ratio.is_some()
                        && ratio_interval(&c.values_a(), &c.values_b(), confidence).is_some()
                })
                .collect();
            let moved = moved(
                &t.cells,
                &judged,
                (base.runs.len(), new.runs.len()),
                confidence,
            );
            let mut rows: Vec<Row> = t
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let (xn, xb) = (c.values_a(), c.values_b());
                    let flags = flags_of(c.bytes);
                    let interval = ratio_interval(&xn, &xb, confidence);
                    // Text tables print 2 decimals: a difference within that step is no change.
                    let step = (median(&xn) - median(&xb)).abs() <= RESOLUTION;
                    let change = match judged.iter().position(|&j| j == i) {
                        None => Change::Unknown,
                        Some(_) if step => Change::Same,
                        Some(k) => match moved[k] {
                            Some(up) if up == higher_is_worse => Change::Worse,
                            Some(_) => Change::Better,
                            None => Change::Same,
                        },
                    };
                    Row {
                        group: c.group,
                        bytes: c.bytes,
                        base: median(&xb),
                        new: median(&xn),
                        ratio: c.ratio,
                        interval,
                        change,
                        flags,
                    }
                })
                .collect();
            no_figure_rows(&t.key, [&fb, &fnew], &flags_of, &mut rows);
            rows.sort_by_key(|r| (r.group, r.bytes));
            TableVs {
                differences: conditions::table_differences(
                    &t.key,
                    (base, "base", &pb),
                    (new, "new", &pnew),
                ),
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
    use crate::read::sides::fixture_side as side;

    #[test]
    fn one_launch_a_side_decides_nothing() {
        let lvl = "MPI_THREAD_SINGLE";
        let base = side("base", &[(lvl, &[1.0, 1.0, 1.0, 0.0])]);
        let new = side("new", &[(lvl, &[1.05, 15.0, 0.5, 0.0])]);
        let t = versus(&base, &new, Metric::T, CONFIDENCE);
        assert_eq!(t.len(), 1);
        // Even 15 times slower: one launch a side cannot tell a change from launch noise.
        assert!(t[0].rows.iter().all(|r| r.change == Change::Unknown));
        assert!(t[0].rows.iter().all(|r| r.interval.is_none()));
        assert_eq!(t[0].launches, (1, 1));
        let s = t[0].summary(Metric::T);
        assert_eq!((s.worse, s.better, s.undecided, s.sizes), (0, 0, 3, 3));
        assert_eq!(s.worst, Some((Some(8), 15.0)));
        let g = s.geo_mean.unwrap();
        assert!((g - (1.05f64 * 15.0 * 0.5).cbrt()).abs() < 1e-12, "{g}");
        assert_eq!(
            noise_rule(1, 1, CONFIDENCE),
            "none: 1 and 1 launches give no 95 % interval (4 a side at least)"
        );
    }

    #[test]
    fn several_launches_use_the_interval() {
        let lvl = "x";
        let l = |x: &'static [f64]| (lvl, x);
        let base = side(
            "b",
            &[l(&[1.0]), l(&[1.01]), l(&[0.99]), l(&[1.02]), l(&[1.0])],
        );
        // 5 % slower in every launch: beyond the noise.
        let new = side(
            "n",
            &[l(&[1.05]), l(&[1.06]), l(&[1.07]), l(&[1.05]), l(&[1.06])],
        );
        let t = versus(&base, &new, Metric::T, CONFIDENCE);
        assert_eq!(t[0].rows[0].change, Change::Worse);
        let (lo, hi) = t[0].rows[0].interval.unwrap();
        assert!(lo > 1.0 && hi < 1.1, "{lo} {hi}");
        assert_eq!(t[0].launches, (5, 5));
        // t_avg is the column t reads in a collective table.
        let t = versus(&base, &new, Metric::TAvg, CONFIDENCE);
        assert_eq!(t[0].rows[0].change, Change::Worse);
        // The same run: within the noise.
        let t = versus(&base, &base, Metric::T, CONFIDENCE);
        assert_eq!(t[0].rows[0].change, Change::Same);
        assert!(noise_rule(5, 5, CONFIDENCE).starts_with("95 % interval of the ratio"));
    }

    #[test]
    fn flagged_rows_are_shown_not_judged() {
        let mut new = side("n", &[("x", &[2.0, 1.0])]);
        new.runs[0].tables[0].flags.push((Some(4), Flag::Unsettled));
        new.runs[0].tables[0].flags.push((Some(64), Flag::TimeOut));
        let base = side("b", &[("x", &[1.0, 1.0])]);
        let t = versus(&base, &new, Metric::T, CONFIDENCE).remove(0);
        assert_eq!(t.rows[0].flag_words(), ["UNSETTLED (new)"]);
        assert_eq!(t.rows[0].change, Change::Unknown);
        // The time-out size is shown, with no figure.
        let last = t.rows.last().unwrap();
        assert_eq!(last.bytes, Some(64));
        assert_eq!(last.flag_words(), ["TIME-OUT (new)"]);
        assert!(last.new.is_nan() && last.ratio.is_none());
        assert_eq!(t.summary(Metric::T).sizes, 1);
    }
}
