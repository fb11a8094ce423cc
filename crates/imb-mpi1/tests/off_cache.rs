//! IMB 2021's `-off_cache` through a real mpirun: every benchmark of imb-mpi1 moving through
//! its copies with `-check`, on np 2 and 3, with `-off_cache -1`, under `-compat 2021`, with
//! `-root_shift on`, with the datatype options and with windows shorter and longer than the
//! copies. What is asserted: exit 0, the header's `(-off_cache …)` line, a defects column
//! of zeros. Timings never.
//!
//! A 0.01 MiB cache (twice it: 20970 bytes) gives each size a few copies: 20 (one per
//! repetition of `-iter 20`) for the smallest sizes, fewer as they grow, so repetitions wrap
//! around the copies from 2 KiB on; some ladders end in sizes whose buffers of one repetition
//! span the 20970 bytes (one copy), after sizes whose copies overwrote the send buffer.

mod common;
use common::*;

/// Every benchmark of imb-mpi1 that IMB 2021 has (not the Sphinx latencies nor the white-box
/// kernels, which keep offset 0).
fn all() -> Vec<&'static str> {
    benchmarks_but(&["Bcast_latency", "Reduce_latency", "Jacobi2D"])
}

/// The run succeeded, its header names `-off_cache`, every benchmark in `names` has a table
/// (Barrier none of data), and every table that moves data has a defects column of zeros.
fn checked(o: &Out, names: &[&str]) {
    assert!(
        o.stdout
            .lines()
            .any(|l| l.starts_with("# !!") && l.contains("(-off_cache")),
        "{}",
        o.stdout
    );
    let t = no_defects(o);
    for name in names {
        assert!(
            t.iter().any(|t| t.title == *name),
            "no {name}:\n{}",
            o.stdout
        );
    }
    for t in t.iter().filter(|t| t.title != "Barrier") {
        assert!(!t.rows.is_empty(), "{t:?}");
    }
}

/// `mpirun -np NP imb-mpi1 ALL ARGS -check` in a scratch directory, checked.
fn every_benchmark(name: &str, np: usize, args: &[&str]) {
    let d = scratch(name);
    let mut a: Vec<&str> = all();
    a.push("-check");
    a.extend(args);
    let o = mpirun_in(&d, np, &a, 240);
    checked(&o, &all());
}

#[test]
fn every_benchmark_np2() {
    every_benchmark(
        "offcache_np2",
        2,
        &["-off_cache", "0.01", "-msglog", "0:12", "-iter", "20"],
    );
}

/// Up to 16 KiB: from 8 KiB on the send buffers of NP·X (the all-to-alls, the scatters,
/// Reduce_scatter_block) hold one copy, after sizes with several.
#[test]
fn every_benchmark_np3() {
    every_benchmark(
        "offcache_np3",
        3,
        &["-off_cache", "0.01", "-msglog", "0:14", "-iter", "20"],
    );
}

/// Odd lengths: no multiples of the cache line nor of the element sizes.
#[test]
fn odd_lengths_np3() {
    let d = scratch("offcache_odd");
    let f = write(&d, "len", "0\n1\n3\n17\n100\n1001\n2049\n3001\n21001\n");
    let mut a: Vec<&str> = all();
    // -msglog 15: the warm-up's size (2^MAXMSGLOG) near the list's largest, not 4 MiB. The
    // last length is one copy of every buffer, after lengths with several.
    a.extend([
        "-check",
        "-off_cache",
        "0.01",
        "-msglen",
        &f,
        "-msglog",
        "15",
        "-iter",
        "20",
    ]);
    let o = mpirun_in(&d, 3, &a, 240);
    checked(&o, &all());
}

/// IMB 2021's default cache (8 MiB, 64-byte lines): as many copies as repetitions.
#[test]
fn the_default_cache_np2() {
    every_benchmark(
        "offcache_default",
        2,
        &["-off_cache", "-1", "-msglog", "0:10", "-iter", "20"],
    );
}

/// IMB 2021's method: collectives timed call by call, root 0, its Reduce_scatter's NP-message
/// vector, its dynamic repetition counts (below the copies' count, never above).
#[test]
fn compat_2021_np3() {
    every_benchmark(
        "offcache_2021",
        3,
        &[
            "-compat",
            "2021",
            "-off_cache",
            "0.01",
            "-msglog",
            "0:12",
            "-iter",
            "20",
        ],
    );
}

/// The rotating root reads the copy its repetition wrote.
#[test]
fn rotating_roots_np3() {
    let names = [
        "Reduce", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
    ];
    let mut a = names.to_vec();
    a.extend([
        "-check",
        "-root_shift",
        "on",
        "-off_cache",
        "0.01",
        "-msglog",
        "0:12",
        "-iter",
        "20",
    ]);
    let o = mpirun(3, &a);
    checked(&o, &names);
}

/// Elements with gaps (`-contig_type resize`: twice X of buffer per message, so fewer copies
/// of larger strides), alone and as one vector (the reductions then add through a user op),
/// with other element types, on odd lengths; `names` with `layout`.
fn resized(np: usize, names: &[&str], layout: &str, (data, red): (&str, &str)) {
    let d = scratch(&format!("offcache_{layout}"));
    let f = write(&d, "len", "0\n1\n3\n7\n12\n100\n2049\n4001\n");
    let mut a = names.to_vec();
    a.extend([
        "-check",
        "-contig_type",
        layout,
        "-data_type",
        data,
        "-red_data_type",
        red,
        "-off_cache",
        "0.01",
        "-msglen",
        &f,
        // The warm-up's size (2^MAXMSGLOG): not 4 MiB of the slow derived types.
        "-msglog",
        "12",
        "-iter",
        "20",
    ]);
    let o = mpirun_in(&d, np, &a, 240);
    checked(&o, names);
}

#[test]
fn resized_elements_np3() {
    resized(3, &all(), "resize", ("int", "double"));
}

#[test]
fn resized_vectors_np2() {
    let names = [
        "Exchange",
        "Allreduce",
        "Reduce_scatter",
        "Alltoallv",
        "Reduce_local",
        "Biband",
    ];
    resized(2, &names, "resize_vec", ("char", "float"));
}

/// `-data_type int` alone, and ints in the reductions.
#[test]
fn int_elements_np2() {
    every_benchmark(
        "offcache_int",
        2,
        &[
            "-data_type",
            "int",
            "-red_data_type",
            "int",
            "-off_cache",
            "0.01",
            "-msglog",
            "0:12",
            "-iter",
            "20",
        ],
    );
}

/// Uniband and Biband move message ws of a window through copy ws mod copies: windows of 3
/// (fewer messages than the small sizes' copies) and of 64 (more than any size's here).
#[test]
fn windows_shorter_and_longer_than_the_copies() {
    for w in ["3", "64"] {
        for np in [2, 4] {
            let o = mpirun(
                np,
                &[
                    "Uniband",
                    "Biband",
                    "-check",
                    "-window_size",
                    w,
                    "-off_cache",
                    "0.01",
                    "-msglog",
                    "0:12",
                    "-iter",
                    "20",
                ],
            );
            checked(&o, &["Uniband", "Biband"]);
        }
    }
}

/// IMB 2021's Exchange (`-compat 2021`) sends its left-bound message from a send copy's
/// second block, so what arrives from the right neighbour is that block: checked with
/// elements two sizes apart, with copies and without.
#[test]
fn exchange_2021_second_block_np3() {
    for copies in [&["-off_cache", "0.01"][..], &[]] {
        let mut a = vec![
            "Exchange",
            "-compat",
            "2021",
            "-check",
            "-contig_type",
            "resize",
            "-data_type",
            "int",
            "-msglog",
            "0:12",
            "-iter",
            "20",
        ];
        a.extend(copies);
        let o = mpirun(3, &a);
        ok(&o);
        let t = tables(&o.stdout);
        assert_eq!(t.len(), 2, "{}", o.stdout);
        for tb in &t {
            let d = tb.column("defects");
            assert!(!d.is_empty() && d.iter().all(|d| d == "0.00"), "{tb:?}");
        }
    }
}
