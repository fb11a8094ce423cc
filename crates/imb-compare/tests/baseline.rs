//! `imb-compare BASE NEW…` as a user runs it, on committed fixtures (IMB-format text written by
//! our own imb-mpi1 and its `-json`, IMB 2021's and IMB 3.0's layouts, an oversubscribed
//! `-adaptive` run with UNSETTLED rows) and on launch sets built from them with known figures:
//! the verdict rule, the conditions, the machine outputs and every class of bad input.

use serde_json::Value;
use std::path::Path;

mod common;
use common::{fixture, run, scratch, write};

/// The fixtures are text and schema 2 `-json` files: they record no MPI library and no
/// placement, so criteria judge them only when that is accepted by name (unknown is not
/// equal; `tests/conditions.rs` judges launches that record both).
const UNRECORDED: &str = "--accept-unrecorded=mpi,placement,binding";

/// A directory `name` of launches made from our `-json` fixture: launch k has every time
/// multiplied by `factors[k]` (and every bandwidth divided), so the launches are known. Each
/// launch has a start of its own (the header's date), as real launches do: two launches with
/// one factor are still two launches, on one side or on two.
fn launches(dir: &Path, name: &str, factors: &[f64]) -> String {
    static SETS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let set = SETS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("imb-rs-mpi1.json")).unwrap())
            .unwrap();
    for (k, f) in factors.iter().enumerate() {
        let mut doc = doc.clone();
        doc["header"]["date"] = Value::from(format!(
            "Wed Nov 25 {:02}:{:02}:{:02} 2026",
            set / 60 % 24,
            set % 60,
            k % 60
        ));
        for t in doc["tables"].as_array_mut().unwrap() {
            for row in t["rows"].as_array_mut().unwrap() {
                for (key, v) in row.as_object_mut().unwrap() {
                    let x = v.as_f64().unwrap();
                    if key.ends_with("_us") {
                        *v = Value::from(x * f);
                    } else if key == "mbytes_per_s" {
                        *v = Value::from(x / f);
                    }
                }
            }
        }
        std::fs::write(
            d.join(format!("{}.json", k + 1)),
            serde_json::to_string(&doc).unwrap(),
        )
        .unwrap();
    }
    d.to_string_lossy().into_owned()
}

/// `text` (an IMB-format launch of 2026) as another launch of the same figures: another start.
/// Two files of one launch on both sides are no evidence (doc/ACCEPTANCE.md, section 4).
fn relaunched(text: &str) -> String {
    let at = text.find(" 2026").expect("a date of 2026");
    format!("{} 2027{}", &text[..at], &text[at + 5..])
}

const SPREAD: [f64; 5] = [1.0, 1.01, 0.99, 1.02, 0.98];
const SPREAD_AGAIN: [f64; 5] = [0.985, 1.0, 1.015, 0.995, 1.005];

const SELF_REFS: &str = r#"
[[criterion]]
name = "PingPong latency"
benchmark = "PingPong"
processes = 2
bytes = [0, 1024]
metric = "t"
reference = "baseline"
upper = 0.5

[[criterion]]
name = "every time within 10 %"
benchmark = "*"
metric = "t"
reference = "baseline"
lower = -0.1
upper = 0.1
"#;

#[test]
fn our_text_against_its_json() {
    let (code, out, err) = run(&[&fixture("imb-rs-mpi1.txt"), &fixture("imb-rs-mpi1.json")]);
    assert_eq!(code, Some(0), "{err}");
    for t in [
        "PingPong, 2 processes",
        "Allreduce, 2 processes",
        "Barrier, 2 processes",
    ] {
        assert!(
            out.contains(&format!(
                "\n# {t}: imb-rs-mpi1.json (beyond noise: none: 1 and 1 launches give no 95 % \
                 interval (4 a side at least))"
            )),
            "{t}: {out}"
        );
        assert!(
            out.contains(&format!("\n# {t}: geometric mean ratio ")),
            "{t}: {out}"
        );
    }
    // One launch a side: nothing is called a change; the text and its JSON are one launch,
    // and the same conditions: no `!!` line.
    assert!(
        !out.contains(" worse") || out.contains(" 0 worse, 0 better"),
        "{out}"
    );
    assert!(!out.contains("# !!"), "{out}");
    assert!(
        out.contains("# note: 1 launch(es) of imb-rs-mpi1.json are also in imb-rs-mpi1.txt"),
        "{out}"
    );
    // In one directory (doc/ACCEPTANCE.md §1 keeps both) they count once.
    let d = scratch("both");
    let run_dir = d.join("run");
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::copy(fixture("imb-rs-mpi1.txt"), run_dir.join("1.txt")).unwrap();
    std::fs::copy(fixture("imb-rs-mpi1.json"), run_dir.join("1.json")).unwrap();
    let r = run_dir.to_string_lossy().into_owned();
    let (code, out, err) = run(&[&r, &r]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("# base run: 1 launch(es), imb-rs 0.1.0"),
        "{out}"
    );
    assert!(
        out.contains(
            "# note: run: 1 file(s) repeat a launch read from another (1.txt = 1.json): each \
             launch counted once"
        ),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn imb_2021_and_3_0_layouts_align_with_ours() {
    for (file, title, program) in [
        (
            "imb-2021.txt",
            "Intel(R) MPI Benchmarks 2021.11, MPI-1 part",
            "IMB 2021.11",
        ),
        (
            "imb-3.0.txt",
            "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part",
            "IMB 3.0",
        ),
    ] {
        let (code, out, err) = run(&[&fixture(file), &fixture("imb-rs-mpi1.txt")]);
        assert_eq!(code, Some(0), "{file}: {err}");
        assert!(
            out.contains(&format!("# base {file}: 1 launch(es), {title}\n")),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "# !! conditions differ (imb-rs-mpi1.txt): program: {program} (base) vs imb-rs \
                 0.1.0 (new)"
            )),
            "{out}"
        );
        assert_eq!(
            out.matches("geometric mean ratio").count(),
            3,
            "{file}: {out}"
        );
    }
    // IMB 2021's Mbytes/sec count 10^6 bytes: 6.25 there is 5.96 in our 2^20 unit.
    let (_, out, _) = run(&[
        "--csv",
        "--metric",
        "mbytes",
        &fixture("imb-2021.txt"),
        &fixture("imb-rs-mpi1.txt"),
    ]);
    let row = out
        .lines()
        .find(|l| l.contains(",PingPong,") && l.contains(",1,mbytes,"))
        .expect(&out);
    assert!(row.contains(",5.96"), "{row}");
}

/// An IMB 3.0 baseline (MPI_THREAD_MULTIPLE) against an imb-rs -json run (MPI_THREAD_SINGLE):
/// the difference comes first, and a baseline criterion fails for it unless accepted by name.
#[test]
fn imb30_baseline_against_our_json_names_the_thread_level() {
    let d = scratch("imb30");
    let refs = write(&d, "acc.toml", SELF_REFS);
    let (base, new) = (fixture("imb-3.0.txt"), fixture("imb-rs-mpi1.json"));
    let (code, out, err) = run(&[UNRECORDED, "--references", &refs, &base, &new]);
    assert_eq!(code, Some(1), "{out}{err}");
    let level = "# !! conditions differ (imb-rs-mpi1.json): thread level: MPI_THREAD_MULTIPLE \
                 (base) vs MPI_THREAD_SINGLE (new)";
    let at = out.find(level).expect(&out);
    assert!(
        at < out.find("\n# Allreduce, 2 processes:").unwrap(),
        "{out}"
    );
    // Above every table too.
    assert_eq!(
        out.matches("# !! conditions differ: thread level: MPI_THREAD_MULTIPLE (base) vs MPI_THREAD_SINGLE (new)")
            .count(),
        3,
        "{out}"
    );
    assert!(
        out.contains(
            "# !! conditions differ (imb-rs-mpi1.json): parameters: MSGSPERSAMPLE standard (base) \
             vs 50 (new)"
        ),
        "{out}"
    );
    assert!(
        out.contains("# ?? placement and ranks per host: not recorded by imb-3.0.txt"),
        "{out}"
    );
    let fail = out
        .lines()
        .find(|l| l.starts_with("FAIL PingPong latency [imb-rs-mpi1.json]: conditions differ: "))
        .expect(&out);
    assert!(
        fail.contains("thread level: MPI_THREAD_MULTIPLE (base) vs MPI_THREAD_SINGLE (new)")
            && fail.ends_with(
                "(not comparable; --accept-difference thread-level,program,parameters judges \
                 them anyway)"
            ),
        "{fail}"
    );
    // Accepted by name: judged on the figures (one launch a side decides nothing).
    let (code, out, _) = run(&[
        UNRECORDED,
        "--references",
        &refs,
        "--accept-difference",
        "program,thread-level",
        "--accept-difference",
        "parameters",
        &base,
        &new,
    ]);
    assert_eq!(code, Some(4), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("FAIL ")), "{out}");
    assert!(
        out.contains("INCONCLUSIVE PingPong latency [imb-rs-mpi1.json]: "),
        "{out}"
    );
    let (code, _, err) = run(&["--accept-difference", "hosts", &base, &new]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("\"hosts\": the kinds are program, mpi, thread-level"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_same_machine_passes_everything() {
    let d = scratch("self");
    let refs = write(&d, "acc.toml", SELF_REFS);
    let junit = d.join("junit.xml");
    let json = d.join("out.json");
    let base = launches(&d, "base", &SPREAD);
    let new = launches(&d, "new", &SPREAD_AGAIN);
    let (code, out, err) = run(&[
        UNRECORDED,
        "--references",
        &refs,
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        &base,
        &new,
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("PASS PingPong latency [new]: "), "{out}");
    assert!(out.contains("PASS every time within 10 % [new]: "), "{out}");
    assert!(
        out.contains("(95 % intervals of the median, 5 and 5 launches); worst "),
        "{out}"
    );
    assert!(out.contains("# 0 of 2 criteria failed\n"), "{out}");
    // One false-FAIL rate for the file, split among its bound tests.
    assert!(
        out.contains(
            "chance of any false FAIL in the file 2.5 % a run, 3 bound test(s) at 0.83 % each"
        ),
        "{out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(
        (root.attribute("failures"), root.attribute("errors")),
        (Some("0"), Some("0"))
    );
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .count(),
        2
    );
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["schema"], "imb-compare");
    assert_eq!(j["schema_version"], 1);
    assert_eq!(j["exit_status"], 0);
    assert_eq!(j["criteria"]["passed"], 2);
    let o = &j["criteria"]["outcomes"][0];
    assert_eq!(o["verdict"], "pass");
    assert_eq!(o["unit"], "usec");
    assert_eq!(o["statistic"], "median");
    let worst = &o["worst"];
    let (lo, hi) = (
        worst["interval"][0].as_f64().unwrap(),
        worst["interval"][1].as_f64().unwrap(),
    );
    assert!(lo <= 1.0 && (1.0..1.5).contains(&hi), "{worst}");
    assert!(worst["margin"].as_f64().unwrap() > 0.0, "{worst}");
    let rows = &j["comparisons"][0]["tables"][0]["rows"];
    assert!(rows[0]["interval"].is_array(), "{rows}");
    assert_eq!(j["runs"][0]["role"], "base");
    assert_eq!(
        j["runs"][1]["launches"][0]["conditions"]["thread_level"],
        "MPI_THREAD_SINGLE"
    );
    // One run and a number: the median of one launch has no interval, the best launch does.
    let one = write(
        &d,
        "one.toml",
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = 1000\nupper = 0\n",
    );
    let f = fixture("imb-rs-mpi1.json");
    let (code, out, _) = run(&[UNRECORDED, "--references", &one, &f]);
    assert_eq!(code, Some(4), "{out}");
    let best = write(
        &d,
        "best.toml",
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nstatistic = \"max\"\n\
         reference = 1000\nupper = 0\n",
    );
    let (code, out, _) = run(&[UNRECORDED, "--references", &best, &f]);
    assert_eq!(code, Some(0), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_slower_run_fails_and_every_export_says_so() {
    let d = scratch("slow");
    let refs = write(&d, "acc.toml", SELF_REFS);
    let junit = d.join("junit.xml");
    let base = launches(&d, "base", &SPREAD);
    let doubled: Vec<f64> = SPREAD_AGAIN.iter().map(|f| 2.0 * f).collect();
    let slow = launches(&d, "slow", &doubled);
    let (code, out, _) = run(&[
        UNRECORDED,
        "--references",
        &refs,
        "--junit",
        junit.to_str().unwrap(),
        &base,
        &slow,
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "FAIL PingPong latency [slow]: 6 of 6 size(s) outside unbounded..+50.0 % of the \
             baseline (95 % intervals of the median, 5 and 5 launches): "
        ),
        "{out}"
    );
    assert!(
        out.contains(" bytes: ratio 2.000 (1.951..2.051); "),
        "{out}"
    );
    // The comparison calls every size worse, with its interval.
    assert!(
        out.contains("; 6 worse, 0 better beyond noise of 6 size(s)"),
        "{out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failed: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter(|n| n.children().any(|c| c.has_tag_name("failure")))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(failed, ["PingPong latency", "every time within 10 %"]);
    let (code, out, _) = run(&[
        "--markdown",
        UNRECORDED,
        "--references",
        &refs,
        &base,
        &slow,
    ]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("| **FAIL** | PingPong latency | slow |"),
        "{out}"
    );
    // The file's error rate above the verdicts, as in the text report.
    assert!(
        out.contains("intervals; chance of any false FAIL in the file 2.5 % a run, "),
        "{out}"
    );
    assert!(
        out.contains("| bytes | base | new | ratio | interval | change | flags |"),
        "{out}"
    );
    // CSV: one line per criterion, run and size; values and codes, no prose.
    let (_, out, _) = run(&["--csv", UNRECORDED, "--references", &refs, &base, &slow]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some(
            "criterion,run,verdict,reason,benchmark,processes,groups,mode,group,bytes,metric,\
             statistic,unit,value,reference,ratio,ci_low,ci_high,lower_bound,upper_bound,margin,\
             size_verdict,size_reason"
        )
    );
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        first[..13],
        [
            "PingPong latency",
            "slow",
            "fail",
            "",
            "PingPong",
            "2",
            "1",
            "",
            "",
            "0",
            "t",
            "median",
            "usec"
        ]
    );
    assert_eq!(first[21..], ["fail", ""]);
    assert!(
        first[19].parse::<f64>().is_ok() && first[18].is_empty(),
        "{first:?}"
    );
    assert_eq!(out.lines().count(), 1 + 6 + 11, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn flagged_rows_and_oversubscribed_runs() {
    let d = scratch("flags");
    let refs = write(
        &d,
        "acc.toml",
        "[[criterion]]\nname = \"latency\"\nbenchmark = \"Bcast_latency\"\nprocesses = 3\nmetric = \"t_avg\"\nreference = \"baseline\"\nupper = 0.2\n",
    );
    let f = fixture("imb-rs-adaptive-np3.txt");
    let again = write(
        &d,
        "again.txt",
        &relaunched(&std::fs::read_to_string(&f).unwrap()),
    );
    let (code, out, _) = run(&[UNRECORDED, "--references", &refs, &f, &again]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("# !! again.txt: 3 processes share 2 CPUs on one host (oversubscribed)"),
        "{out}"
    );
    assert!(out.contains("UNSETTLED (base), UNSETTLED (new)"), "{out}"); // not a timing verdict: a fixture file
    assert!(out.contains("FAIL latency [again.txt]: again.txt ran oversubscribed (3 processes share 2 CPUs on one host)"), "{out}");
    let (code, out, _) = run(&[
        UNRECORDED,
        "--references",
        &refs,
        "--accept-oversubscribed",
        &f,
        &again,
    ]);
    assert_eq!(code, Some(4), "{out}");
    assert!(
        out.contains("4 bytes: UNSETTLED (new), not a measurement"),
        "{out}"
    );
    let (code, out, _) = run(&[
        UNRECORDED,
        "--references",
        &refs,
        "--accept-oversubscribed",
        "--accept-flagged",
        &f,
        &again,
    ]);
    // Judged now, but one launch a side decides nothing.
    assert_eq!(code, Some(4), "{out}");
    assert!(
        out.contains("no 95 % interval from 1 and 1 launches"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Every class of figure that is not one is an input error: exit 2, one line naming the file
/// and the line or the JSON path.
#[test]
fn invalid_figures_are_input_errors() {
    let d = scratch("invalid");
    let text = std::fs::read_to_string(fixture("imb-rs-mpi1.txt")).unwrap();
    // PingPong's 1-byte row is "            1           50         0.36         2.67".
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("1 ") && l.split_whitespace().count() == 4)
        .unwrap()
        .to_string();
    let line = text.lines().position(|l| l == row).unwrap() + 1;
    let t_cases = [
        (
            "nan.txt",
            row.replace("0.36", " nan"),
            "t[usec] NaN: not a figure",
        ),
        (
            "inf.txt",
            row.replace("0.36", " inf"),
            "t[usec] inf: not a figure",
        ),
        (
            "neg.txt",
            row.replace("0.36", "-0.36"),
            "t[usec] -0.36: a negative time or bandwidth",
        ),
        (
            "negbytes.txt",
            row.replacen("  1 ", " -1 ", 1),
            "#bytes -1: a size is a whole number not below 0",
        ),
        (
            "frac.txt",
            row.replacen("  1 ", "1.5 ", 1),
            "#bytes 1.5: a size is a whole number not below 0",
        ),
        (
            "huge.txt",
            row.replacen("  1 ", "1e300 ", 1),
            "#bytes 1e300: a size above 2^50 bytes",
        ),
        (
            "reps.txt",
            row.replacen(" 50 ", " 1e300 ", 1),
            "#repetitions 1e300: a count above 2^53",
        ),
        (
            "t308.txt",
            row.replace("0.36", "1e308"),
            "t[usec] 1e308: beyond 10^15 either way",
        ),
        (
            "word.txt",
            row.replace("0.36", "abcd"),
            "\"abcd\" where a row has a number",
        ),
    ];
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("imb-rs-mpi1.json")).unwrap())
            .unwrap();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut d = j.clone();
        f(&mut d);
        serde_json::to_string_pretty(&d).unwrap()
    };
    let j_cases = [
        (
            "null.json",
            with(&|d| d["tables"][0]["rows"][0]["t_us"] = Value::Null),
            "tables[0].rows[0].t_us: null: a figure must be a number",
        ),
        (
            "string.json",
            with(&|d| d["tables"][0]["rows"][0]["t_us"] = Value::from("0.5")),
            "tables[0].rows[0].t_us: \"0.5\": a figure must be a number",
        ),
        (
            "missing.json",
            with(&|d| {
                d["tables"][0]["rows"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("t_us");
            }),
            "tables[0].rows[0]: no \"t_us\": every column of the table needs a value",
        ),
        (
            "schema.json",
            with(&|d| d["schema_version"] = Value::from(99)),
            "schema_version: 99: this imb-compare reads schemas 1 to 4",
        ),
        (
            "negative.json",
            with(&|d| d["tables"][0]["rows"][0]["t_us"] = Value::from(-0.5)),
            "tables[0].rows[0].t_us: t_us -0.5: a negative time or bandwidth",
        ),
        (
            "huge.json",
            with(&|d| d["tables"][0]["rows"][1]["bytes"] = Value::from(1e300)),
            "tables[0].rows[1].bytes: bytes 1e300: a size above 2^50 bytes",
        ),
        (
            "t308.json",
            with(&|d| d["tables"][0]["rows"][1]["t_us"] = Value::from(1e308)),
            "tables[0].rows[1].t_us: t_us 1e308: beyond 10^15 either way",
        ),
        (
            "load.json",
            with(&|d| {
                d["provenance"] =
                    serde_json::json!({"hosts": [{"host": "vm", "load_average": [1e308, 0, 0]}]})
            }),
            "provenance.hosts[0].load_average[0]: 1e308: a load average is a number from 0 to \
             10^6",
        ),
        (
            "loadend.json",
            with(&|d| d["provenance"] = serde_json::json!({"load_average_end": [-2.5, 0, 0]})),
            "provenance.load_average_end[0]: -2.5: a load average is a number from 0 to 10^6",
        ),
        (
            "np0.json",
            with(&|d| d["tables"][0]["processes"] = Value::from(0)),
            "tables[0].processes: 0: a table runs on 1 to 2147483647 processes",
        ),
        (
            "note.json",
            with(&|d| {
                d["tables"][0]["notes"] = serde_json::json!([
                    {"kind": "unreliable", "bytes": -8, "text": "x"}
                ])
            }),
            "tables[0].notes[0].bytes: -8: a size is a whole number not below 0",
        ),
        (
            "threads.json",
            with(&|d| d["suite"] = Value::from("imb-threads")),
            "an imb-threads document: its tables are not IMB tables",
        ),
    ];
    for (name, bad, want) in t_cases {
        let f = write(&d, name, &text.replace(&row, &bad));
        let (code, out, err) = run(&[&f, &fixture("imb-rs-mpi1.txt")]);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(&format!("{name}, line {line}: {want}")),
            "{name}: {err}"
        );
    }
    // A process count no MPI job has, in a banner.
    let at = text
        .lines()
        .position(|l| l.starts_with("# #processes = "))
        .unwrap()
        + 1;
    for (name, n, want) in [
        ("np0.txt", "0", "0 processes: a table runs on at least 1"),
        (
            "npbig.txt",
            "4294967296",
            "4294967296 processes: more than an MPI int counts (2147483647)",
        ),
    ] {
        let f = write(
            &d,
            name,
            &text.replacen("# #processes = 2", &format!("# #processes = {n}"), 1),
        );
        let (code, out, err) = run(&[&f, &fixture("imb-rs-mpi1.txt")]);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(&format!("{name}, line {at}: ")),
            "{name}: {err}"
        );
        assert!(err.contains(want), "{name}: {err}");
    }
    for (name, bad, want) in j_cases {
        let f = write(&d, name, &bad);
        let (code, out, err) = run(&[&f, &fixture("imb-rs-mpi1.txt")]);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        let sep = if want.starts_with("an ") { ": " } else { ", " };
        assert!(err.contains(&format!("{name}{sep}{want}")), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Runs cut short (no closing line, a last row cut off, a -json status other than complete)
/// and IMB 2021's time-out rows are shown flagged and decide no criterion unless accepted.
#[test]
fn cut_short_runs_and_time_outs() {
    let d = scratch("cut");
    let refs = write(&d, "acc.toml", SELF_REFS);
    let text = std::fs::read_to_string(fixture("imb-rs-mpi1.txt")).unwrap();
    let end = "# All processes entering MPI_Finalize";
    assert!(text.contains(end));
    // Each another launch than the baseline's: independent evidence, but not a whole run.
    let text = relaunched(&text);
    let no_end = write(&d, "noend.txt", &text.replace(end, ""));
    // Cut in the middle of Barrier's row: the row is lost, the rest stands.
    let barrier_row = text.rfind("         0.44").unwrap();
    let partial = write(&d, "partial.txt", &text[..barrier_row + 11]);
    let mut j: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("imb-rs-mpi1.json")).unwrap())
            .unwrap();
    j["schema_version"] = Value::from(3);
    j["header"]["date"] = Value::from("Wed Nov 25 05:21:10 2027");
    j["provenance"] = serde_json::json!({
        "status": {"state": "interrupted", "reason": "stdout closed"}
    });
    let interrupted = write(&d, "interrupted.json", &j.to_string());
    let base = fixture("imb-rs-mpi1.txt");
    for (f, why) in [
        (
            &no_end,
            "no closing line (# All processes entering MPI_Finalize)",
        ),
        (&partial, "its last row is cut off"),
        (&interrupted, "status interrupted: stdout closed"),
    ] {
        let (code, out, err) = run(&[UNRECORDED, "--references", &refs, &base, f]);
        assert_eq!(code, Some(4), "{f}: {out}{err}");
        let name = Path::new(f)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(out.contains(&format!("was cut short: {why}")), "{out}");
        assert!(
            out.contains(&format!(
                "INCONCLUSIVE PingPong latency [{name}]: {f} was cut short ({why}): its figures \
                 are not a whole run (--accept-incomplete judges what it has)"
            )),
            "{out}"
        );
        let (_, out, _) = run(&[
            UNRECORDED,
            "--references",
            &refs,
            "--accept-incomplete",
            &base,
            f,
        ]);
        assert!(!out.contains("was cut short ("), "{out}");
        if f == &partial {
            assert!(!out.contains("\n# Barrier, 2 processes: "), "{out}");
        }
    }
    // IMB 2021's time-out row: a size with no figure, shown and flagged.
    let imb = relaunched(&std::fs::read_to_string(fixture("imb-2021.txt")).unwrap());
    let last = imb
        .lines()
        .find(|l| l.trim_start().starts_with("16 ") && l.split_whitespace().count() == 4)
        .unwrap()
        .to_string();
    let timed = write(
        &d,
        "timeout.txt",
        &imb.replace(
            &last,
            "           16 time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\"",
        ),
    );
    let (code, out, err) = run(&[
        UNRECORDED,
        "--references",
        &refs,
        &fixture("imb-2021.txt"),
        &timed,
    ]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(out.contains("TIME-OUT (new)"), "{out}");
    assert!(out.contains("16 bytes: TIME-OUT (new), no figure"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let d = scratch("bad");
    let b = write(
        &d,
        "bad.toml",
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"latency\"\nreference = \"baseline\"\nupper = 0.1\n",
    );
    let k = write(&d, "broken.toml", "[[criterion]]\nbenchmark = \"PingPong\n");
    let base_only = write(
        &d,
        "base.toml",
        "# one criterion\n[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\nupper = 0.1\n",
    );
    let f = fixture("imb-rs-mpi1.txt");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec![UNRECORDED, "--references", &b, &f, &f],
            format!("imb-compare: {b}, line 3: metric \"latency\": use t"),
        ),
        (
            vec![UNRECORDED, "--references", &k, &f, &f],
            format!("imb-compare: {k}, line 2: "),
        ),
        (
            vec![UNRECORDED, "--references", "/nonexistent.toml", &f, &f],
            "/nonexistent.toml".to_string(),
        ),
        (
            vec![&f],
            "one run: give BASE and NEW, or --references FILE.toml".to_string(),
        ),
        (
            vec![UNRECORDED, "--references", &base_only, &f],
            format!(
                "imb-compare: {base_only}, line 2: reference \"baseline\" but one run given: name \
                 BASE before NEW"
            ),
        ),
        (
            vec!["--junit", "", UNRECORDED, "--references", &b, &f, &f],
            "--junit".to_string(),
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(&want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // An output that cannot be written is status 3, before anything is read.
    for opt in ["--junit", "--json"] {
        let (code, out, err) = run(&[
            opt,
            "/nonexistent-dir/x.out",
            UNRECORDED,
            "--references",
            &base_only,
            &f,
            &f,
        ]);
        assert_eq!((code, out.as_str()), (Some(3), ""), "{opt}: {err}");
        assert!(
            err.starts_with(&format!("imb-compare: {opt} /nonexistent-dir/x.out")),
            "{err}"
        );
    }
    // --junit needs --references; --csv and --markdown exclude each other; a confidence is
    // a fraction (clap: status 2).
    let (code, _, err) = run(&["--confidence", "1.5", &f, &f]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("\"1.5\": a fraction from 0.5 to 0.999"),
        "{err}"
    );
    // A confidence of 0.999 is said as given, never rounded to "100 %" (text and Markdown).
    for form in [&[][..], &["--markdown"][..]] {
        let mut args = vec!["--confidence", "0.999"];
        args.extend_from_slice(form);
        args.extend([f.as_str(), f.as_str()]);
        let (_, out, err) = run(&args);
        assert!(out.contains("99.9 % interval"), "{form:?}: {out}{err}");
        assert!(!out.contains("100 % interval"), "{form:?}: {out}");
    }
    assert_eq!(run(&["--junit", "j.xml", &f, &f]).0, Some(2));
    assert_eq!(run(&["--csv", "--markdown", &f, &f]).0, Some(2));
    // The subcommand still works beside the plain form.
    assert_eq!(run(&["agreement", &f, &f]).0, Some(0));
    let _ = std::fs::remove_dir_all(&d);
}

/// The example references file parses, and its criteria read as doc/ACCEPTANCE.md says: on
/// the same machine (5 + 5 launches) no criterion that covers rows fails; a criterion that
/// covers no row of the run fails.
#[test]
fn the_example_references_file() {
    let d = scratch("example");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../settings/acceptance.toml");
    let base = launches(&d, "base", &SPREAD);
    let new = launches(&d, "new", &SPREAD_AGAIN);
    let (code, out, err) = run(&[
        UNRECORDED,
        "--references",
        example.to_str().unwrap(),
        &base,
        &new,
    ]);
    assert_eq!(code, Some(1), "{err}");
    for name in ["PingPong latency, 0 B to 1 KiB", "Allreduce", "Barrier"] {
        assert!(
            out.contains(&format!("PASS {name} [new]: ")),
            "{name}: {out}"
        );
    }
    assert!(
        out.contains(
            "FAIL PingPong bandwidth, 64 KiB to 4 MiB [new]: no row of new matches the criterion"
        ),
        "{out}"
    );
    assert!(out.contains("# 1 of 4 criteria failed\n"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
