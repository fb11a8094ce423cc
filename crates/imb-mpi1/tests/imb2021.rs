//! IMB 2021's additions (Uniband, Biband, Reduce_local, Reduce_scatter_block, Gather, Gatherv,
//! Scatter, Scatterv): run only when named, at np 1-4 on a short ladder, their table layouts,
//! -check with odd sizes, Multi, -map and -json, and -window_size. Timings are never judged.

mod common;
use common::*;

const RATE: [&str; 2] = ["Uniband", "Biband"];
const COLL: [&str; 6] = [
    "Reduce_local",
    "Reduce_scatter_block",
    "Gather",
    "Gatherv",
    "Scatter",
    "Scatterv",
];

fn all() -> Vec<&'static str> {
    RATE.iter().chain(COLL.iter()).copied().collect()
}

const RATE_HEADER: &str = "       #bytes #repetitions   Mbytes/sec      Msg/sec";
const COLL_HEADER: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";

/// (benchmark, process count) of every table at np: Uniband and Biband on even counts only
/// (one process is invalid), the collectives on the P_min ladder from 2 (1 at np 1).
fn expected(np: usize) -> Vec<(String, usize)> {
    let ladder: Vec<usize> = match np {
        1 => vec![1],
        2 => vec![2],
        3 => vec![2, 3],
        _ => vec![2, 4],
    };
    let mut v = Vec::new();
    for b in all() {
        let counts: Vec<usize> = if RATE.contains(&b) {
            ladder.iter().copied().filter(|c| c % 2 == 0).collect()
        } else {
            ladder.clone()
        };
        v.extend(counts.into_iter().map(|c| (b.to_string(), c)));
    }
    v
}

fn procs_of(t: &Table) -> usize {
    let l = t.procs[0].trim_start_matches("# #processes = ");
    l.split([' ', ';']).next().unwrap().parse().unwrap()
}

fn run_np(np: usize) {
    let mut args = all();
    args.extend(["-msglog", "0:3", "-iter", "20", "-window_size", "4"]);
    let o = mpirun(np, &args);
    ok(&o);
    let t = tables(&o.stdout);
    let got: Vec<(String, usize)> = t.iter().map(|t| (t.title.clone(), procs_of(t))).collect();
    assert_eq!(got, expected(np), "np {np}");
    for tb in &t {
        let rate = RATE.contains(&tb.title.as_str());
        assert_eq!(
            tb.header,
            if rate { RATE_HEADER } else { COLL_HEADER },
            "{}",
            tb.title
        );
        // "#" + 13 per column - 1 dashes, as IMB's rule.
        assert_eq!(tb.rule, 13 * if rate { 4 } else { 5 }, "{}", tb.title);
        let reduction = tb.title.starts_with("Reduce");
        let sizes: Vec<usize> = tb.ints("#bytes");
        assert_eq!(
            sizes,
            if reduction {
                vec![0, 4, 8]
            } else {
                vec![0, 1, 2, 4, 8]
            },
            "{}",
            tb.title
        );
        assert!(tb.ints("#repetitions").iter().all(|&n| n == 20));
        if rate {
            // Msg/sec is a whole number, as IMB prints it; Mbytes/sec has two decimals.
            assert!(
                tb.column("Msg/sec").iter().all(|v| !v.contains('.')),
                "{tb:?}"
            );
            assert!(tb.column("Mbytes/sec").iter().all(|v| v.contains('.')));
        }
    }
    if np == 1 {
        for b in RATE {
            let line = format!("\n# !! Benchmark {b} invalid for 1 process   !! \n");
            assert!(o.stdout.contains(&line), "{}", o.stdout);
        }
    }
    if np == 3 {
        let u = t.iter().find(|t| t.title == "Uniband").unwrap();
        assert_eq!(
            u.procs,
            [
                "# #processes = 2 ",
                "# ( 1 additional process waiting in MPI_Barrier)"
            ]
        );
    }
}

#[test]
fn np1_rates_invalid_collectives_run() {
    run_np(1);
}

#[test]
fn np2_every_addition() {
    run_np(2);
}

#[test]
fn np3_every_addition() {
    run_np(3);
}

#[test]
fn np4_every_addition() {
    run_np(4);
}

/// -check with lengths that are not multiples of 4: no defects anywhere.
fn check(np: usize) {
    let d = scratch(&format!("imb2021_check{np}"));
    let f = write(&d, "len", "0\n1\n3\n7\n100\n4097\n");
    let mut args = all();
    args.extend(["-check", "-msglen", &f, "-iter", "10", "-window_size", "3"]);
    let o = mpirun_in(&d, np, &args, 180);
    ok(&o);
    assert!(o
        .stdout
        .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n\n"));
    let t = tables(&o.stdout);
    assert_eq!(t.len(), expected(np).len());
    for tb in &t {
        assert!(tb.header.ends_with("      defects"), "{}", tb.header);
        assert!(tb.column("defects").iter().all(|d| d == "0.00"), "{tb:?}");
        assert_eq!(tb.rows.len(), 6, "{}", tb.title);
    }
}

#[test]
fn check_np2_zero_defects() {
    check(2);
}

#[test]
fn check_np3_zero_defects() {
    check(3);
}

#[test]
fn not_in_the_default_run_but_with_include() {
    let o = mpirun(
        2,
        &[
            "-msglog",
            "0:1",
            "-iter",
            "5",
            "-include",
            "Uniband,Gatherv",
        ],
    );
    ok(&o);
    let names: Vec<String> = tables(&o.stdout).into_iter().map(|t| t.title).collect();
    assert!(names.contains(&"Uniband".to_string()), "{names:?}");
    assert!(names.contains(&"Gatherv".to_string()), "{names:?}");
    for b in all() {
        if b != "Uniband" && b != "Gatherv" {
            assert!(!names.iter().any(|n| n == b), "{b} ran by default");
        }
    }
}

#[test]
fn multi_per_group_and_merged() {
    let mut args = all();
    args.extend([
        "-msglog",
        "0:1",
        "-iter",
        "10",
        "-multi",
        "1",
        "-window_size",
        "2",
    ]);
    let o = mpirun(4, &args);
    ok(&o);
    let t = tables(&o.stdout);
    let first = &t[0];
    assert_eq!(first.title, "Multi-Uniband");
    assert!(first.header.starts_with("        Group       #bytes"));
    // Two groups of 2, three sizes.
    assert_eq!(first.rows.len(), 6);
    assert!(t.iter().any(|t| t.title == "Multi-Scatterv"));

    let o = mpirun(
        4,
        &[
            "Biband", "Gather", "-msglog", "0:1", "-iter", "10", "-multi", "0",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t[0].title, "Multi-Biband");
    assert_eq!(t[0].header, RATE_HEADER);
    assert_eq!(t[0].rows.len(), 3);
}

#[test]
fn map_and_json() {
    let d = scratch("imb2021_json");
    let j = d.join("out.json");
    let js = j.to_str().unwrap();
    let o = mpirun_in(
        &d,
        4,
        &[
            "Uniband", "Scatter", "-map", "2x2", "-msglog", "0:1", "-iter", "5", "-json", js,
        ],
        120,
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t[0].title, "Uniband");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    let text = v.to_string();
    assert!(text.contains("\"msg_per_s\""), "{text}");
    assert!(text.contains("\"mbytes_per_s\""), "{text}");
    assert!(text.contains("\"Scatter\""), "{text}");
}

#[test]
fn window_size_is_checked_and_shown() {
    let o = mpirun(2, &["Uniband", "-window_size", "0"]);
    assert_ne!(o.code, Some(0));
    assert!(o.stderr.contains("-window_size"), "{}", o.stderr);
    let o = mpirun(
        2,
        &[
            "Uniband",
            "-msglog",
            "0:1",
            "-iter",
            "5",
            "-window_size",
            "7",
        ],
    );
    ok(&o);
    assert!(
        o.stdout.contains("# !!   WINDOW_SIZE = 7 (standard 256)\n"),
        "{}",
        o.stdout
    );
}
