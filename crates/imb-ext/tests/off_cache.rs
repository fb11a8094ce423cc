//! `-off_cache` under a real mpirun: every benchmark, both modes, in check mode, moving
//! through its copies (Window stays at offset 0, as in IMB 2021).
//!
//! imb-ext's copies are whole window buffers of max(X, OVERALL_VOL) bytes, so under the
//! standard 40 MiB volume a small cache gives one copy: these runs lower OVERALL_VOL to 4 KiB
//! (optional mode), where a 10 KiB cache spans several copies and the larger sizes, with few
//! repetitions, still wrap around them; MAXMSGLOG goes down with it, to keep the runs short.

mod common;
use common::*;

/// The method line's end, whatever the cache: `(-off_cache S,L)`.
const HEADER: &str = " (-off_cache ";

/// The standard settings with OVERALL_VOL = 4 KiB and MAXMSGLOG = 10, in optional mode.
fn small_volume(dir: &std::path::Path) -> String {
    let std = include_str!("../../../settings/settings.toml");
    let opt = std.replace(
        "IMB_OPTIONAL = false",
        "IMB_OPTIONAL = true\nOVERALL_VOL = 4096\nMAXMSGLOG = 10",
    );
    assert_ne!(opt, std);
    write(dir, "small_volume.toml", &opt)
}

/// Exit 0, the method line, every checked table of `bytes` without a defect.
fn clean(o: &Out, tables_expected: usize, bytes: &[usize]) {
    assert!(o.stdout.contains(HEADER), "{}", o.stdout);
    let t = checked_clean(o, &["Window"]);
    assert_eq!(t.len(), tables_expected, "{}", o.stdout);
    for t in &t {
        assert_eq!(t.ints("#bytes"), bytes, "{}", t.title);
    }
}

#[test]
fn every_benchmark_both_modes_np2_np3() {
    let d = scratch("offcache");
    let s = small_volume(&d);
    // Rounded up to whole floats. 1000 B: 4 repetitions, each in a copy of its own; 4 B: 20
    // (AGGREGATE) or 100 repetitions over 6 copies.
    let lens = write(&d, "lens", "0\n1\n3\n4\n100\n1000\n");
    for np in [2, 3] {
        let args = [
            "-settings",
            &s,
            "-msglen",
            &lens,
            "-iter",
            "20",
            "-check",
            "-off_cache",
            "0.01",
        ];
        let o = mpirun_in(&d, np, &args, 120);
        clean(&o, if np == 2 { 11 } else { 14 }, &[0, 4, 4, 4, 100, 1000]);
    }
}

/// IMB 2021's default cache (8 MiB): every repetition in a copy of its own.
#[test]
fn default_cache() {
    let d = scratch("offcache-1");
    let s = small_volume(&d);
    let args = [
        "-settings",
        &s,
        "-msglog",
        "0:10",
        "-iter",
        "20",
        "-check",
        "-off_cache",
        "-1",
    ];
    let o = mpirun_in(&d, 2, &args, 120);
    clean(&o, 11, &[0, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
    assert!(o
        .stdout
        .contains("(8 MiB, 64-byte lines) (-off_cache 8,64)\n"));
}

/// A line size that is not a whole float: Accumulate's copies start at rounded elements.
#[test]
fn odd_line_and_compat_2021() {
    let d = scratch("offcache-odd");
    let s = small_volume(&d);
    let lens = write(&d, "lens", "4\n12\n1000\n");
    for extra in [
        &["-off_cache", "0.01,3"][..],
        &["-compat", "2021", "-off_cache", "0.01"],
    ] {
        let mut args = vec!["-settings", &s, "-msglen", &lens, "-iter", "20", "-check"];
        args.extend(extra);
        let o = mpirun_in(&d, 2, &args, 120);
        clean(&o, 11, &[4, 12, 1000]);
    }
}

/// With the standard volume the copies are 40 MiB windows: a 10 KiB cache gives one copy and
/// the runs are those without `-off_cache`, but for the header.
#[test]
fn standard_volume_one_copy() {
    let d = scratch("offcache-std");
    let o = mpirun_in(
        &d,
        2,
        &[
            "Unidir_Put",
            "Accumulate",
            "-msglog",
            "0:4",
            "-iter",
            "20",
            "-check",
            "-off_cache",
            "0.01",
        ],
        120,
    );
    clean(&o, 4, &[0, 4, 8, 16]);
}

/// OVERALL_VOL below N_WARMUP times the largest size: the AGGREGATE warm-up, whose
/// repetition i lies at i·X, is cut to what the buffers hold (it used to run N_WARMUP and
/// abort with "MPI_Get beyond the landing buffer").
#[test]
fn warm_up_within_a_small_volume() {
    let d = scratch("small-vol-warm");
    let std = include_str!("../../../settings/settings.toml");
    let opt = std.replace(
        "IMB_OPTIONAL = false",
        "IMB_OPTIONAL = true\nOVERALL_VOL = 4096\nMAXMSGLOG = 16",
    );
    let s = write(&d, "vol.toml", &opt);
    let o = mpirun_in(
        &d,
        2,
        &[
            "Unidir_Get",
            "Accumulate",
            "-settings",
            &s,
            "-iter",
            "5",
            "-check",
        ],
        120,
    );
    ok(&o);
}
