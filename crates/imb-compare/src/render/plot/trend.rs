//! `trend --plot DIR`: the trend of one figure over stored runs, drawn as the comparison's plots
//! are (the same colours, band, marks, logarithmic value axis and legend under the panel): a
//! line through each run's median over its launches in a band from its lowest to its highest
//! launch, one point a run in date order; a change point is a red cross with a dashed line
//! down to the axis, a run that decided nothing an orange ring.

use super::axes::{figure_label, figure_ticks, y_range};
use super::legend::{draw_legend, Sample, LEGEND_ROW};
use super::style::{colour, words, BAND_OPACITY, BOUND, FAIL, UNDECIDED};
use super::{html_escape, put, PlotDir, MARKER, STYLE};
use crate::error::Error;
use crate::judge::stats::median;
use crate::judge::trend::{Mark, Trend};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// The SVG file's name: `trend-PingPong-np2-1024.svg`, `trend-Barrier-np2.svg`.
pub fn file_name(t: &Trend) -> String {
    let safe: String = t
        .query
        .benchmark
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let np = t
        .table
        .split(", ")
        .find_map(|p| p.strip_suffix(" processes"))
        .map(|p| format!("-np{p}"))
        .unwrap_or_default();
    let bytes = t.query.bytes.map_or(String::new(), |b| format!("-{b}"));
    format!("trend-{safe}{np}{bytes}.svg")
}

/// The trend's SVG document.
pub fn svg(t: &Trend) -> Result<String, String> {
    let pts: Vec<(f64, f64, f64, f64)> = t
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let lo = p.values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = p.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (i as f64, median(&p.values), lo, hi)
        })
        .collect();
    let (width, panel_h) = (760u32, 440u32);
    let legend_rows = 4;
    let height = panel_h + 16 + legend_rows * LEGEND_ROW as u32;
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(words)?;
        let (top, bottom) = root.split_vertically(panel_h);
        let Some((y0, y1)) = y_range(pts.iter().flat_map(|p| [p.1, p.2, p.3])) else {
            return Err("no positive figure to plot".to_string());
        };
        let x1 = (pts.len().max(2) - 1) as f64 + 0.5;
        let (bold, light) = figure_ticks(y0, y1);
        let caption = format!("{}: trend over stored runs", t.title());
        let labels: Vec<String> = t
            .points
            .iter()
            .map(|p| {
                let d = p.run.date();
                format!("{} {}", p.run.id, d.get(5..10).unwrap_or(d))
            })
            .collect();
        let mut chart = ChartBuilder::on(&top)
            .caption(caption, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(
                -0.5..x1,
                (y0..y1)
                    .log_scale()
                    .with_key_points(bold)
                    .with_light_points(light),
            )
            .map_err(words)?;
        let label_of = |x: &f64| {
            let k = x.round();
            if (x - k).abs() < 1e-6 && k >= 0.0 {
                labels.get(k as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_desc("stored run (number, month-day), in date order")
            .y_desc(t.column.clone())
            .x_labels(pts.len().clamp(2, 12))
            .x_label_formatter(&label_of)
            .y_label_formatter(&|v| figure_label(*v))
            .axis_desc_style(("sans-serif", 14))
            .label_style(("sans-serif", 12))
            .bold_line_style(RGBColor(210, 210, 210))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()
            .map_err(words)?;
        draw_trend(&mut chart, t, &pts, (y0, y1))?;
        let entries = legend_entries(t);
        draw_legend(&bottom, &[entries], width as i32)?;
        root.present().map_err(words)?;
    }
    Ok(buf)
}

/// The trend's legend: the run's line and band, a change point, an undecided run.
fn legend_entries(t: &Trend) -> Vec<(Sample, String)> {
    let system = t
        .points
        .first()
        .map(|p| p.run.system.as_str())
        .unwrap_or("-");
    vec![
        (
            Sample::Run {
                colour: 0,
                band: true,
            },
            format!(
                "system {system}: median over each run's launches, band lowest to highest launch"
            ),
        ),
        (
            Sample::Fail,
            format!(
                "change point: beyond the runs before it ({} % interval; doc/ACCEPTANCE.md, Trends)",
                crate::judge::criteria::percent(t.query.confidence)
            ),
        ),
        (
            Sample::Inconclusive,
            "undecided: too few launches for an interval".to_string(),
        ),
    ]
}

/// The trend's band (lowest to highest launch), its change points' dashed lines, its medians
/// and the marks of change points and undecided runs; `pts` are (x, median, lowest, highest).
fn draw_trend<DB: DrawingBackend, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, Y>>,
    t: &Trend,
    pts: &[(f64, f64, f64, f64)],
    (y0, y1): (f64, f64),
) -> Result<(), String> {
    let y = |v: f64| v.clamp(y0, y1);
    if pts.len() >= 2 {
        let outline: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.0, y(p.3)))
            .chain(pts.iter().rev().map(|p| (p.0, y(p.2))))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                colour(0).mix(BAND_OPACITY).filled(),
            )))
            .map_err(words)?;
    }
    // A change point's dashed line runs the panel's height, under the line and marks.
    for (p, q) in t.points.iter().zip(pts) {
        if matches!(p.mark, Mark::Change { .. }) {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(q.0, y0), (q.0, y1)],
                    6,
                    4,
                    BOUND.stroke_width(1),
                )))
                .map_err(words)?;
        }
    }
    let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, y(p.1))).collect();
    chart
        .draw_series(LineSeries::new(line.clone(), colour(0).stroke_width(2)))
        .map_err(words)?;
    chart
        .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour(0).filled())))
        .map_err(words)?;
    let at = |want: fn(&Mark) -> bool| {
        t.points
            .iter()
            .zip(&line)
            .filter(move |(p, _)| want(&p.mark))
            .map(|(_, &q)| q)
    };
    chart
        .draw_series(
            at(|m| *m == Mark::Undecided).map(|p| Circle::new(p, 7, UNDECIDED.stroke_width(2))),
        )
        .map_err(words)?;
    chart
        .draw_series(
            at(|m| matches!(m, Mark::Change { .. }))
                .map(|p| Cross::new(p, 6, FAIL.stroke_width(3))),
        )
        .map_err(words)?;
    Ok(())
}

/// Writes the trend's SVG and an index.html showing it (with the text table) into `out`.
pub fn write(out: &mut PlotDir, t: &Trend) -> Result<Vec<String>, Error> {
    let dir = out.path().to_string();
    let name = file_name(t);
    let text = svg(t).map_err(|m| Error::File {
        file: dir.clone(),
        msg: format!("{name}: {m}"),
    })?;
    let svg_path = put(out, &name, text.as_bytes())?;
    let title = html_escape(&format!("imb-compare trend: {}", t.title()));
    let index = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">{MARKER}\n<title>{title}</title>\n\
         <style>{STYLE}</style></head>\n<body>\n<h1>{title}</h1>\n<img src=\"{}\" alt=\"{title}\">\n\
         <pre>{}</pre>\n</body></html>\n",
        html_escape(&name),
        html_escape(&t.text())
    );
    let index_path = put(out, "index.html", index.as_bytes())?;
    Ok(vec![svg_path, index_path])
}
