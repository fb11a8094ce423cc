//! imb-p2p under a real mpirun: banners, columns, sizes, repetitions and `-check`'s defects
//! on 1 to 4 processes, tiny ladders and small counts; never a timing.

use imb_testkit::{mpirun, ok, scratch, tables, write};

fn run(np: usize, args: &[&str]) -> imb_testkit::Out {
    mpirun(env!("CARGO_BIN_EXE_imb-p2p"), np, args)
}

const HEADER: &str = "       #bytes #repetitions      t[usec]   Mbytes/sec      Msg/sec";
const DEFAULTS: [&str; 6] = [
    "PingPong",
    "PingPing",
    "Unirandom",
    "Birandom",
    "Corandom",
    "SendRecv_Replace",
];

/// Odd lengths from a -msglen file, checked on 2, 3 and 4 processes: every default benchmark
/// on every process (the pairs on the even count below an odd one), no defect.
#[test]
fn every_benchmark_checks_clean_on_odd_sizes() {
    let dir = scratch("p2p-odd");
    let lens = write(&dir, "lens", "0\n3\n1001\n5k\n");
    for np in 2..=4 {
        let o = run(
            np,
            &["-msglen", &lens, "-iter", "20", "-pause", "0", "-check"],
        );
        ok(&o);
        let t = tables(&o.stdout);
        let names: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
        assert_eq!(names, DEFAULTS, "np {np}");
        for t in &t {
            assert_eq!(t.header, format!("{HEADER}      defects"), "{}", t.title);
            assert_eq!(t.ints("#bytes"), [0, 3, 1001, 5120], "{}", t.title);
            assert_eq!(t.ints("#repetitions"), [20; 4], "{}", t.title);
            assert!(
                t.column("defects").iter().all(|d| d == "0.00"),
                "{}",
                t.title
            );
            let pairs = t.title.starts_with("Ping");
            let want = if pairs { np - np % 2 } else { np };
            assert_eq!(
                t.procs[0].trim(),
                format!("# #processes = {want}"),
                "{} np {np}",
                t.title
            );
            // Msg/sec is a whole number.
            assert!(t.column("Msg/sec").iter().all(|v| !v.contains('.')));
        }
        assert!(o.stdout.contains("# All processes entering MPI_Finalize"));
    }
}

/// One process: every benchmark is invalid, and the run still ends well.
#[test]
fn one_process_is_invalid() {
    let o = run(1, &["-msglog", "1", "-pause", "0"]);
    ok(&o);
    assert!(tables(&o.stdout).is_empty());
    for n in DEFAULTS {
        assert!(
            o.stdout
                .contains(&format!("# !! Benchmark {n} invalid for 1 process")),
            "{n}"
        );
    }
}

/// The default counts: min(100000, 800 MiB / X), as IMB-P2P's `-iter 100000,800`.
#[test]
fn default_counts_as_imb_p2p() {
    let o = run(
        2,
        &[
            "PingPong",
            "-msglog",
            "22:22",
            "-zero_size",
            "off",
            "-pause",
            "0",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t[0].ints("#bytes"), [4 << 20]);
    assert_eq!(t[0].ints("#repetitions"), [200]);
    let o = run(
        2,
        &[
            "PingPong", "-iter", "1000,1", "-msglog", "12", "-pause", "0",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(
        t[0].ints("#bytes"),
        [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
    );
    let r = t[0].ints("#repetitions");
    assert_eq!(r[..2], [1000, 1000]);
    // 1 MiB / 4096 B = 256, below the cap of 1000.
    assert_eq!(r[13], 256);
}

/// The stencils run only when named, on a grid: Stencil2D on 4 (2 x 2), checked; on 3 the
/// run ends with one line naming why, on every rank together.
#[test]
fn stencil2d_on_a_grid_only() {
    let o = run(
        4,
        &[
            "Stencil2D",
            "-msglog",
            "0:3",
            "-iter",
            "10",
            "-pause",
            "0",
            "-check",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].title, "Stencil2D");
    assert_eq!(t[0].ints("#bytes"), [0, 1, 2, 4, 8]);
    assert!(t[0].column("defects").iter().all(|d| d == "0.00"));
    let o = run(3, &["Stencil2D", "-msglog", "1", "-pause", "0"]);
    assert_ne!(o.code, Some(0));
    assert!(
        o.stderr.contains("needs a process count that makes a grid"),
        "{}",
        o.stderr
    );
}

/// IMB-P2P's switches and its -pause are read as it reads them; a wrong value is one line
/// naming the option; -msgsz is refused with the way to give a length.
#[test]
fn options_and_refusals() {
    let o = run(
        2,
        &[
            "SendRecv_Replace",
            "-msglog",
            "2",
            "-iter",
            "5",
            "-msgrd",
            "off",
            "-msgwr",
            "No",
            "-pause",
            "10",
            "-check",
        ],
    );
    ok(&o);
    assert_eq!(tables(&o.stdout)[0].ints("#repetitions"), [5; 4]);
    for (args, what) in [
        (["-msgrd", "maybe"], "-msgrd"),
        (["-pause", "-3"], "-pause"),
        (["-msgsz", "4097"], "-msgsz"),
    ] {
        let o = run(2, &args);
        assert_ne!(o.code, Some(0), "{args:?}");
        let line = o.stderr.lines().find(|l| l.contains("error")).unwrap_or("");
        assert!(line.contains(what), "{args:?}: {}", o.stderr);
    }
}
