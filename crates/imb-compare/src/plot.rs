//! `--plot DIR`: per table (benchmark, process count, groups, mode) one SVG with the time and,
//! where the table has it, the bandwidth against the message size, both axes logarithmic, one
//! line per run (the median over its launches and groups), and an `index.html` showing them
//! all. Pure Rust (plotters' SVG backend; text is SVG `<text>`, no font files).

use crate::agree::{world_counts, Metric, TableKey};
use crate::comparison::Comparison;
use crate::error::Error;
use crate::report::table_title;
use crate::sides::Side;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// In every index.html we write: a directory holding one is ours to write into again.
pub const MARKER: &str = "<meta name=\"generator\" content=\"imb-compare --plot\">";

/// Per run, per size, every value (launches × groups).
type Series = BTreeMap<String, BTreeMap<u64, Vec<f64>>>;

#[derive(Default)]
struct Panels {
    time: Series,
    bandwidth: Series,
}

fn collect(sides: &[&Side]) -> BTreeMap<TableKey, Panels> {
    let world = world_counts(sides);
    let mut out: BTreeMap<TableKey, Panels> = BTreeMap::new();
    for s in sides {
        for t in s.runs.iter().flat_map(|r| &r.tables) {
            let Some(bc) = t.column("bytes") else {
                continue;
            };
            let p = out.entry(TableKey::of(t, &world)).or_default();
            for (col, series) in [
                (Metric::T.column(t), &mut p.time),
                (t.column("mbytes"), &mut p.bandwidth),
            ] {
                let Some(col) = col else {
                    continue;
                };
                let line = series.entry(s.label.clone()).or_default();
                for row in &t.rows {
                    // A logarithmic axis has no place for 0 bytes or a 0 figure.
                    if row[bc] > 0.0 && row[col] > 0.0 && row[col].is_finite() {
                        line.entry(row[bc] as u64).or_default().push(row[col]);
                    }
                }
            }
        }
    }
    out.retain(|_, p| p.time.values().any(|l| !l.is_empty()));
    out
}

/// The SVG file's name for a table.
pub fn file_name(k: &TableKey) -> String {
    let mut n = format!("{}-np{}", k.benchmark, k.processes);
    if k.groups > 1 {
        n.push_str(&format!("-g{}", k.groups));
    }
    if !k.mode.is_empty() {
        n.push_str(&format!("-{}", k.mode.to_lowercase()));
    }
    let n: String = n
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{n}.svg")
}

/// A tick of the log2 size axis: "1", "512", "64K", "4M"; nothing between powers of two.
fn size_label(x: f64) -> String {
    if (x - x.round()).abs() > 1e-6 || x < 0.0 {
        return String::new();
    }
    let b = 1u64 << (x.round() as u32).min(62);
    match b {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}K", b >> 10),
        b => b.to_string(),
    }
}

/// A tick of the figure axis, with as few digits as tell the ticks apart.
fn figure_label(y: f64) -> String {
    if y >= 100.0 {
        format!("{y:.0}")
    } else if y >= 1.0 {
        format!("{y:.1}")
    } else {
        format!("{y:.2}")
    }
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    y_desc: &str,
    series: &Series,
    order: &[String],
) -> Result<(), String> {
    let med: Vec<(usize, Vec<(f64, f64)>)> = order
        .iter()
        .enumerate()
        .filter_map(|(k, label)| {
            let l = series.get(label)?;
            let pts: Vec<(f64, f64)> = l
                .iter()
                .map(|(b, v)| ((*b as f64).log2(), crate::stats::median(v)))
                .collect();
            (!pts.is_empty()).then_some((k, pts))
        })
        .collect();
    if med.is_empty() {
        return Ok(());
    }
    let all = med.iter().flat_map(|(_, p)| p.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    // The x axis is log2 of the size, so that its ticks fall on IMB's powers of two; a single
    // size or figure still gets an axis around it.
    let (x0, x1) = (x0.floor() - 0.5, x1.ceil() + 0.5);
    let (y0, y1) = (y0 / 1.5, y1 * 1.5);
    let ticks = ((x1 - x0) as usize).clamp(2, 12);
    let e = |e: plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, (y0..y1).log_scale())
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("message size [bytes], log scale")
        .y_desc(y_desc)
        .x_labels(ticks)
        .x_label_formatter(&|x| size_label(*x))
        .y_label_formatter(&|y| figure_label(*y))
        .draw()
        .map_err(e)?;
    for (k, pts) in med {
        let colour = COLOURS[k % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
            .map_err(e)?
            .label(order[k].clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(e)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(e)?;
    Ok(())
}

/// One table's SVG document.
fn svg(key: &TableKey, p: &Panels, order: &[String]) -> Result<String, String> {
    let mut buf = String::new();
    {
        let two = p.bandwidth.values().any(|l| !l.is_empty());
        let size = if two { (1100, 440) } else { (560, 440) };
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let title = table_title(key);
        if two {
            let (l, r) = root.split_horizontally(550);
            draw_panel(&l, &format!("{title}: time"), "t [usec]", &p.time, order)?;
            draw_panel(
                &r,
                &format!("{title}: bandwidth"),
                "Mbytes/sec",
                &p.bandwidth,
                order,
            )?;
        } else {
            draw_panel(&root, &format!("{title}: time"), "t [usec]", &p.time, order)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(buf)
}

fn html_escape(s: &str) -> String {
    crate::export::junit::escape(s)
}

/// Make `dir` ready for plots: made when missing; an existing directory must be empty or one
/// we wrote before (its index.html carries [`MARKER`]), so no file of anyone else's is replaced.
pub fn prepare(dir: &str) -> Result<(), Error> {
    let fail = |msg: String| Error::File {
        file: dir.to_string(),
        msg,
    };
    let d = Path::new(dir);
    if std::fs::symlink_metadata(d).is_err() {
        return std::fs::create_dir_all(d).map_err(|e| fail(e.to_string()));
    }
    if !std::fs::metadata(d).is_ok_and(|m| m.is_dir()) {
        return Err(fail("exists and is not a directory".to_string()));
    }
    let mut entries = std::fs::read_dir(d).map_err(|e| fail(e.to_string()))?;
    let ours = std::fs::read_to_string(d.join("index.html")).is_ok_and(|t| t.contains(MARKER));
    if entries.next().is_some() && !ours {
        return Err(fail(
            "a directory with files not written by imb-compare --plot: name a new or empty one"
                .to_string(),
        ));
    }
    Ok(())
}

/// Write the plots of the comparison's runs into `dir`, made ready by [`prepare`]. Returns the
/// files written.
pub fn write(dir: &str, c: &Comparison) -> Result<Vec<String>, Error> {
    let sides = &c.sides()[..];
    let fail = |msg: String| Error::File {
        file: dir.to_string(),
        msg,
    };
    let d = Path::new(dir);
    let order: Vec<String> = sides.iter().map(|s| s.label.clone()).collect();
    let mut written = Vec::new();
    let mut index = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">{MARKER}\n\
         <title>imb-compare: {}</title></head>\n<body>\n<h1>imb-compare: {}</h1>\n",
        html_escape(&order.join(", ")),
        html_escape(&order.join(", "))
    );
    for (key, panels) in collect(sides) {
        let name = file_name(&key);
        let text = svg(&key, &panels, &order).map_err(|m| fail(format!("{name}: {m}")))?;
        let path = d.join(&name).to_string_lossy().into_owned();
        put(&path, text.as_bytes())?;
        index.push_str(&format!(
            "<h2>{}</h2>\n<img src=\"{}\" alt=\"{}\">\n",
            html_escape(&table_title(&key)),
            html_escape(&name),
            html_escape(&table_title(&key))
        ));
        written.push(path);
    }
    index.push_str("</body></html>\n");
    let path = d.join("index.html").to_string_lossy().into_owned();
    put(&path, index.as_bytes())?;
    written.push(path);
    Ok(written)
}

/// Write through a temporary file and a rename, as every output file of imb-rs.
fn put(path: &str, bytes: &[u8]) -> Result<(), Error> {
    let out = imb_core::safefile::OutFile::check("--plot", path).map_err(|e| Error::File {
        file: path.to_string(),
        msg: e.to_string(),
    })?;
    out.write(bytes).map_err(|e| Error::File {
        file: path.to_string(),
        msg: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agree::fixture_side as side;

    #[test]
    fn one_line_per_run() {
        let a = side("base", &[("x", &[1.0, 2.0, 4.0])]);
        let b = side("new", &[("x", &[1.5, 2.5, 5.0]), ("x", &[1.4, 2.6, 5.2])]);
        let c = collect(&[&a, &b]);
        assert_eq!(
            [
                size_label(0.0),
                size_label(9.0),
                size_label(16.0),
                size_label(22.0)
            ],
            ["1", "512", "64K", "4M"]
        );
        assert_eq!(size_label(2.5), "");
        let (key, p) = c.iter().next().unwrap();
        assert_eq!(file_name(key), "Allreduce-np2.svg");
        let doc = svg(key, p, &["base".into(), "new".into()]).unwrap();
        let x = roxmltree::Document::parse(&doc).unwrap();
        let lines = x
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .count();
        // Two runs, each a line in the chart and a sample in the legend.
        assert!(lines >= 2, "{lines}");
        let texts: Vec<&str> = x
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        assert!(
            texts.contains(&"base") && texts.contains(&"new"),
            "{texts:?}"
        );
    }
}
