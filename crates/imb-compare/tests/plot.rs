//! `imb-compare --plot DIR` as a user runs it, on the committed fixtures and on launches made
//! from them: the metric plotted, the legend, each run's band over its launches, the criteria's
//! bounds and marks, index.html, and which directories it writes into. No test judges a timing:
//! the figures are the fixtures' own, scaled.

use std::path::{Path, PathBuf};

mod common;
use common::{fixture, run, scratch};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Times multiplied by `f`, bandwidths divided: the same launch file, another launch.
fn scaled(v: &mut serde_json::Value, f: f64) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x.as_f64() {
                    Some(n) if k.ends_with("_us") => *x = serde_json::json!(n * f),
                    Some(n) if k == "mbytes_per_s" => *x = serde_json::json!(n / f),
                    _ => scaled(x, f),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| scaled(x, f)),
        _ => {}
    }
}

/// A run directory of one launch a factor, each imb-rs-mpi1.json scaled by it.
fn launches(dir: &Path, factors: &[f64]) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let text = std::fs::read_to_string(fixture("imb-rs-mpi1.json")).unwrap();
    for (k, f) in factors.iter().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        scaled(&mut v, *f);
        std::fs::write(dir.join(format!("{}.json", k + 1)), v.to_string()).unwrap();
    }
    s(dir).to_string()
}

/// An SVG's texts, trimmed.
fn texts(svg: &str) -> Vec<String> {
    roxmltree::Document::parse(svg)
        .unwrap()
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

/// How many elements of the SVG are `tag` with attribute `attr` = `value`.
fn count(svg: &str, tag: &str, attr: &str, value: &str) -> usize {
    roxmltree::Document::parse(svg)
        .unwrap()
        .descendants()
        .filter(|n| n.has_tag_name(tag) && n.attribute(attr) == Some(value))
        .count()
}

fn read(p: PathBuf) -> String {
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_first_panel_plots_the_metric() {
    let d = scratch("metric");
    let (base, new) = (fixture("imb-3.0.txt"), fixture("imb-rs-mpi1.json"));
    let plot = |metric: &str| {
        let dir = d.join(metric);
        let (code, _, err) = run(&["--plot", s(&dir), "--metric", metric, &base, &new]);
        assert_eq!(code, Some(0), "{err}");
        dir
    };
    let (t, t_max, mb) = (plot("t"), plot("t_max"), plot("mbytes"));
    let (a, b) = (
        read(t.join("Allreduce-np2.svg")),
        read(t_max.join("Allreduce-np2.svg")),
    );
    assert_ne!(a, b);
    assert!(texts(&a).contains(&"t_avg [usec]".to_string()));
    assert!(texts(&b).contains(&"t_max [usec]".to_string()));
    // PingPong prints t alone: t_max reads it, and its axis says so.
    let p = texts(&read(t_max.join("PingPong-np2.svg")));
    assert!(p.contains(&"t [usec]".to_string()), "{p:?}");
    assert!(p.contains(&"Mbytes/sec".to_string()), "{p:?}");
    // The bandwidth as the metric: one panel, and no Allreduce, which has none.
    let p = texts(&read(mb.join("PingPong-np2.svg")));
    assert!(p.contains(&"Mbytes/sec".to_string()), "{p:?}");
    assert!(!p.iter().any(|t| t.ends_with("[usec]")), "{p:?}");
    assert!(!mb.join("Allreduce-np2.svg").exists());
    // No table has t_pure: no plot, and index.html says why.
    let tp = plot("t_pure");
    assert!(read(tp.join("index.html")).contains("No table has sizes with a figure"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_legend_names_each_run_with_its_launches() {
    let d = scratch("legend");
    let dir = d.join("plots");
    let (code, out, err) = run(&[
        "--plot",
        s(&dir),
        &fixture("imb-3.0.txt"),
        &fixture("imb-2021.txt"),
        &fixture("imb-rs-mpi1.json"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("# 2 plot(s) and index.html in "), "{out}");
    let svg = read(dir.join("PingPong-np2.svg"));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let t = texts(&svg);
    for label in [
        "imb-3.0.txt — 2026-11-21, 1 launch",
        "imb-2021.txt — 2026-11-21, 1 launch",
        "imb-rs-mpi1.json — 2026-11-25, 1 launch",
    ] {
        // Once: one legend under both panels.
        assert_eq!(
            t.iter().filter(|x| *x == label).count(),
            1,
            "{label}: {t:?}"
        );
    }
    // One launch a run: lines, no band.
    assert_eq!(count(&svg, "polygon", "opacity", "0.2"), 0);
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .count();
    assert!(lines >= 6, "{lines}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn several_launches_make_a_band() {
    let d = scratch("band");
    let base = launches(&d.join("base"), &[1.0, 1.2, 1.5]);
    let dir = d.join("plots");
    let (code, _, err) = run(&["--plot", s(&dir), &base, &fixture("imb-rs-mpi1.json")]);
    assert_eq!(code, Some(0), "{err}");
    let svg = read(dir.join("PingPong-np2.svg"));
    // The first run's colour, light: one band in each panel, and in the time panel one of
    // its own at 0 bytes (left of the axis break; its bandwidth, 0, has no place on a log
    // axis); the single launch has none.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let bands: Vec<(&str, &str)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .filter_map(|n| Some((n.attribute("fill")?, n.attribute("opacity")?)))
        .collect();
    assert_eq!(bands, [("#1F77B4", "0.2"); 3], "{svg}");
    let t = texts(&svg);
    assert!(
        t.contains(&"base — 2026-11-25, 3 launches".to_string()),
        "{t:?}"
    );
    assert!(t.iter().any(|x| x.starts_with("line: the median")), "{t:?}");
    let _ = std::fs::remove_dir_all(&d);
}

const REFS: &str = r#"
[[criterion]]
name = "PingPong latency"
benchmark = "PingPong"
metric = "t"
reference = "baseline"
upper = 0.25

[[criterion]]
name = "PingPong bandwidth"
benchmark = "PingPong"
metric = "mbytes"
reference = "baseline"
statistic = "p90"
lower = -0.10
"#;

#[test]
fn criteria_draw_bounds_and_marks_and_index_has_verdicts() {
    let d = scratch("refs");
    // The new run's every launch twice the baseline's times: the latency criterion (the
    // median) fails at every size; five launches a side give a p90 no interval to decide the
    // bandwidth criterion by.
    let base = launches(&d.join("base"), &[1.0, 1.1, 1.2, 1.05, 1.15]);
    let new = launches(&d.join("new"), &[2.0, 2.1, 2.3, 2.2, 2.05]);
    let refs = d.join("refs.toml");
    std::fs::write(&refs, REFS).unwrap();
    let dir = d.join("plots");
    // The schema 2 fixture records no MPI library and no placement: accepted by name.
    let (code, out, err) = run(&[
        "--plot",
        s(&dir),
        "--accept-unrecorded=mpi,placement,binding",
        "--references",
        s(&refs),
        &base,
        &new,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAIL PingPong latency [new]"), "{out}");
    let svg = read(dir.join("PingPong-np2.svg"));
    let t = texts(&svg);
    for want in ["bounds: PingPong latency", "bounds: PingPong bandwidth"] {
        assert!(t.contains(&want.to_string()), "{want}: {t:?}");
    }
    assert!(
        t.iter().any(|x| x.starts_with("FAIL at this size")),
        "{t:?}"
    );
    // Dashed bounds (many short strokes), and red crosses: two strokes a failed size (0 bytes
    // included, left of the axis break), two in the legend.
    assert!(count(&svg, "polyline", "stroke", "#404040") > 4);
    let failed_sizes = 6;
    assert_eq!(
        count(&svg, "line", "stroke", "#D60000"),
        2 * failed_sizes + 2
    );
    // Orange rings where the bandwidth criterion could not decide, on the bandwidth panel.
    assert!(
        out.contains("INCONCLUSIVE PingPong bandwidth [new]"),
        "{out}"
    );
    assert!(
        t.iter().any(|x| x.starts_with("INCONCLUSIVE at this size")),
        "{t:?}"
    );
    // (0 bytes is left out of the bandwidth criterion: a bandwidth of 0 gives no ratio.)
    let inconclusive_sizes = 5;
    assert_eq!(
        count(&svg, "circle", "stroke", "#FF8C00"),
        inconclusive_sizes + 1
    );
    // Allreduce is judged by neither: no bounds, no marks.
    let a = texts(&read(dir.join("Allreduce-np2.svg")));
    assert!(!a.iter().any(|x| x.starts_with("bounds:")), "{a:?}");

    let index = read(dir.join("index.html"));
    assert!(index.contains("<meta name=\"generator\" content=\"imb-compare --plot\">"));
    assert!(index.contains("<th>criterion</th><th>run</th><th>verdict</th><th>detail</th>"));
    assert!(
        index.contains(
            "<tr class=\"fail\"><td>PingPong latency</td><td>new</td><td class=\"v\">FAIL</td>"
        ),
        "{index}"
    );
    assert!(
        index.contains("<p class=\"summary\">new against base: PingPong, 2 processes: "),
        "{index}"
    );
    // Above the plots.
    assert!(index.find("<table>") < index.find("<img "));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn which_tables_get_plots_and_which_directories_are_ours() {
    let d = scratch("dirs");
    let dir = d.join("plots");
    let (a, b) = (fixture("imb-3.0.txt"), fixture("imb-2021.txt"));
    let (code, _, err) = run(&["--plot", s(&dir), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    // Barrier has no size: no plot. Allreduce has no bandwidth: one panel.
    assert!(!dir.join("Barrier-np2.svg").exists());
    let index = read(dir.join("index.html"));
    assert!(index.contains("<img src=\"Allreduce-np2.svg\""), "{index}");
    let t = texts(&read(dir.join("Allreduce-np2.svg")));
    assert!(
        t.contains(&"Allreduce, 2 processes: time".to_string()),
        "{t:?}"
    );
    assert!(!t.iter().any(|x| x.ends_with(": bandwidth")), "{t:?}");
    // Ours to write again; a directory of someone else's files is not.
    let (code, _, err) = run(&["--plot", s(&dir), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    let theirs = d.join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let (code, out, err) = run(&["--plot", s(&theirs), &a, &b]);
    // An output that cannot be written: status 3.
    assert_eq!((code, out.as_str()), (Some(3), ""));
    assert!(
        err.contains("theirs: a directory with files not written by imb-compare --plot"),
        "{err}"
    );
    assert_eq!(read(theirs.join("notes.txt")), "mine");
    let _ = std::fs::remove_dir_all(&d);
}

/// The y pixel of a figure in the panel left of `right`: from its labelled ticks (the figure
/// axis is logarithmic), fitted through the two farthest apart.
fn figure_pixel(svg: &str, right: f64) -> impl Fn(f64) -> f64 {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let mut ticks: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("end"))
        .filter(|n| n.attribute("x").unwrap().parse::<f64>().unwrap() < right)
        .filter_map(|n| {
            let v: f64 = n.text()?.trim().parse().ok()?;
            Some((v.ln(), n.attribute("y")?.parse().ok()?))
        })
        .collect();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    let ((l0, p0), (l1, p1)) = (ticks[0], *ticks.last().unwrap());
    assert!(l1 > l0, "{ticks:?}");
    move |v: f64| p0 + (v.ln() - l0) * (p1 - p0) / (l1 - l0)
}

/// The x pixel of each size label ("0", "1", "2", "4", ...) of the panel left of `right`.
fn size_pixels(svg: &str, right: f64) -> std::collections::BTreeMap<String, f64> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("middle"))
        .filter(|n| n.attribute("dy") == Some("0.76em"))
        .filter_map(|n| {
            let x: f64 = n.attribute("x")?.parse().ok()?;
            let t = n.text()?.trim();
            (x < right && t.chars().all(|c| c.is_ascii_alphanumeric())).then(|| (t.to_string(), x))
        })
        .collect()
}

/// A polyline's or a line's points.
fn points_of(n: &roxmltree::Node) -> Vec<(f64, f64)> {
    if let Some(p) = n.attribute("points") {
        return p
            .split_whitespace()
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
    }
    let a = |k: &str| n.attribute(k).unwrap().parse::<f64>().unwrap();
    vec![(a("x1"), a("y1")), (a("x2"), a("y2"))]
}

const VERDICT_REFS: &str = r#"
[[criterion]]
name = "PingPong latency"
benchmark = "PingPong"
metric = "t"
reference = "baseline"
upper = 0.25

[[criterion]]
name = "PingPong best launch"
benchmark = "PingPong"
metric = "t"
reference = 0.3
statistic = "min"
upper = 0.2
"#;

/// The new run's band is its launches' spread, its error bars the interval each verdict used
/// (the interval of the ratio times the reference, as --json gives them), 0 bytes is drawn left
/// of a break in the size axis, and a `min` criterion's FAIL sits on the best launch.
#[test]
fn verdict_intervals_zero_bytes_and_the_deciding_launch() {
    let d = scratch("verdict");
    let base = launches(&d.join("base"), &[1.0, 1.05, 1.1, 1.2, 0.97]);
    let new = launches(&d.join("new"), &[1.3, 1.5, 1.4, 1.8, 1.45]);
    let refs = d.join("refs.toml");
    std::fs::write(&refs, VERDICT_REFS).unwrap();
    let (dir, json) = (d.join("plots"), d.join("c.json"));
    let (code, out, err) = run(&[
        "--plot",
        s(&dir),
        "--json",
        s(&json),
        // The schema 2 fixture records no MPI library and no placement: accepted by name.
        "--accept-unrecorded=mpi,placement,binding",
        "--references",
        s(&refs),
        &base,
        &new,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&read(json)).unwrap();
    let outcome = |name: &str| {
        v["criteria"]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap()
            .clone()
    };
    let svg = read(dir.join("PingPong-np2.svg"));
    let t = texts(&svg);
    for want in [
        "bar: the 95 % interval a verdict used (of the ratio, times the reference)",
        "0 bytes: left of the break in the size axis (a log axis has no 0)",
        "FAIL at this size, on the figure judged (min, max: that launch)",
    ] {
        assert!(t.contains(&want.to_string()), "{want}: {t:?}");
    }
    // The time panel is the left one, 550 pixels wide.
    let (y, xs) = (figure_pixel(&svg, 550.0), size_pixels(&svg, 550.0));
    assert!(xs["0"] < xs["1"] - 60.0, "{xs:?}");
    let x = |b: u64| xs[&b.to_string()];
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let near = |a: f64, b: f64| (a - b).abs() <= 2.0;
    // 0 bytes has a point of each run at its tick.
    for colour in ["#1F77B4", "#2CA02C"] {
        assert!(
            doc.descendants().any(|n| n.has_tag_name("circle")
                && n.attribute("fill") == Some(colour)
                && near(n.attribute("cx").unwrap().parse().unwrap(), x(0))),
            "{colour}"
        );
    }
    // An error bar of the new run's colour from interval × reference at every size judged
    // (the band under it is the launches' spread, another thing).
    let bars: Vec<Vec<(f64, f64)>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#2CA02C"))
        .map(|n| points_of(&n))
        .filter(|p| p.len() == 2 && p[0].0 == p[1].0)
        .collect();
    let latency = outcome("PingPong latency");
    let sizes = latency["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 6);
    for z in sizes {
        let (b, r) = (
            z["bytes"].as_u64().unwrap(),
            z["reference"].as_f64().unwrap(),
        );
        let iv = z["interval"].as_array().unwrap();
        let (lo, hi) = (iv[0].as_f64().unwrap() * r, iv[1].as_f64().unwrap() * r);
        assert!(
            bars.iter().any(|p| near(p[0].0, x(b))
                && near(p[0].1.max(p[1].1), y(lo))
                && near(p[0].1.min(p[1].1), y(hi))),
            "{b} bytes: no bar {lo}..{hi} ({}..{}) among {bars:?}",
            y(lo),
            y(hi)
        );
    }
    // The best-launch criterion failed at every size: a red cross on the new run's best
    // launch (its value in --json), not on its median.
    let crosses: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("stroke") == Some("#D60000"))
        .map(|n| {
            let p = points_of(&n);
            ((p[0].0 + p[1].0) / 2.0, (p[0].1 + p[1].1) / 2.0)
        })
        .collect();
    let best = outcome("PingPong best launch");
    assert_eq!(best["verdict"], "fail");
    for z in best["sizes"].as_array().unwrap() {
        let (b, value) = (z["bytes"].as_u64().unwrap(), z["value"].as_f64().unwrap());
        assert!(
            crosses
                .iter()
                .any(|c| near(c.0, x(b)) && near(c.1, y(value))),
            "{b} bytes: no cross at {value} ({}) among {crosses:?}",
            y(value)
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A launch of `tables` Allreduce tables (2, 3, ... processes) of 30 sizes each, started at
/// `second` past 10:00: one plot a table, so that writing them takes a while.
fn many_tables(dir: &Path, name: &str, second: u32, tables: usize) -> String {
    let mut t = format!(
        "#    imb-rs 0.1.0, MPI-1 part\n# Date                  : Fri May  1 10:00:{second:02} 2026\n\
         # MPI Thread Environment: MPI_THREAD_SINGLE\n\n"
    );
    for p in 2..2 + tables {
        t.push_str(&format!(
            "# Benchmarking Allreduce \n# #processes = {p} \n\
             \x20      #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
        ));
        for k in 0..30u32 {
            let x = 1.0 + f64::from(k) + p as f64 * 0.01;
            t.push_str(&format!(
                "{:13} {:12} {x:12.2} {x:12.2} {x:12.2}\n",
                1u64 << k,
                1000
            ));
        }
        t.push('\n');
    }
    t.push_str("\n# All processes entering MPI_Finalize\n");
    let p = dir.join(name);
    std::fs::write(&p, t).unwrap();
    s(&p).to_string()
}

/// The entries of `parent` whose name starts with `.NAME.` (a temporary plot directory).
fn hidden_beside(parent: &Path, name: &str) -> Vec<String> {
    std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!(".{name}.")))
        .collect()
}

/// Whether a plot has been written yet into `dir` or a temporary directory beside it.
fn an_svg_written(parent: &Path, name: &str) -> bool {
    std::iter::once(name.to_string())
        .chain(hidden_beside(parent, name))
        .filter_map(|n| std::fs::read_dir(parent.join(n)).ok())
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".svg"))
}

/// SIGINT (Ctrl-C) or SIGKILL while `--plot` writes a new directory: nothing half-made stays
/// (no directory of plots without its index.html, which the next `--plot` would refuse as not
/// ours), and the next `--plot` into it works and leaves no temporary directory. A run that
/// finished before the signal must have left a whole directory: the invariant is checked
/// either way, so no outcome depends on the machine's speed.
#[test]
fn a_signal_during_plot_leaves_nothing_and_the_next_plot_works() {
    use std::os::unix::process::ExitStatusExt;
    let d = scratch("signal");
    let a = many_tables(&d, "a.txt", 1, 300);
    let b = many_tables(&d, "b.txt", 2, 300);
    for (sig, name) in [(libc::SIGINT, "int"), (libc::SIGKILL, "kill")] {
        let plots = format!("plots-{name}");
        let dir = d.join(&plots);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_imb-compare"))
            .args(["--plot", s(&dir), &a, &b])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if an_svg_written(&d, &plots) {
                // SAFETY: kill(2) on our own child, whose id is alive until we wait for it.
                unsafe { libc::kill(child.id() as i32, sig) };
                break child.wait().unwrap();
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        println!("{name}: the run ended by {status:?}");
        // Either no directory, or a whole one: a signal that arrives after the last file
        // (under load, any time) may end a run whose directory is already in place.
        if status.signal().is_none() || dir.exists() {
            assert!(
                std::fs::read_to_string(dir.join("index.html"))
                    .is_ok_and(|i| i.contains("imb-compare --plot")),
                "{name}: a half-made {plots} was left"
            );
        }
        if sig == libc::SIGINT {
            // SIGINT is caught: the clean-up ran before the process ended.
            assert_eq!(hidden_beside(&d, &plots), Vec::<String>::new(), "{name}");
        }
        let (code, _, err) = run(&["--plot", s(&dir), &a, &b]);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(read(dir.join("index.html")).contains("imb-compare --plot"));
        // The next --plot removed what a killed run left beside the directory.
        assert_eq!(hidden_beside(&d, &plots), Vec::<String>::new(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
