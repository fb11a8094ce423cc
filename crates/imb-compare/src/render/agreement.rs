//! The text report of `imb-compare agreement`: thread levels first, then size by size, then
//! one summary line per table and side.

use crate::conditions;
use crate::judge::agree::{compare, Separation, TableCmp};
use crate::judge::stats::{cv, median, ALPHA};
use crate::read::key::{table_title, Metric};
use crate::read::sides::Side;
use std::fmt::Write;

/// The thread level each side ran under, "not printed" where its output does not say; a line
/// per side.
fn thread_levels(sides: &[Side]) -> Vec<String> {
    let mut lines = Vec::new();
    for s in sides {
        let mut levels: Vec<String> = s
            .runs
            .iter()
            .map(|r| r.thread_level().unwrap_or("not printed").to_string())
            .collect();
        levels.sort();
        levels.dedup();
        let title = s.runs.first().map_or("", |r| r.title.as_str());
        lines.push(format!(
            "#   {:<16} {:<28} {title}",
            s.label,
            levels.join(" / ")
        ));
    }
    lines
}

/// The first side's conditions against each other side's (the check of `imb-compare BASE
/// NEW`, doc/ACCEPTANCE.md): `# !!` lines, and whether the thread levels differ.
fn condition_lines(sides: &[Side]) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut thread = false;
    let ours = &sides[0];
    for other in &sides[1..] {
        for d in conditions::run_differences((ours, &ours.label), (other, &other.label)) {
            thread |= d.kind == conditions::Kind::ThreadLevel;
            lines.push(format!("# !! conditions differ: {}", d.text));
        }
    }
    (lines, thread)
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

/// The whole report: launches and thread levels first, then for each other side every shared
/// table size by size (unless `brief`), then one summary line per table and side; when the
/// launches ran at two placements (see [`placement`]), the summary again over the launches at
/// the closest one.
pub fn report(sides: &[Side], metric: Metric, brief: bool) -> String {
    let mut s = String::new();
    let ours = &sides[0];
    preamble(sides, metric, &mut s);
    let close = placement(sides, &mut s);
    let compared = against_each(sides, metric);
    if !brief {
        size_tables(ours, &compared, &mut s);
    }
    summary(
        sides,
        compared,
        &format!("{} against each other side, all launches", ours.label),
        &mut s,
    );
    if let Some((limit, close)) = close {
        summary(
            &close,
            against_each(&close, metric),
            &format!(
                "{} against each other side, only the launches with core-to-core latency at most \
                 {limit:.0} ns before and after",
                ours.label
            ),
            &mut s,
        );
    }
    s
}

/// The report's head: each side's launches, a warning when they are too few for the rank
/// test, the thread levels and the other differences of conditions.
fn preamble(sides: &[Side], metric: Metric, s: &mut String) {
    let _ = writeln!(s, "# imb-compare agreement: metric {}", metric.name());
    for side in sides {
        let unfinished = side
            .runs
            .iter()
            .filter(|r| r.status.cut_short().is_some())
            .count();
        let _ = write!(s, "# {}: {} launches", side.label, side.runs.len());
        let walls: Vec<f64> = side.runs.iter().filter_map(|r| r.wall_secs).collect();
        if !walls.is_empty() {
            let _ = write!(s, ", median wall time {:.2} s", median(&walls));
        }
        if unfinished > 0 {
            let _ = write!(s, " ({unfinished} cut short)");
        }
        s.push('\n');
    }
    let fewest = sides.iter().map(|side| side.runs.len()).min().unwrap_or(0);
    if !crate::judge::agree::can_separate(fewest, fewest) {
        let _ = writeln!(
            s,
            "# !! {fewest} launches on a side: too few for the rank test to call any difference at \
             the {} % level (5 a side at least, 10 to see differences of about one CV)",
            100.0 * ALPHA
        );
    }
    let _ = writeln!(s, "# MPI thread level of each side:");
    for l in thread_levels(sides) {
        let _ = writeln!(s, "{l}");
    }
    let (differences, mismatch) = condition_lines(sides);
    for l in differences {
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
}

/// Each shared table of `ours` against each other side (`compared`), size by size.
fn size_tables(ours: &Side, compared: &[(String, Vec<TableCmp>)], s: &mut String) {
    for (label, tables) in compared {
        let _ = writeln!(s, "\n# {} against {}", ours.label, label);
        for t in tables {
            let _ = writeln!(s, "\n# {}: {}", table_title(&t.key), t.verdict_text());
            let _ = writeln!(
                s,
                "{:>10} {:>12} {:>12} {:>8} {:>8} {:>8}  difference",
                "#bytes",
                trunc(&ours.label, 12),
                trunc(label, 12),
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
                    Separation::Lower => "lower",
                    Separation::Higher => "higher",
                    Separation::Overlap => "within noise",
                    Separation::Unknown => "-",
                };
                let _ = writeln!(
                    s,
                    "{:>10} {:>12} {:>12} {:>8} {:>8} {:>8}  {sep}",
                    size,
                    num(median(&c.values_a())),
                    num(median(&c.values_b())),
                    c.ratio.map_or("-".into(), |r| format!("{r:.3}")),
                    pct(cv(&c.values_a())),
                    pct(cv(&c.values_b())),
                );
            }
        }
    }
}

/// Launches whose placement probe stayed within this factor of the lowest probe seen count as
/// "close". Probes at one placement spread by up to 1.5x (27..41 ns measured), and the two
/// placements of a 2-vCPU machine are 4-6x apart (doc/METHODOLOGY.md, "Launch noise").
const CLOSE_FACTOR: f64 = 2.0;
/// Probes spanning more than this factor mean two placements.
const TWO_LEVELS: f64 = 3.0;

/// The core-to-core probes of the launches (scripts/bench-vs-imb): one line per side, a warning
/// when they span more than a factor of 2, and then the sides cut down to the close launches
/// with the limit used, when every side keeps at least two.
fn placement(sides: &[Side], s: &mut String) -> Option<(f64, Vec<Side>)> {
    let probes: Vec<(f64, f64)> = sides
        .iter()
        .flat_map(|side| side.runs.iter().filter_map(|r| r.core_to_core))
        .collect();
    if probes.is_empty() {
        return None;
    }
    let lowest = probes.iter().map(|p| p.0.min(p.1)).fold(f64::MAX, f64::min);
    let highest = probes.iter().map(|p| p.0.max(p.1)).fold(0.0, f64::max);
    let limit = CLOSE_FACTOR * lowest;
    let is_close =
        |r: &crate::read::run::Run| r.core_to_core.is_some_and(|(a, b)| a.max(b) <= limit);
    let _ = writeln!(s, "# core-to-core latency (ns, before/after each launch):");
    for side in sides {
        let list: Vec<String> = side
            .runs
            .iter()
            .map(|r| {
                r.core_to_core
                    .map_or("?".into(), |(a, b)| format!("{a:.0}/{b:.0}"))
            })
            .collect();
        let _ = writeln!(s, "#   {:<16} {}", side.label, list.join(" "));
    }
    if highest <= TWO_LEVELS * lowest {
        return None;
    }
    let _ = writeln!(
        s,
        "# !! TWO PLACEMENTS: the launches ran with core-to-core latencies from {lowest:.0} to \
         {highest:.0} ns (the CPUs' placement changed between or during launches, see \
         doc/METHODOLOGY.md, \"Launch noise\"); small-message times follow it."
    );
    let cut: Vec<Side> = sides
        .iter()
        .map(|side| {
            let keep: Vec<usize> = (0..side.runs.len())
                .filter(|&k| is_close(&side.runs[k]))
                .collect();
            Side {
                repeats: Vec::new(),
                empty: Vec::new(),
                label: side.label.clone(),
                runs: keep.iter().map(|&k| side.runs[k].clone()).collect(),
                files: keep
                    .iter()
                    .filter_map(|&k| side.files.get(k).cloned())
                    .collect(),
            }
        })
        .collect();
    if cut.iter().any(|side| side.runs.len() < 2) {
        let _ = writeln!(
            s,
            "# fewer than 2 launches of some side stayed at or below {limit:.0} ns: no summary \
             for the close placement alone (run more launches)"
        );
        return None;
    }
    Some((limit, cut))
}

/// The first side against each other one: the other's label and the tables both printed.
fn against_each(sides: &[Side], metric: Metric) -> Vec<(String, Vec<TableCmp>)> {
    sides[1..]
        .iter()
        .map(|other| (other.label.clone(), compare(&sides[0], other, metric)))
        .collect()
}

/// One summary line per table and other side of `compared` (from [`against_each`] on
/// `sides`), and the medians over all cells.
fn summary(sides: &[Side], compared: Vec<(String, Vec<TableCmp>)>, title: &str, s: &mut String) {
    let ours = &sides[0];
    let summary: Vec<(String, TableCmp)> = compared
        .into_iter()
        .flat_map(|(label, tables)| tables.into_iter().map(move |t| (label.clone(), t)))
        .collect();
    let counts: Vec<String> = sides
        .iter()
        .map(|side| format!("{} {}", side.label, side.runs.len()))
        .collect();
    let _ = writeln!(
        s,
        "\n# Summary: {title} (launches: {}; r: {} / other, median over the sizes below 4 KiB \
         and from 4 KiB; cv: median over sizes of the launch-to-launch CV; lo/hi: sizes \
         lower/higher beyond the noise on their own; p: rank test on the launches' scores over \
         the sizes below 4 KiB and from 4 KiB, verdict at p < {ALPHA})",
        counts.join(", "),
        ours.label
    );
    let _ = writeln!(
        s,
        "{:<28} {:<14} {:>5} {:>6} {:>6} {:>6} {:>6} {:>3} {:>3} {:>7} {:>7}  verdict",
        "#table", "other", "sizes", "r<4K", "r>=4K", "cv_a%", "cv_b%", "lo", "hi", "p<4K", "p>=4K"
    );
    let mut all_ratios = Vec::new();
    let mut all_cv = (Vec::new(), Vec::new());
    for (label, t) in &summary {
        let (known, lower, higher) = t.counts();
        let (ca, cb) = t.median_cvs();
        all_ratios.extend(t.ratios());
        for c in &t.cells {
            all_cv.0.push(cv(&c.values_a()));
            all_cv.1.push(cv(&c.values_b()));
        }
        let _ = writeln!(
            s,
            "{:<28} {:<14} {:>5} {:>6} {:>6} {:>6} {:>6} {:>3} {:>3} {:>7} {:>7}  {}",
            trunc(&table_title(&t.key), 28),
            trunc(label, 14),
            known,
            band_ratio(t, true),
            band_ratio(t, false),
            pct(ca),
            pct(cb),
            lower,
            higher,
            band_p(t, true),
            band_p(t, false),
            t.verdict_text()
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
}

/// The median cell ratio of one band, or "-".
fn band_ratio(t: &TableCmp, small: bool) -> String {
    t.band(small)
        .and_then(|b| b.median_ratio())
        .map_or("-".into(), |r| format!("{r:.3}"))
}

/// The launch test's p-value of one band, or "-".
fn band_p(t: &TableCmp, small: bool) -> String {
    t.band(small)
        .and_then(|b| b.launch_test())
        .map_or("-".into(), |(p, _)| format!("{p:.4}"))
}

fn trunc(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::sides::fixture_side as side;

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
        // Two launches a side cannot show a difference: the verdict says so.
        assert!(r.contains("noise unknown (too few launches a side)"), "{r}");
    }

    #[test]
    fn too_few_launches_are_named() {
        let l = |x: &'static [f64]| ("x", x);
        let three = side("ours", &[l(&[0.1]), l(&[0.2]), l(&[0.3])]);
        let five = side(
            "imb",
            &[l(&[0.1]), l(&[0.2]), l(&[0.3]), l(&[0.2]), l(&[0.1])],
        );
        let r = report(&[three.clone(), five.clone()], Metric::T, true);
        assert!(
            r.contains("# !! 3 launches on a side: too few for the rank test"),
            "{r}"
        );
        let r = report(&[five.clone(), five], Metric::T, true);
        assert!(!r.contains("too few"), "{r}");
    }

    #[test]
    fn two_placements_get_a_second_summary() {
        let lvl = "MPI_THREAD_SINGLE";
        let l = |x: &'static [f64]| (lvl, x);
        let launches = [l(&[0.12]), l(&[0.35]), l(&[0.13]), l(&[0.12])];
        let mut a = side("ours", &launches);
        let mut b = side("imb", &launches);
        let probes = [(36.0, 35.0), (170.0, 172.0), (37.0, 36.0), (35.0, 170.0)];
        for (r, p) in a
            .runs
            .iter_mut()
            .chain(b.runs.iter_mut())
            .zip(probes.iter().cycle())
        {
            r.core_to_core = Some(*p);
        }
        let r = report(&[a.clone(), b.clone()], Metric::T, true);
        assert!(
            r.contains("#   ours             36/35 170/172 37/36 35/170\n"),
            "{r}"
        );
        assert!(r.contains("# !! TWO PLACEMENTS: the launches ran with core-to-core latencies from 35 to 172 ns"), "{r}");
        assert!(r.contains("only the launches with core-to-core latency at most 70 ns before and after (launches: ours 2, imb 2;"), "{r}");
        // One level only: no warning, no second summary.
        for r in a.runs.iter_mut().chain(b.runs.iter_mut()) {
            r.core_to_core = Some((36.0, 40.0));
        }
        let r = report(&[a, b], Metric::T, true);
        assert!(
            !r.contains("TWO PLACEMENTS") && r.matches("# Summary").count() == 1,
            "{r}"
        );
    }
}
