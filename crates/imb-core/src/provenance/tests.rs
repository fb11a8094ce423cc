use super::*;
use crate::settings::Kind;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

fn local(host: &str, cpus: &[usize], model: &str) -> Local {
    Local {
        host: host.into(),
        cpus: cpus.to_vec(),
        cpu_model: Some(model.into()),
        wtick: Some(1e-9),
        wtime_is_global: Some(false),
    }
}

#[test]
fn ranks_and_hosts_map_both_ways() {
    let (ranks, hosts) = assemble(vec![
        local("b", &[0], "X"),
        local("a", &[1], "Y"),
        local("b", &[1], "Z"),
    ]);
    let hosts_of: Vec<&str> = ranks.iter().map(|r| r.host.as_str()).collect();
    assert_eq!(hosts_of, ["b", "a", "b"]);
    assert_eq!(ranks[2].rank, 2);
    assert_eq!(ranks[2].cpus, [1]);
    assert_eq!(
        hosts,
        [
            HostFacts {
                host: "b".into(),
                cpu_model: Some("X".into()),
                ranks: vec![0, 2]
            },
            HostFacts {
                host: "a".into(),
                cpu_model: Some("Y".into()),
                ranks: vec![1]
            },
        ]
    );
}

#[test]
fn cpu_model_from_cpuinfo() {
    let x86 =
        "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\nmodel name\t: AMD EPYC 7B13\n";
    assert_eq!(cpu_model(x86).as_deref(), Some("AMD EPYC 7B13"));
    let arm = "Processor\t: ARMv7 Processor rev 4 (v7l)\nprocessor\t: 0\n";
    assert_eq!(
        cpu_model(arm).as_deref(),
        Some("ARMv7 Processor rev 4 (v7l)")
    );
    let power = "processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\n";
    assert_eq!(
        cpu_model(power).as_deref(),
        Some("POWER9 (raw), altivec supported")
    );
    assert_eq!(cpu_model("processor\t: 0\nmodel name\t: \n"), None);
}

#[test]
fn os_text_is_lossless() {
    let ok = serde_json::to_value(OsText(b"-json".to_vec())).unwrap();
    assert_eq!(ok, serde_json::json!("-json"));
    let bad = serde_json::to_value(OsText(b"r\xff.json".to_vec())).unwrap();
    assert_eq!(
        bad,
        serde_json::json!({"lossy": "r\u{fffd}.json", "hex": "72ff2e6a736f6e"})
    );
}

#[test]
fn environment_keeps_the_mpi_prefixes_sorted() {
    let vars = [
        ("SLURM_JOB_ID", b"7".to_vec()),
        ("HOME", b"/root".to_vec()),
        ("OMPI_MCA_btl", b"self,vader".to_vec()),
        ("UCX_TLS", b"rc\xff".to_vec()),
        ("MY_OMPI_X", b"no".to_vec()),
        ("OMP_NUM_THREADS", b"4".to_vec()),
    ]
    .into_iter()
    .map(|(k, v)| (OsString::from(k), OsString::from_vec(v)));
    let env = environment(vars);
    let keys: Vec<&str> = env.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["OMPI_MCA_btl", "OMP_NUM_THREADS", "SLURM_JOB_ID", "UCX_TLS"]
    );
    assert_eq!(env["UCX_TLS"], OsText(b"rc\xff".to_vec()));
}

#[test]
fn a_run_ends_once_with_its_status_and_time() {
    let mut p = Provenance::new(
        vec![Param::new("MAXMSGLOG", 3, 22, Origin::CommandLine)],
        None,
        None,
        vec![Local::here(None, None)],
    );
    assert_eq!(p.status, Status::Running);
    assert_eq!(p.end, None);
    assert!(
        p.start.ends_with('Z') && p.start.contains('T'),
        "{}",
        p.start
    );
    p.end(Status::Failed {
        error: "x: y".into(),
    });
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(
        v["status"],
        serde_json::json!({"state": "failed", "error": "x: y"})
    );
    assert!(v["end"].as_str().unwrap() >= v["start"].as_str().unwrap());
    assert_eq!(
        v["parameters"][0],
        serde_json::json!({"name": "MAXMSGLOG", "value": 3, "standard": 22, "origin": "command line"})
    );
    assert_eq!(v["mpi"], serde_json::Value::Null);
    assert_eq!(v["ranks"][0]["rank"], 0);
    assert_eq!(v["hosts"][0]["ranks"], serde_json::json!([0]));
    assert_eq!(v["imb_rs_version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn mpi_parameters_say_where_each_value_came_from() {
    use crate::cli::{self, Action, Spec};
    let dir = std::env::temp_dir().join(format!("imb-prov-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = dir.join("opt.toml");
    let text = include_str!("../../../../settings/settings.toml").replace(
        "IMB_OPTIONAL = false",
        "IMB_OPTIONAL = true\nMSGSPERSAMPLE = 50",
    );
    std::fs::write(&set, text).unwrap();
    let spec = Spec {
        exe: "imb-mpi1",
        names: &["PingPong"],
        defaults: 1,
        kind: Kind::Mpi1,
        npmin: 2,
        aggregate: false,
        window: false,
    };
    let args: Vec<String> = ["-msglog", "3", "-npmin", "1", "-settings"]
        .iter()
        .map(|s| s.to_string())
        .chain([set.to_string_lossy().into_owned()])
        .collect();
    let Action::Run(o) = cli::parse(&spec, &args, 4).unwrap() else {
        panic!("a run")
    };
    let p = mpi_parameters(&o, Kind::Mpi1, false);
    let find = |n: &str| {
        p.iter()
            .find(|x| x.name == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    assert_eq!(find("MAXMSGLOG").origin, Origin::CommandLine);
    assert_eq!(find("MAXMSGLOG").value, 3);
    assert_eq!(find("MSGSPERSAMPLE").origin, Origin::SettingsFile);
    assert_eq!(find("MSGSPERSAMPLE").value, 50);
    assert_eq!(find("MSGSPERSAMPLE").standard, 1000);
    assert_eq!(find("N_BARR").origin, Origin::Standard);
    assert_eq!(find("-npmin").origin, Origin::CommandLine);
    assert_eq!(find("-npmin").value, 1);
    assert_eq!(find("-check").origin, Origin::Standard);
    assert!(p
        .iter()
        .all(|x| x.name != "-dir" && x.name != "-aggregate_mode"));
    std::fs::remove_dir_all(&dir).unwrap();
}
