//! imb-mt under a real mpirun: every benchmark at 1 to 4 processes (banner, columns, sizes,
//! repetitions, `-check` with no defects on odd counts, invalid lines where a pair benchmark
//! cannot run), threads per rank, the thread level, the datatypes, allocation and barrier
//! variants, and the options it refuses. No test looks at a time.

use imb_testkit::*;

const BIN: &str = env!("CARGO_BIN_EXE_imb-mt");

const ALL: [&str; 10] = [
    "PingPongMT",
    "PingPingMT",
    "SendRecvMT",
    "ExchangeMT",
    "UniBandMT",
    "BiBandMT",
    "BarrierMT",
    "BcastMT",
    "ReduceMT",
    "AllReduceMT",
];

const PAIRED: [&str; 4] = ["PingPongMT", "PingPingMT", "UniBandMT", "BiBandMT"];

fn run(np: usize, args: &[&str], threads: &str) -> Out {
    let d = scratch("mt");
    mpirun_env(BIN, &d, np, args, &[("OMP_NUM_THREADS", threads)], 120)
}

fn columns(name: &str) -> &'static str {
    match name {
        "UniBandMT" | "BiBandMT" => {
            "       #bytes #repetitions  t_avg[usec]   Mbytes/sec      Msg/sec      defects"
        }
        "BarrierMT" => " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
        "BcastMT" | "ReduceMT" | "AllReduceMT" => {
            "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects"
        }
        _ => "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec      defects",
    }
}

#[test]
fn every_benchmark_np1_to_np4_checks_clean() {
    for np in 1..=4 {
        let o = run(
            np,
            &[
                "-count", "1,3,5", "-repeat", "10", "-warmup", "2", "-check", "on",
            ],
            "1",
        );
        let t = checked_clean(&o, &["BarrierMT"]);
        let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
        let expected: Vec<&str> = ALL
            .iter()
            .copied()
            .filter(|n| np > 1 || !PAIRED.contains(n))
            .collect();
        assert_eq!(titles, expected, "np {np}");
        if np == 1 {
            for n in PAIRED {
                assert!(
                    o.stdout
                        .contains(&format!("# !! Benchmark {n} invalid for 1 process")),
                    "{n}"
                );
            }
        }
        for t in &t {
            assert_eq!(t.header, columns(&t.title), "{}", t.title);
            let ran = if PAIRED.contains(&t.title.as_str()) {
                np / 2 * 2
            } else {
                np
            };
            assert_eq!(
                t.procs[0],
                format!("# #processes = {ran} (threads: 1)"),
                "{}",
                t.title
            );
            let window = t.procs.iter().any(|l| l == "# window_size = 64");
            assert_eq!(window, t.title.contains("Band"), "{}", t.title);
            assert!(
                t.ints("#repetitions").iter().all(|&r| r == 10),
                "{}",
                t.title
            );
            if t.title != "BarrierMT" {
                assert_eq!(t.ints("#bytes"), [4, 12, 20], "{} np {np}", t.title);
            } else {
                assert_eq!(t.rows.len(), 1);
            }
        }
    }
}

#[test]
fn two_threads_per_rank_each_with_its_own_buffers() {
    for (algo, barrier) in [
        ("serial", "on"),
        ("continuous", "special"),
        ("parallel", "off"),
    ] {
        let o = run(
            2,
            &[
                "-count",
                "1,3",
                "-repeat",
                "10",
                "-warmup",
                "1",
                "-check",
                "on",
                "-malloc_algo",
                algo,
                "-barrier",
                barrier,
                "-malloc_align",
                "48",
                "PingPongMT",
                "ExchangeMT",
                "BiBandMT",
                "ReduceMT",
                "BarrierMT",
            ],
            "2",
        );
        for t in checked_clean(&o, &["BarrierMT"]) {
            assert_eq!(t.procs[0], "# #processes = 2 (threads: 2)", "{algo}");
            if t.title != "BarrierMT" {
                // count x 4 bytes x 2 threads
                assert_eq!(t.ints("#bytes"), [8, 24], "{} {algo}", t.title);
            }
        }
        assert!(o.stdout.contains("MPI_THREAD_MULTIPLE"), "{}", o.stdout);
    }
}

#[test]
fn one_thread_below_multiple_and_char_elements() {
    let o = run(
        3,
        &[
            "-thread_level",
            "serialized",
            "-datatype",
            "char",
            "-count",
            "3",
            "-repeat",
            "5",
            "-stride",
            "1",
            "PingPongMT",
            "SendRecvMT",
            "UniBandMT",
        ],
        "2",
    );
    ok(&o);
    // The header names -datatype's type, for the reductions too.
    assert!(
        o.stdout
            .contains("# MPI_Datatype                   :   MPI_CHAR \n"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("# MPI_Datatype for reductions    :   MPI_CHAR\n"),
        "{}",
        o.stdout
    );
    for t in tables(&o.stdout) {
        let ran = if t.title == "SendRecvMT" { 3 } else { 2 };
        assert_eq!(t.procs[0], format!("# #processes = {ran} (threads: 1)"));
        assert_eq!(t.ints("#bytes"), [3], "{}", t.title);
    }
}

#[test]
fn default_counts_and_window() {
    let o = run(
        2,
        &[
            "-repeat",
            "3",
            "-warmup",
            "0",
            "-window_size",
            "4",
            "UniBandMT",
            "-noheader",
        ],
        "1",
    );
    ok(&o);
    assert!(!o.stdout.contains("imb-rs"), "{}", o.stdout);
    let t = tables(&o.stdout);
    assert_eq!(t[0].ints("#bytes"), [4, 8, 16, 32]);
    assert!(t[0].procs.contains(&"# window_size = 4".to_string()));
}

fn refused(args: &[&str], why: &str) {
    let d = scratch("mt-bad");
    let o = mpirun_with(BIN, &d, 2, args, 60, Launch::default());
    assert_ne!(o.code, Some(0), "{args:?}");
    let all = format!("{}{}", o.stdout, o.stderr);
    assert!(all.contains(why), "{args:?}: {all}");
}

#[test]
fn bad_options_end_every_rank_with_one_line() {
    refused(&["-check", "on", "-datatype", "char"], "-check");
    refused(&["-count", "0,1"], "-count");
    refused(&["-msglog", "2:4"], "use -count");
    refused(&["-stride", "2"], "-stride");
    refused(&["-barrier", "sometimes"], "-barrier");
    refused(&["-malloc_algo", "huge"], "-malloc_algo");
    refused(&["-aggregate_mode", "both"], "AGGREGATE");
    refused(&["-off_cache", "1"], "-off_cache");
    refused(&["-warm_up", "on"], "-warmup");
}

/// The engine's outputs for IMB-MT's tables: -json rows show the #bytes the text shows (all
/// of a rank's threads' bytes), -summary follows the last table, -progress goes to stderr.
#[test]
fn json_summary_and_progress() {
    let d = scratch("mt-json");
    let f = d.join("r.json").to_string_lossy().into_owned();
    let args = [
        "-count",
        "1,3",
        "-repeat",
        "5",
        "-warmup",
        "1",
        "PingPongMT",
        "BcastMT",
        "-json",
        &f,
        "-summary",
        "-progress",
        "on",
    ];
    let o = mpirun_env(BIN, &d, 2, &args, &[("OMP_NUM_THREADS", "2")], 120);
    ok(&o);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["suite"], "imb-mt");
    assert!(doc["provenance"].is_object());
    let t = tables(&o.stdout);
    let jt = doc["tables"].as_array().unwrap();
    assert_eq!(jt.len(), 2);
    for (j, t) in jt.iter().zip(&t) {
        assert_eq!(j["benchmark"], t.title);
        let bytes: Vec<u64> = j["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["bytes"].as_u64().unwrap())
            .collect();
        // count · 4 bytes · 2 threads.
        assert_eq!(bytes, [8, 24], "{}", t.title);
        assert_eq!(t.ints("#bytes"), [8, 24]);
    }
    assert_eq!(doc["summary"].as_array().unwrap().len(), 2);
    assert!(o.stdout.contains("\n\n# Summary: "), "{}", o.stdout);
    assert!(
        o.stderr.contains("imb-mt: benchmark 1 of 2, PingPongMT"),
        "{}",
        o.stderr
    );
}
