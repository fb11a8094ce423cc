//! A host is a machine, for oversubscription too, and binding is a condition: real launches of
//! imb-mpi1 read back by imb-compare (doc/ACCEPTANCE.md, "Comparable runs" and "Runs and rows
//! that cannot decide").
//!
//! Four ranks on the test cluster's two nodes, which are network namespaces of this one
//! machine (`mini-cluster`, doc/ACCEPTANCE.md section 8): imb-mpi1's header counts ranks per
//! MPI node, two here, and says nothing, but the four share this machine's CPUs, and
//! imb-compare's reading says so from the provenance's machine identity. It runs when
//! `IMB_MINI_CLUSTER` names the cluster's tool; where the cluster cannot come up (not root, no
//! `ip netns`) the test says why and passes. The reading itself is tested without a cluster
//! in `jsondoc`'s unit tests.
//!
//! Binding: `--bind-to core` against `--bind-to none` on this machine, a binding condition that
//! differs, and the same policy on other CPU numbers that does not. No timing is judged.

use std::path::Path;
use std::process::Command;

mod common;
use common::{imb_mpi1, run as compare};

/// The test cluster's tool, when `IMB_MINI_CLUSTER` names it: a tool of the project's
/// machines that makes network namespaces, not part of the repository, so the test that needs
/// it is asked for and never assumed.
fn mini_cluster_tool() -> Option<String> {
    std::env::var("IMB_MINI_CLUSTER")
        .ok()
        .filter(|t| !t.is_empty())
}

/// The mpirun options of a two-node test cluster, brought up if need be; `Err` says why not.
/// The cluster is left up: another test may be launching on it at the same time.
fn two_nodes() -> Result<Vec<String>, String> {
    let tool = mini_cluster_tool().ok_or("IMB_MINI_CLUSTER names no mini-cluster tool")?;
    let up = Command::new(&tool)
        .args(["up", "2"])
        .output()
        .map_err(|e| format!("{tool}: {e}"))?;
    if !up.status.success() {
        return Err(format!(
            "`{tool} up 2` failed (root and ip netns needed): {}",
            String::from_utf8_lossy(&up.stderr).trim()
        ));
    }
    let flags = Command::new(&tool)
        .arg("flags")
        .output()
        .map_err(|e| format!("{tool} flags: {e}"))?;
    Ok(String::from_utf8_lossy(&flags.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect())
}

/// `mpirun OPTIONS imb-mpi1 PingPong … -json NAME.json` in `dir`, stopped after two minutes;
/// the file's path, or why the launch failed.
fn launch(dir: &Path, name: &str, options: &[String]) -> Result<String, String> {
    let json = format!("{name}.json");
    let out = Command::new("timeout")
        .args([
            "-k",
            "5",
            "120",
            "mpirun",
            "--allow-run-as-root",
            "--oversubscribe",
        ])
        .args(options)
        .arg(imb_mpi1())
        .args(["PingPong", "-msglog", "0:2", "-iter", "10", "-json", &json])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("mpirun: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "mpirun {options:?} ended with {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(dir.join(json).to_string_lossy().into_owned())
}

const AGAINST_A_NUMBER: &str = r#"
[[criterion]]
name = "PingPong latency"
benchmark = "PingPong"
metric = "t"
statistic = "min"
reference = 1000000
upper = 0.0
"#;

#[test]
fn four_ranks_on_two_names_of_one_machine_are_oversubscribed() {
    let flags = match two_nodes() {
        Ok(f) => f,
        Err(why) => {
            eprintln!("the test cluster cannot come up here: {why}; skipped");
            return;
        }
    };
    let dir = imb_testkit::scratch("compare-machine-oversubscribed");
    let mut options = flags;
    options
        .extend(["--bind-to", "none", "--host", "node1:2,node2:2", "-np", "4"].map(String::from));
    let file = match launch(&dir, "two-names", &options) {
        Ok(f) => f,
        Err(why) => {
            eprintln!("the test cluster is up but a launch on it failed: {why}; skipped");
            return;
        }
    };
    let v = imb_testkit::json::read_json(&file);
    let p = &v["provenance"];
    let machines = p["machines"].as_array().unwrap();
    let cpus = p["hosts"][0]["cpu"]["logical"].as_u64().unwrap();
    if machines.len() != 1 || cpus >= 4 {
        eprintln!(
            "{} machine(s) of {cpus} CPUs: 4 ranks do not oversubscribe them; nothing to show",
            machines.len()
        );
        return;
    }
    let names: Vec<&str> = machines[0]["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert_eq!(names, ["node1", "node2"], "{p}");

    let refs = imb_testkit::write(&dir, "acc.toml", AGAINST_A_NUMBER);
    let (code, out, err) = compare(&["--references", &refs, &file]);
    let line = format!(
        "on one machine ({}: hosts node1, node2) (oversubscribed)",
        machines[0]["machine"].as_str().unwrap()
    );
    assert!(out.contains(&line), "{out}{err}");
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("FAIL PingPong latency [two-names.json]: two-names.json ran oversubscribed (4 processes share"),
        "{out}"
    );
    // Accepted on purpose, the criterion is judged on its figure (whatever that gives: no
    // time is judged here).
    let (_, out, err) = compare(&["--references", &refs, "--accept-oversubscribed", &file]);
    assert!(
        out.contains("PingPong latency [two-names.json]"),
        "{out}{err}"
    );
    assert!(!out.contains("ran oversubscribed"), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each rank's CPU set in a launch's provenance.
fn cpu_sets(v: &serde_json::Value) -> Vec<Vec<u64>> {
    v["provenance"]["ranks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["cpus"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .collect()
        })
        .collect()
}

/// `--bind-to core` against `--bind-to none`, two real launches of 2 ranks on this machine: the
/// binding differs, is printed as a condition and fails a baseline criterion unless accepted by
/// name. The same policy with other CPU numbers is no difference. Only the binding read back
/// is checked, never a time.
#[test]
fn bound_against_unbound() {
    let dir = imb_testkit::scratch("compare-binding");
    let refs = imb_testkit::write(&dir, "acc.toml", common::LATENCY_AGAINST_THE_BASELINE);
    let np2 = |bind: &str| ["--bind-to", bind, "-np", "2"].map(String::from);
    let core = launch(&dir, "core", &np2("core")).unwrap();
    let none = launch(&dir, "none", &np2("none")).unwrap();
    let (vc, vn) = (
        imb_testkit::json::read_json(&core),
        imb_testkit::json::read_json(&none),
    );
    let logical = vn["provenance"]["hosts"][0]["cpu"]["logical"].as_u64();
    let (sc, sn) = (cpu_sets(&vc), cpu_sets(&vn));
    // A core of two hardware threads, or a cpuset narrower than the machine, reads otherwise.
    if sc.iter().any(|s| s.len() != 1) || sn.iter().any(|s| Some(s.len() as u64) != logical) {
        eprintln!(
            "this machine bound the ranks to {sc:?} and left them on {sn:?} of {logical:?} \
             CPUs: not one CPU against all of them; skipped"
        );
        return;
    }

    let (code, out, err) = compare(&["--references", &refs, &core, &none]);
    assert!(
        out.contains(
            "# !! conditions differ (none.json): binding: each rank on 1 CPU (base) vs unbound (new)"
        ),
        "{out}{err}"
    );
    assert!(
        out.contains("# !! conditions differ: binding: each rank on 1 CPU (base) vs unbound (new)"),
        "{out}"
    );
    assert!(
        out.contains("# note: binding policy: Open MPI core (base) vs Open MPI none (new)"),
        "{out}"
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains(
            "FAIL PingPong latency [none.json]: conditions differ: binding: each rank on 1 CPU \
             (base) vs unbound (new) (not comparable; --accept-difference binding judges them \
             anyway)"
        ),
        "{out}"
    );
    // Accepted by name, the criterion is judged on its figures (one launch a side: no
    // interval, inconclusive); the difference is still printed.
    let (code, out, err) = compare(&[
        "--references",
        &refs,
        "--accept-difference",
        "binding",
        &core,
        &none,
    ]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(out.contains("conditions differ: binding"), "{out}");
    assert!(
        out.contains("INCONCLUSIVE PingPong latency [none.json]: "),
        "{out}"
    );

    // The same policy another time: rank 0 on the other CPU. Another launch by its start.
    let mut moved = vc.clone();
    let ranks = moved["provenance"]["ranks"].as_array_mut().unwrap();
    let first = ranks[0]["cpus"].clone();
    ranks[0]["cpus"] = ranks[1]["cpus"].clone();
    ranks[1]["cpus"] = first;
    moved["header"]["date"] = serde_json::json!("Thu Jan  1 00:00:00 2099");
    moved["provenance"]["start"] = serde_json::json!("2099-01-01T00:00:00.000Z");
    let moved = imb_testkit::write(&dir, "moved.json", &moved.to_string());
    let (code, out, err) = compare(&["--references", &refs, &core, &moved]);
    assert!(!out.contains("binding:"), "{out}{err}");
    assert_eq!(code, Some(4), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
