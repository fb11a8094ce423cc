//! imb-compare as a user runs it: directories of launch files in, a report or a one-line error
//! out, with the exit status a script can test.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{imb_mpi1, run, scratch};

/// imb-compare with `args` and no store or system from the environment.
fn run_clean(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
        .args(args)
        .env_remove("IMB_RS_DB")
        .env_remove("IMB_RS_SYSTEM")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The section of doc/ACCEPTANCE.md whose heading starts with `## {number}.`.
fn acceptance_section(number: u32) -> String {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../doc/ACCEPTANCE.md"
    ))
    .unwrap();
    let start = doc.find(&format!("\n## {number}. ")).unwrap();
    let rest = &doc[start + 1..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end].to_string()
}

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

#[test]
fn the_store_and_system_may_come_before_the_subcommand() {
    let d = scratch("global");
    let db = d.join("results.sqlite").to_string_lossy().into_owned();
    let db = db.as_str();
    let times: Vec<(f64, f64)> = (0..5).map(|k| (0.12 + 0.01 * k as f64, 0.15)).collect();
    let r = side(
        &d,
        "r",
        "imb-rs 0.1.0, MPI-1 part",
        "MPI_THREAD_SINGLE",
        &times,
    );
    let (code, out, err) = run_clean(&["--db", db, "--system", "vm", "store", "add", &r]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.ends_with(": run 1 added, 5 launch(es) from 5 file(s)\n"),
        "{out}"
    );
    // Before the subcommand or after it: the same command.
    let after = run_clean(&["store", "list", "--db", db]);
    assert_eq!(after.0, Some(0), "{}", after.2);
    assert_eq!(run_clean(&["--db", db, "store", "list"]), after);
    assert_eq!(run_clean(&["store", "--db", db, "list"]), after);
    let (code, out, _) = run_clean(&["--db", db, "--system", "other", "store", "list"]);
    assert_eq!(code, Some(0));
    assert!(out.contains(": 0 run(s) of 0 system(s)"), "{out}");
    for args in [
        &["--system", "vm", "--db", db, "store", "show", "@latest"][..],
        &["--db", db, "--system", "vm", "store", "accept", "@latest"],
        &["--db", db, "--system", "vm", "agreement", "@accepted", &r],
        &["--db", db, "trend", "PingPong", "--bytes", "8"],
        &["--db", db, "--system", "vm", "@accepted", &r],
    ] {
        let (code, out, err) = run_clean(args);
        assert_eq!(code, Some(0), "{args:?}: {out}{err}");
    }
    // What cannot be meant: a comparison's option before a subcommand, a store named twice,
    // a system for store rm (it removes by number).
    for (args, says) in [
        (
            &["--metric", "mbytes", "store", "list", "--db", db][..],
            "--metric before store: only --db and --system go before a subcommand",
        ),
        (
            &["--db", db, "store", "list", "--db", db],
            "--db given 2 times (before and after a subcommand): give it once",
        ),
        (
            &["--system", "vm", "store", "rm", "--db", db, "1"],
            "--system: store rm removes runs by number, of any system",
        ),
    ] {
        let (code, out, err) = run_clean(args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("imb-compare: {says}")),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn accept_flagged_says_what_it_does() {
    let (code, help, _) = run(&["--help"]);
    assert_eq!(code, Some(0));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    // doc/ACCEPTANCE.md, "Runs and rows that cannot decide": flagged figures decide, rows
    // without a figure are left out; without the option both are inconclusive.
    assert!(
        help.contains(
            "--accept-flagged let flagged figures (UNSETTLED, UNRELIABLE, DEFECT) decide \
             criteria, and leave rows without a figure (TIME-OUT, OUT-OF-MEMORY, INT-OVERFLOW) \
             out; without it, both make their size inconclusive"
        ),
        "{help}"
    );
}

/// Every key of every object under `v`.
fn keys(v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                keys(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[test]
fn criteria_in_json_are_as_the_document_lists_them() {
    // The keys the "criteria" item of section 5 names in backquotes, up to its reason codes.
    let doc = acceptance_section(5);
    let head = "- **`criteria`**";
    let item = &doc[doc.find(head).expect("a criteria item") + head.len()..];
    let item = &item[..item.find("Reason codes").expect("its reason codes")];
    let listed: BTreeSet<String> = item
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .map(String::from)
        .collect();
    // A run whose every object appears: a difference accepted, a criterion decided before any
    // figure (its reason), sizes with reasons (one launch a side gives no interval).
    let d = scratch("json-keys");
    let base = side(
        &d,
        "base",
        "imb-rs 0.1.0, MPI-1 part",
        "MPI_THREAD_SINGLE",
        &[(0.2, 0.3)],
    );
    let new = side(
        &d,
        "new",
        "imb-rs 0.1.0, MPI-1 part",
        "MPI_THREAD_MULTIPLE",
        &[(0.2, 0.3)],
    );
    let refs = common::write(
        &d,
        "r.toml",
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\n\
         upper = 0.1\n\n[[criterion]]\nbenchmark = \"Allreduce\"\nmetric = \"t\"\n\
         reference = 1\nupper = 0.1\n",
    );
    let json = d.join("c.json").to_string_lossy().into_owned();
    let (code, out, err) = run(&[
        "--references",
        &refs,
        "--accept-difference",
        "thread-level",
        // Text records no MPI library and no placement.
        "--accept-unrecorded=mpi,placement,binding",
        "--json",
        &json,
        &base,
        &new,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut found = BTreeSet::new();
    keys(&v["criteria"], &mut found);
    assert_eq!(
        listed.difference(&found).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "listed in doc/ACCEPTANCE.md section 5, not in --json's criteria"
    );
    assert_eq!(
        found.difference(&listed).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "in --json's criteria, not listed in doc/ACCEPTANCE.md section 5"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// settings/acceptance.toml's criteria judge against the baseline only, so that the example
/// passes wherever it is run; its absolute figure is a commented-out example a site fills in.
/// Real launches of this build's imb-mpi1 compared with themselves never fail it (no timing is
/// judged: both sides are the same launches).
#[test]
fn the_example_criteria_never_fail_two_runs_of_one_configuration() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../settings/acceptance.toml"
    );
    let text = std::fs::read_to_string(example).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let active = doc["criterion"].as_array().unwrap();
    assert!(!active.is_empty());
    for c in active {
        assert_eq!(c["reference"].as_str(), Some("baseline"), "{c}");
    }
    // The commented-out site criteria, uncommented, are a valid references file.
    let mut site = String::new();
    let mut inside = false;
    for l in text.lines() {
        inside |= l == "# [[criterion]]";
        match l.strip_prefix("# ") {
            Some(x) if inside => site.push_str(&format!("{x}\n")),
            _ => inside = false,
        }
    }
    let parsed: toml::Table = toml::from_str(&site).unwrap();
    let commented = parsed["criterion"].as_array().unwrap();
    assert!(
        commented
            .iter()
            .all(|c| c["reference"].is_float() || c["reference"].is_integer()),
        "{site}"
    );

    // Two runs of one configuration, launched in turn. Four launches a side can give no FAIL
    // against the baseline under the file's shared error rate (one split in 70 is 1.4 %, above
    // its bounds' share), so the outcome is no timing's: what could still fail is a criterion
    // against a number, which is exact, and the shipped file must hold none.
    let d = scratch("example-self");
    let (a, b) = (d.join("a"), d.join("b"));
    for k in 1..=4 {
        for r in [&a, &b] {
            std::fs::create_dir_all(r).unwrap();
            let json = format!("{k}.json");
            let out = imb_testkit::mpirun_in(
                &imb_mpi1(),
                r,
                2,
                &[
                    "PingPong",
                    "Allreduce",
                    "Barrier",
                    "-msglog",
                    "0:22",
                    "-iter",
                    "10",
                    "-json",
                    &json,
                ],
                120,
            );
            assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
            std::fs::write(r.join(format!("{k}.txt")), &out.stdout).unwrap();
        }
    }
    let (a, r) = (
        a.to_string_lossy().into_owned(),
        b.to_string_lossy().into_owned(),
    );
    let (code, out, err) = run(&["--references", example, "--accept-oversubscribed", &a, &r]);
    assert!(matches!(code, Some(0 | 4)), "{out}{err}");
    assert!(!out.lines().any(|l| l.starts_with("FAIL ")), "{out}");
    let site_file = common::write(&d, "site.toml", &site);
    let (code, out, err) = run(&["--references", &site_file, "--accept-oversubscribed", &r]);
    assert!(matches!(code, Some(0 | 1 | 4)), "{out}{err}");
    for c in commented {
        let name = c["name"].as_str().unwrap();
        assert!(out.contains(&format!(" {name} [")), "{name}: {out}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `--json -` (and `--junit -`, `--plot -`) wrote a file named `-` in the current directory,
/// where a user means standard output, which holds the report: refused in one line, nothing
/// written.
#[test]
fn an_output_named_dash_is_refused_and_nothing_is_written() {
    let d = scratch("dash");
    let fx = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let (a, b) = (
        format!("{fx}/imb-rs-mpi1.txt"),
        format!("{fx}/imb-rs-mpi1.json"),
    );
    let refs = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../settings/acceptance.toml"
    );
    for opt in ["--json", "--plot", "--junit"] {
        let mut args = vec![opt, "-"];
        if opt == "--junit" {
            args.extend(["--references", refs]);
        }
        args.extend([a.as_str(), b.as_str()]);
        let o = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
            .args(&args)
            .current_dir(&d)
            .env_remove("IMB_RS_DB")
            .env_remove("IMB_RS_SYSTEM")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{opt}: {err}");
        assert!(
            err.contains(opt) && err.contains("standard output holds the report"),
            "{opt}: {err}"
        );
        assert!(!d.join("-").exists(), "{opt} wrote a file named -");
    }
    let _ = std::fs::remove_dir_all(&d);
}
