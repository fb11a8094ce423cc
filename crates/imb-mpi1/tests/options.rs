//! The options imb-rs adds to IMB 3.0's: -msglog, -iter, -time, -mem, -zero_size,
//! -thread_level, -settings, -npmin ladders.

mod common;
use common::*;

#[test]
fn npmin_ladder_and_npmin_above_np() {
    let o = mpirun(5, &["Barrier", "-npmin", "1"]);
    ok(&o);
    let counts: Vec<String> = tables(&o.stdout)
        .iter()
        .map(|t| t.procs[0].clone())
        .collect();
    assert_eq!(
        counts,
        [
            "# #processes = 1 ",
            "# #processes = 2 ",
            "# #processes = 4 ",
            "# #processes = 5 "
        ]
    );
    let o = mpirun(3, &["Barrier", "-npmin", "8"]);
    ok(&o);
    assert_eq!(tables(&o.stdout).len(), 1);
}

#[test]
fn zero_size_off_and_msglog() {
    let o = mpirun(2, &["PingPong", "-msglog", "2:4", "-zero_size", "off"]);
    ok(&o);
    assert_eq!(tables(&o.stdout)[0].ints("#bytes"), [4, 8, 16]);
    assert!(o.stdout.contains(
        "# Minimum message length in bytes:   4\n# Maximum message length in bytes:   16\n"
    ));
    assert!(o.stdout.contains("# !!   MAXMSGLOG = 4 (standard 22)\n"));
}

#[test]
fn mem_skips_large_sizes_with_a_note() {
    // 1 MiB cap: PingPong needs 2·X bytes per process.
    let o = mpirun(2, &["PingPong", "-mem", "0.0009765625"]);
    ok(&o);
    let t = &tables(&o.stdout)[0];
    assert_eq!(*t.ints("#bytes").last().unwrap(), 524288);
    assert!(o.stdout.contains("# 3 message size(s) skipped: their buffers exceed -mem 0.001 GiB per process on 2 processes: 1048576, 2097152, 4194304\n"), "{}", o.stdout);
}

#[test]
fn time_caps_repetitions() {
    let o = mpirun(2, &["PingPong", "-msglog", "20:22", "-time", "0.00001"]);
    ok(&o);
    let reps = tables(&o.stdout)[0].ints("#repetitions");
    // 4 MiB takes far more than 10 µs per repetition: one repetition each
    assert_eq!(reps[1..], [1, 1, 1]);
}

#[test]
fn truncated_msglen_entry_is_announced() {
    let d = scratch("trunc");
    let f = write(&d, "len", "8000000\n7\n7\n");
    let o = mpirun_in(&d, 2, &["PingPong", "Allreduce", "-msglen", &f], 120);
    ok(&o);
    assert!(o
        .stdout
        .contains("Attention, msg size 8000000 truncated to 4194304\n      4194304           10"));
    let t = tables(&o.stdout);
    assert_eq!(t[0].ints("#bytes"), [4194304, 7, 7]);
    assert_eq!(t[1].ints("#bytes"), [4194304, 8, 8]);
}

#[test]
fn optional_settings_file_and_thread_level() {
    let d = scratch("opt");
    let std = include_str!("../../../settings/settings.toml");
    let f = write(
        &d,
        "s.toml",
        &std.replace(
            "IMB_OPTIONAL = false",
            "IMB_OPTIONAL = true\nMAXMSGLOG = 3\nMSGSPERSAMPLE = 7",
        ),
    );
    let o = mpirun_in(
        &d,
        2,
        &["PingPong", "-settings", &f, "-thread_level", "serialized"],
        60,
    );
    ok(&o);
    assert!(o
        .stdout
        .contains("# !! Results from OPTIONAL mode, not standard mode:\n"));
    // Only the file set parameters (-thread_level is not one): the command line is not named.
    assert!(o.stdout.contains(&format!(
        "# !! parameters set by the [optional] block of {f}:\n"
    )));
    assert!(o
        .stdout
        .contains("# !!   MSGSPERSAMPLE = 7 (standard 1000)\n"));
    assert!(o.stdout.contains("# MPI Thread Environment: MPI_THREAD_"));
    assert_eq!(tables(&o.stdout)[0].ints("#repetitions"), [7, 7, 7, 7, 7]);
    // the shipped file is standard mode: no optional lines
    let s = write(&d, "std.toml", std);
    let o = mpirun_in(
        &d,
        2,
        &[
            "PingPong",
            "-settings",
            &s,
            "-msglen",
            &write(&d, "l", "0\n"),
        ],
        60,
    );
    ok(&o);
    assert!(!o.stdout.contains("OPTIONAL"), "{}", o.stdout);
    // A parameter from the command line as well: both sources are named.
    let o = mpirun_in(&d, 2, &["PingPong", "-settings", &f, "-iter", "9"], 60);
    ok(&o);
    assert!(o.stdout.contains(&format!(
        "# !! parameters set by the [optional] block of {f} and the command line:\n"
    )));
    // A file with only its [optional] block works.
    let only = write(
        &d,
        "only.toml",
        "[optional]\nIMB_OPTIONAL = true\nMAXMSGLOG = 2\n",
    );
    let o = mpirun_in(&d, 2, &["PingPong", "-settings", &only], 60);
    ok(&o);
    assert_eq!(tables(&o.stdout)[0].ints("#bytes"), [0, 1, 2, 4]);
}

#[test]
fn json_file_mirrors_the_tables() {
    let d = scratch("json");
    let f = d.join("out.json").to_string_lossy().into_owned();
    let o = mpirun_in(
        &d,
        3,
        &["PingPong", "Reduce", "-msglog", "3", "-json", &f],
        60,
    );
    ok(&o);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["schema_version"], 4);
    assert_eq!(doc["suite"], "imb-mpi1");
    assert_eq!(doc["header"]["part"], "MPI-1 part");
    let t = tables(&o.stdout);
    let jt = doc["tables"].as_array().unwrap();
    assert_eq!(jt.len(), t.len());
    for (j, t) in jt.iter().zip(&t) {
        assert_eq!(j["benchmark"], t.title.trim_start_matches("Multi-"));
        let rows = j["rows"].as_array().unwrap();
        assert_eq!(rows.len(), t.rows.len());
        // Rows are keyed by machine key; `columns` holds the printed titles in the same order.
        let titles: Vec<&str> = t.header.split_whitespace().collect();
        assert_eq!(j["columns"], serde_json::json!(titles));
        for (jr, tr) in rows.iter().zip(&t.rows) {
            assert_eq!(jr["repetitions"].as_u64().unwrap().to_string(), tr[1]);
            let tmax = titles
                .iter()
                .position(|&c| c == "t_max[usec]" || c == "t[usec]")
                .unwrap();
            let key = j["keys"][tmax].as_str().unwrap();
            assert!(key == "t_max_us" || key == "t_us", "{key}");
            let printed: f64 = tr[tmax].parse().unwrap();
            assert!(
                (jr[key].as_f64().unwrap() - printed).abs() <= 0.005 + 1e-9,
                "{jr} vs {tr:?}"
            );
        }
    }
    assert_eq!(jt[1]["processes"], 2);
    assert_eq!(jt[1]["idle"], 1);
    assert_eq!(jt[2]["groups"], serde_json::json!([[0, 1, 2]]));
}

#[test]
fn json_file_that_cannot_be_written_is_an_error() {
    let o = mpirun(2, &["-json", "/nonexistent/dir/out.json"]);
    assert_eq!(o.code, Some(2));
    assert!(o.stderr.contains(
        "imb-mpi1: error: -json /nonexistent/dir/out.json: cannot use /nonexistent/dir: "
    ));
}

#[test]
fn zero_size_off_leaves_barrier_alone_and_explains_empty_tables() {
    let o = mpirun(
        2,
        &["Barrier", "Allreduce", "-msglog", "0", "-zero_size", "off"],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].ints("#repetitions"), [1000]);
    assert!(o.stdout.contains(
        "\n# Allreduce: no message length to run (only 0 was left, and -zero_size off removed it)\n"
    ));
}

#[test]
fn time_marks_the_run_as_optional() {
    let o = mpirun(2, &["Barrier", "-time", "5"]);
    ok(&o);
    assert!(o
        .stdout
        .contains("# !!   repetitions capped by -time 5 s per message size\n"));
}

#[test]
fn json_file_not_left_behind_on_input_error() {
    let d = scratch("json-err");
    let f = d.join("never.json").to_string_lossy().into_owned();
    let bad = write(&d, "len", "abc\n");
    let o = mpirun_in(&d, 2, &["-json", &f, "-msglen", &bad], 60);
    assert_eq!(o.code, Some(2));
    assert!(!std::path::Path::new(&f).exists());
}

#[test]
fn adaptive_flags_unsettled_sizes_after_the_table() {
    // Forced: a zero cut-off with at most two timings cannot settle on a real machine.
    let o = mpirun(
        2,
        &[
            "PingPong",
            "Barrier",
            "-msglog",
            "0:2",
            "-adaptive",
            "-cutoff",
            "0",
            "-min_reps",
            "2",
            "-max_reps",
            "2",
        ],
    );
    ok(&o);
    assert!(
        o.stdout
            .contains("# !!   -adaptive: each size's n_sample loop is split into 2 timings"),
        "{}",
        o.stdout
    );
    let t = tables(&o.stdout);
    // The columns stay IMB's; #repetitions counts every repetition timed (2 x 500).
    assert_eq!(
        t[0].header,
        "       #bytes #repetitions      t[usec]   Mbytes/sec"
    );
    assert_eq!(t[0].ints("#repetitions"), [1000, 1000, 1000, 1000]);
    for x in [0, 1, 2, 4] {
        let line = o
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("# adaptive: {x} bytes: median ")))
            .unwrap_or_else(|| panic!("no note for {x} bytes: {}", o.stdout));
        assert!(
            line.contains(" % interval ")
                && line.contains(", 2 timings of 500 (slowest rank): UNSETTLED (half-width "),
            "{line}"
        );
    }
    assert!(o.stdout.contains("\n# adaptive: median "), "{}", o.stdout);
    // A cut-off of 1e12 % settles at min_reps whatever the timings are (a half-width beyond
    // 1e10 medians would need a timing 1e10 times the median), so this judges no timing: every
    // size has its note, none UNSETTLED.
    let o = mpirun(
        2,
        &["PingPong", "-msglog", "0:2", "-adaptive", "-cutoff", "1e12"],
    );
    ok(&o);
    assert!(!o.stdout.contains("UNSETTLED"), "{}", o.stdout); // not a timing verdict: -cutoff 1e12 settles at min_reps
    assert_eq!(tables(&o.stdout)[0].rows.len(), 4);
    assert_eq!(
        o.stdout.matches("\n# adaptive: ").count(),
        4,
        "{}",
        o.stdout
    );
}

#[test]
fn adaptive_options_are_checked() {
    for (args, want) in [
        (
            &["-cutoff", "5"][..],
            "imb-mpi1: error: -cutoff: only with -adaptive",
        ),
        (
            &["-adaptive", "-cutoff", "-1"],
            "imb-mpi1: error: -cutoff: invalid value \"-1\"",
        ),
        (
            &["-adaptive", "-min_reps", "1"],
            "imb-mpi1: error: -min_reps: 1: at least 2",
        ),
        (
            &["-adaptive", "-min_reps", "9", "-max_reps", "4"],
            "imb-mpi1: error: -max_reps: 4: must be at least -min_reps (9)",
        ),
    ] {
        let o = mpirun(2, args);
        assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
        assert!(o.stderr.starts_with(want), "{args:?}: {}", o.stderr);
    }
}
