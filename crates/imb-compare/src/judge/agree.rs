//! Agreement between programs measured over several launches each: for every (benchmark,
//! process count, mode, size) cell both sides printed, the median over each side's launches,
//! the ratio of the medians, each side's launch-to-launch coefficient of variation (CV), and
//! whether the two sides' launches differ beyond their noise: a two-sided Mann-Whitney rank
//! test at the 1 % level, exact for small counts. A rank test rather than a t-test because
//! launch noise on a shared node is two-level, not normal (doc/METHODOLOGY.md); with 5 launches
//! a side it calls a cell different only when every launch of one side lies beyond every launch
//! of the other.

use crate::judge::stats::{cv, mann_whitney_p, median, ALPHA};
use crate::read::key::{world_counts, Metric, TableKey};
use crate::read::sides::Side;
use std::collections::BTreeMap;

/// A row within its table: the group (Multi- tables with `-multi 1`) and the size (none for
/// Barrier).
type RowKey = (Option<u64>, Option<u64>);

/// Every value one side printed for each cell, with the launch (index) that printed it.
type Values = BTreeMap<TableKey, BTreeMap<RowKey, Vec<(usize, f64)>>>;

fn values(side: &Side, metric: Metric, world: &BTreeMap<String, usize>) -> Values {
    let mut v = Values::new();
    for (launch, run) in side.runs.iter().enumerate() {
        for t in &run.tables {
            let Some(col) = metric.column(t) else {
                continue;
            };
            let key = TableKey::of(t, world);
            let bytes = t.column("bytes");
            let group = t.column("group");
            let cells = v.entry(key).or_default();
            for row in &t.rows {
                let at = |c: Option<usize>| c.map(|c| row[c] as u64);
                cells
                    .entry((at(group), at(bytes)))
                    .or_default()
                    .push((launch, row[col]));
            }
        }
    }
    v
}

/// How two sides' launches of one cell lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separation {
    /// The first side's launches are lower, beyond the noise ([`ALPHA`]).
    Lower,
    Higher,
    /// No difference the launches can show.
    Overlap,
    /// Fewer than two launches on a side, or no ratio: nothing can be said.
    Unknown,
}

/// One compared cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub group: Option<u64>,
    pub bytes: Option<u64>,
    /// Each side's values, with the launch that printed each.
    pub a: Vec<(usize, f64)>,
    pub b: Vec<(usize, f64)>,
    /// median(a) / median(b); None where a median is not positive (0-byte reductions print 0).
    pub ratio: Option<f64>,
    /// The cell's own test (one size alone).
    pub separation: Separation,
}

fn plain(v: &[(usize, f64)]) -> Vec<f64> {
    v.iter().map(|&(_, x)| x).collect()
}

impl Cell {
    fn new(
        group: Option<u64>,
        bytes: Option<u64>,
        a: Vec<(usize, f64)>,
        b: Vec<(usize, f64)>,
    ) -> Cell {
        let (xa, xb) = (plain(&a), plain(&b));
        let (ma, mb) = (median(&xa), median(&xb));
        let ratio = (ma > 0.0 && mb > 0.0).then(|| ma / mb);
        let separation = if xa.len() < 2 || xb.len() < 2 || ratio.is_none() {
            Separation::Unknown
        } else if mann_whitney_p(&xa, &xb) >= ALPHA {
            Separation::Overlap
        } else if ma < mb {
            Separation::Lower
        } else {
            Separation::Higher
        };
        Cell {
            group,
            bytes,
            a,
            b,
            ratio,
            separation,
        }
    }

    pub fn values_a(&self) -> Vec<f64> {
        plain(&self.a)
    }

    pub fn values_b(&self) -> Vec<f64> {
        plain(&self.b)
    }
}

/// The verdict on one benchmark table, from its launch scores ([`TableCmp::scores`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The two sides' launches differ by no more than their launch-to-launch noise.
    Agrees,
    /// The first side's launches are lower, beyond the noise.
    Lower,
    Higher,
    /// Too few launches to see the noise.
    Unknown,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees within noise",
            Verdict::Lower => "systematically lower",
            Verdict::Higher => "systematically higher",
            Verdict::Unknown => "noise unknown (too few launches a side)",
        }
    }
}

/// Sizes below this are latency-bound, the rest bandwidth-bound. Each part gets its own
/// verdict: a cost per call (the thread level, a timer read per call) shows only in the first,
/// a copy or protocol difference mostly in the second, and either would be diluted by the other
/// in one test over the whole table.
pub const SMALL_BELOW: u64 = 4096;

/// One table both sides printed.
#[derive(Debug, Clone, PartialEq)]
pub struct TableCmp {
    pub key: TableKey,
    pub cells: Vec<Cell>,
}

impl TableCmp {
    /// Cells with a test, and those lower and higher beyond the noise on their own.
    pub fn counts(&self) -> (usize, usize, usize) {
        let n = |s: Separation| self.cells.iter().filter(|c| c.separation == s).count();
        let known = self
            .cells
            .iter()
            .filter(|c| c.separation != Separation::Unknown)
            .count();
        (known, n(Separation::Lower), n(Separation::Higher))
    }

    /// One score per launch and side: the geometric mean over the table's sizes of the launch's
    /// value over the cell's median of both sides pooled. The launch is the unit that repeats
    /// (a slow launch is slow at every size), so the test is made on launches, with every size
    /// contributing to each launch's score.
    pub fn scores(&self) -> (Vec<f64>, Vec<f64>) {
        let launches = |f: fn(&Cell) -> &Vec<(usize, f64)>| {
            self.cells
                .iter()
                .flat_map(|c| f(c).iter().map(|&(r, _)| r + 1))
                .max()
                .unwrap_or(0)
        };
        let mut sum = (vec![0.0; launches(|c| &c.a)], vec![0.0; launches(|c| &c.b)]);
        let mut count = (vec![0usize; sum.0.len()], vec![0usize; sum.1.len()]);
        for c in &self.cells {
            let pooled: Vec<f64> = c.a.iter().chain(&c.b).map(|&(_, x)| x).collect();
            let m = median(&pooled);
            if !(m > 0.0 && m.is_finite()) {
                continue;
            }
            for (vals, s, n) in [
                (&c.a, &mut sum.0, &mut count.0),
                (&c.b, &mut sum.1, &mut count.1),
            ] {
                for &(r, x) in vals {
                    if x > 0.0 && x.is_finite() {
                        s[r] += (x / m).ln();
                        n[r] += 1;
                    }
                }
            }
        }
        let finish = |s: &[f64], n: &[usize]| -> Vec<f64> {
            s.iter()
                .zip(n)
                .filter(|(_, &k)| k > 0)
                .map(|(&v, &k)| (v / k as f64).exp())
                .collect()
        };
        (finish(&sum.0, &count.0), finish(&sum.1, &count.1))
    }

    /// The rank test on the launch scores: its p-value and the ratio of the median scores.
    pub fn launch_test(&self) -> Option<(f64, f64)> {
        let (a, b) = self.scores();
        if a.len() < 2 || b.len() < 2 {
            return None;
        }
        Some((mann_whitney_p(&a, &b), median(&a) / median(&b)))
    }

    pub fn verdict(&self) -> Verdict {
        let (a, b) = self.scores();
        if !can_separate(a.len(), b.len()) {
            return Verdict::Unknown;
        }
        match self.launch_test() {
            None => Verdict::Unknown,
            Some((p, _)) if p >= ALPHA => Verdict::Agrees,
            Some((_, r)) if r < 1.0 => Verdict::Lower,
            Some(_) => Verdict::Higher,
        }
    }

    /// The cells below [`SMALL_BELOW`] (`small`, with Barrier's sizeless row) or the others;
    /// None when there are none.
    pub fn band(&self, small: bool) -> Option<TableCmp> {
        let cells: Vec<Cell> = self
            .cells
            .iter()
            .filter(|c| !matches!(c.bytes, Some(b) if b >= SMALL_BELOW) == small)
            .cloned()
            .collect();
        (!cells.is_empty()).then(|| TableCmp {
            key: self.key.clone(),
            cells,
        })
    }

    /// The verdict in words: one when both bands agree on it (or there is one band), else
    /// each band's, e.g. "systematically lower below 4 KiB; agrees within noise from 4 KiB".
    pub fn verdict_text(&self) -> String {
        let parts: Vec<(Verdict, &str)> = [(true, "below 4 KiB"), (false, "from 4 KiB")]
            .into_iter()
            .filter_map(|(small, name)| self.band(small).map(|b| (b.verdict(), name)))
            .collect();
        if parts.iter().all(|p| p.0 == parts[0].0) {
            return parts
                .first()
                .map_or(Verdict::Unknown, |p| p.0)
                .text()
                .to_string();
        }
        parts
            .iter()
            .map(|(v, name)| format!("{} {name}", v.text()))
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub fn ratios(&self) -> Vec<f64> {
        self.cells.iter().filter_map(|c| c.ratio).collect()
    }

    /// Median over the cells of the cell ratios.
    pub fn median_ratio(&self) -> Option<f64> {
        let r = self.ratios();
        (!r.is_empty()).then(|| median(&r))
    }

    /// Median over the cells of each side's launch-to-launch CV.
    pub fn median_cvs(&self) -> (f64, f64) {
        let med = |f: fn(&Cell) -> f64| {
            let v: Vec<f64> = self.cells.iter().map(f).filter(|x| x.is_finite()).collect();
            if v.is_empty() {
                f64::NAN
            } else {
                median(&v)
            }
        };
        (med(|c| cv(&c.values_a())), med(|c| cv(&c.values_b())))
    }
}

/// Whether m launches against n can show a difference at all: the most extreme ordering has
/// a two-sided p of 2 / C(m + n, m), which must be below [`ALPHA`].
pub fn can_separate(m: usize, n: usize) -> bool {
    let ways = (0..m).fold(1.0, |c, i| c * (n + m - i) as f64 / (i + 1) as f64);
    m >= 1 && n >= 1 && 2.0 / ways < ALPHA
}

/// Side `a` against side `b`: the tables both printed, in `a`'s order of keys.
pub fn compare(a: &Side, b: &Side, metric: Metric) -> Vec<TableCmp> {
    let world = world_counts(&[a, b]);
    let va = values(a, metric, &world);
    let mut vb = values(b, metric, &world);
    let mut out = Vec::new();
    for (key, rows) in va {
        let Some(other) = vb.remove(&key) else {
            continue;
        };
        let cells: Vec<Cell> = rows
            .into_iter()
            .filter_map(|(rk, xa)| {
                other
                    .get(&rk)
                    .map(|xb| Cell::new(rk.0, rk.1, xa, xb.clone()))
            })
            .collect();
        if !cells.is_empty() {
            out.push(TableCmp { key, cells });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::sides::fixture_side as side;

    #[test]
    fn cells_beyond_the_noise_make_the_verdict() {
        let lvl = "MPI_THREAD_SINGLE";
        let l = |x: &'static [f64]| (lvl, x);
        // Size 4: every launch of a below every launch of b; size 8: interleaved.
        let a = side(
            "ours",
            &[
                l(&[0.20, 0.5]),
                l(&[0.30, 0.6]),
                l(&[0.25, 0.5]),
                l(&[0.22, 0.7]),
                l(&[0.21, 0.4]),
            ],
        );
        let b = side(
            "imb",
            &[
                l(&[0.60, 0.4]),
                l(&[0.70, 0.6]),
                l(&[0.65, 0.5]),
                l(&[0.61, 0.7]),
                l(&[0.66, 0.5]),
            ],
        );
        let t = compare(&a, &b, Metric::T);
        assert_eq!(t.len(), 1);
        let seps: Vec<_> = t[0].cells.iter().map(|c| c.separation).collect();
        assert_eq!(seps, [Separation::Lower, Separation::Overlap]);
        assert_eq!(t[0].verdict(), Verdict::Lower);
        assert_eq!(t[0].cells[0].ratio, Some(0.22 / 0.65));
        assert_eq!(compare(&b, &a, Metric::T)[0].verdict(), Verdict::Higher);
        assert_eq!(compare(&a, &a, Metric::T)[0].verdict(), Verdict::Agrees);
        // Both sizes are below 4 KiB: one band, one verdict.
        assert_eq!(t[0].verdict_text(), "systematically lower");
        assert!(t[0].band(false).is_none());
        assert!(can_separate(5, 5) && can_separate(3, 10) && !can_separate(3, 3));
        assert!(!can_separate(4, 4) && !can_separate(0, 10));
        let one = side("one", &[l(&[0.2, 0.5])]);
        assert_eq!(compare(&one, &b, Metric::T)[0].verdict(), Verdict::Unknown);
    }

    #[test]
    fn non_blocking_tables_compare_t_ovrl_or_t_pure() {
        let text = "#    Intel(R) MPI Benchmarks 2021.11, MPI-NBC part\n\
                    # Benchmarking Ibcast \n# #processes = 2 \n\
                    #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]\n\
                    0 1000 0.16 0.04 0.06 0.00\n\
                    \n# All processes entering MPI_Finalize\n";
        let t = &crate::read::imbtext::parse("nbc", text).unwrap().tables[0];
        let at = |m: Metric| m.column(t).map(|c| t.rows[0][c]);
        assert_eq!(at(Metric::T), Some(0.16));
        assert_eq!(at(Metric::TOvrl), Some(0.16));
        assert_eq!(at(Metric::TPure), Some(0.04));
        assert_eq!(at(Metric::TAvg), None);
        assert_eq!(Metric::parse("t_pure"), Ok(Metric::TPure));
        assert!(Metric::parse("overlap").is_err());
    }

    #[test]
    fn zero_times_have_no_ratio() {
        let lvl = "x";
        let a = side("a", &[(lvl, &[0.0]), (lvl, &[0.0])]);
        let t = compare(&a, &a, Metric::T);
        assert_eq!(t[0].cells[0].ratio, None);
        assert_eq!(t[0].cells[0].separation, Separation::Unknown);
        assert_eq!(t[0].verdict(), Verdict::Unknown);
    }
}
