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
            assert!(time.is_finite() && time > 0.0, "{r}");
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
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
    }
}
