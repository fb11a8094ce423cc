//! imb-omp as a user runs it: every construct in a short mode at 1 and 2 threads, the table
//! layout, and one-line errors for bad input.

use imb_testkit::{grid_shape, progress_lines};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_imb-omp");

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(BIN).args(args).output().expect("imb-omp runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_construct_at_1_and_2_threads() {
    let (code, list, _) = run(&["-list"]);
    assert_eq!(code, Some(0));
    assert!(list.contains("WORKSHARE and PARALLEL WORKSHARE are Fortran-only"));
    let names: Vec<String> = list
        .lines()
        .filter(|l| !l.starts_with("# (") && !l.starts_with("# Constructs"))
        .filter_map(|l| l.split_whitespace().nth(2).map(String::from))
        .collect();
    assert_eq!(names.len(), 24, "{list}");
    let (code, out, err) = run(&["-threads", "1,2", "-outer_reps", "3", "-test_time", "100"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("#    imb-rs ") && out.contains(", OpenMP part "));
    assert!(
        out.contains("# OpenMP runtime        : libgomp")
            || out.contains("# OpenMP runtime        : libomp")
    );
    assert!(out.trim_end().ends_with("# All constructs measured"));
    for fam in ["sync", "sched", "array"] {
        for t in [1, 2] {
            let banner = format!("# Benchmarking {fam} \n# #threads = {t} \n");
            assert!(out.contains(&banner), "{fam} {t}\n{out}");
        }
    }
    for n in &names {
        let rows: Vec<&str> = out
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(n))
            .collect();
        let per_thread = match n.as_str() {
            "STATIC" => 1,
            "STATIC_N" | "DYNAMIC_N" | "GUIDED_N" => 8,
            "PRIVATE" | "FIRSTPRIVATE" | "COPYPRIVATE" | "COPYIN" | "ARRAY_REDUCTION" => 11,
            _ => 1,
        };
        assert_eq!(rows.len(), 2 * per_thread, "{n}");
        for r in rows {
            let f: Vec<&str> = r.split_whitespace().collect();
            let time: f64 = f[f.len() - 9].parse().unwrap_or(f64::NAN);
            // No timing is judged: a loaded machine may print anything.
            assert!(time.is_finite(), "the time column is not a number: {r}");
            assert_eq!(f[f.len() - 4], "3", "{r}");
        }
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, want) in [
        (&["NOPE"][..], "imb-omp: error: NOPE: unknown construct"),
        (
            &["-threads", "0"],
            "imb-omp: error: -threads 0: thread counts start at 1",
        ),
        (
            &["-threads", "two"],
            "imb-omp: error: -threads two: expected thread counts like 4, 1,2,4 or 1-4",
        ),
        (
            &["-outer_reps", "x"],
            "imb-omp: error: -outer_reps x: expected a whole number (2..10000)",
        ),
        (
            &["-outer_reps", "1"],
            "imb-omp: error: -outer_reps 1: must be 2..10000",
        ),
        (
            &["-test_time", "-5"],
            "imb-omp: error: -test_time -5: must be a positive number",
        ),
        (&["-cutoff"], "imb-omp: error: -cutoff: needs a value"),
        (
            &["workshare"],
            "imb-omp: error: workshare: WORKSHARE is a Fortran-only directive",
        ),
        (&["-bogus"], "imb-omp: error: -bogus: unknown option"),
        (
            &["-outer_reps", "20000"],
            "imb-omp: error: -outer_reps 20000: must be 2..10000",
        ),
        (
            &["-test_time", "1e9"],
            "imb-omp: error: -test_time 1000000000: at most 10000000 microseconds (10 s)",
        ),
        (
            &["-delay_time", "2000"],
            "imb-omp: error: -delay_time 2000: at most 1000 microseconds (0.001 s)",
        ),
        (
            &["-delay_time", "inf"],
            "imb-omp: error: -delay_time inf: must be a positive number",
        ),
        (
            &["-threads", "5000"],
            "imb-omp: error: -threads 5000: 5000 threads: imb-omp takes at most 4096",
        ),
        (
            &["-outer_reps", "10000", "-test_time", "1000000"],
            "imb-omp: error: this run needs at least ",
        ),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: exit 2 wanted; stderr: {err}");
        assert!(
            err.starts_with(want),
            "{args:?}: wanted {want:?}, got {err:?}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: one line wanted: {err}");
        assert!(out.is_empty(), "{args:?}: nothing on stdout wanted");
    }
    // The runtime's thread limit is the real limit, named before anything runs.
    let o = Command::new(BIN)
        .args(["BARRIER", "-threads", "1,3"])
        .env("OMP_THREAD_LIMIT", "2")
        .output()
        .expect("imb-omp runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(2),
        "OMP_THREAD_LIMIT=2 -threads 1,3: exit 2 wanted: {err}"
    );
    assert_eq!(
        err.trim_end(),
        "imb-omp: error: -threads 1,3: 3 threads: the OpenMP runtime's thread limit \
         (omp_get_thread_limit(), OMP_THREAD_LIMIT) is 2"
    );
    assert!(
        o.stdout.is_empty(),
        "OMP_THREAD_LIMIT=2 -threads 1,3: nothing on stdout wanted"
    );
    // A team the runtime will not form although the count is within every limit: with
    // OMP_MAX_ACTIVE_LEVELS=0 no parallel region is active, so the team of 2 has 1 thread.
    // The line names the environment, not a maximum or limit that 2 is within.
    let o = Command::new(BIN)
        .args(["BARRIER", "-threads", "1,2"])
        .env("OMP_MAX_ACTIVE_LEVELS", "0")
        .env_remove("OMP_THREAD_LIMIT")
        .output()
        .expect("imb-omp runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "exit 3 wanted: {err}");
    assert!(
        err.starts_with(
            "imb-omp: error: -threads 2: the OpenMP runtime would not form a team of 2 \
             threads, although 2 is within its thread limit (none); OMP environment: "
        ) && err.contains("OMP_MAX_ACTIVE_LEVELS=0"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line wanted: {err}");
    assert!(o.stdout.is_empty(), "nothing on stdout wanted");
}

fn os(v: &[&str]) -> Vec<std::ffi::OsString> {
    v.iter().map(std::ffi::OsString::from).collect()
}

#[test]
fn failing_stdout_ends_the_run() {
    let short = [
        "BARRIER",
        "-threads",
        "1",
        "-outer_reps",
        "2",
        "-test_time",
        "100",
    ];
    for args in [&short[..], &["-help"], &["-list"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens for writing");
        let (code, err) =
            imb_testkit::run_with_stdout(BIN, &std::env::temp_dir(), &os(args), full.into(), 60);
        assert_eq!(
            code, 3,
            "{args:?} on /dev/full: exit 3 wanted; stderr: {err}"
        );
        assert_eq!(
            err.trim_end(),
            "imb-omp: error: cannot write to standard output: No space left on device (os error 28)",
            "{args:?} on /dev/full: one line on stderr"
        );
    }
}

#[test]
fn a_reader_that_leaves_ends_the_run_quietly_at_the_next_row() {
    // 2000 rows of BARRIER at one thread with tests of 10 ms: minutes if every row were
    // measured. The reader takes the first line and goes away; the run must stop at the next
    // row (the watchdog of 60 s catches a run that measures on for nobody), with 141 and
    // nothing on stderr.
    let mut args = vec!["BARRIER"; 2000];
    args.extend(["-threads", "1", "-outer_reps", "2", "-test_time", "10000"]);
    let (first, code, err) = imb_testkit::run_reader_leaves(BIN, &std::env::temp_dir(), &args, 60);
    assert!(
        first.starts_with("#---"),
        "the header came first: {first:?}"
    );
    assert_eq!(code, 141, "closed stdout: exit 141 wanted; stderr: {err}");
    assert!(err.is_empty(), "closed stdout is quiet, no panic: {err}");
    for a in ["-help", "-list"] {
        let (_, code, err) = imb_testkit::run_reader_leaves(BIN, &std::env::temp_dir(), &[a], 60);
        assert!(
            code == 0 || code == 141,
            "{a} | head -1: exit 0 or 141 wanted, got {code}: {err}"
        );
        assert!(err.is_empty(), "{a} | head -1 is quiet: {err}");
    }
}

#[test]
fn non_utf8_never_panics() {
    use std::os::unix::ffi::OsStringExt;
    let bad = std::ffi::OsString::from_vec(b"BARR\xffIER".to_vec());
    let (code, err) = imb_testkit::run_with_stdout(
        BIN,
        &std::env::temp_dir(),
        &[bad],
        std::process::Stdio::null(),
        60,
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim_end(),
        "imb-omp: error: BARR\\xffIER: argument 1 is not valid UTF-8 text"
    );
    // An unrelated variable that is not UTF-8 is ignored; a listed one is shown escaped.
    let o = Command::new(BIN)
        .args([
            "BARRIER",
            "-threads",
            "1",
            "-outer_reps",
            "2",
            "-test_time",
            "100",
        ])
        .env(
            "IMB_UNRELATED",
            std::ffi::OsString::from_vec(b"\xfe".to_vec()),
        )
        .env(
            "OMP_DISPLAY_ENV",
            std::ffi::OsString::from_vec(b"f\xffalse".to_vec()),
        )
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("OMP_DISPLAY_ENV=f\\xffalse"), "{out}");
    // `env -i PATH=... FOO=$'\xff'`: nothing else in the environment, one variable not UTF-8
    // (in its value) and one in its name.
    let o = Command::new(BIN)
        .args([
            "BARRIER",
            "-threads",
            "1",
            "-outer_reps",
            "2",
            "-test_time",
            "100",
        ])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("FOO", std::ffi::OsString::from_vec(b"\xff".to_vec()))
        .env(std::ffi::OsString::from_vec(b"OMP_\xff".to_vec()), "1")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "env -i with non-UTF-8 variables: exit 0 wanted; stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("# OMP environment       : (none set)\n"),
        "a variable whose name is not UTF-8 is not listed:\n{out}"
    );
}

/// The CPUs this process may use, from /proc/self/status (`Cpus_allowed_list: 0-1,4`).
fn allowed_cpus() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .expect("Cpus_allowed_list in /proc/self/status")
        .trim();
    list.split(',')
        .map(|part| {
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1
        })
        .sum()
}

#[test]
fn more_threads_than_cpus_is_in_the_header() {
    let cpus = allowed_cpus();
    let t = (cpus + 1).to_string();
    let short = ["BARRIER", "-outer_reps", "2", "-test_time", "100"];
    let (code, out, err) = run(&[&short[..], &["-threads", &t]].concat());
    assert_eq!(code, Some(0), "{err}");
    let line = format!(
        "# !! up to {} threads on {cpus} CPU{}: teams of more than {cpus} thread",
        cpus + 1,
        if cpus == 1 { "" } else { "s" }
    );
    let at = out
        .find(&line)
        .unwrap_or_else(|| panic!("no {line:?} in:\n{out}"));
    assert!(
        at < out.find("# List of constructs").unwrap(),
        "the # !! line is in the header"
    );
    // Only when it happens.
    let (code, out, err) = run(&[&short[..], &["-threads", "1"]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(
        !out.contains("# !!"),
        "one thread is never oversubscribed:\n{out}"
    );
}

/// Two families (sync, sched) at 1 and 2 threads, one data point each, in a short mode.
fn tiny(extra: &[&str]) -> (Option<i32>, String, String) {
    let two = ["-threads", "1,2", "-outer_reps", "2", "-test_time", "50"];
    run(&[&two[..], &["BARRIER", "STATIC"], extra].concat())
}

// -progress: on stderr only, stdout as without it; off unless asked when stderr is no terminal.

#[test]
fn progress_lines_on_stderr_and_the_same_tables_on_stdout() {
    let (code, plain, err) = tiny(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(progress_lines("imb-omp", &err).is_empty(), "{err}");
    let (code, out, err) = tiny(&["-progress=on"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(grid_shape(&out), grid_shape(&plain));
    assert_eq!(grid_shape(&out).len(), 4, "{out}");
    assert!(!out.contains("imb-omp: "), "{out}");
    let got: Vec<String> = progress_lines("imb-omp", &err)
        .iter()
        .map(|l| l.split("; elapsed ").next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        got[..got.len() - 1],
        [
            "imb-omp: benchmark 1 of 2, sync on 1 thread: starting",
            "imb-omp: benchmark 1 of 2, sync on 2 threads: starting",
            "imb-omp: benchmark 2 of 2, sched on 1 thread: starting",
            "imb-omp: benchmark 2 of 2, sched on 2 threads: starting",
        ],
        "{err}"
    );
    assert!(got[4].starts_with("imb-omp: 4 tables of 2 benchmarks done in "));
    for extra in ["auto", "off"] {
        let (code, _, err) = tiny(&["-progress", extra]);
        assert_eq!(code, Some(0), "{err}");
        assert!(progress_lines("imb-omp", &err).is_empty(), "{extra}: {err}");
    }
    let (code, _, err) = tiny(&["-progress", "sometimes"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "imb-omp: error: -progress sometimes: expected on, off or auto\n"
    );
}
