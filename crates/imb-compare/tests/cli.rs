//! imb-compare as a user runs it: directories of launch files in, a report or a one-line error
//! out, with the exit status a script can test.

use std::path::Path;

mod common;
use common::{run, scratch};

/// An IMB-format launch: PingPong at 0 and 8 bytes with the given times.
fn launch(title: &str, level: &str, t0: f64, t8: f64) -> String {
    format!(
        "#---------------------------------------------------\n\
         #    {title}\n\
         #---------------------------------------------------\n\
         # MPI Thread Environment: {level}\n\
         \n\
         #---------------------------------------------------\n\
         # Benchmarking PingPong \n\
         # #processes = 2 \n\
         #---------------------------------------------------\n\
         \x20      #bytes #repetitions      t[usec]   Mbytes/sec\n\
         \x20           0         1000 {t0:12.2}         0.00\n\
         \x20           8         1000 {t8:12.2}        50.00\n\
         \n\
         \n\
         # All processes entering MPI_Finalize\n"
    )
}

fn side(dir: &Path, label: &str, title: &str, level: &str, times: &[(f64, f64)]) -> String {
    let d = dir.join(label);
    std::fs::create_dir_all(&d).unwrap();
    for (k, (a, b)) in times.iter().enumerate() {
        std::fs::write(
            d.join(format!("{}.txt", k + 1)),
            launch(title, level, *a, *b),
        )
        .unwrap();
    }
    d.to_string_lossy().into_owned()
}

#[test]
fn agreement_of_two_programs() {
    let d = scratch("two");
    let fast: Vec<(f64, f64)> = (0..5).map(|k| (0.12 + 0.01 * k as f64, 0.15)).collect();
    let slow: Vec<(f64, f64)> = (0..5).map(|k| (0.20 + 0.01 * k as f64, 0.23)).collect();
    let ours = side(
        &d,
        "ours",
        "imb-rs 0.1.0, MPI-1 part",
        "MPI_THREAD_SINGLE",
        &fast,
    );
    let imb = side(
        &d,
        "imb-3.0",
        "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part",
        "MPI_THREAD_MULTIPLE",
        &slow,
    );
    let (code, out, err) = run(&["agreement", &ours, &imb]);
    assert_eq!(code, Some(0), "{err}");
    let mismatch = out.find("# !! THREAD LEVEL MISMATCH").expect(&out);
    assert!(
        mismatch < out.find("# PingPong, 2 processes").expect(&out),
        "{out}"
    );
    assert!(
        out.contains("# ours: 5 launches\n# imb-3.0: 5 launches\n"),
        "{out}"
    );
    // Every launch of ours below every launch of IMB at both sizes: lower beyond the noise.
    assert!(
        out.contains("# PingPong, 2 processes: systematically lower"),
        "{out}"
    );
    assert!(
        out.contains("         0         0.14         0.22    0.636     11.3      7.2  lower"),
        "{out}"
    );
    // A program against itself agrees, and --brief leaves out the sizes.
    let (code, out, _) = run(&["agreement", "--brief", &ours, &ours]);
    assert_eq!(code, Some(0));
    assert!(
        !out.contains("MISMATCH") && !out.contains("# PingPong, 2 processes:"),
        "{out}"
    );
    assert!(out.contains("agrees within noise"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let d = scratch("bad");
    let ours = side(&d, "ours", "imb-rs 0.1.0, MPI-1 part", "x", &[(0.1, 0.2)]);
    let junk = d.join("junk");
    std::fs::create_dir_all(&junk).unwrap();
    std::fs::write(junk.join("1.txt"), "no tables here\n").unwrap();
    let short = d.join("short.txt");
    std::fs::write(
        &short,
        "# Benchmarking PingPong \n# #processes = 2 \n  #bytes #repetitions t[usec] Mbytes/sec\n  0 1000 0.2\n",
    )
    .unwrap();
    let cases = [
        (
            vec!["agreement", &ours, "/nonexistent/side"],
            "imb-compare: /nonexistent/side: ",
        ),
        (
            vec!["agreement", &ours, junk.to_str().unwrap()],
            "1.txt: no IMB or OSU table in it",
        ),
        (
            vec!["agreement", &ours, short.to_str().unwrap()],
            "short.txt, line 4: a row of 3 values under a header of 4 columns (line 3)",
        ),
        (
            vec!["agreement", &ours, "/dev/zero"],
            "imb-compare: /dev/zero: ",
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // Usage errors are clap's, also status 2.
    let (code, _, _) = run(&["agreement", &ours]);
    assert_eq!(code, Some(2));
    let (code, _, err) = run(&["agreement", "--metric", "speed", &ours, &ours]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("use t, t_avg, t_min, t_max, mbytes, t_ovrl, t_pure or msg_per_s"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// OSU's osu_latency output with the given times at 1, 2 and 4 bytes.
fn osu_latency(times: [f64; 3]) -> String {
    format!(
        "# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n\
         1 {:27.2}\n2 {:27.2}\n4 {:27.2}\n",
        times[0], times[1], times[2]
    )
}

/// OSU prints no process count: every output says so, never "0 processes".
#[test]
fn osu_tables_say_their_process_count_is_not_printed() {
    let d = scratch("osu");
    let a = d.join("a.txt");
    let b = d.join("b.txt");
    std::fs::write(&a, osu_latency([0.22, 0.23, 0.25])).unwrap();
    std::fs::write(&b, osu_latency([0.32, 0.33, 0.35])).unwrap();
    let r = d.join("r.toml");
    std::fs::write(
        &r,
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\nupper = 0.1\n",
    )
    .unwrap();
    let (a, b, r) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        r.to_str().unwrap(),
    );
    let plots = d.join("plots");
    let json = d.join("c.json");
    let (code, out, err) = run(&[
        "--plot",
        plots.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        // OSU's output records no condition but its program.
        "--accept-unrecorded=mpi,thread-level,parameters,placement,binding",
        "--references",
        r,
        a,
        b,
    ]);
    assert_eq!(code, Some(4), "{err}");
    assert!(
        out.contains("# PingPong, processes not printed: b.txt"),
        "{out}"
    );
    assert!(!out.contains("0 processes"), "{out}");
    let (_, md, _) = run(&["--markdown", a, b]);
    assert!(
        md.contains("## PingPong, processes not printed: b.txt"),
        "{md}"
    );
    let (_, agreement, _) = run(&["agreement", a, b]);
    assert!(
        agreement.contains("# PingPong, processes not printed: "),
        "{agreement}"
    );
    assert!(!agreement.contains("0 processes"), "{agreement}");
    // Machine outputs: JSON null, CSV an empty field.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let table = &doc["comparisons"][0]["tables"][0];
    assert!(table["processes"].is_null(), "{table}");
    let size = &doc["criteria"]["outcomes"][0]["sizes"][0];
    assert!(size["processes"].is_null(), "{size}");
    let (_, csv, _) = run(&["--csv", a, b]);
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("a.txt,b.txt,PingPong,,1,"),
        "{csv}"
    );
    let (_, csv, _) = run(&[
        "--csv",
        "--accept-unrecorded=mpi,thread-level,parameters,placement,binding",
        "--references",
        r,
        a,
        b,
    ]);
    assert!(
        csv.lines().nth(1).unwrap().contains(",PingPong,,1,"),
        "{csv}"
    );
    // The plot: its file and title.
    let svg = std::fs::read_to_string(plots.join("PingPong.svg")).unwrap();
    assert!(svg.contains("PingPong, processes not printed"), "{svg}");
    let index = std::fs::read_to_string(plots.join("index.html")).unwrap();
    assert!(
        index.contains("<h2>PingPong, processes not printed</h2>"),
        "{index}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
