//! The `-json` provenance under a real mpirun (doc/OUTPUT.md, "Provenance"): hosts and the
//! rank→host map, the MPI library, the command line, parameters with their origins, the
//! start, end and completion status.

mod common;
use common::*;
use imb_testkit::json::{argv, param, read_json};
use serde_json::{json, Value};

/// The version number `mpirun --version` names ("mpirun (Open MPI) 4.1.4", MPICH's hydra
/// "Version: 4.1.2").
fn launcher_version() -> String {
    let o = std::process::Command::new("mpirun")
        .arg("--version")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.split(|c: char| c.is_whitespace())
        .find(|w| w.contains('.') && w.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no version in {text}"))
        .to_string()
}

#[test]
fn json_provenance_of_a_real_run() {
    let d = scratch("prov");
    let set = write(
        &d,
        "opt.toml",
        &include_str!("../../../settings/settings.toml")
            .replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true\nN_BARR = 1"),
    );
    let f = d.join("out.json").to_string_lossy().into_owned();
    let args = [
        "PingPong",
        "-msglog",
        "0:1",
        "-settings",
        &set,
        "-npmin",
        "2",
        "-json",
        &f,
    ];
    let o = mpirun_in(&d, 2, &args, 60);
    ok(&o);
    let doc: Value = read_json(&f);
    assert_eq!(doc["schema_version"], 3);
    assert_eq!(doc["complete"], true);
    let p = &doc["provenance"];
    assert_eq!(p["status"], json!({"state": "complete"}));
    assert_eq!(p["imb_rs_version"], env!("CARGO_PKG_VERSION"));

    // The whole command line, the program first.
    let argv = argv(p);
    assert_eq!(argv[0], env!("CARGO_BIN_EXE_imb-mpi1"));
    assert_eq!(argv[1..], args);

    // Every rank's host, and the map from host to ranks: one machine here.
    let me = nix_hostname();
    let ranks = p["ranks"].as_array().unwrap();
    assert_eq!(ranks.len(), 2);
    for (i, r) in ranks.iter().enumerate() {
        assert_eq!(r["rank"], i);
        assert_eq!(r["host"], me.as_str());
        assert!(!r["cpus"].as_array().unwrap().is_empty(), "{r}");
        assert!(r["wtick"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["wtime_is_global"].is_boolean() || r["wtime_is_global"].is_null());
    }
    assert_eq!(p["hosts"].as_array().unwrap().len(), 1);
    assert_eq!(p["hosts"][0]["host"], me.as_str());
    assert_eq!(p["hosts"][0]["ranks"], json!([0, 1]));

    // The library the launcher belongs to, and the standard version the header prints.
    let lib = p["mpi"]["library_version"].as_str().unwrap();
    assert!(lib.contains(&launcher_version()), "{lib}");
    let v = &p["mpi"]["standard_version"];
    let printed = format!("# MPI Version           : {}.{}\n", v[0], v[1]);
    assert!(o.stdout.contains(&printed), "{printed}\n{}", o.stdout);
    assert_eq!(p["mpi"]["thread_level"], "MPI_THREAD_SINGLE");

    // Where each value came from.
    let origin = |n: &str| param(p, n)["origin"].clone();
    assert_eq!(origin("MAXMSGLOG"), "command line");
    assert_eq!(param(p, "MAXMSGLOG")["value"], 1);
    assert_eq!(param(p, "MAXMSGLOG")["standard"], 22);
    assert_eq!(origin("N_BARR"), "settings file");
    assert_eq!(param(p, "N_BARR")["value"], 1);
    assert_eq!(origin("MSGSPERSAMPLE"), "standard");
    assert_eq!(origin("-npmin"), "command line");
    assert_eq!(origin("-check"), "standard");
    assert_eq!(p["settings_file"], set.as_str());

    // The launcher's environment (imb-testkit sets this for Open MPI's root runs).
    assert_eq!(p["environment"]["OMPI_ALLOW_RUN_AS_ROOT"], "1");
    assert!(p["environment"].get("HOME").is_none());

    let (start, end) = (p["start"].as_str().unwrap(), p["end"].as_str().unwrap());
    assert!(start.ends_with('Z') && start.len() == "2026-01-01T00:00:00.000Z".len());
    assert!(start <= end, "{start} > {end}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// This machine's name, as uname(2) gives it (mpirun starts the ranks here).
fn nix_hostname() -> String {
    let o = std::process::Command::new("uname")
        .arg("-n")
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn a_run_whose_reader_left_is_interrupted() {
    // The reader takes the header's first line and leaves. On a loaded machine it may leave
    // only after the last table was written (the end marker's write then fails after the
    // JSON document was finished, or nothing fails at all): that run is complete, and says
    // so. Launch again until one run is cut off mid-way, which is what this test is about.
    let d = scratch("prov-epipe");
    let mut interrupted = false;
    for _ in 0..5 {
        let (_, code, err) = run_reader_leaves(
            env!("CARGO_BIN_EXE_imb-mpi1"),
            &d,
            // The standard ladder, so that the reader leaves well before the last table.
            &[
                "Sendrecv",
                "Allreduce",
                "Bcast",
                "Exchange",
                "-json",
                "r.json",
            ],
            60,
        );
        assert!(code == 141 || code == 0, "{code}: {err}");
        let doc: Value = read_json(d.join("r.json"));
        let p = &doc["provenance"];
        assert!(p["start"].as_str().unwrap() <= p["end"].as_str().unwrap());
        // A singleton start: one rank.
        assert_eq!(p["ranks"].as_array().unwrap().len(), 1);
        if code == 0 || doc["complete"] == true {
            assert_eq!(p["status"], json!({"state": "complete"}));
            continue;
        }
        assert_eq!(
            p["status"],
            json!({"state": "interrupted", "reason": "standard output was closed by its reader"})
        );
        interrupted = true;
        break;
    }
    assert!(interrupted, "5 runs all finished before their reader left");
    std::fs::remove_dir_all(&d).unwrap();
}
