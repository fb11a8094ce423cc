//! imb-omp's `-json FILE` (doc/OUTPUT.md, "imb-threads and imb-omp"): provenance without MPI,
//! the tables as data, and the refusal of what is not a regular file.

use imb_testkit::json::{argv, param, read_json};
use serde_json::{json, Value};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_imb-omp");

#[test]
fn json_holds_provenance_and_every_table() {
    let d = std::env::temp_dir().join(format!("imb-omp-json-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("r.json");
    let args = [
        "parallel",
        "static",
        "-threads",
        "1,2",
        "-outer_reps",
        "3",
        "-test_time",
        "100",
        "-json",
        f.to_str().unwrap(),
    ];
    let o = Command::new(BIN)
        .args(args)
        .env("OMP_PROC_BIND", "false")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: Value = read_json(&f);
    assert_eq!(doc["schema_version"], 4);
    assert_eq!(doc["suite"], "imb-omp");
    assert_eq!(doc["complete"], true);
    let p = &doc["provenance"];
    assert_eq!(p["status"], json!({"state": "complete"}));
    assert_eq!(p["mpi"], Value::Null);
    let argv = argv(p);
    assert_eq!(argv[0], BIN);
    assert_eq!(argv[1..], args);
    assert_eq!(p["environment"]["OMP_PROC_BIND"], "false");
    assert!(p["ranks"][0]["wtick"].as_f64().unwrap() > 0.0);
    // Schema 4: the host's facts and the build, no MPI fields.
    assert!(p["hosts"][0]["kernel"]["release"].is_string(), "{p}");
    assert_eq!(p["hosts"][0]["wtime"], Value::Null);
    assert_eq!(p["build"]["binary"]["sha256"].as_str().unwrap().len(), 64);
    assert!(p["collection_us"].as_f64().unwrap() > 0.0);
    assert!(p["start"].as_str().unwrap() <= p["end"].as_str().unwrap());
    let param = |n: &str| param(p, n).clone();
    assert_eq!(param("-outer_reps")["value"], 3);
    assert_eq!(param("-outer_reps")["origin"], "command line");
    assert_eq!(param("-outer_reps")["standard"], 20);
    assert_eq!(param("-threads")["value"], json!([1, 2]));
    assert_eq!(param("-cutoff")["origin"], "standard");
    assert!(doc["header"]["runtime"].is_string());
    // One table per family and thread count, in the printed order, rows keyed by `keys`.
    let tables = doc["tables"].as_array().unwrap();
    let shape: Vec<(String, i64, usize)> = tables
        .iter()
        .map(|t| {
            (
                t["benchmark"].as_str().unwrap().to_string(),
                t["threads"].as_i64().unwrap(),
                t["rows"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("sync".into(), 1, 1),
            ("sync".into(), 2, 1),
            ("sched".into(), 1, 1),
            ("sched".into(), 2, 1)
        ]
    );
    let row = &tables[0]["rows"][0];
    for k in tables[0]["keys"].as_array().unwrap() {
        assert!(row.get(k.as_str().unwrap()).is_some(), "{k} in {row}");
    }
    assert_eq!(row["construct"], "PARALLEL");
    assert_eq!(row["threads"], 1);
    assert!(row["overhead_us"].is_number());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn json_is_refused_on_what_is_not_a_regular_file() {
    let o = Command::new(BIN)
        .args(["parallel", "-json", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .collect::<Vec<_>>(),
        ["imb-omp: error: -json /dev/null: a character device: only a regular file is written"]
    );
}
