//! The legend under a figure's panels: each run by its days, launches and hosts, the criteria's
//! bounds and the marks that appear.

use super::data::{has_band, Figure, Launches, Overlay};
use super::style::{colour, dash, words, BAND_OPACITY, BOUND, FAIL, UNDECIDED};
use crate::judge::criteria::Verdict;
use crate::read::sides::Side;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::collections::BTreeSet;

/// "2026-11-25" from an asctime ("Wed Nov 25 05:21:10 2026") or an ISO 8601 start.
fn short_date(s: &str) -> Option<String> {
    let s = s.trim();
    let iso = s.get(..10).filter(|d| {
        d.char_indices().all(|(k, ch)| match k {
            4 | 7 => ch == '-',
            _ => ch.is_ascii_digit(),
        })
    });
    if let Some(d) = iso {
        return Some(d.to_string());
    }
    let w: Vec<&str> = s.split_whitespace().collect();
    let [_, month, day, _, year] = w[..] else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let m = MONTHS.iter().position(|x| *x == month)? + 1;
    let d: u32 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let y: u32 = year.parse().ok().filter(|_| year.len() == 4)?;
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A run as the legend names it: "base — 2026-11-25, 5 launches, 2 hosts"; the days of its
/// first and last launch when they differ, the raw date when it is no date we read, the hosts
/// when its files name them.
fn run_legend(s: &Side) -> String {
    let raw: Vec<&str> = s
        .runs
        .iter()
        .filter_map(|r| r.identity.date.as_deref().or(r.identity.start.as_deref()))
        .collect();
    let mut days: Vec<String> = s
        .runs
        .iter()
        .filter_map(|r| {
            let d = r.identity.date.as_deref().and_then(short_date);
            d.or_else(|| r.identity.start.as_deref().and_then(short_date))
        })
        .collect();
    days.sort();
    let mut parts = Vec::new();
    match (days.first(), days.last()) {
        (Some(a), Some(b)) if a != b => parts.push(format!("{a} to {b}")),
        (Some(a), _) => parts.push(a.clone()),
        _ => parts.extend(raw.first().map(|r| r.to_string())),
    }
    parts.push(plural(s.runs.len(), "launch", "launches"));
    let hosts: BTreeSet<usize> = s
        .runs
        .iter()
        .filter_map(|r| r.conditions.hosts.as_ref().map(Vec::len))
        .collect();
    match (hosts.first(), hosts.last()) {
        (Some(&a), Some(&b)) if a != b => parts.push(format!("{a}–{b} hosts")),
        (Some(&a), _) => parts.push(plural(a, "host", "hosts")),
        _ => {}
    }
    format!("{} — {}", s.label, parts.join(", "))
}

/// What a legend entry shows before its words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Sample {
    Run {
        colour: usize,
        band: bool,
    },
    Bound(usize),
    /// A verdict's interval: an error bar in a run's colour.
    Interval(usize),
    Fail,
    Inconclusive,
    /// Words alone.
    Note,
}

pub(super) const LEGEND_ROW: i32 = 20;

/// The legend, under the panels so that it covers no figure: a column of entries each.
pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    columns: &[Vec<(Sample, String)>],
    width: i32,
) -> Result<(), String> {
    for (c, entries) in columns.iter().enumerate() {
        let x = c as i32 * width + 24;
        for (r, (sample, text)) in entries.iter().enumerate() {
            let top = 8 + r as i32 * LEGEND_ROW;
            let mid = top + 8;
            match *sample {
                Sample::Run { colour: k, band } => {
                    if band {
                        area.draw(&Rectangle::new(
                            [(x, mid - 6), (x + 28, mid + 6)],
                            colour(k).mix(BAND_OPACITY).filled(),
                        ))
                        .map_err(words)?;
                    }
                    area.draw(&PathElement::new(
                        vec![(x, mid), (x + 28, mid)],
                        colour(k).stroke_width(2),
                    ))
                    .map_err(words)?;
                    area.draw(&Circle::new((x + 14, mid), 3, colour(k).filled()))
                        .map_err(words)?;
                }
                Sample::Bound(j) => {
                    let (d, gap) = dash(j);
                    area.draw(&DashedPathElement::new(
                        vec![(x, mid), (x + 28, mid)],
                        d,
                        gap,
                        BOUND.stroke_width(2),
                    ))
                    .map_err(words)?;
                }
                Sample::Interval(k) => {
                    let style = colour(k).stroke_width(2);
                    for path in [
                        vec![(x + 14, mid - 7), (x + 14, mid + 7)],
                        vec![(x + 9, mid - 7), (x + 19, mid - 7)],
                        vec![(x + 9, mid + 7), (x + 19, mid + 7)],
                    ] {
                        area.draw(&PathElement::new(path, style)).map_err(words)?;
                    }
                }
                Sample::Fail => area
                    .draw(&Cross::new((x + 14, mid), 5, FAIL.stroke_width(3)))
                    .map_err(words)?,
                Sample::Inconclusive => area
                    .draw(&Circle::new((x + 14, mid), 6, UNDECIDED.stroke_width(2)))
                    .map_err(words)?,
                Sample::Note => {}
            }
            let style = if *sample == Sample::Note {
                ("sans-serif", 12)
                    .into_font()
                    .color(&RGBColor(100, 100, 100))
            } else {
                ("sans-serif", 13).into_font().color(&BLACK)
            };
            area.draw(&Text::new(text.clone(), (x + 38, top + 1), style))
                .map_err(words)?;
        }
    }
    Ok(())
}

/// The legend's entries: the runs, then (in a column of their own beside two panels) the
/// criteria's bounds and the marks that appear.
pub(super) fn legend(
    fig: &Figure,
    sides: &[&Side],
    overlays: &[Overlay],
    crits: &[(String, usize)],
    confidence: f64,
) -> Vec<Vec<(Sample, String)>> {
    let mut runs = Vec::new();
    for (k, s) in sides.iter().enumerate() {
        let ls: Vec<&Launches> = fig
            .panels
            .iter()
            .filter_map(|p| p.runs.get(&s.label))
            .filter(|l| !l.is_empty())
            .collect();
        if !ls.is_empty() {
            let band = ls.iter().any(|l| has_band(l));
            runs.push((Sample::Run { colour: k, band }, run_legend(s)));
        }
    }
    if runs
        .iter()
        .any(|(s, _)| matches!(s, Sample::Run { band: true, .. }))
    {
        runs.push((
            Sample::Note,
            "line: the median over launches; band: the lowest to the highest launch".into(),
        ));
    }
    if fig
        .panels
        .iter()
        .any(|p| p.runs.values().any(|l| l.contains_key(&0)))
    {
        runs.push((
            Sample::Note,
            "0 bytes: left of the break in the size axis (a log axis has no 0)".into(),
        ));
    }
    let mut checks: Vec<(Sample, String)> = crits
        .iter()
        .enumerate()
        .map(|(j, (name, _))| (Sample::Bound(j), format!("bounds: {name}")))
        .collect();
    let barred = sides.iter().position(|s| {
        overlays
            .iter()
            .any(|o| o.intervals.iter().any(|i| i.side == s.label))
    });
    if let Some(k) = barred {
        checks.push((
            Sample::Interval(k),
            format!(
                "bar: the {} % interval a verdict used (of the ratio, times the reference)",
                crate::judge::criteria::percent(confidence)
            ),
        ));
    }
    let shown = |v: Verdict| overlays.iter().any(|o| o.marks.values().any(|m| m.0 == v));
    if shown(Verdict::Fail) {
        checks.push((
            Sample::Fail,
            "FAIL at this size, on the figure judged (min, max: that launch)".into(),
        ));
    }
    if shown(Verdict::Inconclusive) {
        checks.push((Sample::Inconclusive, "INCONCLUSIVE at this size".into()));
    }
    if fig.panels.len() > 1 && !checks.is_empty() {
        vec![runs, checks]
    } else {
        runs.extend(checks);
        vec![runs]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::key::Metric;
    use crate::render::plot::data::collect;
    use crate::render::plot::draw::svg;
    use crate::render::plot::fixtures::{key, launch, side_of, texts};

    #[test]
    fn the_legend_names_day_launches_and_hosts() {
        assert_eq!(
            short_date("Wed Nov 25 05:21:10 2026").as_deref(),
            Some("2026-11-25")
        );
        assert_eq!(
            short_date("2026-11-03T05:21:10.123Z").as_deref(),
            Some("2026-11-03")
        );
        assert_eq!(short_date("yesterday"), None);
        assert_eq!(short_date("Wed Foo 25 05:21:10 2026"), None);
        let mut s = side_of("base", vec![launch(1.0), launch(1.0)]);
        for (r, d) in s
            .runs
            .iter_mut()
            .zip(["Thu Nov 26 01:00:00 2026", "Wed Nov 25 23:59:00 2026"])
        {
            r.identity.date = Some(d.to_string());
            r.conditions.hosts = Some(vec!["n1".into(), "n2".into()]);
        }
        assert_eq!(
            run_legend(&s),
            "base — 2026-11-25 to 2026-11-26, 2 launches, 2 hosts"
        );
        s.runs.truncate(1);
        s.runs[0].conditions.hosts = None;
        s.runs[0].identity.date = Some("sometime".into());
        assert_eq!(run_legend(&s), "base — sometime, 1 launch");
        s.runs[0].identity.date = None;
        s.runs[0].identity.start = Some("2026-11-25T05:21:10.123Z".into());
        s.runs[0].conditions.hosts = Some(vec!["n1".into()]);
        assert_eq!(run_legend(&s), "base — 2026-11-25, 1 launch, 1 host");
        let f = collect(&[&s], Metric::T);
        let doc = svg(&key("PingPong"), &f[&key("PingPong")], &[&s], &[]).unwrap();
        assert!(texts(&doc).contains(&"base — 2026-11-25, 1 launch, 1 host".to_string()));
    }
}
