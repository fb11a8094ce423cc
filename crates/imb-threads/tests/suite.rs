//! imb-threads as a user runs it: every benchmark in a short mode, the table layout, and the
//! errors for bad input (one line, exit status 2).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_imb-threads");

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(BIN)
        .args(args)
        .output()
        .expect("imb-threads runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A short mode: few timings, any spread accepted.
const SHORT: &[&str] = &[
    "-min_reps",
    "2",
    "-max_reps",
    "3",
    "-cutoff",
    "100",
    "-threads",
    "2",
];

#[test]
fn every_benchmark_runs_in_a_short_mode() {
    let (list_code, list, _) = run(&["-list"]);
    assert_eq!(list_code, Some(0));
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter(|l| !l.starts_with("Benchmarks of") && !l.starts_with('('))
        .collect();
    assert_eq!(names.len(), 20, "{list}");
    let (code, out, err) = run(SHORT);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("#---") && out.contains("#    imb-rs ") && out.contains(", Pthreads part ")
    );
    assert!(out.contains("# Clock                 : monotonic (std::time::Instant), resolution "));
    assert!(out.trim_end().ends_with("# All threads finished"));
    for n in &names {
        let banner = format!("# Benchmarking {n} \n");
        let at = out
            .find(&banner)
            .unwrap_or_else(|| panic!("no table for {n}\n{out}"));
        let body = &out[at..];
        let titles = body.lines().nth(3).unwrap_or_default();
        for col in [
            "t_mean[usec]",
            "stddev[usec]",
            "median[usec]",
            "t_min[usec]",
            "#timings",
            "#iterations",
            "flags",
        ] {
            assert!(titles.contains(col), "{n}: {titles}");
        }
        // Every row has as many fields as the titles line, and finite numbers.
        let ncols = titles.split_whitespace().count();
        for row in body
            .lines()
            .skip(4)
            .take_while(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let f: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(f.len(), ncols, "{n}: {row}");
            let mean: f64 = f[ncols - 8].parse().unwrap_or(f64::NAN);
            assert!(mean.is_finite() && mean >= 0.0, "{n}: {row}");
            let timings: usize = f[ncols - 4].parse().unwrap_or(0);
            assert!((2..=3).contains(&timings), "{n}: {row}");
        }
    }
}

#[test]
fn unsettled_is_flagged_and_bindings_are_reported() {
    // cut-off 0 with two timings cannot settle on a real machine.
    let (code, out, err) = run(&[
        "Mutex_LockUnlock",
        "Mutex_PingPong",
        "-cutoff",
        "0",
        "-min_reps",
        "2",
        "-max_reps",
        "2",
        "-bind",
        "same",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("UNSETTLED"), "{out}");
    assert!(out.contains("         same"), "{out}");
    assert!(out.contains("cpu0,cpu0") || out.contains(",cpu"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, want) in [
        (
            &["NoSuchTest"][..],
            "imb-threads: error: NoSuchTest: unknown benchmark; valid names: ",
        ),
        (
            &["-cutoff", "-5"],
            "imb-threads: error: -cutoff -5: must be a percentage >= 0",
        ),
        (
            &["-cutoff", "abc"],
            "imb-threads: error: -cutoff abc: expected a percentage",
        ),
        (
            &["-cpus", "1000"],
            "imb-threads: error: -cpus 1000: not in this process's affinity mask",
        ),
        (&["-max_reps", "1"], "imb-threads: error: -max_reps 1: "),
        (
            &["-bind", "sideways"],
            "imb-threads: error: -bind sideways: ",
        ),
        (&["-threads", "0"], "imb-threads: error: -threads 0: "),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let (code, _, err) = run(&["-cpus", "1000"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("1000") && err.contains("affinity mask"),
        "{err}"
    );
}

fn os(v: &[&str]) -> Vec<std::ffi::OsString> {
    v.iter().map(std::ffi::OsString::from).collect()
}

#[test]
fn failing_stdout_ends_the_run() {
    let mut args = vec!["Mutex_LockUnlock", "Yield"];
    args.extend_from_slice(SHORT);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let (code, err) =
        imb_testkit::run_with_stdout(BIN, &std::env::temp_dir(), &os(&args), full.into(), 60);
    assert_eq!(code, 3, "stdout on /dev/full: {err}");
    assert_eq!(
        err.trim_end(),
        "imb-threads: error: cannot write to standard output: No space left on device (os error 28)"
    );
    // A reader that reads one line and goes away: a quiet 141 long before the whole suite.
    let (_, code, err) = imb_testkit::run_reader_leaves(BIN, &std::env::temp_dir(), SHORT, 60);
    assert_eq!(code, 141, "closed stdout: {err}");
    assert!(err.is_empty(), "closed stdout is quiet: {err}");
}

#[test]
fn hostile_input_is_one_line_and_exit_2() {
    let d = std::env::temp_dir().join(format!("imb-threads-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let fifo = fifo.to_str().unwrap().to_string();
    let bad_value = d.join("bad.toml");
    std::fs::write(
        &bad_value,
        include_str!("../../../settings/threads.toml").replace("MAX_REPS = 100", "MAX_REPS = 1"),
    )
    .unwrap();
    let bad_value = bad_value.to_str().unwrap().to_string();
    let line = include_str!("../../../settings/threads.toml")
        .lines()
        .position(|l| l.starts_with("MAX_REPS"))
        .unwrap()
        + 1;
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["-settings", "/dev/zero"],
            "imb-threads: error: -settings /dev/zero: a character device".into(),
        ),
        (
            vec!["-settings", &fifo],
            format!("imb-threads: error: -settings {fifo}: a FIFO"),
        ),
        (
            vec!["-settings", &bad_value],
            format!("imb-threads: error: -settings {bad_value}, line {line}: MAX_REPS: 1: "),
        ),
        (
            vec!["-threads", "2000"],
            "imb-threads: error: -threads 2000: 2000 is above the limit of 1024".into(),
        ),
        (
            vec!["-bind", "different", "-cpus", "0,0"],
            "imb-threads: error: -cpus: CPU 0 is listed twice".into(),
        ),
        (
            vec!["-bind", "sideways"],
            "imb-threads: error: -bind sideways: unknown value \"sideways\" (valid: same, different, none, all".into(),
        ),
        (
            vec!["Thread_Create", "-min_reps", "100000", "-max_reps", "100000"],
            "imb-threads: error: this run needs at least ".into(),
        ),
    ];
    for (args, want) in &cases {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with(want.as_str()), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // Not UTF-8: an error naming the argument, never a panic.
    use std::os::unix::ffi::OsStringExt;
    let (code, err) = imb_testkit::run_with_stdout(
        BIN,
        &std::env::temp_dir(),
        &[std::ffi::OsString::from_vec(b"Yi\xffeld".to_vec())],
        std::process::Stdio::null(),
        60,
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim_end(),
        "imb-threads: error: Yi\\xffeld: argument 1 is not valid UTF-8 text"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn more_threads_than_cpus_is_in_the_header() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t = (cpus + 1).to_string();
    let mut args = vec!["Barrier", "-bind", "none", "-threads", &t];
    args.extend_from_slice(&SHORT[..6]);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let line = format!("# !! rows with more than {cpus} thread");
    let at = out
        .find(&line)
        .unwrap_or_else(|| panic!("no {line:?} in:\n{out}"));
    assert!(
        at < out.find("# List of Benchmarks").unwrap(),
        "not in the header"
    );
}
