//! imb-p2p under a real mpirun: banners, columns, sizes, repetitions and `-check`'s defects
//! on 1 to 4 processes, tiny ladders and small counts; never a timing.

use imb_testkit::{mpirun, ok, scratch, tables, write};

fn run(np: usize, args: &[&str]) -> imb_testkit::Out {
    mpirun(env!("CARGO_BIN_EXE_imb-p2p"), np, args)
}

const HEADER: &str = "       #bytes #repetitions      t[usec]   Mbytes/sec      Msg/sec";
const ALL: [&str; 8] = [
    "PingPong",
    "PingPing",
    "Unirandom",
    "Birandom",
    "Corandom",
    "Stencil2D",
    "Stencil3D",
    "SendRecv_Replace",
];

/// Where IMB-P2P runs each benchmark: the pairs on an even count, the stencils on a grid,
/// the others from 2 processes.
fn runs_on(name: &str, np: usize) -> bool {
    match name {
        "PingPong" | "PingPing" => np.is_multiple_of(2),
        "Stencil2D" => [4, 6, 8, 9].contains(&np),
        "Stencil3D" => [8, 12].contains(&np),
        _ => np >= 2,
    }
}

fn invalid_line(name: &str, np: usize) -> String {
    match np {
        1 => format!("# !! Benchmark {name} invalid for 1 process"),
        _ => format!("# !! Benchmark {name} invalid for {np} processes"),
    }
}

/// Odd lengths, from a -msglen file and from -msgsz, checked on 1 to 4 processes: every
/// benchmark of the default list once on all processes where IMB-P2P runs it, an invalid line
/// where it does not, no defect.
#[test]
fn every_benchmark_checks_clean_on_odd_sizes() {
    let dir = scratch("p2p-odd");
    let lens = write(&dir, "lens", "0\n3\n1001\n5k\n");
    for np in 1..=4usize {
        let file = ["-msglen", lens.as_str()];
        let msgsz = [
            "-msgsz", "0", "-msgsz", "3", "-msgsz", "1001", "-msgsz", "5k",
        ];
        let given: &[&str] = if np.is_multiple_of(2) { &file } else { &msgsz };
        let mut args = given.to_vec();
        args.extend(["-iter", "20", "-pause", "0", "-check"]);
        let o = run(np, &args);
        ok(&o);
        let t = tables(&o.stdout);
        let names: Vec<&str> = t
            .iter()
            .map(|t| t.title.split(' ').next().unwrap())
            .collect();
        let want: Vec<&str> = ALL.into_iter().filter(|n| runs_on(n, np)).collect();
        assert_eq!(names, want, "np {np}");
        for n in ALL.iter().filter(|n| !runs_on(n, np)) {
            assert!(o.stdout.contains(&invalid_line(n, np)), "{n} np {np}");
        }
        for t in &t {
            assert_eq!(t.header, format!("{HEADER}      defects"), "{}", t.title);
            assert_eq!(t.ints("#bytes"), [0, 3, 1001, 5120], "{}", t.title);
            assert_eq!(t.ints("#repetitions"), [20; 4], "{}", t.title);
            assert!(
                t.column("defects").iter().all(|d| d == "0.00"),
                "{}",
                t.title
            );
            assert_eq!(
                t.procs[0].trim(),
                format!("# #processes = {np}"),
                "{} np {np}",
                t.title
            );
            // Msg/sec is a whole number.
            assert!(t.column("Msg/sec").iter().all(|v| !v.contains('.')));
        }
        assert!(o.stdout.contains("# All processes entering MPI_Finalize"));
    }
}

/// The stencils name their grid in the banner as IMB-P2P does (slowest side first), and
/// check clean on it: Stencil2D on 4 (2 x 2) and 6 (3 x 2), Stencil3D on 8 (2 x 2 x 2).
#[test]
fn stencils_on_their_grids() {
    for (np, name, banner) in [
        (4, "Stencil2D", "Stencil2D (2 x 2)"),
        (6, "Stencil2D", "Stencil2D (3 x 2)"),
        (8, "Stencil3D", "Stencil3D (2 x 2 x 2)"),
    ] {
        let o = run(
            np,
            &[
                name, "-msgsz", "7", "-msgsz", "1000", "-iter", "10", "-pause", "0", "-check",
            ],
        );
        ok(&o);
        let t = tables(&o.stdout);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].title, banner);
        assert_eq!(t[0].ints("#bytes"), [7, 1000]);
        assert!(t[0].column("defects").iter().all(|d| d == "0.00"));
    }
}

/// One process: every benchmark is invalid, and the run still ends well.
#[test]
fn one_process_is_invalid() {
    let o = run(1, &["-msglog", "1", "-pause", "0"]);
    ok(&o);
    assert!(tables(&o.stdout).is_empty());
    for n in ALL {
        assert!(o.stdout.contains(&invalid_line(n, 1)), "{n}");
    }
}

/// The lengths and counts of IMB-P2P: `-msglog k:n` without 0, `-msglog n` with it,
/// min(100000, 800 MiB / X) rounded to nearest (IMB-P2P's `-iter 100000,800`).
#[test]
fn lengths_and_counts_as_imb_p2p() {
    let o = run(2, &["PingPong", "-msglog", "22:22", "-pause", "0"]);
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t[0].ints("#bytes"), [4 << 20]);
    assert_eq!(t[0].ints("#repetitions"), [200]);
    let o = run(
        2,
        &[
            "PingPong", "-iter", "1000,1", "-msglog", "12", "-msgsz", "3000", "-pause", "0",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(
        t[0].ints("#bytes"),
        [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 3000]
    );
    let r = t[0].ints("#repetitions");
    assert_eq!(r[..2], [1000, 1000]);
    // 1 MiB / 4096 B = 256, below the cap of 1000; 1 MiB / 3000 B = 349.5, rounded up.
    assert_eq!(r[13..], [256, 350]);
}

/// IMB-P2P's switches, -pause and -msgsz are read as it reads them and stated in the header;
/// a wrong value is one line naming the option; -npmin, -compat and IMB 2021's method
/// options, which IMB-P2P does not have, are refused with the reason.
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
    // The header's method block: the megabyte readers look for, the options as given.
    for line in [
        "# !! Measured as IMB 2021's IMB-P2P measures:",
        "# !!   Mbytes/sec counts MB = 10^6 bytes",
        "# !!   -msgrd off",
        "# !!   -msgwr off",
        "# !!   -pause 10",
    ] {
        assert!(
            o.stdout.contains(&format!("{line}\n")),
            "{line}: {}",
            o.stdout
        );
    }
    for (args, what) in [
        (["-msgrd", "maybe"], "-msgrd"),
        (["-pause", "-3"], "-pause"),
        (["-msgsz", "5t"], "-msgsz"),
        (["-msglog", "5:3"], "-msglog"),
        (["-npmin", "2"], "-npmin"),
        (["-compat", "2021"], "-compat"),
        (["-off_cache", "-1"], "-off_cache"),
    ] {
        let o = run(2, &args);
        assert_ne!(o.code, Some(0), "{args:?}");
        let line = o.stderr.lines().find(|l| l.contains("error")).unwrap_or("");
        assert!(line.contains(what), "{args:?}: {}", o.stderr);
    }
}

/// The engine's outputs for IMB-P2P's tables: -json with its columns, the header's method note
/// and the provenance, -summary after the last table, -progress on stderr only.
#[test]
fn json_summary_and_progress() {
    let d = scratch("p2p-json");
    let f = d.join("r.json").to_string_lossy().into_owned();
    let args = [
        "PingPong",
        "Unirandom",
        "-msglog",
        "3",
        "-iter",
        "20",
        "-pause",
        "0",
        "-json",
        &f,
        "-summary",
        "-progress",
        "on",
    ];
    let o = imb_testkit::mpirun_in(env!("CARGO_BIN_EXE_imb-p2p"), &d, 2, &args, 60);
    ok(&o);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["suite"], "imb-p2p");
    assert_eq!(doc["header"]["part"], "P2P part");
    assert!(doc["provenance"].is_object());
    let notes = doc["header"]["notes"].as_array().unwrap();
    let method = notes
        .iter()
        .find(|n| n["kind"] == "p2p_method")
        .expect("method");
    assert_eq!(method["megabyte"], 1e6);
    assert_eq!(method["options"], serde_json::json!(["-pause 0"]));
    let t = tables(&o.stdout);
    let jt = doc["tables"].as_array().unwrap();
    assert_eq!(jt.len(), 2);
    for (j, t) in jt.iter().zip(&t) {
        assert_eq!(j["benchmark"], t.title);
        let titles: Vec<&str> = t.header.split_whitespace().collect();
        assert_eq!(j["columns"], serde_json::json!(titles));
        assert_eq!(j["keys"][4], "msg_per_s");
        let rows = j["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 5);
        for (jr, tr) in rows.iter().zip(&t.rows) {
            assert_eq!(jr["bytes"].as_u64().unwrap().to_string(), tr[0]);
            assert_eq!(jr["msg_per_s"].as_f64().unwrap().round().to_string(), tr[4]);
        }
    }
    assert_eq!(doc["summary"].as_array().unwrap().len(), 2);
    assert!(o.stdout.contains("\n\n# Summary: "), "{}", o.stdout);
    assert!(
        o.stderr
            .contains("imb-p2p: benchmark 1 of 2, PingPong on 2 processes: starting"),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("imb-p2p: benchmark"));
}

/// An error names the option that was typed: IMB-P2P's -msgsz and -msglog give the lengths
/// as -msgsize does, and beside -msglen the error names them, not -msgsize. Options imb-p2p
/// does not have are refused by name whatever their value (-aggregate_mode, which no
/// AGGREGATE table of imb-p2p reads, and -compat with a value IMB never had). Singleton
/// starts for the input errors; one launch on 2 processes for the refusal.
#[test]
fn errors_name_the_option_typed() {
    let dir = scratch("p2p-named");
    let lens = write(&dir, "lens", "0\n4\n");
    let direct =
        |args: &[&str]| imb_testkit::direct_in(env!("CARGO_BIN_EXE_imb-p2p"), &dir, args, 120);
    let one_line = |o: &imb_testkit::Out, args: &[&str], starts: &str| {
        assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
        let errors: Vec<&str> = o.stderr.lines().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {}", o.stderr);
        assert!(
            errors[0].starts_with(&format!("imb-p2p: error: {starts}")),
            "{args:?}: {}",
            o.stderr
        );
    };
    for (args, starts) in [
        (
            vec!["-msgsz", "4", "-msglen", &lens],
            "-msgsz: cannot be combined",
        ),
        (
            vec!["-msglog", "2", "-msglen", &lens],
            "-msglog: cannot be combined",
        ),
        (
            vec!["-msgsize", "4", "-msglen", &lens],
            "-msgsize: cannot be combined",
        ),
        (
            vec!["-compat", "2019"],
            "-compat: imb-p2p always measures as IMB 2021's",
        ),
        // The reason holds for 2021 too: the message once said IMB 3.0 lacked what it asked.
        (
            vec!["-compat", "2021"],
            "-compat: imb-p2p always measures as IMB 2021's IMB-P2P does (IMB 3.0 had no \
             IMB-P2P), so -compat has nothing to choose",
        ),
        (
            vec!["-aggregate_mode", "x"],
            "-aggregate_mode: imb-p2p has no AGGREGATE",
        ),
    ] {
        one_line(&direct(&args), &args, starts);
    }
    let args = [
        "-aggregate_mode",
        "both",
        "-msglog",
        "2",
        "-pause",
        "0",
        "PingPong",
    ];
    one_line(
        &run(2, &args),
        &args,
        "-aggregate_mode: imb-p2p has no AGGREGATE",
    );
}
