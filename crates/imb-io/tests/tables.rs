//! imb-io's tables under a real mpirun: every benchmark at np 1, 2 and 3, the process-count
//! ladder (NPmin 1; S_ on one process), MODE banners, column sets, repetition counts, the
//! CPU_Exploit block, -aggregate_mode, -multi file names, and no file left behind.

mod common;
use common::*;

const SINGLE: &str = "       #bytes #repetitions      t[usec]   Mbytes/sec";
const PAR: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec";
const NB: &str = "       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]";
const SYNC: &str = " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";
const AGG: &str = "#    MODE: AGGREGATE ";
const NONAGG: &str = "#    MODE: NON-AGGREGATE ";

/// (title, NP, mode line, column titles) of every table imb-io prints at `np`.
fn expected(np: usize) -> Vec<(String, usize, Option<&'static str>, &'static str)> {
    let mut v = Vec::new();
    for act in ["Write", "Read"] {
        for (scope, pos) in [
            ("S", "Indv"),
            ("S", "Expl"),
            ("P", "Indv"),
            ("P", "Shared"),
            ("P", "Priv"),
            ("P", "Expl"),
            ("C", "Indv"),
            ("C", "Shared"),
            ("C", "Expl"),
        ] {
            let nps: Vec<usize> = if scope == "S" {
                vec![1]
            } else {
                (1..=np).collect()
            };
            for nb in [false, true] {
                let name = format!("{scope}_{}{act}_{pos}", if nb { "I" } else { "" });
                for &n in &nps {
                    let cols = match (nb, scope) {
                        (true, _) => NB,
                        (false, "S") => SINGLE,
                        _ => PAR,
                    };
                    v.push((name.clone(), n, Some(AGG), cols));
                    if act == "Write" && !nb {
                        v.push((name.clone(), n, Some(NONAGG), cols));
                    }
                }
            }
        }
    }
    for n in 1..=np {
        v.push(("Open_Close".into(), n, None, SYNC));
    }
    v
}

#[test]
fn every_benchmark_np1_np2_np3() {
    let d = scratch("all");
    let lens = write(&d, "lens", "0\n1\n3\n");
    for np in [1, 2, 3] {
        let o = mpirun_in(&d, np, &["-msglen", &lens], 240);
        ok(&o);
        assert!(o.stdout.contains(", MPI-IO part   \n"), "{}", o.stdout);
        assert!(o.stdout.contains("# Minimum io portion in bytes:   0\n"));
        assert!(
            o.stdout.contains(
                "\n\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an undisturbed\n# performance of "
            ),
            "{}",
            o.stdout
        );
        let t = tables(&o.stdout);
        let got: Vec<_> = t
            .iter()
            .map(|t| {
                (
                    t.title.clone(),
                    t.procs[0].clone(),
                    t.mode.clone(),
                    t.header.clone(),
                )
            })
            .collect();
        let want: Vec<_> = expected(np)
            .into_iter()
            .map(|(n, p, m, c)| {
                (
                    n,
                    format!("# #processes = {p} "),
                    m.map(str::to_string),
                    c.to_string(),
                )
            })
            .collect();
        assert_eq!(got, want, "np {np}");
        for t in &t {
            let reps = t.ints("#repetitions");
            if t.title == "Open_Close" {
                assert_eq!(reps, [10], "np {np}");
                continue;
            }
            assert_eq!(t.ints("#bytes"), [0, 1, 3], "{} np {np}", t.title);
            let n = if t.mode.as_deref() == Some(NONAGG) {
                10
            } else {
                50
            };
            assert_eq!(reps, [n, n, n], "{} np {np}", t.title);
            if t.header == NB {
                for r in &t.rows {
                    let v: Vec<f64> = r[2..].iter().map(|s| s.parse().unwrap()).collect();
                    // Times are not judged (a loaded machine prints anything); the overlap is
                    // clamped to 0..100 by construction.
                    assert!(
                        v.iter().all(|x| x.is_finite()),
                        "{}: a value is not a number: {r:?}",
                        t.title
                    );
                    assert!(
                        (0.0..=100.0).contains(&v[3]),
                        "{}: overlap outside 0..100: {r:?}",
                        t.title
                    );
                }
            }
        }
        assert_clean(&d, &format!("np {np}"));
    }
}

#[test]
fn aggregate_mode_and_multi_files() {
    let d = scratch("multi");
    let o = mpirun_in(
        &d,
        2,
        &[
            "P_Write_Indv",
            "S_Read_Expl",
            "-msglog",
            "2",
            "-aggregate_mode",
            "non_aggregate",
        ],
        60,
    );
    ok(&o);
    let t = tables(&o.stdout);
    // P_Write_Indv: NON-AGGREGATE tables only (NP 1 and 2); S_Read_Expl has no such table.
    let modes: Vec<_> = t
        .iter()
        .map(|t| (t.title.as_str(), t.mode.as_deref()))
        .collect();
    assert_eq!(
        modes,
        [
            ("P_Write_Indv", Some(NONAGG)),
            ("P_Write_Indv", Some(NONAGG))
        ]
    );

    // -multi 1 at np 2: two groups of one process, each its own files, one row per group.
    let o = mpirun_in(
        &d,
        2,
        &["P_Write_Priv", "Open_Close", "-multi", "1", "-msglog", "1"],
        60,
    );
    ok(&o);
    assert!(
        o.stdout.contains("# Benchmarking Multi-P_Write_Priv "),
        "{}",
        o.stdout
    );
    assert!(o
        .stdout
        .contains("# ( 2 groups of 1 processes each running simultaneous ) "));
    let t = tables(&o.stdout);
    assert_eq!(t[0].column("Group"), ["0", "1", "0", "1", "0", "1"]);
    assert_clean(&d, "multi");
}

#[test]
fn default_ladder_reaches_16_mib() {
    // One benchmark of each kind over the standard ladder (0 … 16 MiB) with its 3.0
    // repetition counts (doc/METHODOLOGY.md, "Repetitions").
    let d = scratch("ladder");
    let o = mpirun_in(&d, 1, &["S_Write_Indv", "S_IRead_Expl"], 120);
    ok(&o);
    let t = tables(&o.stdout);
    let sizes: Vec<usize> = std::iter::once(0).chain((0..=24).map(|k| 1 << k)).collect();
    let agg: Vec<usize> = sizes
        .iter()
        .map(|&x| (16usize << 20).checked_div(x).unwrap_or(50))
        .map(|n| n.clamp(1, 50))
        .collect();
    let nonagg: Vec<usize> = sizes
        .iter()
        .map(|&x| (16usize << 20).checked_div(x).unwrap_or(10))
        .map(|n| n.clamp(1, 10))
        .collect();
    assert_eq!(t.len(), 3);
    for (t, want) in t.iter().zip([&agg, &nonagg, &agg]) {
        assert_eq!(t.ints("#bytes"), sizes, "{}", t.title);
        assert_eq!(&t.ints("#repetitions"), want, "{}", t.title);
    }
    assert_clean(&d, "ladder");
}
