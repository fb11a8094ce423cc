//! `trend`: one figure (a benchmark at one size, one metric) per stored run over time, with each
//! run's launch-to-launch spread and its change points (doc/ACCEPTANCE.md, "Trends").
//!
//! The change-point rule is the comparison's noise rule carried along a series. The runs are
//! taken in date order, in segments: a segment is the runs since the last change point. A run
//! is a change point when the interval of the ratio of its launches to the segment's launches
//! (the rank-based interval of [`crate::judge::stats::ratio_interval`], the one a comparison marks
//! changes by) lies entirely beyond the segment's own run-to-run range (each earlier run's
//! median over the segment's, and 1), and the medians differ by more than a text table
//! resolves. So a change must be beyond the noise between launches *and* beyond the noise
//! between runs seen so far; on a segment of one run the rule is the comparison's. A run then
//! starts a new segment. A run of fewer than two launches decides nothing (one launch shows no
//! noise of its own) and joins the segment; so does a run with too few launches for an
//! interval at the confidence asked.

pub use super::change::{change_points, Mark};
use crate::error::Error;
use crate::judge::stats::median;
use crate::read::key::Metric;
use crate::store::catalog::RunInfo;
use crate::store::select::Selector;
use crate::store::Store;

/// Which table of the benchmark: processes, groups, mode.
type TableAt = (Option<usize>, usize, Option<String>);

/// What the trend follows.
#[derive(Debug, Clone)]
pub struct Query {
    pub benchmark: String,
    /// The message size; `None` for a sizeless table (Barrier), whose rows have no #bytes.
    pub bytes: Option<u64>,
    pub processes: Option<usize>,
    pub metric: Metric,
    pub confidence: f64,
}

/// One run's point of the trend.
#[derive(Debug, Clone)]
pub struct Point {
    pub run: RunInfo,
    /// The figure of each launch that printed it unflagged (the median over groups).
    pub values: Vec<f64>,
    pub mark: Mark,
    /// Why the mark is [`Mark::Conditions`] or [`Mark::Excluded`].
    pub why: Option<String>,
}

/// A trend: the points, the table they come from, and the runs that had no figure.
#[derive(Debug, Clone)]
pub struct Trend {
    pub query: Query,
    /// "PingPong, 2 processes"; the column read.
    pub table: String,
    pub column: String,
    pub points: Vec<Point>,
    /// The runs without the figure, each with why: the table missing, the size not
    /// measured, or the figure flagged.
    pub without: Vec<(i64, String)>,
}

/// A stored run with the figures of the benchmark's tables it holds (by table), the tables
/// without the figure and why, and its launches (none read when it has no such table).
type RunCells = (RunInfo, Cells, Notes, Option<crate::read::sides::Side>);

/// A run's figures, by table.
type Cells = Vec<(TableAt, f64)>;

/// A run's tables without the figure, with why.
type Notes = Vec<(TableAt, String)>;

/// What the stored runs hold of a query: each run's cells, the tables found, the column read,
/// and whether tables were passed over for having sizes when none was asked (`sized`), or
/// none when one was (`sizeless`): what the error says when no table is left.
#[derive(Default)]
struct Gathered {
    per_run: Vec<RunCells>,
    found: Vec<TableAt>,
    column: String,
    sized: bool,
    sizeless: bool,
}

impl Store {
    /// The trend of `q` over the runs `sel` chooses (every run of `system` when `None`).
    pub fn trend(
        &self,
        q: Query,
        sel: Option<&Selector>,
        system: Option<&str>,
    ) -> Result<Trend, Error> {
        let mut runs = self.trend_runs(sel, system)?;
        runs.sort_by(|a, b| a.date().cmp(b.date()).then(a.id.cmp(&b.id)));
        let g = self.gather(&q, runs)?;
        let name = |k: &TableAt| {
            crate::read::key::table_title(&crate::read::key::TableKey {
                benchmark: q.benchmark.clone(),
                processes: k.0,
                groups: k.1,
                mode: k.2.clone().unwrap_or_default(),
            })
        };
        let key = self.chosen_table(&q, &g, &name)?;
        let mut points = Vec::new();
        let mut sides = Vec::new();
        let mut without = Vec::new();
        for (r, cells, notes, side) in g.per_run {
            let values: Vec<f64> = cells
                .into_iter()
                .filter(|(k, _)| *k == key)
                .map(|(_, v)| v)
                .collect();
            match side {
                Some(side) if !values.is_empty() => {
                    points.push(Point {
                        run: r,
                        values,
                        mark: Mark::Undecided,
                        why: None,
                    });
                    sides.push(side);
                }
                _ => {
                    let why = match notes.into_iter().find(|(k, _)| *k == key) {
                        Some((_, why)) => why,
                        None if side.is_none() => format!("no {}", q.benchmark),
                        None => format!("no {}", name(&key)),
                    };
                    without.push((r.id, why));
                }
            }
        }
        mark_series(&mut points, &sides, q.confidence);
        Ok(Trend {
            table: name(&key),
            column: g.column,
            query: q,
            points,
            without,
        })
    }

    /// The runs `sel` chooses, else every run of `system`, which must be one system's.
    fn trend_runs(
        &self,
        sel: Option<&Selector>,
        system: Option<&str>,
    ) -> Result<Vec<RunInfo>, Error> {
        Ok(match sel {
            Some(sel) => self.select(sel, system)?,
            None => {
                let runs: Vec<_> = self
                    .runs()?
                    .into_iter()
                    .filter(|r| system.is_none_or(|s| r.system == s))
                    .collect();
                let systems: std::collections::BTreeSet<&str> =
                    runs.iter().map(|r| r.system.as_str()).collect();
                match systems.len() {
                    0 => {
                        return Err(self.refuse(match system {
                            Some(s) => format!(
                                "no stored run of system {s} (imb-compare store list shows them)"
                            ),
                            None => "no stored run".to_string(),
                        }))
                    }
                    1 => {}
                    n => {
                        return Err(self.refuse(format!(
                            "runs of {n} systems ({}): name one with --system NAME",
                            systems.into_iter().collect::<Vec<_>>().join(", ")
                        )))
                    }
                }
                runs
            }
        })
    }

    /// Each run's figures of the benchmark `q` follows, reading only the runs that list it.
    fn gather(&self, q: &Query, runs: Vec<RunInfo>) -> Result<Gathered, Error> {
        let mut g = Gathered::default();
        let listed = |name: &str| {
            name == q.benchmark
                || name
                    .strip_prefix(q.benchmark.as_str())
                    .is_some_and(|rest| rest.starts_with(['/', ' ']))
        };
        for r in runs {
            // The listed tables spare reading the launches of runs without the benchmark.
            if !r.tables.iter().any(|t| listed(t)) {
                g.per_run.push((r, Vec::new(), Vec::new(), None));
                continue;
            }
            let side = self.side(format!("run {}", r.id), std::slice::from_ref(&r))?;
            let (cells, notes) = g.cells(q, &side);
            g.per_run.push((r, cells, notes, Some(side)));
        }
        Ok(g)
    }

    /// The one table of the benchmark the trend follows, or why there is none (sizes asked
    /// of a sizeless table or none of a sized one, every figure flagged, no such table) or
    /// several (`name` words a table).
    fn chosen_table(
        &self,
        q: &Query,
        g: &Gathered,
        name: &dyn Fn(&TableAt) -> String,
    ) -> Result<TableAt, Error> {
        let (found, per_run, sized, sizeless) = (&g.found, &g.per_run, g.sized, g.sizeless);
        Ok(match found.as_slice() {
            [] if sized => {
                return Err(Error::Arg {
                    arg: "--bytes".into(),
                    msg: format!(
                        "{}'s rows have message sizes: name one with --bytes N",
                        q.benchmark
                    ),
                })
            }
            [] if sizeless => {
                return Err(Error::Arg {
                    arg: "--bytes".into(),
                    msg: format!(
                        "{}'s rows have no message size (no #bytes): leave out --bytes",
                        q.benchmark
                    ),
                })
            }
            [] => {
                // Runs with the table but no figure at the size (flagged): said, with why.
                let mut flagged: Vec<String> = per_run
                    .iter()
                    .filter_map(|(r, _, notes, _)| {
                        notes
                            .iter()
                            .find(|(_, why)| why.starts_with("flagged"))
                            .map(|(_, why)| format!("run {} {why}", r.id))
                    })
                    .collect();
                if flagged.len() > 5 {
                    let more = flagged.len() - 5;
                    flagged.truncate(5);
                    flagged.push(format!("{more} more"));
                }
                return Err(self.refuse(
                    format!(
                        "no stored run has {}{}{}{}",
                        if flagged.is_empty() {
                            ""
                        } else {
                            "a figure of "
                        },
                        q.benchmark,
                        at_bytes(q.bytes),
                        q.processes
                            .map(|p| format!(" on {p} processes"))
                            .unwrap_or_default()
                    ) + &if flagged.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", flagged.join(", "))
                    },
                ));
            }
            [one] => one.clone(),
            many => {
                return Err(self.refuse(format!(
                    "{}{} is in tables of {}: choose one with --processes",
                    q.benchmark,
                    at_bytes(q.bytes),
                    many.iter().map(name).collect::<Vec<_>>().join("; ")
                )))
            }
        })
    }
}

impl Gathered {
    /// The figures of one run's launches (`side`) at the query's size, by table, and the
    /// tables that hold none there, with why (flagged, size not measured).
    fn cells(&mut self, q: &Query, side: &crate::read::sides::Side) -> (Cells, Notes) {
        let mut cells: Cells = Vec::new();
        let mut notes: Notes = Vec::new();
        for launch in &side.runs {
            for t in &launch.tables {
                if t.benchmark != q.benchmark || q.processes.is_some_and(|p| t.processes != Some(p))
                {
                    continue;
                }
                let Some(col) = q.metric.column(t) else {
                    continue;
                };
                let b = t.column("bytes");
                match (b, q.bytes) {
                    (Some(_), None) => self.sized = true,
                    (None, Some(_)) => self.sizeless = true,
                    _ => {}
                }
                if b.is_some() != q.bytes.is_some() {
                    continue;
                }
                let key = (t.processes, t.groups, t.mode.clone());
                if let Some(f) = t.flags_at(q.bytes).next() {
                    notes.push((key, format!("flagged {}", f.name())));
                    continue;
                }
                // A sizeless table's rows are its groups' (one row outside Multi- tables).
                let xs: Vec<f64> = t
                    .rows
                    .iter()
                    .filter(|row| b.is_none_or(|b| Some(row[b] as u64) == q.bytes))
                    .map(|row| row[col])
                    .collect();
                if xs.is_empty() {
                    notes.push((key, format!("not measured{}", at_bytes(q.bytes))));
                    continue;
                }
                if !self.found.contains(&key) {
                    self.found.push(key.clone());
                }
                self.column = match t.columns[col].as_str() {
                    "mbytes" => "Mbytes/sec".to_string(),
                    "msg_per_s" => "Msg/sec".to_string(),
                    c => format!("{c}[usec]"),
                };
                cells.push((key, median(&xs)));
            }
        }
        (cells, notes)
    }
}

/// Why a run is no whole measurement: oversubscribed, or a launch cut short.
fn not_whole(side: &crate::read::sides::Side) -> Option<String> {
    side.runs.iter().find_map(|r| {
        r.oversubscribed
            .as_ref()
            .map(|o| {
                format!(
                    "oversubscribed ({})",
                    o.split(" (oversubscribed)").next().unwrap_or(o)
                )
            })
            .or_else(|| r.status.cut_short().map(|w| format!("cut short ({w})")))
    })
}

/// The change points of `points` (each with its run's launches in `sides`): runs that are no
/// whole measurement are left out of the series, and a run whose conditions differ from the
/// run before it starts a new series instead of being judged against it, as `@1 @2` would say
/// `conditions differ` instead of comparing figures.
fn mark_series(points: &mut [Point], sides: &[crate::read::sides::Side], confidence: f64) {
    let mut series: Vec<usize> = Vec::new();
    let mut before: Option<usize> = None;
    let flush = |series: &mut Vec<usize>, points: &mut [Point]| {
        let values: Vec<Vec<f64>> = series.iter().map(|&i| points[i].values.clone()).collect();
        for (&i, m) in series.iter().zip(change_points(&values, confidence)) {
            // The first of a series after a break keeps the break's mark.
            if points[i].mark != Mark::Conditions {
                points[i].mark = m;
            }
        }
        series.clear();
    };
    for i in 0..points.len() {
        if let Some(why) = not_whole(&sides[i]) {
            points[i].mark = Mark::Excluded;
            points[i].why = Some(why);
            continue;
        }
        let mut diffs = crate::conditions::side_differences((&sides[i], "this run"));
        if let Some(b) = before {
            diffs.extend(crate::conditions::run_differences(
                (&sides[b], "before"),
                (&sides[i], "this run"),
            ));
        }
        if !diffs.is_empty() {
            flush(&mut series, points);
            points[i].mark = Mark::Conditions;
            let texts: Vec<&str> = diffs.iter().map(|d| d.text.as_str()).collect();
            points[i].why = Some(texts.join("; "));
        }
        series.push(i);
        before = Some(i);
    }
    flush(&mut series, points);
}

/// " at 1024 bytes", or nothing for a sizeless table.
pub fn at_bytes(bytes: Option<u64>) -> String {
    bytes.map_or(String::new(), |b| format!(" at {b} bytes"))
}

impl Trend {
    /// "PingPong, 2 processes, 1024 bytes", or "Barrier, 2 processes" for a sizeless table.
    pub fn title(&self) -> String {
        match self.query.bytes {
            Some(b) => format!("{}, {b} bytes", self.table),
            None => self.table.clone(),
        }
    }

    /// Whether a higher figure is worse (a time) rather than better (a bandwidth).
    pub fn higher_is_worse(&self) -> bool {
        !self.query.metric.higher_is_better()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Five launches around `level` with the same launch-to-launch pattern (about 2 %).
    fn run(level: f64, shift: usize) -> Vec<f64> {
        let pattern = [0.0, 0.02, -0.015, 0.01, -0.02, 0.025, -0.005];
        (0..5)
            .map(|k| level * (1.0 + pattern[(k + shift) % pattern.len()]))
            .collect()
    }

    #[test]
    fn a_step_is_one_change_point() {
        let mut runs: Vec<Vec<f64>> = (0..4).map(|k| run(10.0, k)).collect();
        runs.extend((4..8).map(|k| run(12.0, k)));
        let m = change_points(&runs, 0.95);
        assert_eq!(m[0], Mark::First);
        let changes: Vec<usize> = m
            .iter()
            .enumerate()
            .filter(|(_, x)| matches!(x, Mark::Change { .. }))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(changes, [4], "{m:?}");
        let Mark::Change {
            up,
            ratio,
            interval,
        } = m[4]
        else {
            unreachable!()
        };
        assert!(up && (ratio - 1.2).abs() < 0.03, "{ratio}");
        assert!(interval.0 > 1.1 && interval.1 < 1.3, "{interval:?}");
        // A step down is found the same way.
        let down: Vec<Vec<f64>> = runs.iter().rev().cloned().collect();
        let m = change_points(&down, 0.95);
        assert!(matches!(m[4], Mark::Change { up: false, .. }), "{m:?}");
    }

    #[test]
    fn noise_between_runs_finds_none() {
        // Each run's level wanders by up to 3 %, beyond any one run's launch noise: the first
        // runs against one run alone could not tell, but none moves beyond the range of the
        // runs before it once it has one.
        let levels = [10.0, 10.0, 10.2, 9.9, 10.1, 9.95, 10.15, 10.05, 9.92, 10.18];
        let runs: Vec<Vec<f64>> = levels.iter().enumerate().map(|(k, l)| run(*l, k)).collect();
        let m = change_points(&runs, 0.95);
        assert!(m.iter().skip(1).all(|x| *x == Mark::Same), "{m:?}");
        // The same runs with a 6 % step from the sixth are found, though: the rule sees steps
        // beyond what the runs before did.
        let stepped: Vec<Vec<f64>> = runs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                r.iter()
                    .map(|x| if k >= 5 { x * 1.06 } else { *x })
                    .collect()
            })
            .collect();
        let m = change_points(&stepped, 0.95);
        assert!(matches!(m[5], Mark::Change { up: true, .. }), "{m:?}");
        // Pure launch noise around one level: none either.
        let flat: Vec<Vec<f64>> = (0..12).map(|k| run(10.0, k)).collect();
        let m = change_points(&flat, 0.95);
        assert!(m.iter().skip(1).all(|x| *x == Mark::Same), "{m:?}");
    }

    #[test]
    fn one_launch_runs_decide_nothing() {
        let runs: Vec<Vec<f64>> = [10.0, 10.1, 9.9, 30.0, 30.0, 31.0]
            .iter()
            .map(|x| vec![*x])
            .collect();
        let m = change_points(&runs, 0.95);
        assert_eq!(m[0], Mark::First);
        assert!(m[1..].iter().all(|x| *x == Mark::Undecided), "{m:?}");
        // A run with launches after one-launch runs is held against all of them.
        let mut runs = runs;
        runs.push(run(30.0, 0));
        let m = change_points(&runs, 0.95);
        assert!(!matches!(m[6], Mark::Change { .. }), "{m:?}");
        // Empty runs neither start nor join a segment.
        assert_eq!(change_points(&[vec![], run(1.0, 0)], 0.95)[1], Mark::First);
    }
}
