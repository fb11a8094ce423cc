//! Agreement between programs measured over several launches each: for every (benchmark,
//! process count, mode, size) cell both sides printed, the median over each side's launches,
//! the ratio of the medians, each side's launch-to-launch coefficient of variation (CV), and
//! whether the two sides' launches are *separated* (every launch of one below every launch of
//! the other). Separation is the verdict's basis rather than a parametric test because launch
//! noise on a shared node is two-level, not normal: with 5 launches a side, two identical
//! programs are separated by chance with probability 2/252 per cell.

use crate::imbtext::Table;
use crate::sides::Side;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Which figure of a row is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// `t[usec]` where the table has it, else `t_avg[usec]`: the time IMB users quote.
    T,
    TAvg,
    TMin,
    TMax,
    Mbytes,
}

impl Metric {
    pub fn parse(s: &str) -> Result<Metric, String> {
        Ok(match s {
            "t" => Metric::T,
            "t_avg" => Metric::TAvg,
            "t_min" => Metric::TMin,
            "t_max" => Metric::TMax,
            "mbytes" => Metric::Mbytes,
            _ => return Err(format!("{s:?}: use t, t_avg, t_min, t_max or mbytes")),
        })
    }

    /// The column this metric reads in `table`, if any.
    fn column(self, table: &Table) -> Option<usize> {
        match self {
            Metric::T => table.column("t").or_else(|| table.column("t_avg")),
            Metric::TAvg => table.column("t_avg").or_else(|| table.column("t")),
            Metric::TMin => table.column("t_min").or_else(|| table.column("t")),
            Metric::TMax => table.column("t_max").or_else(|| table.column("t")),
            Metric::Mbytes => table.column("mbytes"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Metric::T => "t (t[usec], else t_avg[usec])",
            Metric::TAvg => "t_avg[usec]",
            Metric::TMin => "t_min[usec]",
            Metric::TMax => "t_max[usec]",
            Metric::Mbytes => "Mbytes/sec",
        }
    }
}

/// Where one table sits: benchmark, processes per group, groups, mode.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TableKey {
    pub benchmark: String,
    pub processes: usize,
    pub groups: usize,
    pub mode: String,
}

/// A row within its table: the group (Multi- tables with `-multi 1`) and the size (none for
/// Barrier).
type RowKey = (Option<u64>, Option<u64>);

/// Every value one side printed for each cell, one per launch.
type Values = BTreeMap<TableKey, BTreeMap<RowKey, Vec<f64>>>;

/// The largest process count of each benchmark, which is what a table without a count (OSU's:
/// it runs on the whole world) is measured at.
fn world_counts(sides: &[Side]) -> BTreeMap<String, usize> {
    let mut m: BTreeMap<String, usize> = BTreeMap::new();
    for t in sides.iter().flat_map(|s| &s.runs).flat_map(|r| &r.tables) {
        if let Some(p) = t.processes {
            let e = m.entry(t.benchmark.clone()).or_default();
            *e = (*e).max(p);
        }
    }
    m
}

fn values(side: &Side, metric: Metric, world: &BTreeMap<String, usize>) -> Values {
    let mut v = Values::new();
    for run in &side.runs {
        for t in &run.tables {
            let Some(col) = metric.column(t) else {
                continue;
            };
            let processes = t
                .processes
                .or_else(|| world.get(&t.benchmark).copied())
                .unwrap_or(0);
            let key = TableKey {
                benchmark: t.benchmark.clone(),
                processes,
                groups: t.groups,
                mode: t.mode.clone().unwrap_or_default(),
            };
            let bytes = t.column("bytes");
            let group = t.column("group");
            let cells = v.entry(key).or_default();
            for row in &t.rows {
                let at = |c: Option<usize>| c.map(|c| row[c] as u64);
                cells
                    .entry((at(group), at(bytes)))
                    .or_default()
                    .push(row[col]);
            }
        }
    }
    v
}

/// Median of a non-empty slice (the mean of the two middle values for an even count).
pub fn median(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    (s[(n - 1) / 2] + s[n / 2]) / 2.0
}

/// Sample standard deviation over the mean; NaN below two values or for a zero mean.
pub fn cv(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return f64::NAN;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
    (ss / (n - 1.0)).sqrt() / mean
}

/// How two sides' launches of one cell lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separation {
    /// Every launch of the first side below every launch of the second.
    Lower,
    Higher,
    Overlap,
    /// Fewer than two launches on a side: nothing can be said.
    Unknown,
}

/// One compared cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub group: Option<u64>,
    pub bytes: Option<u64>,
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    /// median(a) / median(b); None where a median is not positive (0-byte reductions print 0).
    pub ratio: Option<f64>,
    pub separation: Separation,
}

impl Cell {
    fn new(group: Option<u64>, bytes: Option<u64>, a: Vec<f64>, b: Vec<f64>) -> Cell {
        let (ma, mb) = (median(&a), median(&b));
        let ratio = (ma > 0.0 && mb > 0.0).then(|| ma / mb);
        let max = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max);
        let min = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
        let separation = if a.len() < 2 || b.len() < 2 || ratio.is_none() {
            Separation::Unknown
        } else if max(&a) < min(&b) {
            Separation::Lower
        } else if min(&a) > max(&b) {
            Separation::Higher
        } else {
            Separation::Overlap
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
}

/// The verdict on one benchmark table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// At most a quarter of the cells are separated.
    Agrees,
    /// More than a quarter separated, and lower at least three times as often as higher.
    Lower,
    Higher,
    /// More than a quarter separated, in both directions.
    Mixed,
    /// Too few launches to see the noise.
    Unknown,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees within noise",
            Verdict::Lower => "systematically lower",
            Verdict::Higher => "systematically higher",
            Verdict::Mixed => "mixed (lower at some sizes, higher at others)",
            Verdict::Unknown => "noise unknown (fewer than 2 launches a side)",
        }
    }
}

/// One table both sides printed.
#[derive(Debug, Clone, PartialEq)]
pub struct TableCmp {
    pub key: TableKey,
    pub cells: Vec<Cell>,
}

impl TableCmp {
    pub fn counts(&self) -> (usize, usize, usize) {
        let n = |s: Separation| self.cells.iter().filter(|c| c.separation == s).count();
        let known = self
            .cells
            .iter()
            .filter(|c| c.separation != Separation::Unknown)
            .count();
        (known, n(Separation::Lower), n(Separation::Higher))
    }

    pub fn verdict(&self) -> Verdict {
        let (known, lower, higher) = self.counts();
        if known == 0 {
            Verdict::Unknown
        } else if 4 * (lower + higher) <= known {
            Verdict::Agrees
        } else if lower >= 3 * higher {
            Verdict::Lower
        } else if higher >= 3 * lower {
            Verdict::Higher
        } else {
            Verdict::Mixed
        }
    }

    fn ratios(&self) -> Vec<f64> {
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
        (med(|c| cv(&c.a)), med(|c| cv(&c.b)))
    }
}

/// Side `a` against side `b`: the tables both printed, in `a`'s order of keys.
pub fn compare(a: &Side, b: &Side, metric: Metric) -> Vec<TableCmp> {
    let world = world_counts(&[a.clone(), b.clone()]);
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

/// The thread level each side ran under, "not printed" where its output does not say; a line
/// per side, and whether they differ.
fn thread_levels(sides: &[Side]) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut seen = Vec::new();
    for s in sides {
        let mut levels: Vec<String> = s
            .runs
            .iter()
            .map(|r| {
                r.thread_level
                    .clone()
                    .unwrap_or_else(|| "not printed".into())
            })
            .collect();
        levels.sort();
        levels.dedup();
        for l in &levels {
            if l != "not printed" && !seen.contains(l) {
                seen.push(l.clone());
            }
        }
        let title = s.runs.first().map_or("", |r| r.title.as_str());
        lines.push(format!(
            "#   {:<16} {:<28} {title}",
            s.label,
            levels.join(" / ")
        ));
    }
    (lines, seen.len() > 1)
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "-".to_string()
    }
}

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}", 100.0 * x)
    } else {
        "-".to_string()
    }
}

fn table_title(k: &TableKey) -> String {
    let mut t = format!("{}, {} processes", k.benchmark, k.processes);
    if k.groups > 1 {
        t = format!(
            "{}, {} groups of {} processes",
            k.benchmark, k.groups, k.processes
        );
    }
    if !k.mode.is_empty() {
        t.push_str(&format!(", {}", k.mode));
    }
    t
}

/// The whole report: thread levels first, then for each other side every shared table size by
/// size (unless `brief`), then one summary line per table and side.
pub fn report(sides: &[Side], metric: Metric, brief: bool) -> String {
    let mut s = String::new();
    let ours = &sides[0];
    let _ = writeln!(s, "# imb-compare agreement: metric {}", metric.name());
    for side in sides {
        // IMB 3.0 prints no closing line, so only imb-rs's and IMB 2021's runs can be missing it.
        let unfinished = side
            .runs
            .iter()
            .filter(|r| !r.finished && !r.title.contains("V3."))
            .count();
        let _ = write!(s, "# {}: {} launches", side.label, side.runs.len());
        if unfinished > 0 {
            let _ = write!(s, " ({unfinished} without their final line: cut short?)");
        }
        s.push('\n');
    }
    let (levels, mismatch) = thread_levels(sides);
    let _ = writeln!(s, "# MPI thread level of each side:");
    for l in levels {
        let _ = writeln!(s, "{l}");
    }
    if mismatch {
        let _ = writeln!(
            s,
            "# !! THREAD LEVEL MISMATCH: the sides ran under different MPI thread levels; small-message \
             times are not comparable (doc/METHODOLOGY.md, \"Agreement with IMB 3.0\"). Rerun imb-rs \
             with -thread_level set to the other side's level."
        );
    }
    let mut summary: Vec<(String, TableCmp)> = Vec::new();
    for other in &sides[1..] {
        let tables = compare(ours, other, metric);
        if !brief {
            let _ = writeln!(s, "\n# {} against {}", ours.label, other.label);
            for t in &tables {
                let _ = writeln!(s, "\n# {}: {}", table_title(&t.key), t.verdict().text());
                let _ = writeln!(
                    s,
                    "{:>10} {:>12} {:>12} {:>8} {:>8} {:>8}  launches",
                    "#bytes",
                    trunc(&ours.label, 12),
                    trunc(&other.label, 12),
                    "ratio",
                    "cv_a%",
                    "cv_b%"
                );
                for c in &t.cells {
                    let size = match (c.group, c.bytes) {
                        (Some(g), Some(b)) => format!("g{g}:{b}"),
                        (None, Some(b)) => b.to_string(),
                        (Some(g), None) => format!("g{g}"),
                        (None, None) => "-".to_string(),
                    };
                    let sep = match c.separation {
                        Separation::Lower => "all lower",
                        Separation::Higher => "all higher",
                        Separation::Overlap => "overlap",
                        Separation::Unknown => "-",
                    };
                    let _ = writeln!(
                        s,
                        "{:>10} {:>12} {:>12} {:>8} {:>8} {:>8}  {sep}",
                        size,
                        num(median(&c.a)),
                        num(median(&c.b)),
                        c.ratio.map_or("-".into(), |r| format!("{r:.3}")),
                        pct(cv(&c.a)),
                        pct(cv(&c.b)),
                    );
                }
            }
        }
        summary.extend(tables.into_iter().map(|t| (other.label.clone(), t)));
    }
    let _ = writeln!(
        s,
        "\n# Summary: {} against each other side (ratio = {} / other; medians over sizes)",
        ours.label, ours.label
    );
    let _ = writeln!(
        s,
        "{:<28} {:<14} {:>5} {:>8} {:>8} {:>8} {:>6} {:>6}  verdict",
        "#table", "other", "sizes", "ratio", "cv_a%", "cv_b%", "lower", "higher"
    );
    let mut all_ratios = Vec::new();
    let mut all_cv = (Vec::new(), Vec::new());
    for (label, t) in &summary {
        let (known, lower, higher) = t.counts();
        let (ca, cb) = t.median_cvs();
        all_ratios.extend(t.ratios());
        for c in &t.cells {
            all_cv.0.push(cv(&c.a));
            all_cv.1.push(cv(&c.b));
        }
        let _ = writeln!(
            s,
            "{:<28} {:<14} {:>5} {:>8} {:>8} {:>8} {:>6} {:>6}  {}",
            trunc(&table_title(&t.key), 28),
            trunc(label, 14),
            known,
            t.median_ratio().map_or("-".into(), |r| format!("{r:.3}")),
            pct(ca),
            pct(cb),
            lower,
            higher,
            t.verdict().text()
        );
    }
    let finite =
        |v: &Vec<f64>| -> Vec<f64> { v.iter().copied().filter(|x| x.is_finite()).collect() };
    let (ca, cb) = (finite(&all_cv.0), finite(&all_cv.1));
    if !all_ratios.is_empty() {
        let _ = writeln!(
            s,
            "# all {} cells: median ratio {:.3}; median launch-to-launch CV {} % (a), {} % (b)",
            all_ratios.len(),
            median(&all_ratios),
            if ca.is_empty() {
                "-".into()
            } else {
                pct(median(&ca))
            },
            if cb.is_empty() {
                "-".into()
            } else {
                pct(median(&cb))
            },
        );
    } else {
        let _ = writeln!(s, "# no cell was printed by both sides");
    }
    s
}

fn trunc(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::imbtext::parse;

    fn side(label: &str, launches: &[(&str, &[f64])]) -> Side {
        let runs = launches
            .iter()
            .map(|(level, ts)| {
                let mut text = format!(
                    "#    Intel (R) MPI Benchmark Suite V3.0, MPI-1 part\n\
                     # MPI Thread Environment: {level}\n\
                     # Benchmarking Allreduce \n# #processes = 2 \n\
                     #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
                );
                for (k, t) in ts.iter().enumerate() {
                    text.push_str(&format!("{} 1000 {t} {t} {t}\n", 4 << k));
                }
                text.push_str("\n# All processes entering MPI_Finalize\n");
                parse(label, &text).unwrap()
            })
            .collect();
        Side {
            label: label.to_string(),
            runs,
            files: Vec::new(),
        }
    }

    #[test]
    fn statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(cv(&[1.0]).is_nan());
        assert!((cv(&[1.0, 3.0]) - 2f64.sqrt() / 2.0).abs() < 1e-12);
    }

    #[test]
    fn separated_cells_make_the_verdict() {
        let lvl = "MPI_THREAD_SINGLE";
        let a = side(
            "ours",
            &[(lvl, &[0.2, 0.5]), (lvl, &[0.3, 0.5]), (lvl, &[0.25, 0.5])],
        );
        let b = side(
            "imb",
            &[(lvl, &[0.6, 0.4]), (lvl, &[0.7, 0.6]), (lvl, &[0.65, 0.5])],
        );
        let t = compare(&a, &b, Metric::T);
        assert_eq!(t.len(), 1);
        let seps: Vec<_> = t[0].cells.iter().map(|c| c.separation).collect();
        assert_eq!(seps, [Separation::Lower, Separation::Overlap]);
        assert_eq!(t[0].verdict(), Verdict::Lower);
        assert_eq!(t[0].cells[0].ratio, Some(0.25 / 0.65));
        let same = compare(&a, &a, Metric::T);
        assert_eq!(same[0].verdict(), Verdict::Agrees);
        let one = side("one", &[(lvl, &[0.2, 0.5])]);
        assert_eq!(compare(&one, &b, Metric::T)[0].verdict(), Verdict::Unknown);
    }

    #[test]
    fn thread_level_mismatch_comes_first() {
        let a = side(
            "ours",
            &[("MPI_THREAD_SINGLE", &[0.2]), ("MPI_THREAD_SINGLE", &[0.2])],
        );
        let b = side(
            "imb",
            &[
                ("MPI_THREAD_MULTIPLE", &[0.6]),
                ("MPI_THREAD_MULTIPLE", &[0.6]),
            ],
        );
        let r = report(&[a.clone(), b], Metric::T, false);
        let mismatch = r.find("THREAD LEVEL MISMATCH").expect(&r);
        assert!(mismatch < r.find("# ours against imb").unwrap(), "{r}");
        let r = report(&[a.clone(), a], Metric::T, true);
        assert!(!r.contains("MISMATCH"), "{r}");
        assert!(r.contains("agrees within noise"), "{r}");
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
