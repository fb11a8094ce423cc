//! `-off_cache` under a real mpirun: every benchmark moves through its copies as IMB 2021's
//! IMB-RMA does, and check mode finds every copy written as it should be, on sizes and
//! repetition counts where the repetitions wrap around the copies (an accumulating copy then
//! holds several sums).

mod common;
use common::*;

const UNCHECKED: [&str; 4] = ["One_get_all", "All_get_all", "All_put_all", "Get_all_local"];

/// Exit 0, the method line, no defect in any checked table; the tables.
fn clean(o: &Out) -> Vec<Table> {
    assert!(o.stdout.contains(" (-off_cache "), "{}", o.stdout);
    checked_clean(o, &UNCHECKED)
}

/// A 10 KiB cache: 4093 B messages (4096 for the accumulates) get 6 copies, or 3 for
/// Exchange's and Get_accumulate's two blocks, for 40 (AGGREGATE and the one-mode tables) or
/// 100 repetitions; 1001 B 20 copies; the smaller ones up to 164.
#[test]
fn every_benchmark_both_modes_np2_np3() {
    let d = scratch("offcache");
    let lens = write(&d, "lens", "0\n1\n7\n1001\n4093\n");
    for np in [2, 3] {
        let mut args = ALL.to_vec();
        args.extend([
            "-msglen",
            &lens,
            "-iter",
            "40",
            "-check",
            "-off_cache",
            "0.01",
        ]);
        let t = clean(&mpirun_in(&d, np, &args, 180));
        assert_eq!(t.len(), if np == 2 { 29 } else { 37 });
        let acc = t.iter().find(|t| t.title == "Accumulate").unwrap();
        assert_eq!(acc.ints("#bytes"), [0, 4, 8, 1004, 4096]);
        // More repetitions than copies: each copy sums several.
        assert!(acc.ints("#repetitions")[4] > 6);
    }
}

/// The one-element atomics wrap around their copies only past 2·cache/128 repetitions (17 of
/// a 1 KiB cache); a line of 3 bytes gives copies that start inside a float, where the target
/// displacement rounds down to a whole element. Every size keeps several copies: a size of
/// one copy after sizes of several would send what imb-core's replication of the smaller
/// sizes left in the send buffer.
#[test]
fn atomics_wrap_and_odd_lines() {
    let d = scratch("offcache-atomics");
    let lens = write(&d, "lens", "4\n12\n500\n");
    let atomics = [
        "Accumulate",
        "Get_accumulate",
        "Fetch_and_op",
        "Compare_and_swap",
    ];
    for cache in ["0.001", "0.01,3"] {
        let mut args = atomics.to_vec();
        args.extend([
            "-msglen",
            &lens,
            "-iter",
            "100",
            "-check",
            "-off_cache",
            cache,
        ]);
        let t = clean(&mpirun_in(&d, 2, &args, 120));
        assert_eq!(t.len(), 8);
    }
    // The other benchmarks under the odd line, at the ladder's smallest sizes.
    let mut args: Vec<&str> = ALL
        .iter()
        .filter(|b| !atomics.contains(b))
        .copied()
        .collect();
    args.extend([
        "-msglen",
        &lens,
        "-iter",
        "20",
        "-check",
        "-off_cache",
        "0.01,3",
    ]);
    clean(&mpirun_in(&d, 2, &args, 120));
}

/// IMB 2021's default cache (8 MiB): every repetition in a copy of its own; and `-compat
/// 2021` with a 10 KiB cache.
#[test]
fn default_cache_and_compat_2021() {
    let d = scratch("offcache-1");
    for extra in [
        &["-off_cache", "-1"][..],
        &["-compat", "2021", "-off_cache", "0.01"],
    ] {
        let mut args = ALL.to_vec();
        args.extend(["-msglog", "0:6", "-iter", "20", "-check"]);
        args.extend(extra);
        let o = mpirun_in(&d, 2, &args, 180);
        assert_eq!(clean(&o).len(), 29);
        if extra[1] == "-1" {
            assert!(o
                .stdout
                .contains("(8 MiB, 64-byte lines) (-off_cache 8,64)\n"));
        }
    }
}
