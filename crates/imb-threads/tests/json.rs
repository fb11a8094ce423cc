//! imb-threads' `-json FILE` (doc/OUTPUT.md, "imb-threads and imb-omp"): provenance without
//! MPI, the tables as data, the end of the run however it ends, and the refusal of what is not
//! a regular file.

use imb_testkit::json::{argv, param, read_json};
use serde_json::{json, Value};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_imb-threads");

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("imb-threads-json-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn json_holds_provenance_and_every_table() {
    let d = scratch("run");
    let set = d.join("t.toml");
    std::fs::write(
        &set,
        include_str!("../../../settings/threads.toml")
            .replace("CUTOFF_PCT = 5.0", "CUTOFF_PCT = 100.0"),
    )
    .unwrap();
    let f = d.join("r.json");
    let set_s = set.to_str().unwrap();
    let f_s = f.to_str().unwrap();
    let args = [
        "Yield",
        "Mutex_LockUnlock",
        "-bind",
        "same",
        "-min_reps",
        "2",
        "-max_reps",
        "3",
        "-settings",
        set_s,
        "-json",
        f_s,
    ];
    let o = Command::new(BIN).args(args).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    let doc = read_json(&f);
    assert_eq!(doc["schema_version"], 4);
    assert_eq!(doc["suite"], "imb-threads");
    assert_eq!(doc["complete"], true);
    assert_eq!(
        doc["benchmarks_to_run"],
        json!(["Yield", "Mutex_LockUnlock"])
    );
    let p = &doc["provenance"];
    assert_eq!(p["status"], json!({"state": "complete"}));
    assert_eq!(p["mpi"], Value::Null);
    let argv = argv(p);
    assert_eq!(argv[0], BIN);
    assert_eq!(argv[1..], args);
    // One process: rank 0, its host, CPUs and clock; no MPI clock attribute.
    let r = &p["ranks"][0];
    assert_eq!(r["rank"], 0);
    assert!(!r["host"].as_str().unwrap().is_empty());
    assert!(!r["cpus"].as_array().unwrap().is_empty());
    assert!(r["wtick"].as_f64().unwrap() > 0.0);
    assert_eq!(r["wtime_is_global"], Value::Null);
    assert_eq!(p["hosts"][0]["ranks"], json!([0]));
    // Schema 4: the host's facts and the build, without the MPI clock.
    let h = &p["hosts"][0];
    assert!(
        h["machine"]["id"].is_string() || h["machine"]["absent"].is_string(),
        "{h}"
    );
    assert!(h["cpu"]["logical"].as_u64().unwrap_or(1) >= 1, "{h}");
    assert!(
        h["network"].is_array() || h["network"]["absent"].is_string(),
        "{h}"
    );
    assert_eq!(h["wtime"], Value::Null);
    assert_eq!(p["machines"].as_array().unwrap().len(), 1);
    assert_eq!(p["build"]["binary"]["sha256"].as_str().unwrap().len(), 64);
    assert!(p["collection_us"].as_f64().unwrap() > 0.0);
    assert!(p["load_average_end"].is_array() || p["load_average_end"]["absent"].is_string());
    // Where each value came from.
    assert_eq!(param(p, "MIN_REPS")["origin"], "command line");
    assert_eq!(param(p, "MIN_REPS")["value"], 2);
    assert_eq!(param(p, "MIN_REPS")["standard"], 5);
    assert_eq!(param(p, "CUTOFF_PCT")["origin"], "settings file");
    assert_eq!(param(p, "CUTOFF_PCT")["value"], 100.0);
    assert_eq!(param(p, "CUTOFF_PCT")["standard"], 5.0);
    assert_eq!(param(p, "BIND")["value"], json!(["same"]));
    assert_eq!(param(p, "-force")["origin"], "standard");
    assert_eq!(p["settings_file"], set_s);
    assert!(p["start"].as_str().unwrap() <= p["end"].as_str().unwrap());
    // The tables as data: one per benchmark, as many rows as printed.
    let tables = doc["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    assert_eq!(tables[0]["benchmark"], "Yield");
    assert_eq!(tables[0]["keys"][0], "binding");
    let printed = stdout
        .lines()
        .filter(|l| l.contains("cpu0,cpu0") || l.contains("unbound"))
        .count();
    let rows: usize = tables
        .iter()
        .map(|t| t["rows"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows, printed, "{stdout}");
    let row = &tables[0]["rows"][0];
    assert_eq!(row["binding"], "same");
    assert!(row["mean_us"].is_number() && row["flags"].is_array() && row["bound"].is_boolean());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_run_stopped_by_its_reader_says_so() {
    let d = scratch("reader");
    let f = d.join("r.json");
    let rows = vec!["1"; 2000].join(",");
    let args = [
        "Barrier",
        "-bind",
        "none",
        "-threads",
        &rows,
        "-min_reps",
        "2",
        "-max_reps",
        "3",
        "-json",
        f.to_str().unwrap(),
    ];
    let (_, code, err) = imb_testkit::run_reader_leaves(BIN, &d, &args, 60);
    assert_eq!(code, 141, "{err}");
    let doc = read_json(&f);
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["provenance"]["status"]["state"], "interrupted");
    assert!(doc["provenance"]["end"].is_string());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn json_is_refused_on_what_is_not_a_regular_file() {
    let d = scratch("kinds");
    for (target, kind) in [
        ("/dev/null", "a character device"),
        (d.to_str().unwrap(), "a directory"),
    ] {
        let o = Command::new(BIN)
            .args(["Yield", "-json", target])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with(&format!("imb-threads: error: -json {target}: {kind}"))
                && err.lines().count() == 1,
            "{err}"
        );
    }
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
    std::fs::remove_dir_all(&d).unwrap();
}
