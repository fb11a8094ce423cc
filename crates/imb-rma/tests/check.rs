//! imb-rma's check mode under a real mpirun: every checked benchmark verifies its windows or
//! landing buffers with 0 defects at np 2 and 3 on odd sizes; the unchecked ones (all
//! peers' data land in one place) have no defects column.

mod common;
use common::*;

const UNCHECKED: [&str; 4] = ["One_get_all", "All_get_all", "All_put_all", "Get_all_local"];

#[test]
fn check_every_benchmark_odd_lengths_np2_np3() {
    let d = scratch("check");
    let lens = write(&d, "lens", "0\n1\n3\n7\n1001\n");
    for np in [2, 3] {
        let mut args = ALL.to_vec();
        args.extend(["-msglen", &lens, "-iter", "20", "-check"]);
        let o = mpirun_in(&d, np, &args, 180);
        ok(&o);
        let t = tables(&o.stdout);
        // 10 two-mode tables of 2 processes, Truly_passive_put, 8 more per process count.
        assert_eq!(t.len(), if np == 2 { 29 } else { 37 }, "{}", o.stdout);
        for t in &t {
            let bytes = match t.title.as_str() {
                "Fetch_and_op" | "Compare_and_swap" => vec![4],
                // Rounded up to whole floats.
                "Accumulate" | "Get_accumulate" => vec![0, 4, 4, 8, 1004],
                _ => vec![0, 1, 3, 7, 1001],
            };
            assert_eq!(t.ints("#bytes"), bytes, "{}", t.title);
            if UNCHECKED.contains(&t.title.as_str()) {
                assert!(!t.header.contains("defects"), "{}", t.title);
            } else {
                let d = t.column("defects");
                assert!(
                    !d.is_empty() && d.iter().all(|d| d == "0.00"),
                    "{} {:?}: {d:?}",
                    t.title,
                    t.mode
                );
            }
        }
        assert!(
            o.stdout
                .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"),
            "{}",
            o.stdout
        );
    }
}
