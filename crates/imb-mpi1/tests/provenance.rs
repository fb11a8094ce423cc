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
    assert_eq!(doc["schema_version"], 4);
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
    // The reader takes the header's first line and leaves, the program at most a pipe's page
    // ahead of it (imb_testkit::run_reader_leaves), so the ladder below is cut off mid-way
    // whatever the load. A run that finished all the same would be complete and say so; the
    // launches again are kept for a pipe whose size could not be set.
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

/// Schema 4's facts under mpirun at np 3: one rank per host reads the host (here one host,
/// one reader), every host names its machine, the build and the binary, the launcher, the
/// clock, the control variables (or why not), the load and the collection time. Values are
/// checked for shape and sense, never for speed.
#[test]
fn host_build_and_launch_facts() {
    let d = scratch("prov4");
    let o = mpirun_in(
        &d,
        3,
        &[
            "PingPong", "-msglog", "0:1", "-iter", "10", "-json", "r.json",
        ],
        60,
    );
    ok(&o);
    let doc: Value = read_json(d.join("r.json"));
    let p = &doc["provenance"];
    let hosts = p["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 1);
    let h = &hosts[0];
    assert_eq!(h["ranks"], json!([0, 1, 2]));
    // One shared-memory node to MPI: every rank's node is rank 0's.
    for r in p["ranks"].as_array().unwrap() {
        assert_eq!(r["mpi_node"], 0, "{r}");
    }
    // The machine: an identity, one machine with this one host.
    let id = h["machine"]["id"].as_str().unwrap_or_else(|| panic!("{h}"));
    assert_eq!(id.len(), 16);
    assert_eq!(
        p["machines"],
        json!([{"machine": id, "hosts": [h["host"]], "ranks": [0, 1, 2]}])
    );
    // The host's facts, each a value or {"absent": why}.
    let known_or_absent = |k: &str| {
        let v = &h[k];
        assert!(
            !v.is_null() && (v.get("absent").is_none() || v["absent"].is_string()),
            "{k}: {v}"
        );
        v.get("absent").is_none()
    };
    for k in [
        "os_release",
        "kernel",
        "cpu",
        "numa",
        "mem_total_kib",
        "governor",
        "network",
        "infiniband",
        "load_average",
    ] {
        known_or_absent(k);
    }
    assert!(known_or_absent("kernel") && h["kernel"]["sysname"] == "Linux");
    if known_or_absent("cpu") {
        let c = &h["cpu"];
        let n = |k: &str| c[k].as_u64().unwrap();
        assert!(
            n("logical") >= 1 && n("sockets") >= 1 && n("cores") >= n("sockets"),
            "{c}"
        );
        assert_eq!(n("logical"), n("cores") * n("threads_per_core"), "{c}");
    }
    if known_or_absent("network") {
        let lo = h["network"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == "lo");
        assert!(lo.is_none_or(|lo| lo["kind"] == "loopback" && lo["virtual"] == true));
    }
    if known_or_absent("load_average") {
        assert_eq!(h["load_average"].as_array().unwrap().len(), 3);
    }
    assert!(h["fabric_libraries"].is_object());
    // The clock, measured by the host's reader.
    let w = &h["wtime"];
    assert_eq!(w["clock"], "MPI_Wtime");
    assert!(w["reads"].as_u64().unwrap() >= 100);
    assert!(w["overhead_ns"].as_f64().unwrap() >= 0.0, "{w}");
    assert!(w["min_step_ns"].is_null() || w["min_step_ns"].as_f64().unwrap() > 0.0);
    assert_eq!(w["tick_s"], p["ranks"][0]["wtick"]);
    assert!(h["collection_us"].as_f64().unwrap() > 0.0);
    // The build and this very binary.
    let b = &p["build"];
    assert!(b["rustc"].as_str().unwrap().starts_with("rustc "), "{b}");
    assert!(b["profile"].is_string() && b["opt_level"].is_string() && b["target"].is_string());
    assert!(b["git_dirty"].is_boolean() || b["git_dirty"].is_null());
    let bin = std::fs::read(env!("CARGO_BIN_EXE_imb-mpi1")).unwrap();
    let (sha, bytes) = imb_core::provenance::sha256(&bin[..]).unwrap();
    assert_eq!(b["binary"]["sha256"], sha.as_str());
    assert_eq!(b["binary"]["bytes"], bytes);
    // The launch: mpirun is rank 0's parent on this node.
    let l = &p["launcher"];
    let parent = l["parent"]["cmdline"].as_array().unwrap();
    let parent: Vec<&str> = parent.iter().filter_map(Value::as_str).collect();
    assert!(
        parent.iter().any(|a| a.contains("mpirun")
            || a.contains("mpiexec")
            || a.contains("orterun")
            || a.contains("hydra")),
        "{parent:?}"
    );
    assert!(!l["kinds"].as_array().unwrap().is_empty(), "{l}");
    // The control variables: Open MPI names its parameter files and mpirun's variables.
    let cv = &p["mpi"]["control_variables"];
    if open_mpi() {
        assert!(cv["count"].as_u64().unwrap() > 10, "{cv}");
        let set = cv["set"].as_array().unwrap();
        let rmaps = set
            .iter()
            .find(|c| c["name"] == "rmaps_base_oversubscribe")
            .unwrap_or_else(|| panic!("{cv}"));
        assert_eq!(
            rmaps["source"],
            "environment OMPI_MCA_rmaps_base_oversubscribe"
        );
        assert_eq!(rmaps["launcher"], true);
        assert!(set.len() <= 100 && cv["unknown"].is_array());
    } else {
        assert!(cv["count"].is_u64() || cv["absent"].is_string(), "{cv}");
    }
    let end = &p["load_average_end"];
    assert!(end.as_array().is_some_and(|a| a.len() == 3) || end["absent"].is_string());
    assert!(p["collection_us"].as_f64().unwrap() > 0.0);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Two host names on one machine: rank 1 runs in a UTS namespace of its own (`unshare --uts`,
/// root only) named `prov-node2`. The provenance has two hosts, each read by its own rank, and
/// one machine. Where `unshare --uts` is not allowed, the test says so and passes.
#[test]
fn two_names_on_one_machine() {
    let can = std::process::Command::new("unshare")
        .args(["--uts", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !can {
        eprintln!("`unshare --uts` is not allowed here (not root?): skipped");
        return;
    }
    let d = scratch("prov-uts");
    let bin = env!("CARGO_BIN_EXE_imb-mpi1");
    let a = "PingPong -msglog 0:1 -iter 10 -json r.json";
    let script = format!(
        "r=${{OMPI_COMM_WORLD_RANK:-$PMI_RANK}}; if [ \"$r\" = 1 ]; then exec unshare --uts sh -c \
         'hostname prov-node2 && exec \"$0\" \"$@\"' {bin} {a}; else exec {bin} {a}; fi"
    );
    let o = imb_testkit::mpirun_in("sh", &d, 2, &["-c", &script], 60);
    ok(&o);
    let doc: Value = read_json(d.join("r.json"));
    let p = &doc["provenance"];
    let hosts = p["hosts"].as_array().unwrap();
    let names: Vec<&str> = hosts.iter().map(|h| h["host"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[1], "prov-node2");
    // Each host's facts come from its own rank; one identity for both.
    assert!(
        hosts.iter().all(|h| h["wtime"]["clock"] == "MPI_Wtime"),
        "{hosts:?}"
    );
    let ids: Vec<&Value> = hosts.iter().map(|h| &h["machine"]["id"]).collect();
    assert!(ids[0].is_string() && ids[0] == ids[1], "{ids:?}");
    let m = p["machines"].as_array().unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0]["hosts"], json!([names[0], "prov-node2"]));
    assert_eq!(m[0]["ranks"], json!([0, 1]));
    std::fs::remove_dir_all(&d).unwrap();
}

/// A hostile host under mpirun: each rank runs in a mount namespace of its own (`unshare
/// --mount`, root only) whose /sys/class/net holds a device with a name that is not UTF-8 and
/// a type that is no number, whose boot id and load average read empty. The run completes; the
/// identity falls back to /etc/machine-id, the load is absent with its reason, the device is
/// listed with U+FFFD in its name. Where `unshare --mount` is not allowed, the test says so.
#[test]
fn a_hostile_host_is_recorded_not_fatal() {
    let can = std::process::Command::new("unshare")
        .args(["--mount", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !can || !std::path::Path::new("/etc/machine-id").exists() {
        eprintln!(
            "`unshare --mount` is not allowed here (not root?) or no /etc/machine-id: skipped"
        );
        return;
    }
    let d = scratch("prov-hostile");
    write(
        &d,
        "h.sh",
        "dev=\"/sys/class/net/$(printf 'e\\377th')\" && mount -t tmpfs none /sys/class/net && \
         mkdir \"$dev\" && printf '\\377\\n' > \"$dev/type\" && \
         mount --bind /dev/null /proc/sys/kernel/random/boot_id && \
         mount --bind /dev/null /proc/loadavg && exec \"$@\"\n",
    );
    let bin = env!("CARGO_BIN_EXE_imb-mpi1");
    let args = [
        "--mount", "sh", "h.sh", bin, "PingPong", "-msglog", "0:1", "-iter", "10", "-json",
        "r.json",
    ];
    let o = imb_testkit::mpirun_in("unshare", &d, 2, &args, 60);
    ok(&o);
    let doc: Value = read_json(d.join("r.json"));
    let p = &doc["provenance"];
    assert_eq!(p["status"], json!({"state": "complete"}));
    let h = &p["hosts"][0];
    assert_eq!(h["machine"]["from"], "machine-id", "{h}");
    assert_eq!(h["load_average"], json!({"absent": "/proc/loadavg: \"\""}));
    assert_eq!(
        p["load_average_end"],
        json!({"absent": "/proc/loadavg: \"\""})
    );
    assert_eq!(
        h["network"],
        json!([{"name": "e\u{fffd}th", "kind": "unknown", "virtual": false, "wireless": false,
                "operstate": null, "speed_mbps": null, "mtu": null, "driver": null}])
    );
    std::fs::remove_dir_all(&d).unwrap();
}
