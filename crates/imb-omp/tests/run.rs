//! imb-omp as a user runs it: every construct in a short mode at 1 and 2 threads, the table
//! layout, and one-line errors for bad input.

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
            "imb-omp: error: -threads 0: thread counts must be 1..4096",
        ),
        (
            &["-threads", "two"],
            "imb-omp: error: -threads two: expected a number",
        ),
        (
            &["-outer_reps", "x"],
            "imb-omp: error: -outer_reps x: expected a number",
        ),
        (
            &["-outer_reps", "1"],
            "imb-omp: error: -outer_reps 1: at least 2",
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
            "imb-omp: error: -outer_reps 20000: at most 10000",
        ),
        (
            &["-test_time", "1e9"],
            "imb-omp: error: -test_time 1000000000: at most 10000000 microseconds",
        ),
        (
            &["-delay_time", "inf"],
            "imb-omp: error: -delay_time inf: must be a positive number",
        ),
        (
            &["-threads", "5000"],
            "imb-omp: error: -threads 5000: thread counts must be 1..4096",
        ),
        (
            &["-outer_reps", "10000", "-test_time", "1000000"],
            "imb-omp: error: this run needs at least ",
        ),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
    }
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
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let (code, err) =
        imb_testkit::run_with_stdout(BIN, &std::env::temp_dir(), &os(&short), full.into(), 60);
    assert_eq!(code, 3, "stdout on /dev/full: {err}");
    assert_eq!(
        err.trim_end(),
        "imb-omp: error: cannot write to standard output: No space left on device (os error 28)"
    );
    // A reader that goes away after the first line: quiet exit 141 before the whole run.
    let (_, code, err) = imb_testkit::run_reader_leaves(
        BIN,
        &std::env::temp_dir(),
        &["-threads", "1,2", "-outer_reps", "2", "-test_time", "100"],
        60,
    );
    assert_eq!(code, 141, "closed stdout: {err}");
    assert!(err.is_empty(), "closed stdout is quiet: {err}");
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
}

#[test]
fn more_threads_than_cpus_is_in_the_header() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t = (cpus + 1).to_string();
    let (code, out, err) = run(&[
        "BARRIER",
        "-threads",
        &t,
        "-outer_reps",
        "2",
        "-test_time",
        "100",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let line = format!("# !! teams of more than {cpus} thread");
    let at = out
        .find(&line)
        .unwrap_or_else(|| panic!("no {line:?} in:\n{out}"));
    assert!(
        at < out.find("# List of constructs").unwrap(),
        "not in the header"
    );
}
