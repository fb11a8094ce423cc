//! imb-ext's tables under a real mpirun: every benchmark at np 2, 3 and 4 in both modes, the
//! MODE banners, column sets, repetition counts, -aggregate_mode and -multi.

mod common;
use common::*;

const SINGLE: &str = "       #bytes #repetitions      t[usec]   Mbytes/sec";
const COLL: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";
const AGG: &str = "#    MODE: AGGREGATE ";
const NONAGG: &str = "#    MODE: NON-AGGREGATE ";
const PAIRS: [&str; 4] = ["Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put"];

/// The process block of a table run on `n` of `np` processes.
fn procs(n: usize, np: usize) -> Vec<String> {
    let mut v = vec![format!("# #processes = {n} ")];
    match np - n {
        0 => {}
        1 => v.push("# ( 1 additional process waiting in MPI_Barrier)".into()),
        k => v.push(format!(
            "# ( {k} additional processes waiting in MPI_Barrier)"
        )),
    }
    v
}

/// (title, process count, mode line) of every table imb-ext prints at `np` without options.
fn expected(np: usize) -> Vec<(&'static str, usize, Option<&'static str>)> {
    let ladder: Vec<usize> = if np == 2 { vec![2] } else { vec![2, np] };
    let mut v: Vec<_> = ladder.iter().map(|&n| ("Window", n, None)).collect();
    for p in PAIRS {
        v.push((p, 2, Some(AGG)));
        v.push((p, 2, Some(NONAGG)));
    }
    for &n in &ladder {
        v.push(("Accumulate", n, Some(AGG)));
        v.push(("Accumulate", n, Some(NONAGG)));
    }
    v
}

#[test]
fn every_benchmark_both_modes_np2_np3_np4() {
    let d = scratch("all");
    let lens = write(&d, "lens", "0\n4\n524288\n");
    for np in [2, 3, 4] {
        let o = mpirun_in(&d, np, &["-msglen", &lens], 120);
        ok(&o);
        assert!(o.stdout.contains("#    imb-rs ") && o.stdout.contains(", MPI-2 part    \n"));
        let t = tables(&o.stdout);
        let got: Vec<_> = t
            .iter()
            .map(|t| (t.title.as_str(), t.procs.clone(), t.mode.as_deref()))
            .collect();
        let want: Vec<_> = expected(np)
            .into_iter()
            .map(|(n, p, m)| (n, procs(p, np), m))
            .collect();
        assert_eq!(got, want, "np {np}");
        for t in &t {
            assert_eq!(t.ints("#bytes"), [0, 4, 524288], "{} np {np}", t.title);
            let single = t.title != "Window" && t.title != "Accumulate";
            let (header, rule) = if single { (SINGLE, 52) } else { (COLL, 65) };
            assert_eq!((t.header.as_str(), t.rule), (header, rule), "{}", t.title);
            let reps = match t.mode.as_deref() {
                Some(AGG) => [1000, 1000, 80],
                _ => [100, 100, 80],
            };
            assert_eq!(
                t.ints("#repetitions"),
                reps,
                "{} {:?} np {np}",
                t.title,
                t.mode
            );
        }
    }
}

#[test]
fn default_ladder_starts_0_4_8_and_aggregate_mode_picks_one_table() {
    for (mode, line) in [("aggregate", AGG), ("non_aggregate", NONAGG)] {
        let o = mpirun(
            2,
            &[
                "Window",
                "Unidir_Put",
                "Accumulate",
                "-msglog",
                "3",
                "-aggregate_mode",
                mode,
            ],
        );
        ok(&o);
        let t = tables(&o.stdout);
        let got: Vec<_> = t
            .iter()
            .map(|t| (t.title.as_str(), t.mode.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("Window", None),
                ("Unidir_Put", Some(line)),
                ("Accumulate", Some(line))
            ],
            "{mode}"
        );
        for t in &t {
            assert_eq!(t.ints("#bytes"), [0, 4, 8], "{}", t.title);
        }
    }
}

#[test]
fn multi_runs_every_group() {
    // The default one-sided component: `-multi` keeps the groups' windows apart.
    let o = mpirun(
        4,
        &[
            "Unidir_Put",
            "Accumulate",
            "-multi",
            "0",
            "-msglog",
            "3",
            "-check",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    // Unidir_Put: 2 groups of 2; Accumulate: 2 groups of 2, then one group of 4.
    assert_eq!(
        titles,
        [
            "Multi-Unidir_Put",
            "Multi-Unidir_Put",
            "Multi-Accumulate",
            "Multi-Accumulate",
            "Accumulate",
            "Accumulate"
        ]
    );
    assert!(t[0].procs[0].contains("( 2 groups of 2 processes each running simultaneous ) "));
    // SingleTransfer under -multi 0 prints the t_min/t_max/t_avg set with throughput.
    assert_eq!(
        t[0].header,
        "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec      defects"
    );
    for t in &t {
        assert!(t.column("defects").iter().all(|d| d == "0.00"), "{t:?}");
    }
    assert!(o.stdout.contains("!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"));
}

#[test]
fn multi1_prints_a_row_per_group() {
    let o = mpirun(4, &["Bidir_Get", "-multi", "1", "-msglog", "2", "-check"]);
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 2);
    for t in &t {
        assert_eq!(t.title, "Multi-Bidir_Get");
        // sizes 0 and 4, one row per group each
        assert_eq!(t.ints("Group"), [0, 1, 0, 1]);
        assert!(t.column("defects").iter().all(|d| d == "0.00"));
    }
}

/// One process: Open MPI 4.1.4's default osc/rdma cannot create a window on a single process
/// (IMB 3.0's IMB-EXT aborts the same way there); with osc/ucx Window and Accumulate run and the
/// pair benchmarks are invalid.
#[test]
fn np1_with_osc_ucx() {
    let o = mpirun_env(1, &["-msglog", "2", "-check"], &OSC_UCX);
    ok(&o);
    let t = tables(&o.stdout);
    let got: Vec<_> = t
        .iter()
        .map(|t| (t.title.as_str(), t.mode.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("Window", None),
            ("Accumulate", Some(AGG)),
            ("Accumulate", Some(NONAGG))
        ]
    );
    for p in PAIRS {
        assert!(o.stdout.contains(&format!(
            "\n# !! Benchmark {p} invalid for 1 process   !! \n"
        )));
    }
    assert!(o.stdout.contains("!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"));
}
