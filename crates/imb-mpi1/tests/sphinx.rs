//! Bcast_latency and Reduce_latency (the de Supinski–Karonis method) under a real mpirun:
//! the table's structure, a valid last rank per size, check mode, Multi groups, and that they
//! run only when named. No assertion judges a time: a corrected latency may be negative and
//! flagged UNRELIABLE on a loaded machine, which is the flag doing its job.

mod common;
use common::*;

/// The `#` lines after each table of `out`, keyed by the table's title and process block.
fn notes_after_tables(out: &str) -> Vec<Vec<String>> {
    out.split("# Benchmarking ")
        .skip(1)
        .map(|part| {
            let body: Vec<&str> = part.lines().collect();
            let mut notes = Vec::new();
            let mut in_table = false;
            for l in body {
                if l.contains("#repetitions") {
                    in_table = true;
                } else if in_table && l.starts_with("# ") {
                    notes.push(l.to_string());
                } else if in_table && l.starts_with("#--") {
                    break;
                }
            }
            notes
        })
        .collect()
}

/// Whether messages are quick here: MPICH's ranks spin without yielding, so with more ranks
/// than cores every message waits for a scheduler quantum (4 ms observed with MPICH 4.0.2),
/// and the test then runs fewer sizes and repetitions to stay within its watchdog.
fn measurable(np: usize) -> bool {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    open_mpi() || np <= cores
}

/// Every row has t_min <= t_avg <= t_max (statistics, not timings), and every size has a note
/// naming a non-root rank below `np` whose time is the row's t_max. An UNRELIABLE line, if
/// any, is well formed.
fn assert_valid(out: &str, np: usize, who: &str) {
    let tabs = tables(out);
    let notes = notes_after_tables(out);
    assert!(!tabs.is_empty(), "no table in: {out}");
    for l in out.lines().filter(|l| l.contains("UNRELIABLE")) {
        assert!(l.starts_with("# "), "UNRELIABLE outside a # line: {l:?}"); // not a timing verdict: where the flag is printed
    }
    for (t, notes) in tabs.iter().zip(&notes) {
        let f = |c: &str| -> Vec<f64> {
            t.column(c)
                .iter()
                .map(|v| v.parse::<f64>().unwrap())
                .collect()
        };
        let (lo, hi, avg) = (f("t_min[usec]"), f("t_max[usec]"), f("t_avg[usec]"));
        let bytes = t.ints("#bytes");
        for k in 0..bytes.len() {
            assert!(
                lo[k] <= avg[k] + 0.01 && avg[k] <= hi[k] + 0.01,
                "{}: t_min <= t_avg <= t_max fails at {} bytes: {out}",
                t.title,
                bytes[k]
            );
            let prefix = format!("# {} bytes: {who}: rank ", bytes[k]);
            let line = notes
                .iter()
                .find(|n| n.starts_with(&prefix))
                .unwrap_or_else(|| panic!("no note for {} bytes: {out}", bytes[k]));
            let rest = &line[prefix.len()..];
            let rank: usize = rest.split(' ').next().unwrap().parse().unwrap();
            assert!((1..np).contains(&rank), "{line}");
            assert!(
                rest.contains(&format!("({:.2} usec)", hi[k])),
                "{line} vs {}",
                hi[k]
            );
        }
    }
}

#[test]
fn bcast_and_reduce_latency_at_np_2_3_4_with_check() {
    for np in [2, 3, 4] {
        let nps = np.to_string();
        // Where every message may wait for a scheduler quantum, fewer sizes and repetitions
        // keep the run within the watchdog.
        let (top, iter) = if measurable(np) {
            ("12", "200")
        } else {
            ("6", "10")
        };
        let ladder = format!("0:{top}");
        let o = mpirun(
            np,
            &[
                "Bcast_latency",
                "-msglog",
                &ladder,
                "-iter",
                iter,
                "-npmin",
                &nps,
                "-check",
            ],
        );
        ok(&o);
        assert!(
            o.stdout.contains("ALL BENCHMARKS SUCCESSFUL"),
            "{}",
            o.stdout
        );
        // 0 bytes is left out, and said so once.
        assert_eq!(
            o.stdout
                .matches("# Bcast_latency runs message sizes of 1 bytes and up; not run: 0\n")
                .count(),
            1,
            "{}",
            o.stdout
        );
        let t = &tables(&o.stdout)[0];
        assert_eq!(t.ints("#bytes")[0], 1);
        assert_eq!(
            t.column("defects").iter().filter(|d| *d != "0.00").count(),
            0
        );
        assert_valid(&o.stdout, np, "last receiver");

        let o = mpirun(
            np,
            &[
                "Reduce_latency",
                "-msglog",
                &format!("2:{top}"),
                "-iter",
                iter,
                "-npmin",
                &nps,
                "-check",
            ],
        );
        ok(&o);
        assert_valid(&o.stdout, np, "critical contributor");
    }
}

#[test]
fn multi_groups_name_their_own_last_rank() {
    let o = mpirun(
        4,
        &[
            "Bcast_latency",
            "-multi",
            "1",
            "-msglen",
            "/dev/null",
            "-iter",
            "50",
        ],
    );
    // -msglen /dev/null gives no lengths: an error, not a hang.
    assert_eq!(o.code, Some(2), "{}{}", o.stdout, o.stderr);
    let dir = scratch("sphinx-multi");
    let lens = write(&dir, "lens", "64\n");
    let o = mpirun(
        4,
        &[
            "Bcast_latency",
            "-multi",
            "1",
            "-msglen",
            &lens,
            "-iter",
            "100",
        ],
    );
    ok(&o);
    let notes = notes_after_tables(&o.stdout);
    // np 2 (two groups) and np 4 (one group)
    assert_eq!(notes.len(), 2, "{}", o.stdout);
    for g in 0..2 {
        assert!(
            notes[0].iter().any(
                |n| n.starts_with(&format!("# 64 bytes: last receiver: rank 1 of group {g} ("))
            ),
            "{:?}",
            notes[0]
        );
    }
    assert!(notes[1]
        .iter()
        .any(|n| n.starts_with("# 64 bytes: last receiver: rank ")));
}

#[test]
fn run_only_when_named_and_invalid_on_one_process() {
    let o = mpirun(1, &["-list"]);
    ok_list(&o);
    assert!(
        o.stdout.ends_with(
            "# Barrier\n# Run only when named:\n# Bcast_latency\n# Reduce_latency\n# Jacobi2D\n\
             # Uniband\n# Biband\n# Reduce_local\n# Reduce_scatter_block\n# Gather\n# Gatherv\n\
             # Scatter\n# Scatterv\n# PingPongSpecificSource\n# PingPongAnySource\n\
             # PingPingSpecificSource\n# PingPingAnySource\n"
        ),
        "{}",
        o.stdout
    );
    let o = mpirun(2, &["-msglog", "2:2", "-iter", "5"]);
    ok(&o);
    let titles: Vec<String> = tables(&o.stdout).into_iter().map(|t| t.title).collect();
    assert_eq!(titles.len(), 13, "{titles:?}");
    assert!(!o.stdout.contains("_latency"));
    let o = mpirun(1, &["bcast_latency", "-npmin", "1", "-msglog", "2:2"]);
    ok(&o);
    assert!(
        o.stdout
            .contains("# !! Benchmark Bcast_latency invalid for 1 process   !! \n"),
        "{}",
        o.stdout
    );
}

/// `-list` prints and exits without the end marker of a run.
fn ok_list(o: &Out) {
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
}
