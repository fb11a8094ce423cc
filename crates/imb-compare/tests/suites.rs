//! IMB 2021's other suites and ours, on committed fixtures with known figures (every time of
//! ours exactly twice IMB 2021's): IMB-P2P against imb-p2p, IMB-MT against imb-mt and
//! IMB-MPI4 against imb-mpi4. Each pair reads, pairs its tables and compares as one method:
//! the only condition that differs is the program, until a fixture is changed to differ in a
//! parameter, the suite or the threads per process, and then exactly that difference shows.
//!
//! The imb-mt and imb-mpi4 fixtures are written from the layout those executables are
//! expected to print (imb-rs's header, IMB 2021's banners and columns); IMB 2021's are built
//! from its output code (src_c/P2P, src_cpp/MT/MT_benchmark.h, src_c/IMB_output.c).

use imb_compare::read::imbtext::parse;
use imb_compare::read::run::Status;

mod common;
use common::{fixture, run, scratch, text, write};

/// The run-level `conditions differ` lines of a report, without their prefix.
fn differences(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("# !! conditions differ ("))
        .filter_map(|l| l.split_once("): ").map(|(_, d)| d.to_string()))
        .collect()
}

/// Each table's summary line: (table, geometric mean ratio).
fn summaries(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter_map(|l| l.split_once(": geometric mean ratio "))
        .map(|(t, rest)| {
            let ratio = rest.split(',').next().unwrap().to_string();
            (t.to_string(), ratio)
        })
        .collect()
}

fn all_ratios(out: &str, want: &str) -> Vec<String> {
    summaries(out)
        .into_iter()
        .filter(|(_, r)| r != want)
        .map(|(t, r)| format!("{t}: {r}"))
        .collect()
}

const PROGRAM: &str = "program: IMB 2021.11 (base) vs imb-rs 0.1.0 (new)";

#[test]
fn p2p_reads_both_programs_as_one_method() {
    let (imb, ours) = (text("imb-2021-p2p.txt"), text("imb-rs-p2p.txt"));
    for (name, t) in [("imb", &imb), ("ours", &ours)] {
        let r = parse(name, t).unwrap();
        assert_eq!(r.status, Status::Complete, "{name}");
        let names: Vec<&str> = r.tables.iter().map(|t| t.benchmark.as_str()).collect();
        // The stencil's grid is in its banner, not in its name.
        assert_eq!(names, ["PingPong", "Stencil2D"], "{name}");
        assert_eq!(
            r.tables[0].columns,
            ["bytes", "repetitions", "t", "mbytes", "msg_per_s"]
        );
        assert_eq!(r.tables[1].processes, Some(4));
        assert_eq!(r.thread_level(), Some("MPI_THREAD_SINGLE"));
        let p: Vec<(&str, &str)> = r
            .conditions
            .parameters
            .as_ref()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            p,
            [
                ("-msgrd", "off"),
                ("-pause", "0"),
                ("MSGSPERSAMPLE", "100"),
                ("OVERALL_VOL", "5242880")
            ],
            "{name}"
        );
    }
    let (code, out, err) = run(&[&fixture("imb-2021-p2p.txt"), &fixture("imb-rs-p2p.txt")]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(differences(&out), [PROGRAM], "{out}");
    assert_eq!(
        summaries(&out),
        [
            ("PingPong, 4 processes".to_string(), "2.000".to_string()),
            ("Stencil2D, 4 processes".to_string(), "2.000".to_string())
        ],
        "{out}"
    );
    // Both count megabytes of 10^6 bytes: the rates compare like with like.
    for metric in ["mbytes", "msg_per_s"] {
        let (code, out, err) = run(&[
            "--metric",
            metric,
            &fixture("imb-2021-p2p.txt"),
            &fixture("imb-rs-p2p.txt"),
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(summaries(&out).len(), 2, "{out}");
        assert!(all_ratios(&out, "0.500").is_empty(), "{metric}: {out}");
    }
    let (_, out, _) = run(&[
        "--metric",
        "msg_per_s",
        &fixture("imb-2021-p2p.txt"),
        &fixture("imb-rs-p2p.txt"),
    ]);
    assert!(
        out.starts_with("# imb-compare: imb-rs-p2p.txt against imb-2021-p2p.txt, metric Msg/sec")
    );
}

#[test]
fn p2p_parameters_that_differ_and_only_those() {
    let d = scratch("p2p-parameters");
    // IMB-P2P with -iter 1000 (OVERALL_VOL at its default), its touches on, in another case.
    let imb = text("imb-2021-p2p.txt").replace(
        "-iter 100,5 -pause 0 -msgrd off",
        "-ITER 1000 -Pause 0 -msgrd on",
    );
    let base = write(&d, "imb.txt", &imb);
    let (code, out, err) = run(&[&base, &fixture("imb-rs-p2p.txt")]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        differences(&out),
        [
            PROGRAM,
            "parameters: -msgrd standard (base) vs off (new)",
            "parameters: MSGSPERSAMPLE 1000 (base) vs 100 (new)",
            "parameters: OVERALL_VOL standard (base) vs 5242880 (new)",
        ],
        "{out}"
    );
    // None of IMB-MPI1's method (-compat 2021, -sync on, …) is IMB-P2P's.
    assert!(!out.contains("-compat"), "{out}");
}

#[test]
fn the_suite_is_a_program_condition() {
    // imb-mpi1's PingPong and imb-p2p's are other methods under one name.
    let (code, out, err) = run(&[&fixture("imb-rs-mpi1.txt"), &fixture("imb-rs-p2p.txt")]);
    assert_eq!(code, Some(0), "{err}");
    let d = differences(&out);
    assert!(
        d.contains(&"suite: MPI-1 (base) vs P2P (new)".to_string()),
        "{out}"
    );
    // IMB 2021's IMB-P2P and imb-p2p are one suite.
    let (_, out, _) = run(&[&fixture("imb-2021-p2p.txt"), &fixture("imb-rs-p2p.txt")]);
    assert!(!out.contains("suite:"), "{out}");
}

#[test]
fn mt_reads_threads_and_compares_like_with_like() {
    let imb = parse("imb-2021-mt.txt", &text("imb-2021-mt.txt")).unwrap();
    // IMB-MT prints no closing line, no date and no calling sequence.
    assert_eq!(imb.status, Status::Unknown);
    assert_eq!(imb.conditions.parameters, None);
    assert_eq!(imb.conditions.threads.as_deref(), Some("2"));
    // Threads run only under -thread_level multiple.
    assert_eq!(imb.thread_level(), Some("MPI_THREAD_MULTIPLE"));
    let names: Vec<&str> = imb.tables.iter().map(|t| t.benchmark.as_str()).collect();
    assert_eq!(names, ["PingPongMT", "UniBandMT", "BarrierMT"]);
    assert_eq!(
        imb.tables[1].columns,
        ["bytes", "repetitions", "t_avg", "mbytes", "msg_per_s"]
    );
    assert_eq!(
        imb.tables[2].columns,
        ["repetitions", "t_min", "t_max", "t_avg"]
    );
    let ours = parse("imb-rs-mt.txt", &text("imb-rs-mt.txt")).unwrap();
    assert_eq!(ours.status, Status::Complete);
    assert_eq!(ours.conditions.threads.as_deref(), Some("2"));

    let (code, out, err) = run(&[&fixture("imb-2021-mt.txt"), &fixture("imb-rs-mt.txt")]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(differences(&out), [PROGRAM], "{out}");
    assert_eq!(summaries(&out).len(), 3, "{out}");
    assert!(all_ratios(&out, "2.000").is_empty(), "{out}");
    assert!(!out.contains("cut short"), "{out}");
}

const MT_REFS: &str = r#"
[[criterion]]
name = "PingPongMT within 3x"
benchmark = "PingPongMT"
metric = "t"
reference = "baseline"
upper = 2.0
"#;

#[test]
fn mt_threads_differ_unless_accepted() {
    let d = scratch("mt-threads");
    let four = write(
        &d,
        "four.txt",
        &text("imb-rs-mt.txt")
            .replace("(threads: 2)", "(threads: 4)")
            .replace("10:05:00", "11:05:00"),
    );
    let refs = write(&d, "acc.toml", MT_REFS);
    let (code, out, err) = run(&["--references", &refs, &fixture("imb-rs-mt.txt"), &four]);
    assert_ne!(code, Some(0), "{out}");
    assert_eq!(
        differences(&out),
        ["threads per process: 2 (base) vs 4 (new)"],
        "{out}{err}"
    );
    assert!(
        out.contains(
            "FAIL PingPongMT within 3x [four.txt]: conditions differ: threads per process"
        ) && out.contains("--accept-difference threads"),
        "the failed criterion names the kind: {out}"
    );
    let (code, out, err) = run(&[
        "--references",
        &refs,
        "--accept-difference",
        "threads",
        &fixture("imb-rs-mt.txt"),
        &four,
    ]);
    // Accepted, the criterion is judged on its figures: one launch a side decides nothing.
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(out.contains("INCONCLUSIVE PingPongMT within 3x"), "{out}");
    assert!(!out.contains("FAIL PingPongMT"), "{out}");
    // A file that ran no thread count at all (no MT banner) says nothing of threads.
    let (_, out, _) = run(&[&fixture("imb-2021-p2p.txt"), &fixture("imb-rs-p2p.txt")]);
    assert!(!out.contains("threads"), "{out}");
}

#[test]
fn mpi4_reads_both_programs() {
    for name in ["imb-2021-mpi4.txt", "imb-rs-mpi4.txt"] {
        let r = parse(name, &text(name)).unwrap();
        assert_eq!(r.status, Status::Complete, "{name}");
        let tables: Vec<(&str, Vec<&str>)> = r
            .tables
            .iter()
            .map(|t| {
                (
                    t.benchmark.as_str(),
                    t.columns.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            tables,
            [
                (
                    "Bcast_persist",
                    vec![
                        "bytes",
                        "repetitions",
                        "t_ovrl",
                        "t_pure",
                        "t_CPU",
                        "overlap[%]"
                    ]
                ),
                (
                    "Bcast_persist_pure",
                    vec!["bytes", "repetitions", "t_min", "t_max", "t_avg"]
                ),
                (
                    "Barrier_persist",
                    vec!["repetitions", "t_ovrl", "t_pure", "t_CPU", "overlap[%]"]
                ),
                (
                    "Barrier_persist_pure",
                    vec!["repetitions", "t_min", "t_max", "t_avg"]
                ),
            ],
            "{name}"
        );
    }
    // imb-mpi4 under -compat 2021 against IMB-MPI4's defaults: IMB 2021's `-iter 20` is
    // imb-rs's MSGSPERSAMPLE 20.
    let (code, out, err) = run(&[&fixture("imb-2021-mpi4.txt"), &fixture("imb-rs-mpi4.txt")]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(differences(&out), [PROGRAM], "{out}");
    assert_eq!(summaries(&out).len(), 4, "{out}");
    assert!(all_ratios(&out, "2.000").is_empty(), "{out}");
    for metric in ["t_pure", "t_ovrl"] {
        let (_, out, _) = run(&[
            "--metric",
            metric,
            &fixture("imb-2021-mpi4.txt"),
            &fixture("imb-rs-mpi4.txt"),
        ]);
        assert_eq!(summaries(&out).len(), 2, "{metric}: {out}");
        assert!(all_ratios(&out, "2.000").is_empty(), "{metric}: {out}");
    }
}
