//! imb-nbc check mode under a real mpirun: every benchmark compares what it received.

mod common;
use common::*;

fn check_clean(o: &Out, tables_expected: usize) {
    ok(o);
    let t = tables(&o.stdout);
    assert_eq!(t.len(), tables_expected);
    for t in &t {
        if t.title.contains("Ibarrier") {
            assert!(!t.header.contains("defects"), "{}", t.title);
            continue;
        }
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
        let d = t.column("defects");
        assert!(d.iter().all(|d| d == "0.00"), "{}: {d:?}", t.title);
    }
    assert!(
        o.stdout
            .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"),
        "{}",
        o.stdout
    );
}

#[test]
fn every_benchmark_checks_clean_odd_lengths_np2_np3() {
    let d = scratch("check");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100003\n");
    let names = all_names();
    for np in [2, 3] {
        let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
        args.extend(["-msglen", &lens, "-check", "-iter", "20"]);
        let o = mpirun_in(&d, np, &args, 240);
        check_clean(&o, if np == 2 { 26 } else { 52 });
    }
}

#[test]
fn multi_groups_check_clean() {
    let d = scratch("check-multi");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100003\n");
    let o = mpirun_in(
        &d,
        4,
        &[
            "Ibcast",
            "Iscatterv",
            "Ireduce_scatter",
            "Ialltoallv_pure",
            "Ibarrier",
            "-multi",
            "1",
            "-npmin",
            "2",
            "-msglen",
            &lens,
            "-check",
            "-iter",
            "10",
        ],
        180,
    );
    check_clean(&o, 10);
}
