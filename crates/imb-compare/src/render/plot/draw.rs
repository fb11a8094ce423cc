//! Drawing a figure with plotters: its panels' bands, bounds, lines and marks, and the whole
//! SVG document.

use super::axes::{figure_label, figure_ticks, y_range, SizeAxis, SizeCoord};
use super::data::{axis_label, has_band, overlay, points, Figure, Overlay, Panel, Point};
use super::legend::{draw_legend, legend, LEGEND_ROW};
use super::style::{colour, dash, words, BAND_OPACITY, BOUND, FAIL, GAP, UNDECIDED};
use crate::judge::criteria::{Outcome, Verdict};
use crate::judge::stats::median;
use crate::read::key::table_title;
use crate::read::key::{Metric, TableKey};
use crate::read::sides::Side;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Where a size and a figure sit on a panel: the size axis, and the figure clamped to the
/// panel's range.
struct Place<'a> {
    axis: &'a SizeAxis,
    y0: f64,
    y1: f64,
}

impl Place<'_> {
    fn x(&self, b: u64) -> f64 {
        self.axis.x(b)
    }

    fn y(&self, v: f64) -> f64 {
        v.clamp(self.y0, self.y1)
    }
}

/// A panel's chart: sizes across, figures up (a log scale with its key points).
type Chart<'a, DB, Y> = ChartContext<'a, DB, Cartesian2d<SizeCoord, Y>>;

/// A run's line on a panel: its colour index, its points, whether it has a band.
type Line = (usize, Vec<Point>, bool);

/// One panel: bands under every line (no band hides another run's line), then the criteria's
/// bounds, the medians, the verdicts' intervals, and the marks of failed and inconclusive
/// sizes on top.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    panel: &Panel,
    order: &[String],
    over: &Overlay,
    crits: &[(String, usize)],
) -> Result<(), String> {
    let lines: Vec<(usize, Vec<Point>, bool)> = order
        .iter()
        .enumerate()
        .filter_map(|(k, label)| {
            let l = panel.runs.get(label)?;
            let p = points(l);
            (!p.is_empty()).then(|| (k, p, has_band(l)))
        })
        .collect();
    if lines.is_empty() {
        return Ok(());
    }
    let bound_points = || {
        over.bounds
            .iter()
            .flat_map(|b| b.lower.iter().chain(&b.upper))
    };
    let ys = lines
        .iter()
        .flat_map(|(_, p, _)| p.iter().flat_map(|q| [q.median, q.lo, q.hi]))
        .chain(bound_points().map(|&(_, y)| y))
        .chain(over.intervals.iter().flat_map(|i| [i.lo, i.hi]))
        .chain(over.marks.values().flat_map(|(_, at)| at.iter().copied()));
    let Some((y0, y1)) = y_range(ys) else {
        return Ok(());
    };
    let sizes = lines
        .iter()
        .flat_map(|(_, p, _)| p.iter().map(|q| q.bytes))
        .chain(bound_points().map(|&(b, _)| b))
        .chain(over.intervals.iter().map(|i| i.bytes));
    let Some(axis) = SizeAxis::new(sizes) else {
        return Ok(());
    };
    let (bold, light) = figure_ticks(y0, y1);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(
            SizeCoord::of(&axis),
            (y0..y1)
                .log_scale()
                .with_key_points(bold)
                .with_light_points(light),
        )
        .map_err(words)?;
    chart
        .configure_mesh()
        .x_desc("message size [bytes], log scale")
        .y_desc(axis_label(&panel.columns))
        .x_label_formatter(&|v| axis.label(*v))
        .y_label_formatter(&|v| figure_label(*v))
        .axis_desc_style(("sans-serif", 14))
        .label_style(("sans-serif", 12))
        .bold_line_style(RGBColor(210, 210, 210))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()
        .map_err(words)?;
    if let Some(g) = axis.gap() {
        draw_gap(&mut chart, g, (y0, y1))?;
    }
    let at = Place {
        axis: &axis,
        y0,
        y1,
    };
    draw_bands(&mut chart, &lines, &at)?;
    draw_bounds(&mut chart, over, crits, &at)?;
    draw_medians(&mut chart, &lines, &at)?;
    draw_intervals(&mut chart, over, order, &at)?;
    draw_marks(&mut chart, panel, over, &at)
}

/// The break between 0 bytes and the rest, at `g`: a light line up the panel and a double
/// slash on the size axis. (Solid: a dashed line is an SVG element a dash.)
fn draw_gap<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, DB, Y>,
    g: f64,
    (y0, y1): (f64, f64),
) -> Result<(), String> {
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(g, y0), (g, y1)],
            GAP.stroke_width(1),
        )))
        .map_err(words)?;
    let slash = |dx: i32| PathElement::new(vec![(dx - 4, 6), (dx + 4, -6)], BOUND.stroke_width(2));
    chart
        .draw_series(std::iter::once(
            EmptyElement::at((g, y0)) + slash(-3) + slash(3),
        ))
        .map_err(words)?;
    Ok(())
}

/// Each run's band (lowest to highest launch), under every line.
fn draw_bands<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, DB, Y>,
    lines: &[Line],
    at: &Place,
) -> Result<(), String> {
    for (k, p, band) in lines {
        if !band {
            continue;
        }
        // A band joins the sizes right of the break; 0 bytes' spread is a bar of its own.
        let (zero, rest): (Vec<&Point>, Vec<&Point>) = p.iter().partition(|q| q.bytes == 0);
        let fill = colour(*k).mix(BAND_OPACITY).filled();
        if rest.len() >= 2 {
            let outline: Vec<(f64, f64)> = rest
                .iter()
                .map(|q| (at.x(q.bytes), at.y(q.hi)))
                .chain(rest.iter().rev().map(|q| (at.x(q.bytes), at.y(q.lo))))
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(outline, fill)))
                .map_err(words)?;
        }
        for q in zero
            .iter()
            .chain(if rest.len() == 1 { &rest[..] } else { &[] })
        {
            let c = at.x(q.bytes);
            let outline = vec![
                (c - 0.2, at.y(q.hi)),
                (c + 0.2, at.y(q.hi)),
                (c + 0.2, at.y(q.lo)),
                (c - 0.2, at.y(q.lo)),
            ];
            chart
                .draw_series(std::iter::once(Polygon::new(outline, fill)))
                .map_err(words)?;
        }
    }
    Ok(())
}

/// The criteria's bounds, one dash pattern a criterion (`crits`).
fn draw_bounds<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, DB, Y>,
    over: &Overlay,
    crits: &[(String, usize)],
    at: &Place,
) -> Result<(), String> {
    for b in &over.bounds {
        let j = crits
            .iter()
            .position(|c| c.0 == b.criterion && c.1 == b.line)
            .unwrap_or(0);
        let (d, gap) = dash(j);
        for side in [&b.lower, &b.upper] {
            // 0 bytes' level apart, left of the break.
            for zero in [true, false] {
                let mut pts: Vec<(f64, f64)> = side
                    .iter()
                    .filter(|p| (p.0 == 0) == zero)
                    .map(|&(b, v)| (at.x(b), at.y(v)))
                    .collect();
                // A bound on one size is a short level of its own, not an invisible point.
                if let [(c, v)] = pts[..] {
                    pts = vec![(c - 0.35, v), (c + 0.35, v)];
                }
                if pts.len() < 2 {
                    continue;
                }
                chart
                    .draw_series(std::iter::once(DashedPathElement::new(
                        pts,
                        d,
                        gap,
                        BOUND.stroke_width(2),
                    )))
                    .map_err(words)?;
            }
        }
    }
    Ok(())
}

/// Each run's medians: a line right of the break, a point at every size.
fn draw_medians<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, DB, Y>,
    lines: &[Line],
    at: &Place,
) -> Result<(), String> {
    for (k, p, _) in lines {
        // No line across the break: the distance from 0 bytes to the next size is no size.
        let pts: Vec<(f64, f64)> = p.iter().map(|q| (at.x(q.bytes), at.y(q.median))).collect();
        let rest: Vec<(f64, f64)> = p
            .iter()
            .filter(|q| q.bytes > 0)
            .map(|q| (at.x(q.bytes), at.y(q.median)))
            .collect();
        chart
            .draw_series(LineSeries::new(rest, colour(*k).stroke_width(2)))
            .map_err(words)?;
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour(*k).filled())))
            .map_err(words)?;
    }
    Ok(())
}

/// Each verdict's interval as an error bar in its run's colour, over the light band.
fn draw_intervals<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, DB, Y>,
    over: &Overlay,
    order: &[String],
    at: &Place,
) -> Result<(), String> {
    for i in &over.intervals {
        let Some(k) = order.iter().position(|l| *l == i.side) else {
            continue;
        };
        let style = colour(k).stroke_width(2);
        let c = at.x(i.bytes);
        let cap = || PathElement::new(vec![(-5, 0), (5, 0)], style);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(c, at.y(i.lo)), (c, at.y(i.hi))],
                style,
            )))
            .map_err(words)?;
        chart
            .draw_series([
                EmptyElement::at((c, at.y(i.lo))) + cap(),
                EmptyElement::at((c, at.y(i.hi))) + cap(),
            ])
            .map_err(words)?;
    }
    Ok(())
}

/// The marks of failed (a cross) and inconclusive (a ring) sizes, at each launch's figure,
/// else at the run's median there.
fn draw_marks<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, DB, Y>,
    panel: &Panel,
    over: &Overlay,
    at: &Place,
) -> Result<(), String> {
    let spot = |side: &str, b: u64, values: &[f64]| -> Vec<(f64, f64)> {
        if !values.is_empty() {
            return values.iter().map(|v| (at.x(b), at.y(*v))).collect();
        }
        let median = panel
            .runs
            .get(side)
            .and_then(|l| l.get(&b))
            .filter(|v| !v.is_empty())
            .map(|v| median(v));
        median.map(|m| vec![(at.x(b), at.y(m))]).unwrap_or_default()
    };
    let marked = |want: Verdict| {
        over.marks
            .iter()
            .filter(move |(_, (v, _))| *v == want)
            .flat_map(move |((side, b), (_, values))| spot(side, *b, values))
    };
    chart
        .draw_series(
            marked(Verdict::Inconclusive).map(|p| Circle::new(p, 7, UNDECIDED.stroke_width(2))),
        )
        .map_err(words)?;
    chart
        .draw_series(marked(Verdict::Fail).map(|p| Cross::new(p, 6, FAIL.stroke_width(3))))
        .map_err(words)?;
    Ok(())
}

/// One table's SVG document.
pub(super) fn svg(
    key: &TableKey,
    fig: &Figure,
    sides: &[&Side],
    outcomes: &[Outcome],
) -> Result<String, String> {
    let order: Vec<String> = sides.iter().map(|s| s.label.clone()).collect();
    let overlays: Vec<Overlay> = fig
        .panels
        .iter()
        .map(|p| overlay(outcomes, key, &fig.layouts, p.metric))
        .collect();
    // One dash a criterion, the same in both panels and the legend.
    let mut crits: Vec<(String, usize)> = Vec::new();
    for b in overlays.iter().flat_map(|o| &o.bounds) {
        let id = (b.criterion.clone(), b.line);
        if !crits.contains(&id) {
            crits.push(id);
        }
    }
    let confidence = outcomes.first().map_or(0.95, |o| o.confidence);
    let columns = legend(fig, sides, &overlays, &crits, confidence);
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0) as u32;
    let (panel_w, panel_h) = (550u32, 440u32);
    let width = if fig.panels.len() > 1 {
        panel_w * fig.panels.len() as u32
    } else {
        560
    };
    let height = panel_h + 16 + rows * LEGEND_ROW as u32;
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(words)?;
        let (top, bottom) = root.split_vertically(panel_h);
        let title = table_title(key);
        let areas = top.split_evenly((1, fig.panels.len()));
        for ((p, a), o) in fig.panels.iter().zip(&areas).zip(&overlays) {
            let what = match p.metric {
                Metric::Mbytes => "bandwidth",
                Metric::MsgPerS => "message rate",
                _ => "time",
            };
            draw_panel(a, &format!("{title}: {what}"), p, &order, o, &crits)?;
        }
        draw_legend(&bottom, &columns, (width / columns.len() as u32) as i32)?;
        root.present().map_err(words)?;
    }
    Ok(buf)
}
