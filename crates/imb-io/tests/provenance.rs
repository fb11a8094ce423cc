//! imb-io's `-json` provenance: its own parameters (FILENAME, -dir), and a run that an error
//! ends says so (doc/OUTPUT.md, "Provenance").

mod common;
use common::*;
use imb_testkit::json::{param, read_json};
use serde_json::Value;

#[test]
fn json_provenance_records_io_parameters_and_a_failed_run() {
    let d = scratch("io-prov");
    let f = d.join("r.json").to_string_lossy().into_owned();
    // A directory where even root cannot create files: MPI_File_open fails on every rank.
    let o = mpirun_in(
        &d,
        2,
        &["P_Write_Priv", "-msglog", "1", "-dir", "/proc", "-json", &f],
        60,
    );
    assert_eq!(o.code, Some(3), "{}", o.stderr);
    let doc: Value = read_json(&f);
    assert_eq!(doc["complete"], false);
    let p = &doc["provenance"];
    assert_eq!(p["status"]["state"], "failed");
    let error = p["status"]["error"].as_str().unwrap();
    assert!(
        error.starts_with("P_Write_Priv: cannot create /proc/IMB_out."),
        "{error}"
    );
    assert!(o.stderr.contains(error), "the printed error: {}", o.stderr);
    assert!(p["start"].as_str().unwrap() <= p["end"].as_str().unwrap());
    let param = |n: &str| param(p, n).clone();
    assert_eq!(param("FILENAME")["value"], "IMB_out");
    assert_eq!(param("FILENAME")["origin"], "standard");
    assert_eq!(param("-dir")["value"], "/proc");
    assert_eq!(param("-dir")["origin"], "command line");
    assert_eq!(param("-aggregate_mode")["value"], "both");
    assert_eq!(param("MAXMSGLOG")["standard"], 24);
}
