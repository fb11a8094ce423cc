//! Drawing a figure with plotters: its panels' bands, bounds, lines and marks, and the whole
//! SVG document.

use super::axes::{figure_label, figure_ticks, size_label, y_range};
use super::data::{axis_label, has_band, overlay, points, Figure, Overlay, Panel, Point};
use super::legend::{draw_legend, legend, LEGEND_ROW};
use crate::agree::{Metric, TableKey};
use crate::refs::{Outcome, Verdict};
use crate::report::table_title;
use crate::sides::Side;
use crate::stats::median;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Run colours; no red or orange, which mark failed and inconclusive sizes.
const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
    RGBColor(227, 119, 194),
];
pub(super) const FAIL: RGBColor = RGBColor(214, 0, 0);
pub(super) const UNDECIDED: RGBColor = RGBColor(255, 140, 0);
pub(super) const BOUND: RGBColor = RGBColor(64, 64, 64);
/// Dash and gap in pixels, one pattern a criterion so that two on a panel are told apart.
const DASHES: [(i32, i32); 4] = [(8, 4), (2, 3), (14, 4), (5, 8)];
/// A band is light enough that every line shows through it.
pub(super) const BAND_OPACITY: f64 = 0.2;

pub(super) fn colour(k: usize) -> RGBColor {
    COLOURS[k % COLOURS.len()]
}

pub(super) fn dash(j: usize) -> (i32, i32) {
    DASHES[j % DASHES.len()]
}

/// plotters' errors are generic over the backend; the user gets their words.
pub(super) fn words<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// One panel: bands under every line (no band hides another run's line), then the criteria's
/// bounds, the medians, and the marks of failed and inconclusive sizes on top.
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
        .chain(bound_points().map(|&(_, y)| y));
    let Some((y0, y1)) = y_range(ys) else {
        return Ok(());
    };
    let y = |v: f64| v.clamp(y0, y1);
    let xs = lines
        .iter()
        .flat_map(|(_, p, _)| p.iter().map(|q| q.x))
        .chain(bound_points().map(|&(b, _)| (b as f64).log2()));
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    // The x axis is log2 of the size, so that its ticks fall on IMB's powers of two; a single
    // size or figure still gets an axis around it.
    let (x0, x1) = (x0.floor() - 0.5, x1.ceil() + 0.5);
    let ticks = ((x1 - x0) as usize).clamp(2, 12);
    let (bold, light) = figure_ticks(y0, y1);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(
            x0..x1,
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
        .x_labels(ticks)
        .x_label_formatter(&|x| size_label(*x))
        .y_label_formatter(&|y| figure_label(*y))
        .axis_desc_style(("sans-serif", 14))
        .label_style(("sans-serif", 12))
        .bold_line_style(RGBColor(210, 210, 210))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()
        .map_err(words)?;
    for (k, p, band) in &lines {
        if !band || p.len() < 2 {
            continue;
        }
        let outline: Vec<(f64, f64)> = p
            .iter()
            .map(|q| (q.x, y(q.hi)))
            .chain(p.iter().rev().map(|q| (q.x, y(q.lo))))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                colour(*k).mix(BAND_OPACITY).filled(),
            )))
            .map_err(words)?;
    }
    for b in &over.bounds {
        let j = crits
            .iter()
            .position(|c| c.0 == b.criterion && c.1 == b.line)
            .unwrap_or(0);
        let (d, gap) = dash(j);
        for side in [&b.lower, &b.upper] {
            let mut pts: Vec<(f64, f64)> = side
                .iter()
                .map(|&(b, v)| ((b as f64).log2(), y(v)))
                .collect();
            // A bound on one size is a short level of its own, not an invisible point.
            if let [(x, v)] = pts[..] {
                pts = vec![(x - 0.35, v), (x + 0.35, v)];
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
    for (k, p, _) in &lines {
        let pts: Vec<(f64, f64)> = p.iter().map(|q| (q.x, y(q.median))).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour(*k).stroke_width(2)))
            .map_err(words)?;
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour(*k).filled())))
            .map_err(words)?;
    }
    let at = |side: &str, b: u64| {
        let v = panel.runs.get(side)?.get(&b).filter(|v| !v.is_empty())?;
        Some(((b as f64).log2(), y(median(v))))
    };
    let marked = |want: Verdict| {
        over.marks
            .iter()
            .filter(move |(_, v)| **v == want)
            .filter_map(|((side, b), _)| at(side, *b))
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
    let columns = legend(fig, sides, &overlays, &crits);
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
