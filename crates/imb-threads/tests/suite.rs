//! imb-threads as a user runs it: every benchmark in a short mode, the table layout, and the
//! errors for bad input (one line, exit status 2), progress on stderr.

use imb_testkit::progress_lines;
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
            // A number, not judged: a loaded machine may time anything.
            let mean: f64 = f[ncols - 8].parse().unwrap_or(f64::NAN);
            assert!(mean.is_finite(), "{n}: the mean is not a number: {row}");
            let timings: usize = f[ncols - 4].parse().unwrap_or(0);
            assert!(
                (2..=3).contains(&timings),
                "{n}: -min_reps 2 -max_reps 3 gives 2..3 timings: {row}"
            );
        }
    }
}

#[test]
fn bindings_and_flags_are_reported() {
    // Structure only: which flags a row gets depends on the timings, so any of them is fine
    // (their rendering is a unit test of the table).
    let mut args = vec!["Mutex_LockUnlock", "Mutex_PingPong", "-bind", "same"];
    args.extend_from_slice(&SHORT[..6]);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("same ") || l.contains(" unbound "))
        .collect();
    assert_eq!(rows.len(), 2, "one row per benchmark:\n{out}");
    let cpu = rows[1].split_whitespace().nth(7).unwrap_or_default();
    let c: Vec<&str> = cpu.split(',').collect();
    assert!(
        c.len() == 2 && c[0] == c[1] && c[0].starts_with("cpu"),
        "-bind same puts both threads on one CPU: {}",
        rows[1]
    );
    for r in rows {
        let flags = r.split_whitespace().last().unwrap_or_default();
        assert!(
            flags == "-"
                || flags
                    .split(',')
                    .all(|f| ["UNSETTLED", "UNRELIABLE", "NOT_BOUND"].contains(&f)),
            "flags are - or known labels: {r}"
        );
    }
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
        .expect("/dev/full opens for writing");
    let (code, err) =
        imb_testkit::run_with_stdout(BIN, &std::env::temp_dir(), &os(&args), full.into(), 60);
    assert_eq!(code, 3, "stdout on /dev/full: exit 3 wanted; stderr: {err}");
    assert_eq!(
        err.trim_end(),
        "imb-threads: error: cannot write to standard output: No space left on device (os error 28)",
        "stdout on /dev/full: one line on stderr"
    );
    for args in [&["-help"][..], &["-list"]] {
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
            err.lines().count(),
            1,
            "{args:?} on /dev/full: one line: {err}"
        );
    }
}

#[test]
fn a_reader_that_leaves_ends_the_run_quietly_at_the_next_row() {
    // 2000 rows of a one-thread Barrier: minutes if every row were measured. The reader takes
    // the first line and goes away; the run must stop at the next row (the watchdog of 60 s
    // catches a run that measures on for nobody), with 141 and nothing on stderr.
    let rows = vec!["1"; 2000].join(",");
    let mut args = vec!["Barrier", "-bind", "none", "-threads", &rows];
    args.extend_from_slice(&SHORT[..6]);
    let (first, code, err) = imb_testkit::run_reader_leaves(BIN, &std::env::temp_dir(), &args, 60);
    assert!(
        first.starts_with("#---"),
        "the header came first: {first:?}"
    );
    assert_eq!(code, 141, "closed stdout: exit 141 wanted; stderr: {err}");
    assert!(err.is_empty(), "closed stdout is quiet, no panic: {err}");
    // The same for one-shot output.
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
fn hostile_input_is_one_line_and_exit_2() {
    let d = std::env::temp_dir().join(format!("imb-threads-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path we own.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo failed");
    let fifo = fifo.to_str().unwrap().to_string();
    let dir = d.to_str().unwrap().to_string();
    let settings = include_str!("../../../settings/threads.toml");
    let line_of = |key: &str| settings.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let bad_value = d.join("bad.toml");
    std::fs::write(
        &bad_value,
        settings.replace("MAX_REPS = 100", "MAX_REPS = 1"),
    )
    .unwrap();
    let bad_value = bad_value.to_str().unwrap().to_string();
    let bad_cutoff = d.join("cutoff.toml");
    std::fs::write(
        &bad_cutoff,
        settings.replace("CUTOFF_PCT = 5.0", "CUTOFF_PCT = -2.5"),
    )
    .unwrap();
    let bad_cutoff = bad_cutoff.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["-settings", "/dev/zero"],
            "imb-threads: error: -settings /dev/zero: a character device".into(),
        ),
        (
            vec!["-settings", "/dev/urandom"],
            "imb-threads: error: -settings /dev/urandom: a character device".into(),
        ),
        (
            vec!["-settings", &fifo],
            format!("imb-threads: error: -settings {fifo}: a FIFO"),
        ),
        (
            vec!["-settings", &dir],
            format!("imb-threads: error: -settings {dir}: a directory"),
        ),
        (
            vec!["-settings", &bad_value],
            format!(
                "imb-threads: error: -settings {bad_value}, line {}: MAX_REPS = 1: must be 2..1000000",
                line_of("MAX_REPS")
            ),
        ),
        (
            vec!["-settings", &bad_cutoff],
            format!(
                "imb-threads: error: -settings {bad_cutoff}, line {}: CUTOFF_PCT = -2.5: must be a percentage >= 0",
                line_of("CUTOFF_PCT")
            ),
        ),
        (
            vec!["-threads", "2000"],
            "imb-threads: error: -threads 2000: 2000 is outside 1..1024".into(),
        ),
        (
            vec!["-threads", "1-99999999999999999999999"],
            "imb-threads: error: -threads 1-99999999999999999999999: 99999999999999999999999 is outside 1..1024".into(),
        ),
        (
            vec!["-max_reps", "99999999999999999999"],
            "imb-threads: error: -max_reps 99999999999999999999: must be 2..1000000".into(),
        ),
        (
            vec!["-min_reps", "1000001"],
            "imb-threads: error: -min_reps 1000001: must be 2..1000000".into(),
        ),
        (
            vec!["-bind", "different", "-cpus", "0,0"],
            "imb-threads: error: -cpus 0,0: CPU 0 is listed twice; -bind different needs distinct CPUs".into(),
        ),
        (
            vec!["-bind", "sideways"],
            "imb-threads: error: -bind sideways: unknown value \"sideways\" (valid: same, different, none, all, or a comma list".into(),
        ),
        (
            vec!["Thread_Create", "-min_reps", "100000", "-max_reps", "100000"],
            "imb-threads: error: this run needs at least 2 h 47 min on any machine (2 rows of 100000 timings".into(),
        ),
        (
            vec!["Barrier", "-threads", "1-1024", "-min_reps", "200", "-max_reps", "200"],
            "imb-threads: error: this run needs at least ".into(),
        ),
    ];
    for (args, want) in &cases {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: exit 2 wanted; stderr: {err}");
        assert!(
            err.starts_with(want.as_str()),
            "{args:?}: wanted {want:?}, got {err:?}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: one line wanted: {err}");
        assert!(out.is_empty(), "{args:?}: nothing on stdout wanted: {out}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn non_utf8_never_panics() {
    use std::os::unix::ffi::OsStringExt;
    let (code, err) = imb_testkit::run_with_stdout(
        BIN,
        &std::env::temp_dir(),
        &[std::ffi::OsString::from_vec(b"Yi\xffeld".to_vec())],
        std::process::Stdio::null(),
        60,
    );
    assert_eq!(
        code, 2,
        "a non-UTF-8 argument: exit 2 wanted; stderr: {err}"
    );
    assert_eq!(
        err.trim_end(),
        "imb-threads: error: Yi\\xffeld: argument 1 is not valid UTF-8 text",
        "the argument is named, escaped"
    );
    // A non-UTF-8 environment (`env -i PATH=... FOO=$'\xff'`) is not read: a normal run.
    let mut args = vec!["Mutex_LockUnlock"];
    args.extend_from_slice(SHORT);
    let o = Command::new(BIN)
        .args(&args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("FOO", std::ffi::OsString::from_vec(b"\xff".to_vec()))
        .env(std::ffi::OsString::from_vec(b"B\xffR".to_vec()), "1")
        .output()
        .expect("imb-threads runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(0),
        "non-UTF-8 environment: exit 0 wanted; stderr: {err}"
    );
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .trim_end()
            .ends_with("# All threads finished"),
        "non-UTF-8 environment: the run ends normally"
    );
}

/// The CPUs this process may use, from /proc/self/status (`Cpus_allowed_list: 0-1,4`).
fn allowed_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .expect("Cpus_allowed_list in /proc/self/status")
        .trim();
    let mut v = Vec::new();
    for part in list.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        v.extend(a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap());
    }
    v
}

#[test]
fn more_threads_than_cpus_is_in_the_header() {
    let cpus = allowed_cpus();
    let n = cpus.len();
    let t = (n + 1).to_string();
    let mut args = vec!["Barrier", "-bind", "none", "-threads", &t];
    args.extend_from_slice(&SHORT[..6]);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let line = format!(
        "# !! up to {} threads on {n} CPU{}: rows with more than {n} thread",
        n + 1,
        if n == 1 { "" } else { "s" }
    );
    let at = out
        .find(&line)
        .unwrap_or_else(|| panic!("no {line:?} in:\n{out}"));
    assert!(
        at < out.find("# List of Benchmarks").unwrap(),
        "the # !! line is in the header"
    );
    // Two threads on one CPU given with -cpus.
    let first = cpus[0].to_string();
    let mut args = vec!["Yield", "-bind", "none", "-cpus", &first];
    args.extend_from_slice(&SHORT[..6]);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("# !! up to 2 threads on 1 CPU: rows with more than 1 thread share CPUs"),
        "-cpus {first} with two threads: no # !! line in:\n{out}"
    );
    // Only when it happens: one-thread benchmarks with many -threads, and Barrier of one thread.
    for args in [
        &["Mutex_LockUnlock", "-threads", "64"][..],
        &["Barrier", "-bind", "none", "-threads", "1"],
    ] {
        let mut a = args.to_vec();
        a.extend_from_slice(&SHORT[..6]);
        let (code, out, err) = run(&a);
        assert_eq!(code, Some(0), "{a:?}: {err}");
        assert!(
            !out.contains("# !!"),
            "{a:?}: no row is oversubscribed, yet:\n{out}"
        );
    }
}

/// Two benchmarks of a few rows, in the short mode.
fn tiny(extra: &[&str]) -> (Option<i32>, String, String) {
    let two = ["-bind", "same,none", "Yield", "Mutex_Protocol"];
    run(&[SHORT, &two, extra].concat())
}

// -progress: lines on stderr only, stdout the same as without it, and nothing when stderr is
// not a terminal unless asked for.

#[test]
fn progress_on_goes_to_stderr_and_leaves_stdout_alone() {
    let (code, plain, err) = tiny(&[]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = tiny(&["-progress", "on"]);
    assert_eq!(code, Some(0), "{err}");
    let shape = imb_testkit::grid_shape;
    assert_eq!(shape(&out), shape(&plain));
    assert_eq!(shape(&out).len(), 2, "{out}");
    assert!(!out.contains("imb-threads: "), "{out}");
    let lines = progress_lines("imb-threads", &err);
    assert!(
        lines[0].starts_with("imb-threads: benchmark 1 of 2, Yield: starting; elapsed "),
        "{err}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("imb-threads: benchmark 2 of 2, Mutex_Protocol: ")),
        "{err}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("imb-threads: 2 tables of 2 benchmarks done in "),
        "{err}"
    );
    // Whatever else a line says, it says how long the run has taken.
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l.contains("; elapsed ")));
}

#[test]
fn no_progress_unless_asked_when_stderr_is_not_a_terminal() {
    for extra in [&[][..], &["-progress", "auto"], &["-progress=off"]] {
        let (code, _, err) = tiny(extra);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            progress_lines("imb-threads", &err).is_empty(),
            "{extra:?}: {err}"
        );
    }
}

#[test]
fn a_bad_progress_value_is_one_line_naming_the_option() {
    let (code, out, err) = tiny(&["-progress", "sometimes"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "imb-threads: error: -progress sometimes: expected on, off or auto\n"
    );
}
