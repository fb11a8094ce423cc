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
            // Every process of the run, paired or not, as -json's `processes` says.
            assert_eq!(
                t.procs[0],
                format!("# #processes = {np} (threads: 1)"),
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
        assert_eq!(t.procs[0], "# #processes = 3 (threads: 1)");
        assert_eq!(t.ints("#bytes"), [3], "{}", t.title);
    }
    // OMP_NUM_THREADS asked for two: one line on stderr and one in the header say one ran.
    assert!(
        o.stderr.contains(
            "imb-mt: note: -thread_level serialized runs one thread per rank, not the 2 of \
             OMP_NUM_THREADS"
        ),
        "{}",
        o.stderr
    );
    assert!(
        o.stdout
            .contains("# !! -thread_level serialized: one thread per rank (IMB-MT runs"),
        "{}",
        o.stdout
    );
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

/// The engine's options IMB-MT does not have were accepted and changed nothing (`-npmin`,
/// `-map`, `-zero_size`, ...) or changed the run as IMB-MT never does (`-compat 2021`'s probe
/// loops cut `-repeat`, and its header named a method imb-mt did not use): each is refused
/// with one line naming it, with `-compat 2021` beside every other option too.
#[test]
fn options_imb_mt_does_not_have_are_refused() {
    for args in [
        &["-npmin", "2"][..],
        &["-multi", "0"],
        &["-map", "1x2"],
        &["-iter", "5"],
        &["-time", "1"],
        &["-mem", "1"],
        &["-zero_size", "off"],
        &["-adaptive"],
        &["-cutoff", "5"],
        &["-min_reps", "3"],
        &["-max_reps", "9"],
        &["-settings", "s.toml"],
        &["-compat", "2021"],
        &["-compat", "3.0"],
        &["-iter_policy", "off"],
        &["-data_type", "double"],
        &["-red_data_type", "float"],
        &["-contig_type", "resized"],
        &["-count", "3", "-compat", "2021", "-repeat", "2"],
        &["-compat", "2021", "-thread_level", "single", "PingPongMT"],
    ] {
        let named = args
            .iter()
            .find(|a| a.starts_with('-') && !matches!(**a, "-count" | "-repeat" | "-thread_level"))
            .unwrap();
        let d = scratch("mt-not-imb-mt");
        let o = mpirun_with(BIN, &d, 2, args, 60, Launch::default());
        assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
        let line = o.stderr.lines().next().unwrap_or("");
        assert!(
            line.starts_with(&format!("imb-mt: error: {named}: ")),
            "{args:?}: {}",
            o.stderr
        );
        assert!(!o.stdout.contains("# Benchmarking"), "{args:?}");
    }
}

/// A count whose message is above the engine's largest (4 MiB) was run at 4 MiB: refused,
/// naming -count, for either type.
#[test]
fn counts_above_the_largest_message_are_refused() {
    refused(
        &["-count", "1,1048577"],
        "-count: 1048577 int elements are 4194308 bytes",
    );
    refused(
        &["-count", "4194305", "-datatype", "char"],
        "-count: 4194305 char elements",
    );
    // The largest is taken, and #bytes shows it times the threads.
    let o = run(
        2,
        &[
            "-count",
            "1048576",
            "-repeat",
            "1",
            "-warmup",
            "0",
            "PingPongMT",
        ],
        "1",
    );
    ok(&o);
    assert_eq!(tables(&o.stdout)[0].ints("#bytes"), [4194304]);
}

/// IMB-MT's repetitions at their largest: hours on any machine, refused before the header
/// (the warm-up and the window counted, which the engine's bound does not see), naming what
/// lowers it and -force.
#[test]
fn hours_of_repetitions_are_refused_up_front() {
    for args in [
        &["-repeat", "1073741824"][..],
        &["-repeat", "1", "-warmup", "1073741824"],
        &["-repeat", "100000", "-window_size", "1048576", "UniBandMT"],
        &[
            "-repeat", "30000000", "-warmup", "30000000", "-count", "1048576", "BcastMT",
        ],
    ] {
        let d = scratch("mt-hours");
        let o = mpirun_with(BIN, &d, 2, args, 60, Launch::default());
        assert_ne!(o.code, Some(0), "{args:?}");
        let line = o.stderr.lines().next().unwrap_or("");
        assert!(
            line.starts_with("imb-mt: error: this run needs at least ")
                && line.contains("lower -repeat, -warmup, -count or -window_size")
                && line.ends_with(", or pass -force to run it anyway"),
            "{args:?}: {}",
            o.stderr
        );
        assert!(!o.stdout.contains("# Benchmarking"), "{args:?}");
    }
}

/// At an odd process count the text banner said 2 processes (the paired ones) where -json
/// said 3: both now count the run's processes.
#[test]
fn odd_process_counts_agree_in_text_and_json() {
    for np in [3, 5] {
        let d = scratch("mt-odd");
        let f = d.join("r.json").to_string_lossy().into_owned();
        let args = [
            "-count",
            "1",
            "-repeat",
            "3",
            "-warmup",
            "1",
            "-check",
            "on",
            "PingPongMT",
            "BiBandMT",
            "SendRecvMT",
            "-json",
            &f,
        ];
        let o = mpirun_env(BIN, &d, np, &args, &[("OMP_NUM_THREADS", "1")], 120);
        let t = checked_clean(&o, &[]);
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        let jt = doc["tables"].as_array().unwrap();
        assert_eq!(jt.len(), t.len());
        for (j, t) in jt.iter().zip(&t) {
            assert_eq!(j["processes"], np, "{}", t.title);
            assert_eq!(t.procs[0], format!("# #processes = {np} (threads: 1)"));
        }
    }
}

/// Four ranks of two threads on a machine of fewer than eight CPUs: every rank was given
/// the same CPUs, and each bound its two threads to two of them, so all four ranks' first
/// threads shared one CPU (a spinning MPI_Recv there starved its partner: PingPingMT hung
/// under load). They run unbound now, and the table says so. Repeated, under a watchdog.
#[test]
fn four_ranks_of_two_threads_share_no_cpu() {
    let cpus = imb_harness::binding::allowed_cpus().map_or(1, |c| c.len());
    for round in 0..3 {
        let o = run(
            4,
            &[
                "-count", "1,2", "-repeat", "10", "-warmup", "2", "-check", "on",
            ],
            "2",
        );
        let t = checked_clean(&o, &["BarrierMT"]);
        assert_eq!(t.len(), 10, "round {round}");
        if cpus < 8 {
            assert!(
                o.stdout.contains(
                    "# 4 rank(s) ran their threads unbound: their node has fewer CPUs than threads"
                ),
                "round {round}: {}",
                o.stdout
            );
        }
    }
}

/// SIGINT or SIGTERM to mpirun while the threads run, once -json's file exists: the file is
/// whole JSON (a run cut short: not complete), no temporary file is left, the run ends.
#[test]
fn signals_during_a_run_with_json_leave_whole_json() {
    // Linux's numbers (the crate has no libc dependency).
    for (sig, name) in [(2, "int"), (15, "term")] {
        let d = scratch(&format!("mt-sig-{name}"));
        let f = d.join("r.json");
        let seen = || f.exists();
        let fs = f.to_string_lossy().into_owned();
        let o = mpirun_with(
            BIN,
            &d,
            3,
            &[
                "-count",
                "1,2,4,8,16,32,64,128",
                "-repeat",
                "20000",
                "-warmup",
                "10",
                "-json",
                &fs,
            ],
            120,
            Launch {
                env: &[("OMP_NUM_THREADS", "2")],
                signal_when: Some((sig, &seen)),
                ..Launch::default()
            },
        );
        assert!(
            !o.stdout.contains("# All processes entering MPI_Finalize"),
            "{name}: not interrupted"
        );
        assert_ne!(o.code, Some(0), "{name}");
        let left: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "r.json")
            .collect();
        assert_eq!(left, Vec::<String>::new(), "{name}");
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc["complete"], false, "{name}");
    }
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

/// The most threads, the largest count and alignment: 14 GiB of buffers per rank, which ran
/// until an allocation failed mid-table (a rank's abort; under a 4 GiB address limit here).
/// Refused before the header now, naming what lowers it. Skipped on a host that could hold
/// them (it would run them).
#[test]
fn buffers_beyond_the_host_are_refused_up_front() {
    let need = 4 * 1024 * (14u64 << 20);
    match imb_core::sysinfo::mem_available() {
        Some(avail) if avail < need => {}
        other => {
            eprintln!("skipped: {other:?} bytes available, the run needs {need}");
            return;
        }
    }
    let o = run(
        4,
        &[
            "-count",
            "1048576",
            "-malloc_align",
            "1048576",
            "-repeat",
            "1",
            "-warmup",
            "0",
            "ExchangeMT",
        ],
        "1024",
    );
    assert_ne!(o.code, Some(0));
    let line = o.stderr.lines().next().unwrap_or("");
    assert!(
        line.starts_with("imb-mt: error: the threads' buffers need 14.00 GiB per process")
            && line.contains("lower -count, -malloc_align or the threads (OMP_NUM_THREADS)"),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("# Benchmarking"));
}

/// Started without mpirun (MPI's singleton start), two threads on the process's two CPUs:
/// rank 0's provenance opened MPI_T with MPI_T_init_thread(MPI_THREAD_SINGLE), which in Open
/// MPI 4.1 also lowers the library's own thread level, so the threads then shared its
/// single-thread request cache and a communicator was freed under them (rc 139 in about 4
/// starts of 10). Twenty starts, a watchdog each; every one must end whole and checked.
#[test]
fn singleton_starts_of_two_threads_end_whole() {
    let d = scratch("mt-singleton");
    let mut bad = Vec::new();
    for start in 0..20 {
        let o = mpirun_with(
            BIN,
            &d,
            1,
            &[
                "-count",
                "1,4",
                "-repeat",
                "2",
                "-check",
                "on",
                "SendRecvMT",
                "ExchangeMT",
            ],
            120,
            Launch {
                env: &[("OMP_NUM_THREADS", "2")],
                direct: true,
                ..Launch::default()
            },
        );
        let whole = o.code == Some(0)
            && o.stdout.contains("# #processes = 1 (threads: 2)")
            && o.stdout
                .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n");
        if !whole {
            bad.push(format!(
                "start {start}: rc {:?}: {}",
                o.code,
                o.stderr.trim()
            ));
        } else {
            checked_clean(&o, &[]);
        }
    }
    assert!(
        bad.is_empty(),
        "{} of 20 starts failed:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
