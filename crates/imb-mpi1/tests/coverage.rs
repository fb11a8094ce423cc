//! Every benchmark at np 1, 2, 3, 4 on a short ladder, and check mode on every benchmark.

mod common;
use common::*;

const ALL: [&str; 13] = [
    "PingPong",
    "PingPing",
    "Sendrecv",
    "Exchange",
    "Allreduce",
    "Reduce",
    "Reduce_scatter",
    "Allgather",
    "Allgatherv",
    "Alltoall",
    "Alltoallv",
    "Bcast",
    "Barrier",
];

/// Which process counts each benchmark must show at np.
fn expected_tables(np: usize) -> Vec<(String, usize)> {
    let counts: Vec<usize> = match np {
        1 => vec![1],
        2 => vec![2],
        3 => vec![2, 3],
        _ => vec![2, 4],
    };
    let mut v = Vec::new();
    for b in ALL {
        if b.starts_with("Ping") {
            if np >= 2 {
                v.push((b.to_string(), 2));
            }
        } else {
            for &c in &counts {
                v.push((b.to_string(), c));
            }
        }
    }
    v
}

fn run_all(np: usize, extra: &[&str]) -> Out {
    let mut args = vec!["-msglog", "0:6", "-iter", "50"];
    args.extend_from_slice(extra);
    let o = mpirun(np, &args);
    ok(&o);
    let got: Vec<(String, usize)> = tables(&o.stdout)
        .iter()
        .map(|t| {
            let n = t.procs[0]
                .trim_start_matches("# #processes = ")
                .split([' ', ';'])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (t.title.clone(), n)
        })
        .collect();
    assert_eq!(got, expected_tables(np), "np {np}");
    for t in tables(&o.stdout) {
        let rows = if t.title == "Barrier" {
            1
        } else if ["Allreduce", "Reduce", "Reduce_scatter"].contains(&t.title.as_str()) {
            6 // 0, 4, 8, 16, 32, 64
        } else {
            8 // 0, 1, 2, ..., 64
        };
        assert_eq!(t.rows.len(), rows, "{} at np {np}", t.title);
        assert!(t.ints("#repetitions").iter().all(|&n| n == 50), "{t:?}");
        for r in &t.rows {
            for v in &r[1..] {
                let f: f64 = v.parse().unwrap();
                assert!(f.is_finite(), "{}: a value is not a number: {r:?}", t.title);
            }
        }
    }
    o
}

#[test]
fn np1_single_transfer_is_invalid_the_rest_runs() {
    let o = run_all(1, &[]);
    assert!(o
        .stdout
        .contains("\n# !! Benchmark PingPong invalid for 1 process   !! \n"));
    assert!(o
        .stdout
        .contains("\n# !! Benchmark PingPing invalid for 1 process   !! \n"));
}

#[test]
fn np2_every_benchmark() {
    run_all(2, &[]);
}

#[test]
fn np3_every_benchmark() {
    let o = run_all(3, &[]);
    let t = tables(&o.stdout);
    assert_eq!(
        t[0].procs,
        [
            "# #processes = 2 ",
            "# ( 1 additional process waiting in MPI_Barrier)"
        ]
    );
}

#[test]
fn np4_every_benchmark() {
    run_all(4, &[]);
}

/// -check on every benchmark, with lengths that are not multiples of 4.
fn check(np: usize) {
    let d = scratch(&format!("check{np}"));
    let f = write(&d, "len", "0\n1\n3\n4\n100\n4097\n100003\n");
    let o = mpirun_in(&d, np, &["-check", "-msglen", &f, "-iter", "20"], 180);
    ok(&o);
    assert!(
        o.stdout
            .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n\n"),
        "{}",
        o.stdout
    );
    let t = tables(&o.stdout);
    assert!(t.len() >= 13);
    for tb in &t {
        if tb.title == "Barrier" {
            assert!(!tb.header.contains("defects"));
            continue;
        }
        assert!(tb.header.ends_with("      defects"), "{}", tb.header);
        assert!(tb.column("defects").iter().all(|d| d == "0.00"), "{tb:?}");
        assert_eq!(tb.rows.len(), 7, "{}", tb.title);
    }
}

#[test]
fn check_np3_zero_defects() {
    check(3);
}

#[test]
fn check_np4_zero_defects() {
    check(4);
}
