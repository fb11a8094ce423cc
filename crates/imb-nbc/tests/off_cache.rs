//! imb-nbc under `-off_cache` under a real mpirun: every call sends from and receives into
//! its own copy, in the `_pure` and the overlap loops alike, and `-check` reads the copy the
//! call it checks received into, so every table checks clean. The lengths are chosen so that
//! some sizes have more repetitions than copies (the copies wrap around) and some one copy.

mod common;
use common::*;

/// The end of the header's line for `-off_cache` given as `arg` (its one spelling, `S,L`).
fn header_line(arg: &str) -> String {
    format!(" (-off_cache {arg})\n")
}

/// Exit 0, the `-off_cache` line, the tables `titles` in order, no defect in any checked
/// one, the success line.
fn clean(o: &Out, arg: &str, titles: &[String]) {
    assert!(o.stdout.contains(&header_line(arg)), "{}", o.stdout);
    let t = checked_clean(o, &["Ibarrier", "Ibarrier_pure"]);
    let got: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(got, titles);
}

/// With a 10 KiB cache and 20 repetitions: up to 100 bytes have 20 copies, 4097 bytes five
/// (gathered at np 3: two), 100003 bytes one, after sizes with copies.
#[test]
fn every_benchmark_checks_clean_np2_np3() {
    let d = scratch("off-cache");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100\n4097\n100003\n");
    let names = all_names();
    for np in [2, 3] {
        let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
        args.extend([
            "-off_cache",
            "0.01",
            "-msglen",
            &lens,
            "-check",
            "-iter",
            "20",
        ]);
        let o = mpirun_in(&d, np, &args, 240);
        // Each benchmark at np 2, then at np 3 when there are 3 processes.
        let titles: Vec<String> = names.iter().flat_map(|n| vec![n.clone(); np - 1]).collect();
        clean(&o, "0.01,64", &titles);
    }
}

/// IMB 2021's default cache (8 MiB): every repetition has a copy of its own. The roots move
/// each call, so a call's root and its copy change together.
#[test]
fn default_cache_with_moving_roots_np3() {
    let names = [
        "Ibcast",
        "Igatherv",
        "Iscatter",
        "Ialltoallv",
        "Ireduce",
        "Ireduce_scatter",
        "Ibarrier",
        "Iscatterv_pure",
        "Ireduce_pure",
    ];
    let mut args = names.to_vec();
    args.extend([
        "-npmin",
        "3",
        "-off_cache",
        "-1",
        "-root_shift",
        "on",
        "-msglog",
        "0:12",
        "-iter",
        "30",
        "-check",
    ]);
    let o = mpirun(3, &args);
    let titles: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    clean(&o, "8,64", &titles);
}

/// Under `-compat 2021` (its repetition policy and CPU work) the copies are the same.
#[test]
fn compat_2021_checks_clean() {
    let names = [
        "Iallgather",
        "Igather",
        "Iscatterv",
        "Ialltoall",
        "Iallreduce",
        "Ibarrier",
        "Ibcast_pure",
    ];
    let mut args = names.to_vec();
    args.extend([
        "-compat",
        "2021",
        "-off_cache",
        "0.01",
        "-msglog",
        "0:12",
        "-iter",
        "20",
        "-check",
    ]);
    let o = mpirun(2, &args);
    let titles: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    clean(&o, "0.01,64", &titles);
}

/// A size with one copy right after one with copies sends the pattern, not what the copies
/// left in its first bytes (copy 1 of 4097 bytes lies at byte 4224 of the 100003 bytes): the
/// engine refills the send buffer after any size that wrote copies.
#[test]
fn one_copy_after_copies() {
    let d = scratch("off-cache-one");
    let lens = write(&d, "lens", "4097\n100003\n");
    let o = mpirun_in(
        &d,
        2,
        &[
            "Iallgather",
            "-off_cache",
            "0.01",
            "-msglen",
            &lens,
            "-check",
            "-iter",
            "20",
        ],
        120,
    );
    clean(&o, "0.01,64", &["Iallgather".to_string()]);
}
