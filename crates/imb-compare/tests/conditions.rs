//! The conditions that define a result, read from real imb-mpi1 runs under mpirun: a run under
//! MPI_THREAD_MULTIPLE against one under MPI_THREAD_SINGLE, and a PingPong whose two ranks sat
//! on one host against one whose ranks sat on two. Both differences are printed above every
//! table and fail a baseline criterion unless accepted by name; what only describes a run
//! (kernel, governor, MPI control variables) is a note.
//!
//! Two host names on one machine: rank 1 runs in its own UTS namespace (`unshare --uts`,
//! root only) with another host name; shared memory still works between the two. The
//! provenance's machine identity makes them one host; given another identity, the second name
//! is another machine. Where `unshare --uts` is not allowed that half is skipped and says so.

use std::path::Path;
use std::process::Command;

mod common;
use common::{imb_mpi1, run as compare};

const ARGS: &[&str] = &["PingPong", "Barrier", "-msglog", "0:4", "-iter", "50"];

/// One launch of imb-mpi1 at np 2 with `extra` options, its `-json` into `dir/NAME.json`.
fn launch(dir: &Path, name: &str, extra: &[&str]) -> String {
    let json = format!("{name}.json");
    let mut args: Vec<&str> = ARGS.to_vec();
    args.extend_from_slice(extra);
    args.extend(["-json", &json]);
    let out = imb_testkit::mpirun_in(&imb_mpi1(), dir, 2, &args, 120);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    dir.join(json).to_string_lossy().into_owned()
}

#[test]
fn thread_level_difference() {
    let dir = imb_testkit::scratch("compare-thread-level");
    let refs = imb_testkit::write(&dir, "acc.toml", common::LATENCY_AGAINST_THE_BASELINE);
    let single = launch(&dir, "single", &[]);
    let multiple = launch(&dir, "multiple", &["-thread_level", "multiple"]);
    let level = |f: &str| -> String {
        let v = imb_testkit::json::read_json(f);
        v["provenance"]["mpi"]["thread_level"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let granted = level(&multiple);
    if granted != "MPI_THREAD_MULTIPLE" {
        eprintln!("the MPI library granted {granted} for multiple: nothing to tell apart");
        return;
    }
    let (code, out, err) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        &single,
        &multiple,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    let line = "# !! conditions differ (multiple.json): thread level: MPI_THREAD_SINGLE (base) vs \
                MPI_THREAD_MULTIPLE (new)";
    let at = out.find(line).expect(&out);
    assert!(
        at < out.find("\n# Barrier, 2 processes: ").unwrap(),
        "{out}"
    );
    assert_eq!(
        out.matches("# !! conditions differ: thread level: MPI_THREAD_SINGLE (base) vs MPI_THREAD_MULTIPLE (new)")
            .count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("FAIL PingPong latency [multiple.json]: conditions differ: thread level: "),
        "{out}"
    );
    // Accepted by name, the criterion is judged on its figures (one launch: inconclusive).
    let (code, out, _) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        "--accept-difference",
        "thread-level",
        &single,
        &multiple,
    ]);
    assert_eq!(code, Some(4), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn placement_difference() {
    let dir = imb_testkit::scratch("compare-placement");
    let refs = imb_testkit::write(&dir, "acc.toml", common::LATENCY_AGAINST_THE_BASELINE);
    let one_host = launch(&dir, "onehost", &[]);
    let can = Command::new("unshare")
        .args(["--uts", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !can {
        eprintln!("`unshare --uts` is not allowed here (not root?): rank 1 cannot get a host of its own; skipped");
        return;
    }
    // Rank 1 execs imb-mpi1 inside its own UTS namespace named node2.
    let bin = imb_mpi1();
    let mut args: Vec<String> = ARGS.iter().map(|s| s.to_string()).collect();
    args.extend(["-json".to_string(), "twohosts.json".to_string()]);
    let script = format!(
        "r=${{OMPI_COMM_WORLD_RANK:-$PMI_RANK}}; if [ \"$r\" = 1 ]; then exec unshare --uts sh -c \
         'hostname node2 && exec \"$0\" \"$@\"' {bin} {a}; else exec {bin} {a}; fi",
        a = args.join(" ")
    );
    let out = imb_testkit::mpirun_in("sh", &dir, 2, &["-c", &script], 120);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    let two = dir.join("twohosts.json").to_string_lossy().into_owned();
    let mut v = imb_testkit::json::read_json(&two);
    let hosts: Vec<&str> = v["provenance"]["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    assert_eq!(hosts.len(), 2, "{hosts:?}");

    // Two names on one machine (one identity) are one host: no difference, the names a note.
    let (code, out, err) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        &one_host,
        &two,
    ]);
    assert!(!out.contains("# !! conditions differ"), "{out}{err}");
    assert!(out.contains("# note: hosts: "), "{out}");
    assert_ne!(code, Some(1), "{out}{err}");

    // Give node2 another machine's identity: now the ranks sat on two hosts.
    v["provenance"]["hosts"][1]["machine"]["id"] = "0123456789abcdef".into();
    let two = imb_testkit::write(&dir, "twomachines.json", &v.to_string());
    let (code, out, err) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        &one_host,
        &two,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("# !! conditions differ (twomachines.json): ranks per host: 2 ranks on 1 host (base) vs 1+1 ranks on 2 hosts (new)"),
        "{out}"
    );
    // Above PingPong's table and Barrier's, each with its own ranks.
    assert_eq!(
        out.matches("# !! conditions differ: placement: 2 ranks on 1 host (base) vs 1+1 ranks on 2 hosts (new)")
            .count(),
        2,
        "{out}"
    );
    assert!(out.contains("# note: hosts: "), "{out}");
    assert!(
        out.contains("FAIL PingPong latency [twomachines.json]: conditions differ: "),
        "{out}"
    );
    let (code, out, _) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        "--accept-difference",
        "placement,layout",
        &one_host,
        &two,
    ]);
    assert_eq!(code, Some(4), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What describes a run without defining its figures (schema 4's kernel, governor, MPI control
/// variables, …) is shown as `# note:` lines when it differs, and fails no criterion.
#[test]
fn described_not_defined() {
    let dir = imb_testkit::scratch("compare-described");
    let refs = imb_testkit::write(&dir, "acc.toml", common::LATENCY_AGAINST_THE_BASELINE);
    let base = launch(&dir, "base", &[]);
    let mut v = imb_testkit::json::read_json(&base);
    assert_eq!(v["schema_version"], 4);
    // Another launch (another start): one launch on both sides is no evidence.
    v["header"]["date"] = serde_json::json!("Thu Jan  1 00:00:00 2099");
    let p = &mut v["provenance"];
    p["start"] = serde_json::json!("2099-01-01T00:00:00.000Z");
    p["hosts"][0]["kernel"] = serde_json::json!({"sysname": "Linux", "release": "9.9.9-test",
        "version": "#1", "machine": "x86_64"});
    p["hosts"][0]["governor"] = serde_json::json!({"powersave": [0]});
    // MPI_T may be unavailable (the library's reason is then recorded): no variables to compare.
    let cvars = p["mpi"]["control_variables"]["set"].as_array_mut();
    let has_cvars = cvars.is_some();
    if let Some(set) = cvars {
        set.push(serde_json::json!({"name": "btl_test_knob",
            "source": "environment OMPI_MCA_btl_test_knob", "launcher": false, "value": 7}));
        // A launcher's variable that differs is not worth a line.
        set.push(serde_json::json!({"name": "orte_hnp_uri",
            "source": "environment OMPI_MCA_orte_hnp_uri", "launcher": true, "value": "elsewhere"}));
    }
    let new = imb_testkit::write(&dir, "new.json", &v.to_string());
    let (code, out, err) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        &base,
        &new,
    ]);
    assert!(!out.contains("# !! conditions differ"), "{out}{err}");
    assert!(out.contains("# note: kernel: "), "{out}");
    assert!(out.contains(" (base) vs 9.9.9-test (new)"), "{out}");
    assert!(out.contains("# note: frequency governor: "), "{out}");
    assert!(
        !has_cvars
            || out
                .contains("# note: MPI control variable btl_test_knob: not set (base) vs 7 (new)"),
        "{out}"
    );
    assert!(!out.contains("orte_hnp_uri"), "{out}");
    assert_ne!(code, Some(1), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
