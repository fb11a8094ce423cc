//! `imb-compare BASE NEW…` as a user runs it, on committed fixtures: IMB-format text written by
//! our own imb-mpi1 and its `-json`, IMB 2021's and IMB 3.0's layouts (doc/OUTPUT.md), and an
//! oversubscribed `-adaptive` run with UNSETTLED rows.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("imb-compare-base-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const SELF_REFS: &str = r#"
[[criterion]]
name = "PingPong latency"
benchmark = "PingPong"
processes = 2
bytes = [0, 1024]
metric = "t"
reference = "baseline"
upper = 0.5

[[criterion]]
name = "every time within 10 %"
benchmark = "*"
metric = "t"
reference = "baseline"
lower = -0.1
upper = 0.1
"#;

#[test]
fn our_text_against_its_json() {
    let (code, out, err) = run(&[&fixture("imb-rs-mpi1.txt"), &fixture("imb-rs-mpi1.json")]);
    assert_eq!(code, Some(0), "{err}");
    for t in [
        "PingPong, 2 processes",
        "Allreduce, 2 processes",
        "Barrier, 2 processes",
    ] {
        assert!(
            out.contains(&format!(
                "\n# {t}: imb-rs-mpi1.json (beyond noise: ratio outside 1 ± 10 % (--noise))"
            )),
            "{t}: {out}"
        );
        assert!(
            out.contains(&format!("\n# {t}: geometric mean ratio ")),
            "{t}: {out}"
        );
    }
    // The text's 2 decimals are no change: nothing beyond the noise.
    assert!(
        !out.contains("worse") || out.contains(" 0 worse, 0 better"),
        "{out}"
    );
    assert_eq!(
        out.matches("; 0 worse, 0 better beyond noise").count(),
        3,
        "{out}"
    );
}

#[test]
fn imb_2021_and_3_0_layouts_align_with_ours() {
    for (file, title) in [
        (
            "imb-2021.txt",
            "Intel(R) MPI Benchmarks 2021.11, MPI-1 part",
        ),
        (
            "imb-3.0.txt",
            "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part",
        ),
    ] {
        let (code, out, err) = run(&[&fixture(file), &fixture("imb-rs-mpi1.txt")]);
        assert_eq!(code, Some(0), "{file}: {err}");
        assert!(
            out.contains(&format!("# base {file}: 1 launch(es), {title}\n")),
            "{out}"
        );
        assert_eq!(
            out.matches("geometric mean ratio").count(),
            3,
            "{file}: {out}"
        );
    }
    // IMB 2021's Mbytes/sec count 10^6 bytes: 6.25 there is 5.96 in our 2^20 unit.
    let (_, out, _) = run(&[
        "--csv",
        "--metric",
        "mbytes",
        &fixture("imb-2021.txt"),
        &fixture("imb-rs-mpi1.txt"),
    ]);
    let row = out
        .lines()
        .find(|l| l.contains(",PingPong,") && l.contains(",1,mbytes,"))
        .expect(&out);
    assert!(row.contains(",5.96"), "{row}");
}

#[test]
fn self_comparison_passes_everything() {
    let d = scratch("self");
    let refs = d.join("acc.toml");
    std::fs::write(&refs, SELF_REFS).unwrap();
    let junit = d.join("junit.xml");
    let run_file = fixture("imb-rs-mpi1.json");
    let (code, out, err) = run(&[
        "--references",
        refs.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        &run_file,
        &run_file,
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("PASS PingPong latency ["), "{out}");
    assert!(out.contains("PASS every time within 10 % ["), "{out}");
    assert!(out.contains("# 0 of 2 criteria failed"), "{out}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .count(),
        2
    );
    // One run with numeric references only needs no baseline.
    let one = d.join("one.toml");
    std::fs::write(
        &one,
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = 1000\nupper = 0\n",
    )
    .unwrap();
    let (code, out, _) = run(&["--references", one.to_str().unwrap(), &run_file]);
    assert_eq!(code, Some(0), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_slower_run_fails_and_junit_names_it() {
    let d = scratch("slow");
    // IMB 3.0's fixture is slower than IMB 2021's at every PingPong size.
    let refs = d.join("acc.toml");
    std::fs::write(&refs, SELF_REFS).unwrap();
    let junit = d.join("junit.xml");
    let (code, out, _) = run(&[
        "--references",
        refs.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        &fixture("imb-2021.txt"),
        &fixture("imb-3.0.txt"),
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("FAIL PingPong latency [imb-3.0.txt]: 6 of 6 size(s) fail unbounded..+50.0 % of the baseline: 0 bytes: 0.27 against 0.14 (+92.9 %)"),
        "{out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failed: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter(|n| n.children().any(|c| c.has_tag_name("failure")))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(failed, ["PingPong latency", "every time within 10 %"]);
    // The markdown and CSV forms of the same verdicts.
    let (code, out, _) = run(&[
        "--markdown",
        "--references",
        refs.to_str().unwrap(),
        &fixture("imb-2021.txt"),
        &fixture("imb-3.0.txt"),
    ]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("| **FAIL** | PingPong latency | imb-3.0.txt |"),
        "{out}"
    );
    assert!(
        out.contains("\n|      bytes |")
            || out.contains("| bytes | base | new | ratio | change | flags |"),
        "{out}"
    );
    let (_, out, _) = run(&[
        "--csv",
        "--references",
        refs.to_str().unwrap(),
        &fixture("imb-2021.txt"),
        &fixture("imb-3.0.txt"),
    ]);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("criterion,run,verdict,sizes,detail"));
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("PingPong latency,imb-3.0.txt,FAIL,6,"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn flagged_rows_and_oversubscribed_runs() {
    let d = scratch("flags");
    let refs = d.join("acc.toml");
    std::fs::write(
        &refs,
        "[[criterion]]\nname = \"latency\"\nbenchmark = \"Bcast_latency\"\nprocesses = 3\nmetric = \"t_avg\"\nreference = \"baseline\"\nupper = 0.2\n",
    )
    .unwrap();
    let r = refs.to_str().unwrap();
    let f = fixture("imb-rs-adaptive-np3.txt");
    let (code, out, _) = run(&["--references", r, &f, &f]);
    assert_eq!(code, Some(1));
    assert!(out.contains("# !! imb-rs-adaptive-np3.txt #2: 3 processes share 2 CPUs on one host (oversubscribed)"), "{out}");
    assert!(out.contains("UNSETTLED (base), UNSETTLED (new)"), "{out}");
    assert!(out.contains("FAIL latency [imb-rs-adaptive-np3.txt #2]: imb-rs-adaptive-np3.txt #2 ran oversubscribed (3 processes share 2 CPUs on one host)"), "{out}");
    let (code, out, _) = run(&["--references", r, "--accept-oversubscribed", &f, &f]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains(": 4 bytes: UNSETTLED (new), not a result"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "--references",
        r,
        "--accept-oversubscribed",
        "--accept-flagged",
        &f,
        &f,
    ]);
    assert_eq!(code, Some(0), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn plots_are_svg_with_one_line_per_run() {
    let d = scratch("plot");
    let dir = d.join("plots");
    let (code, out, err) = run(&[
        "--plot",
        dir.to_str().unwrap(),
        &fixture("imb-3.0.txt"),
        &fixture("imb-2021.txt"),
        &fixture("imb-rs-mpi1.json"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("# 2 plot(s) and index.html in "), "{out}");
    let svg = std::fs::read_to_string(dir.join("PingPong-np2.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect();
    for label in ["imb-3.0.txt", "imb-2021.txt", "imb-rs-mpi1.json"] {
        // Twice: the time panel's legend and the bandwidth panel's.
        assert_eq!(
            texts.iter().filter(|t| *t == label).count(),
            2,
            "{label}: {texts:?}"
        );
    }
    // Three runs, two panels: a line and a legend sample each.
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .count();
    assert!(lines >= 6, "{lines}");
    // Barrier has no size: no plot. Allreduce has no bandwidth: one panel.
    assert!(!dir.join("Barrier-np2.svg").exists());
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(index.contains("<img src=\"Allreduce-np2.svg\""), "{index}");
    // Ours to write again; a directory of someone else's files is not.
    let (code, _, err) = run(&[
        "--plot",
        dir.to_str().unwrap(),
        &fixture("imb-3.0.txt"),
        &fixture("imb-2021.txt"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let theirs = d.join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let (code, out, err) = run(&[
        "--plot",
        theirs.to_str().unwrap(),
        &fixture("imb-3.0.txt"),
        &fixture("imb-2021.txt"),
    ]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.contains("theirs: a directory with files not written by imb-compare --plot"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(theirs.join("notes.txt")).unwrap(),
        "mine"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let d = scratch("bad");
    let bad = d.join("bad.toml");
    std::fs::write(
        &bad,
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"latency\"\nreference = \"baseline\"\nupper = 0.1\n",
    )
    .unwrap();
    let broken = d.join("broken.toml");
    std::fs::write(&broken, "[[criterion]]\nbenchmark = \"PingPong\n").unwrap();
    let f = fixture("imb-rs-mpi1.txt");
    let b = bad.to_string_lossy().into_owned();
    let k = broken.to_string_lossy().into_owned();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["--references", &b, &f, &f],
            format!("imb-compare: {b}, line 3: metric \"latency\": use t"),
        ),
        (
            vec!["--references", &k, &f, &f],
            format!("imb-compare: {k}, line 2: "),
        ),
        (
            vec!["--references", "/nonexistent.toml", &f, &f],
            "/nonexistent.toml".to_string(),
        ),
        (
            vec![&f],
            "one run: give BASE and NEW, or --references FILE.toml".to_string(),
        ),
        (
            vec!["--junit", "/dev/null/x.xml", "--references", &b, &f, &f],
            "--junit".to_string(),
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(&want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // --junit needs --references; --csv and --markdown exclude each other (clap: status 2).
    assert_eq!(run(&["--junit", "j.xml", &f, &f]).0, Some(2));
    assert_eq!(run(&["--csv", "--markdown", &f, &f]).0, Some(2));
    // The subcommand still works beside the plain form.
    assert_eq!(run(&["agreement", &f, &f]).0, Some(0));
    let _ = std::fs::remove_dir_all(&d);
}

/// The example references file parses, and its criteria read as doc/ACCEPTANCE.md says: a
/// criterion that covers no row of the run fails.
#[test]
fn the_example_references_file() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../settings/acceptance.toml");
    let f = fixture("imb-rs-mpi1.json");
    let (code, out, err) = run(&["--references", example.to_str().unwrap(), &f, &f]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        out.contains("PASS PingPong latency, 0 B to 1 KiB ["),
        "{out}"
    );
    assert!(out.contains("PASS Allreduce ["), "{out}");
    assert!(out.contains("PASS Barrier ["), "{out}");
    assert!(
        out.contains("FAIL PingPong bandwidth, 64 KiB to 4 MiB [imb-rs-mpi1.json #2]: no row of imb-rs-mpi1.json #2 matches the criterion"),
        "{out}"
    );
    assert!(out.contains("# 2 of 5 criteria failed"), "{out}");
}
