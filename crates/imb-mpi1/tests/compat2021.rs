//! IMB 2021's Source variants of PingPong and PingPing, run only when named: their tables at
//! np 1 to 4 on a short ladder, `-check`, Multi. Then IMB 2021's method: every collective and
//! the single transfers under `-compat 2021 -check`, and the rooted collectives under
//! `-root_shift on|off` and `-sync on|off`. The layout, names, columns, defects and exit status
//! are tested; timings never (and under `-compat 2021` not the repetition counts either, which
//! its dynamic policy derives from them).

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
    single_tables_of(out, names, np, check, Some(20));
}

/// As `single_tables`, with `reps` repetitions a row, or at most 20 if None.
fn single_tables_of(out: &str, names: &[&str], np: usize, check: bool, reps: Option<usize>) {
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
        assert!(reps_are(tb, reps), "{tb:?}");
        if check {
            assert!(tb.column("defects").iter().all(|d| d == "0.00"), "{tb:?}");
        }
    }
}

/// Every row has `reps` repetitions, or between 1 and 20 if None.
fn reps_are(tb: &Table, reps: Option<usize>) -> bool {
    tb.ints("#repetitions").iter().all(|&n| match reps {
        Some(r) => n == r,
        None => (1..=20).contains(&n),
    })
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

/// The collectives IMB 2021 times call by call, then Barrier, which it does not.
const PER_CALL: [&str; 14] = [
    "Allreduce",
    "Reduce",
    "Reduce_scatter",
    "Allgather",
    "Allgatherv",
    "Alltoall",
    "Alltoallv",
    "Bcast",
    "Gather",
    "Gatherv",
    "Scatter",
    "Scatterv",
    "Reduce_scatter_block",
    "Reduce_local",
];
const ROOTED: [&str; 6] = [
    "Reduce", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
];

const COLL_HEADER: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";

fn procs_of(t: &Table) -> usize {
    let l = t.procs[0].trim_start_matches("# #processes = ");
    l.split([' ', ';']).next().unwrap().parse().unwrap()
}

/// `names` with `extra` at np 3 under `-check`: each name on 2 and then 3 processes, in the
/// order named, with the collective's columns and a defects column of zeros (Barrier: one
/// row, no check), `reps` repetitions a row (at most 20 if None), and every check passed.
fn collectives_check(names: &[&str], extra: &[&str], reps: Option<usize>) {
    let mut args = names.to_vec();
    args.extend(["-check", "-msglog", "0:3", "-iter", "20"]);
    args.extend(extra);
    let o = mpirun(3, &args);
    ok(&o);
    assert!(o.stdout.contains(SUCCESS), "{}", o.stdout);
    let t = tables(&o.stdout);
    let got: Vec<(&str, usize)> = t.iter().map(|t| (t.title.as_str(), procs_of(t))).collect();
    let want: Vec<(&str, usize)> = names.iter().flat_map(|&b| [(b, 2), (b, 3)]).collect();
    assert_eq!(got, want, "{extra:?}");
    for tb in &t {
        assert!(reps_are(tb, reps), "{extra:?} {tb:?}");
        if tb.title == "Barrier" {
            assert_eq!(
                tb.header,
                " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
            );
            assert_eq!(tb.rows.len(), 1);
            continue;
        }
        assert_eq!(
            tb.header,
            format!("{COLL_HEADER}      defects"),
            "{}",
            tb.title
        );
        assert_eq!(tb.rule, 13 * 6, "{}", tb.title);
        let sizes = if tb.title.starts_with("Reduce") || tb.title == "Allreduce" {
            vec![0, 4, 8]
        } else {
            vec![0, 1, 2, 4, 8]
        };
        assert_eq!(tb.ints("#bytes"), sizes, "{}", tb.title);
        assert!(
            tb.column("defects").iter().all(|d| d == "0.00"),
            "{extra:?} {tb:?}"
        );
    }
}

/// IMB 2021's loop (every call timed alone, a barrier after each) and root 0: every
/// collective's results are right.
#[test]
fn compat_2021_every_collective_check_np3() {
    let mut names = PER_CALL.to_vec();
    names.push("Barrier");
    collectives_check(&names, &["-compat", "2021"], None);
}

/// PingPong and PingPing name the partner under -compat 2021; the Source variants keep theirs.
fn single_transfers_2021(np: usize) {
    let mut names = vec!["PingPong", "PingPing"];
    names.extend(SOURCE);
    let mut args = names.clone();
    args.extend(["-compat", "2021", "-check", "-msglog", "0:3", "-iter", "20"]);
    let o = mpirun(np, &args);
    ok(&o);
    assert!(o.stdout.contains(SUCCESS), "{}", o.stdout);
    single_tables_of(&o.stdout, &names, np, true, None);
}

#[test]
fn compat_2021_single_transfers_check_np2() {
    single_transfers_2021(2);
}

#[test]
fn compat_2021_single_transfers_check_np3() {
    single_transfers_2021(3);
}

/// Root 0 throughout, or every rank in turn, under either loop and either profile: the
/// checks follow the root each repetition had.
#[test]
fn root_shift_on_and_off_check_np3() {
    for extra in [
        &["-root_shift", "off"][..],
        &["-root_shift", "on", "-sync", "off"],
        &["-root_shift", "off", "-sync", "on"],
        &["-compat", "2021", "-root_shift", "on"],
    ] {
        let reps = (!extra.contains(&"-compat")).then_some(20);
        collectives_check(&ROOTED, extra, reps);
    }
}
