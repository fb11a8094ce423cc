//! imb-ext's `-json` provenance under a real mpirun (doc/OUTPUT.md, "Provenance"): the same
//! document as imb-mpi1's, with `-aggregate_mode` among its parameters.

mod common;
use common::*;
use imb_testkit::json::read_json;
use serde_json::{json, Value};

#[test]
fn json_provenance_of_an_ext_run() {
    let d = scratch("ext-prov");
    let f = d.join("r.json").to_string_lossy().into_owned();
    let o = mpirun_in(
        &d,
        2,
        &[
            "Unidir_Put",
            "-msglog",
            "0:1",
            "-aggregate_mode",
            "aggregate",
            "-json",
            &f,
        ],
        60,
    );
    ok(&o);
    let doc: Value = read_json(&f);
    assert_eq!(doc["suite"], "imb-ext");
    let p = &doc["provenance"];
    assert_eq!(p["status"], json!({"state": "complete"}));
    assert_eq!(p["ranks"].as_array().unwrap().len(), 2);
    assert_eq!(p["hosts"][0]["ranks"], json!([0, 1]));
    let mode = p["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "-aggregate_mode")
        .unwrap();
    assert_eq!(mode["value"], "aggregate");
    assert_eq!(mode["origin"], "command line");
    assert!(p["mpi"]["library_version"].as_str().unwrap().len() > 3);
}
