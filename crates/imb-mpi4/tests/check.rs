//! imb-mpi4 check mode under a real mpirun: every benchmark but the Barriers compares what it
//! received, on odd lengths, at np 1 to 4 (and in -multi groups).

mod common;
use common::*;

/// The Barriers, also as `-multi` titles them.
const UNCHECKED: [&str; 4] = [
    "Barrier_persist",
    "Barrier_persist_pure",
    "Multi-Barrier_persist",
    "Multi-Barrier_persist_pure",
];

fn check_clean(o: &Out, tables_expected: usize) {
    let t = checked_clean(o, &UNCHECKED);
    assert_eq!(t.len(), tables_expected);
    for t in t.iter().filter(|t| !UNCHECKED.contains(&t.title.as_str())) {
        let sizes: &[usize] = if reduction(&t.title) {
            // rounded up to whole floats (dedup merges the three 4s)
            &[0, 4, 100004]
        } else {
            &[0, 1, 3, 4, 100003]
        };
        // -multi 1 prints one row per group for each size.
        let mut got = t.ints("#bytes");
        got.dedup();
        assert_eq!(got, sizes, "{}", t.title);
    }
}

#[test]
fn every_benchmark_checks_clean_odd_lengths_np1_to_np4() {
    let d = scratch("check");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100003\n");
    for np in 1..=4 {
        let names = names_for(np);
        let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
        let npmin = np.to_string();
        // One process count per launch (NPmin = NP) keeps each launch to a few seconds.
        args.extend(["-msglen", &lens, "-check", "-iter", "10", "-npmin", &npmin]);
        let o = mpirun_in(&d, np, &args, 240);
        check_clean(&o, names.len());
    }
}

#[test]
fn multi_groups_check_clean() {
    let d = scratch("check-multi");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100003\n");
    let args = [
        "Bcast_persist",
        "Scatterv_persist",
        "Reduce_scatter_persist",
        "Alltoallv_persist_pure",
        "Barrier_persist",
        "-multi",
        "1",
        "-npmin",
        "2",
        "-msglen",
        &lens,
        "-check",
        "-iter",
        "10",
    ];
    let o = mpirun_in(&d, 4, &args, 180);
    check_clean(&o, 10);
}
