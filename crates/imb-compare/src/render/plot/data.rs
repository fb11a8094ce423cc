//! What a figure plots: per table, its panels' figures by run and size, and what the criteria
//! draw over them.

use crate::judge::criteria::{Outcome, Verdict};
use crate::judge::stats::median;
use crate::read::key::{world_counts, Metric, TableKey};
use crate::read::run::Table;
use crate::read::sides::Side;
use std::collections::{BTreeMap, BTreeSet};

/// One run's figures in one panel: per size, one value a launch (its median over groups).
pub(super) type Launches = BTreeMap<u64, Vec<f64>>;

/// One panel of a figure: one metric's column against the size.
pub(super) struct Panel {
    pub(super) metric: Metric,
    /// The columns the tables gave for it ("t", "t_avg"), for the axis label.
    pub(super) columns: BTreeSet<String>,
    /// Per run, by label.
    pub(super) runs: BTreeMap<String, Launches>,
}

impl Panel {
    fn has_figures(&self) -> bool {
        self.runs.values().any(|l| !l.is_empty())
    }
}

/// One table's figure.
pub(super) struct Figure {
    /// The metric's panel first, then the bandwidth's where there is one.
    pub(super) panels: Vec<Panel>,
    /// Each column layout the table came in, without rows: which column a criterion reads.
    pub(super) layouts: Vec<Table>,
}

/// The metrics a figure plots: the compared one, and the bandwidth beside a time.
fn panel_metrics(metric: Metric) -> Vec<Metric> {
    if metric.higher_is_better() {
        vec![metric]
    } else {
        vec![metric, Metric::Mbytes]
    }
}

pub(super) fn collect(sides: &[&Side], metric: Metric) -> BTreeMap<TableKey, Figure> {
    let world = world_counts(sides);
    let metrics = panel_metrics(metric);
    let mut out: BTreeMap<TableKey, Figure> = BTreeMap::new();
    for s in sides {
        for run in &s.runs {
            // This launch's figures by table, panel and size: one a group.
            let mut launch: BTreeMap<(TableKey, usize), Launches> = BTreeMap::new();
            for t in &run.tables {
                let Some(bc) = t.column("bytes") else {
                    continue;
                };
                let key = TableKey::of(t, &world);
                let fig = out.entry(key.clone()).or_insert_with(|| Figure {
                    panels: metrics
                        .iter()
                        .map(|&metric| Panel {
                            metric,
                            columns: BTreeSet::new(),
                            runs: BTreeMap::new(),
                        })
                        .collect(),
                    layouts: Vec::new(),
                });
                if !fig.layouts.iter().any(|l| l.columns == t.columns) {
                    fig.layouts.push(Table {
                        rows: Vec::new(),
                        flags: Vec::new(),
                        ..t.clone()
                    });
                }
                for (k, m) in metrics.iter().enumerate() {
                    let Some(col) = m.column(t) else {
                        continue;
                    };
                    fig.panels[k].columns.insert(t.columns[col].clone());
                    let sizes = launch.entry((key.clone(), k)).or_default();
                    for row in &t.rows {
                        let (b, v) = (row[bc], row[col]);
                        // A logarithmic figure axis has no place for a 0 figure; 0 bytes has
                        // its own place on the size axis (axes::SizeAxis).
                        if b >= 0.0 && b.is_finite() && v > 0.0 && v.is_finite() {
                            sizes.entry(b as u64).or_default().push(v);
                        }
                    }
                }
            }
            for ((key, k), sizes) in launch {
                let Some(fig) = out.get_mut(&key) else {
                    continue;
                };
                let line = fig.panels[k].runs.entry(s.label.clone()).or_default();
                for (b, groups) in sizes {
                    line.entry(b).or_default().push(median(&groups));
                }
            }
        }
    }
    out.retain(|_, f| f.panels[0].has_figures());
    for f in out.values_mut() {
        f.panels.retain(Panel::has_figures);
    }
    out
}

/// The value axis's title: the column read and its unit (`t_max [usec]`, `Mbytes/sec`); runs
/// that read different columns for the metric (IMB's `t` and OSU's `t_avg`) name them all.
pub(super) fn axis_label(columns: &BTreeSet<String>) -> String {
    if columns.iter().all(|c| c == "mbytes") {
        return "Mbytes/sec".to_string();
    }
    if columns.iter().all(|c| c == "msg_per_s") {
        return "Msg/sec".to_string();
    }
    let names: Vec<&str> = columns.iter().map(String::as_str).collect();
    let time = columns.iter().all(|c| c.starts_with('t'));
    format!("{}{}", names.join(" / "), if time { " [usec]" } else { "" })
}

/// One size of a run's line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Point {
    pub(super) bytes: u64,
    pub(super) median: f64,
    /// The lowest and the highest launch.
    pub(super) lo: f64,
    pub(super) hi: f64,
}

pub(super) fn points(l: &Launches) -> Vec<Point> {
    l.iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(b, v)| Point {
            bytes: *b,
            median: median(v),
            lo: v.iter().copied().fold(f64::INFINITY, f64::min),
            hi: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
        .collect()
}

/// A band needs two launches: one launch's spread is not known.
pub(super) fn has_band(l: &Launches) -> bool {
    l.values().any(|v| v.len() > 1)
}

/// A criterion's bounds over the sizes it judged in one table.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Bound {
    pub(super) criterion: String,
    /// Its `[[criterion]]` line: two criteria may share a name.
    pub(super) line: usize,
    /// (size, figure) for reference·(1 + lower) and reference·(1 + upper); empty when
    /// unbounded on that side.
    pub(super) lower: Vec<(u64, f64)>,
    pub(super) upper: Vec<(u64, f64)>,
}

/// The interval a verdict used at one size of a new run, in the metric's unit: the interval of
/// the ratio figure/reference times the reference (criteria::SizeCheck). It is not the launches'
/// spread: against the baseline it is the Hodges–Lehmann interval of the launch pairs' ratios,
/// against a number the order statistics of the launches.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Interval {
    pub(super) side: String,
    pub(super) bytes: u64,
    pub(super) lo: f64,
    pub(super) hi: f64,
}

/// What the criteria draw on one panel.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Overlay {
    pub(super) bounds: Vec<Bound>,
    /// Per (new run, size), the worst verdict other than a pass, and the figures the sizes of
    /// that verdict judged (a `min` or `max` criterion's: its best or worst launch), where the
    /// mark goes; none known: on the run's median.
    pub(super) marks: BTreeMap<(String, u64), (Verdict, Vec<f64>)>,
    /// The verdicts' intervals, one a criterion, new run and size (a point for `min` and
    /// `max`, which are exact, is none).
    pub(super) intervals: Vec<Interval>,
}

/// The criteria's bounds and failed or inconclusive sizes on the panel of `metric` in table
/// `key`: those of criteria reading the same column as the panel in some layout of the table.
pub(super) fn overlay(
    outcomes: &[Outcome],
    key: &TableKey,
    layouts: &[Table],
    metric: Metric,
) -> Overlay {
    let mut o = Overlay::default();
    for out in outcomes {
        let c = &out.criterion;
        let same = layouts
            .iter()
            .any(|t| c.metric.column(t).is_some() && c.metric.column(t) == metric.column(t));
        if !same {
            continue;
        }
        // A Multi- table judges each group: one bound a size, from their median reference.
        let mut refs: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
        for s in out.sizes.iter().filter(|s| &s.table == key) {
            let Some(b) = s.bytes else {
                continue;
            };
            let drawable = |v: &f64| v.is_finite() && *v > 0.0;
            if let Some(r) = s.reference.filter(drawable) {
                refs.entry(b).or_default().push(r);
                if let Some((lo, hi)) = s.interval.filter(|(lo, hi)| lo < hi) {
                    let iv = Interval {
                        side: out.side.clone(),
                        bytes: b,
                        lo: lo * r,
                        hi: hi * r,
                    };
                    if drawable(&iv.lo) && drawable(&iv.hi) && !o.intervals.contains(&iv) {
                        o.intervals.push(iv);
                    }
                }
            }
            if let Some(v @ (Verdict::Fail | Verdict::Inconclusive)) = s.verdict {
                let e = o
                    .marks
                    .entry((out.side.clone(), b))
                    .or_insert((v, Vec::new()));
                if v > e.0 {
                    *e = (v, Vec::new());
                }
                if let Some(x) = s.value.filter(drawable) {
                    if v == e.0 && !e.1.contains(&x) {
                        e.1.push(x);
                    }
                }
            }
        }
        // Each new run's outcome has the same bounds (the baseline's or the number): once.
        if refs.is_empty()
            || o.bounds
                .iter()
                .any(|b| b.criterion == c.name && b.line == c.line)
        {
            continue;
        }
        let line = |tol: Option<f64>| -> Vec<(u64, f64)> {
            tol.map_or(Vec::new(), |t| {
                refs.iter()
                    .map(|(b, r)| (*b, median(r) * (1.0 + t)))
                    .filter(|(_, y)| *y > 0.0 && y.is_finite())
                    .collect()
            })
        };
        o.bounds.push(Bound {
            criterion: c.name.clone(),
            line: c.line,
            lower: line(c.lower),
            upper: line(c.upper),
        });
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::criteria::{self, Acceptance};
    use crate::render::plot::draw::svg;
    use crate::render::plot::fixtures::{key, launch, side_of, table, texts};

    #[test]
    fn the_first_panel_plots_the_metric_column() {
        let s = side_of("base", vec![launch(1.0)]);
        let values = |m: Metric, bench: &str| {
            let f = collect(&[&s], m);
            let p = &f[&key(bench)].panels;
            let v: Vec<f64> = p[0].runs["base"].values().map(|v| v[0]).collect();
            (axis_label(&p[0].columns), p.len(), v)
        };
        // 0 bytes included: the size axis has a place for it.
        assert_eq!(
            values(Metric::TMax, "Allreduce"),
            ("t_max [usec]".into(), 1, vec![0.3, 3.0, 6.0])
        );
        assert_eq!(
            values(Metric::TMin, "Allreduce"),
            ("t_min [usec]".into(), 1, vec![0.1, 1.0, 2.0])
        );
        assert_eq!(
            values(Metric::T, "Allreduce"),
            ("t_avg [usec]".into(), 1, vec![0.2, 2.0, 4.0])
        );
        // PingPong has only t: t_max reads it, and the bandwidth stands beside it.
        assert_eq!(
            values(Metric::TMax, "PingPong"),
            ("t [usec]".into(), 2, vec![1.0, 2.0])
        );
        assert_eq!(
            values(Metric::Mbytes, "PingPong"),
            ("Mbytes/sec".into(), 1, vec![4.0, 4.0])
        );
        // No column, no figure.
        assert!(!collect(&[&s], Metric::Mbytes).contains_key(&key("Allreduce")));
        assert!(collect(&[&s], Metric::TPure).is_empty());
        // The SVGs say so, and differ.
        let svg_of = |m: Metric| {
            let f = collect(&[&s], m);
            svg(&key("Allreduce"), &f[&key("Allreduce")], &[&s], &[]).unwrap()
        };
        let (t, tmax) = (svg_of(Metric::T), svg_of(Metric::TMax));
        assert_ne!(t, tmax);
        assert!(texts(&tmax).contains(&"t_max [usec]".to_string()));
        assert!(texts(&t).contains(&"t_avg [usec]".to_string()));
    }

    #[test]
    fn the_band_spans_the_launches_and_groups_count_once() {
        let s = side_of("base", vec![launch(1.0), launch(1.5), launch(1.2)]);
        let one = side_of("new", vec![launch(2.0)]);
        let f = collect(&[&s, &one], Metric::T);
        let p = &f[&key("PingPong")].panels[0];
        let pts = points(&p.runs["base"]);
        assert_eq!(
            pts[0],
            Point {
                bytes: 4,
                median: 1.2,
                lo: 1.0,
                hi: 1.5
            }
        );
        assert!(has_band(&p.runs["base"]) && !has_band(&p.runs["new"]));
        let doc = svg(&key("PingPong"), &f[&key("PingPong")], &[&s, &one], &[]).unwrap();
        let x = roxmltree::Document::parse(&doc).unwrap();
        let bands: Vec<_> = x
            .descendants()
            .filter(|n| n.has_tag_name("polygon"))
            .map(|n| (n.attribute("fill"), n.attribute("opacity")))
            .collect();
        // One band a panel, the first run's colour; the single launch has none.
        assert_eq!(bands, vec![(Some("#1F77B4"), Some("0.2")); 2], "{doc}");

        // A Multi- table's groups: one figure a launch, their median.
        let mut m = table(
            "Multi-Allreduce",
            &["group", "bytes", "repetitions", "t_min", "t_max", "t_avg"],
            &[
                &[0.0, 4.0, 10.0, 1.0, 1.0, 1.0],
                &[1.0, 4.0, 10.0, 3.0, 3.0, 3.0],
                &[2.0, 4.0, 10.0, 8.0, 8.0, 8.0],
            ],
        );
        m.groups = 3;
        let g = side_of("multi", vec![vec![m.clone()], vec![m]]);
        let f = collect(&[&g], Metric::TAvg);
        let (_, fig) = f.iter().next().unwrap();
        assert_eq!(fig.panels[0].runs["multi"][&4], vec![3.0, 3.0]);
    }

    #[test]
    fn criteria_draw_bounds_on_their_column_and_mark_sizes() {
        // Five launches a side: the fewest for which the median can fail at 95 %.
        let base = side_of("base", (0..5).map(|_| launch(1.0)).collect());
        let new = side_of("new", (0..5).map(|_| launch(2.0)).collect());
        let list = criteria::parse(
            "acc.toml",
            "[[criterion]]\nname = \"lat\"\nbenchmark = \"Allreduce\"\nmetric = \"t\"\n\
             reference = \"baseline\"\nupper = 0.25\n\
             [[criterion]]\nname = \"bw\"\nbenchmark = \"PingPong\"\nmetric = \"mbytes\"\n\
             reference = 1\nlower = -0.5\nupper = 0.5\n",
        )
        .unwrap();
        let outcomes: Vec<Outcome> = list
            .iter()
            .map(|c| criteria::evaluate(c, Some(&base), &new, &Acceptance::text_runs(), 0.95, 1))
            .collect();
        let f = collect(&[&base, &new], Metric::T);
        let fig = &f[&key("Allreduce")];
        let o = overlay(&outcomes, &key("Allreduce"), &fig.layouts, Metric::T);
        // The baseline's t_avg × 1.25, over the sizes judged, 0 bytes included.
        assert_eq!(o.bounds.len(), 1);
        assert_eq!(o.bounds[0].criterion, "lat");
        assert_eq!(o.bounds[0].upper, vec![(0, 0.25), (4, 2.5), (8, 5.0)]);
        assert!(o.bounds[0].lower.is_empty());
        let fails: Vec<_> = o
            .marks
            .iter()
            .map(|((s, b), (v, at))| (s.as_str(), *b, *v, at.clone()))
            .collect();
        // Each at the figure judged: the best launch's t_avg (0 bytes is unchanged: passed).
        assert_eq!(
            fails,
            [
                ("new", 4, Verdict::Fail, vec![4.0]),
                ("new", 8, Verdict::Fail, vec![8.0])
            ]
        );
        // min is exact: no interval to draw.
        assert!(o.intervals.is_empty(), "{:?}", o.intervals);
        // t_max reads another column: the criterion on t_avg is not its panel's.
        assert_eq!(
            overlay(&outcomes, &key("Allreduce"), &fig.layouts, Metric::TMax),
            Overlay::default()
        );
        // The bandwidth criterion is the PingPong bandwidth panel's, not its time panel's.
        let pp = &f[&key("PingPong")];
        assert!(overlay(&outcomes, &key("PingPong"), &pp.layouts, Metric::T)
            .bounds
            .is_empty());
        let bw = overlay(&outcomes, &key("PingPong"), &pp.layouts, Metric::Mbytes);
        assert_eq!(bw.bounds[0].lower, vec![(4, 0.5), (8, 0.5)]);
        assert_eq!(bw.bounds[0].upper, vec![(4, 1.5), (8, 1.5)]);

        let doc = svg(&key("Allreduce"), fig, &[&base, &new], &outcomes).unwrap();
        let t = texts(&doc);
        assert!(t.contains(&"bounds: lat".to_string()), "{t:?}");
        assert!(t.iter().any(|t| t.starts_with("FAIL")), "{t:?}");
        let x = roxmltree::Document::parse(&doc).unwrap();
        let stroke = |c: &str| {
            x.descendants()
                .filter(|n| n.attribute("stroke") == Some(c))
                .count()
        };
        // Two crosses of two strokes, and the legend's.
        assert_eq!(stroke("#D60000"), 6);
        assert!(stroke("#404040") >= 2);
    }
}
