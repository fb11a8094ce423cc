//! IMB 2021's Source variants of PingPong and PingPing, run only when named: their tables at
//! np 1 to 4 on a short ladder, `-check`, Multi. The layout, names, columns, defects and exit
//! status are tested; timings never.

mod common;
use common::*;

const SOURCE: [&str; 4] = [
    "PingPongSpecificSource",
    "PingPongAnySource",
    "PingPingSpecificSource",
    "PingPingAnySource",
];

const SINGLE_HEADER: &str = "       #bytes #repetitions      t[usec]   Mbytes/sec";
const SUCCESS: &str = "\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n\n";

/// Every table of `out` is a single transfer's over the ladder 0..8 bytes with 20 repetitions
/// on 2 processes, the others of `np` waiting; with `check`, a defects column of zeros.
fn single_tables(out: &str, names: &[&str], np: usize, check: bool) {
    let t = tables(out);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, names, "{out}");
    let waiting = match np {
        2 => None,
        3 => Some("# ( 1 additional process waiting in MPI_Barrier)".to_string()),
        _ => Some(format!(
            "# ( {} additional processes waiting in MPI_Barrier)",
            np - 2
        )),
    };
    for tb in &t {
        let mut procs = vec!["# #processes = 2 ".to_string()];
        procs.extend(waiting.clone());
        assert_eq!(tb.procs, procs, "{}", tb.title);
        let (header, columns) = if check {
            (format!("{SINGLE_HEADER}      defects"), 5)
        } else {
            (SINGLE_HEADER.to_string(), 4)
        };
        assert_eq!(tb.header, header, "{}", tb.title);
        assert_eq!(tb.rule, 13 * columns, "{}", tb.title);
        assert_eq!(tb.ints("#bytes"), [0, 1, 2, 4, 8], "{}", tb.title);
        assert!(tb.ints("#repetitions").iter().all(|&n| n == 20), "{tb:?}");
        if check {
            assert!(tb.column("defects").iter().all(|d| d == "0.00"), "{tb:?}");
        }
    }
}

fn source_check(np: usize) {
    let mut args = SOURCE.to_vec();
    args.extend(["-check", "-msglog", "0:3", "-iter", "20"]);
    let o = mpirun(np, &args);
    ok(&o);
    assert!(o.stdout.contains(SUCCESS), "{}", o.stdout);
    single_tables(&o.stdout, &SOURCE, np, true);
}

#[test]
fn source_variants_check_np2() {
    source_check(2);
}

#[test]
fn source_variants_check_np3() {
    source_check(3);
}

/// PingPong's and PingPing's columns: the Source variants print the tables their pattern does.
#[test]
fn source_variants_have_their_patterns_tables() {
    let names = [
        "PingPong",
        "PingPongAnySource",
        "PingPing",
        "PingPingSpecificSource",
    ];
    let mut args = names.to_vec();
    args.extend(["-msglog", "0:3", "-iter", "20"]);
    let o = mpirun(4, &args);
    ok(&o);
    single_tables(&o.stdout, &names, 4, false);
}

/// Names are not case-sensitive, as for every benchmark.
#[test]
fn one_process_is_invalid() {
    let o = mpirun(1, &["pingpongspecificsource", "PINGPINGANYSOURCE"]);
    ok(&o);
    for b in ["PingPongSpecificSource", "PingPingAnySource"] {
        let line = format!("\n# !! Benchmark {b} invalid for 1 process   !! \n");
        assert!(o.stdout.contains(&line), "{}", o.stdout);
    }
    assert!(tables(&o.stdout).is_empty());
}

#[test]
fn multi_pairs_and_merged() {
    let args = [
        "PingPongSpecificSource",
        "PingPingAnySource",
        "-check",
        "-msglog",
        "0:1",
        "-iter",
        "10",
        "-multi",
    ];
    let mut per_group = args.to_vec();
    per_group.push("1");
    let o = mpirun(4, &per_group);
    ok(&o);
    let t = tables(&o.stdout);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Multi-PingPongSpecificSource", "Multi-PingPingAnySource"]
    );
    for tb in &t {
        assert!(
            tb.header.starts_with("        Group       #bytes"),
            "{tb:?}"
        );
        // Two pairs, three sizes.
        assert_eq!(tb.rows.len(), 6, "{tb:?}");
        assert!(tb.column("defects").iter().all(|d| d == "0.00"), "{tb:?}");
    }
    let mut merged = args.to_vec();
    merged.push("0");
    let o = mpirun(4, &merged);
    ok(&o);
    assert!(o.stdout.contains(SUCCESS), "{}", o.stdout);
    for tb in tables(&o.stdout) {
        assert_eq!(tb.rows.len(), 3, "{tb:?}");
    }
}
