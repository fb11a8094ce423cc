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
