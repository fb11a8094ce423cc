//! imb-io check mode under a real mpirun: every benchmark reads back what it wrote (the file
//! through the file system, after sync-barrier-sync) and compares what it read with the
//! prepared pattern, including lengths that are not multiples of 4 and portions that are empty.

mod common;
use common::*;

#[test]
fn every_benchmark_checks_clean_at_np2_np3() {
    let d = scratch("check");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100003\n");
    for np in [2, 3] {
        let o = mpirun_in(&d, np, &["-check", "-msglen", &lens], 240);
        ok(&o);
        assert!(
            o.stdout.contains("!!!!  ALL BENCHMARKS SUCCESSFUL !!!!"),
            "{}",
            o.stdout
        );
        for t in tables(&o.stdout) {
            if t.title == "Open_Close" {
                assert!(!t.header.contains("defects"));
                continue;
            }
            assert_eq!(
                t.column("defects"),
                vec!["0.00"; 5],
                "{} np {np}\n{}",
                t.title,
                o.stdout
            );
        }
        assert_clean(&d, "check");
    }
}

#[test]
fn multi_groups_check_their_own_files() {
    let d = scratch("check-multi");
    let o = mpirun_in(
        &d,
        3,
        &[
            "-check",
            "-multi",
            "0",
            "-msglog",
            "0:2",
            "P_Write_Shared",
            "C_IRead_Indv",
            "P_IWrite_Priv",
        ],
        120,
    );
    ok(&o);
    assert!(
        o.stdout.contains("!!!!  ALL BENCHMARKS SUCCESSFUL !!!!"),
        "{}",
        o.stdout
    );
    assert_clean(&d, "check-multi");
}
