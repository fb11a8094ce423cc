use super::*;
use crate::settings::STANDARD;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

fn local(host: &str, cpus: &[usize], model: &str) -> Local {
    Local {
        host: host.into(),
        cpus: cpus.to_vec(),
        cpu_model: Some(model.into()),
        wtick: Some(1e-9),
        wtime_is_global: Some(false),
        mpi_node: None,
        detail: None,
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
                ranks: vec![0, 2],
                detail: None,
            },
            HostFacts {
                host: "a".into(),
                cpu_model: Some("Y".into()),
                ranks: vec![1],
                detail: None,
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
        defaults_2021: &[],
        settings: &STANDARD,
        npmin: 2,
        aggregate: false,
        family: &cli::Family::NONE,
    };
    let args: Vec<String> = ["-msglog", "3", "-npmin", "1", "-settings"]
        .iter()
        .map(|s| s.to_string())
        .chain([set.to_string_lossy().into_owned()])
        .collect();
    let Action::Run(o) = cli::parse(&spec, &args, 4).unwrap() else {
        panic!("a run")
    };
    let p = mpi_parameters(&o, &STANDARD, false);
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
    assert!(p.iter().all(|x| x.name != "-aggregate_mode"));
    std::fs::remove_dir_all(&dir).unwrap();
}

mod host_facts {
    use super::super::host::*;
    use super::super::net;
    use super::super::{machines, HostFacts};
    use std::path::{Path, PathBuf};

    /// A procfs and sysfs tree of a made-up host under a temporary directory.
    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str) -> Tree {
            let d = std::env::temp_dir().join(format!("imb-host-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Tree(d)
        }
        fn put(&self, rel: &str, text: impl AsRef<[u8]>) -> &Tree {
            let p = self.0.join(rel.trim_start_matches('/'));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
            self
        }
        fn link(&self, rel: &str, to: &str) -> &Tree {
            let p = self.0.join(rel.trim_start_matches('/'));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(to, p).unwrap();
            self
        }
        fn root(&self) -> Root {
            Root(self.0.clone())
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Two sockets of two cores of two threads, two NUMA nodes, no cpufreq, an Ethernet
    /// device, a loopback and an InfiniBand HCA.
    fn server(t: &Tree) {
        t.put(
            "/proc/sys/kernel/random/boot_id",
            "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n",
        )
        .put("/etc/machine-id", "00112233445566778899aabbccddeeff\n")
        .put(
            "/etc/os-release",
            "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n",
        )
        .put(
            "/proc/cpuinfo",
            "processor\t: 0\nmodel name\t: Xeon Gold 6148\n",
        )
        .put(
            "/proc/meminfo",
            "MemTotal:       24587412 kB\nMemFree: 1 kB\n",
        )
        .put("/proc/loadavg", "0.50 1.25 2.00 3/400 12345\n")
        .put("/sys/devices/system/cpu/online", "0-7\n")
        .put("/sys/devices/system/node/online", "0-1\n")
        .put("/sys/devices/system/node/node0/cpulist", "0-3\n")
        .put("/sys/devices/system/node/node1/cpulist", "4-7\n")
        .put(
            "/sys/devices/system/node/node0/meminfo",
            "Node 0 MemTotal:       12000000 kB\nNode 0 MemFree: 5 kB\n",
        )
        .put("/sys/devices/system/node/node1/meminfo", "garbage\n");
        for c in 0..8 {
            let dir = format!("/sys/devices/system/cpu/cpu{c}/topology");
            t.put(
                &format!("{dir}/physical_package_id"),
                format!("{}\n", c / 4),
            )
            .put(&format!("{dir}/core_id"), format!("{}\n", (c % 4) / 2));
        }
        let eth = "/sys/devices/pci0000:00/0000:00:03.0/net/eth0";
        t.put(&format!("{eth}/type"), "1\n")
            .put(&format!("{eth}/speed"), "25000\n")
            .put(&format!("{eth}/mtu"), "9000\n")
            .put(&format!("{eth}/operstate"), "up\n")
            .link(
                "/sys/devices/pci0000:00/0000:00:03.0/net/eth0/device/driver",
                "/sys/bus/pci/drivers/mlx5_core",
            )
            .link("/sys/class/net/eth0", &format!("{}{eth}", t.0.display()))
            .put("/sys/devices/virtual/net/lo/type", "772\n")
            .put("/sys/devices/virtual/net/lo/speed", "-1\n")
            .link(
                "/sys/class/net/lo",
                &format!("{}/sys/devices/virtual/net/lo", t.0.display()),
            )
            .put("/sys/class/net/bonding_masters", "")
            .put("/sys/class/infiniband/mlx5_0/fw_ver", "16.35.2000\n")
            .put("/sys/class/infiniband/mlx5_0/node_type", "1: CA\n")
            .put("/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n")
            .put(
                "/sys/class/infiniband/mlx5_0/ports/1/rate",
                "100 Gb/sec (4X EDR)\n",
            )
            .put(
                "/sys/class/infiniband/mlx5_0/ports/1/link_layer",
                "InfiniBand\n",
            );
    }

    #[test]
    fn a_made_up_server() {
        let t = Tree::new("server");
        server(&t);
        let d = HostDetail::read(&t.root(), None);
        assert_eq!(
            d.os_release,
            Fact::Known("Debian GNU/Linux 12 (bookworm)".to_string())
        );
        let cpu = d.cpu.known().unwrap();
        assert_eq!(cpu.model.as_deref(), Some("Xeon Gold 6148"));
        assert_eq!(
            (cpu.logical, cpu.sockets, cpu.cores, cpu.threads_per_core),
            (8, 2, 4, 2)
        );
        let numa = d.numa.known().unwrap();
        assert_eq!(numa.len(), 2);
        assert_eq!(numa[0].cpus, [0, 1, 2, 3]);
        assert_eq!(numa[0].mem_total_kib, Some(12_000_000));
        assert_eq!(numa[1].mem_total_kib, None);
        assert_eq!(d.mem_total_kib, Fact::Known(24_587_412));
        assert!(
            matches!(&d.governor, Fact::Absent { absent } if absent.starts_with("not available"))
        );
        assert_eq!(d.load_average, Fact::Known([0.5, 1.25, 2.0]));
        let net = d.network.known().unwrap();
        let names: Vec<&str> = net.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["eth0", "lo"]);
        assert_eq!(
            net[0],
            net::NetDevice {
                name: "eth0".into(),
                kind: "ethernet".into(),
                is_virtual: false,
                wireless: false,
                operstate: Some("up".into()),
                speed_mbps: Some(25000),
                mtu: Some(9000),
                driver: Some("mlx5_core".into()),
            }
        );
        assert_eq!(net[1].kind, "loopback");
        assert!(net[1].is_virtual);
        assert_eq!(net[1].speed_mbps, None);
        let ib = d.infiniband.known().unwrap();
        assert_eq!(ib[0].fw_ver.as_deref(), Some("16.35.2000"));
        assert_eq!(ib[0].ports[0].rate.as_deref(), Some("100 Gb/sec (4X EDR)"));
        assert_eq!(ib[0].ports[0].link_layer.as_deref(), Some("InfiniBand"));
        assert!(d.kernel.known().is_some());
        assert!(d.wtime.is_none());
        // What one rank sends to rank 0 reads back the same (a time in whole microseconds:
        // serde_json's float parsing may differ in the last bit).
        let mut d = d;
        d.collection_us = 490.0;
        let back: HostDetail = serde_json::from_slice(&serde_json::to_vec(&d).unwrap()).unwrap();
        assert_eq!(back, d);
    }

    /// Two names on one machine (containers with images of their own, namespaces) share the
    /// kernel's boot id: one identity. Another boot is another machine.
    #[test]
    fn identity_of_a_machine() {
        let (a, b, c) = (Tree::new("id-a"), Tree::new("id-b"), Tree::new("id-c"));
        a.put("/proc/sys/kernel/random/boot_id", "1111\n")
            .put("/etc/machine-id", "aaaa\n");
        b.put("/proc/sys/kernel/random/boot_id", "1111\n")
            .put("/etc/machine-id", "bbbb\n");
        c.put("/proc/sys/kernel/random/boot_id", "2222\n")
            .put("/etc/machine-id", "aaaa\n");
        let (ma, mb, mc) = (
            machine(&a.root()).unwrap(),
            machine(&b.root()).unwrap(),
            machine(&c.root()).unwrap(),
        );
        assert_eq!(ma, mb);
        assert_ne!(ma, mc);
        assert_eq!(ma.from, "boot_id");
        assert_eq!(ma.id.len(), 16);
        assert!(!ma.id.contains("1111"));
        // No boot id: the machine-id; neither: absent, with both reasons.
        let d = Tree::new("id-d");
        d.put("/etc/machine-id", "aaaa\n");
        assert_eq!(machine(&d.root()).unwrap().from, "machine-id");
        let e = Tree::new("id-e");
        let why = machine(&e.root()).unwrap_err();
        assert!(
            why.contains("boot_id: not found") && why.contains("machine-id"),
            "{why}"
        );
    }

    /// Nothing readable, directories where files belong, bytes that are not UTF-8: every
    /// fact absent or odd, nothing panics.
    #[test]
    fn a_hostile_host() {
        let t = Tree::new("hostile");
        std::fs::create_dir_all(t.0.join("proc/loadavg")).unwrap();
        std::fs::create_dir_all(t.0.join("etc/os-release")).unwrap();
        t.put("/sys/devices/system/cpu/online", "0-\u{ff}\n")
            .put("/proc/cpuinfo", b"model name\t: \xff\xfe\n".as_slice())
            .put("/sys/class/net/e\u{e9}th/type", b"\xff".as_slice())
            .put("/sys/devices/system/node/online", "1-0")
            .put("/proc/meminfo", "MemTotal: lots kB\n");
        // A device whose name is not UTF-8 is still read, its name with U+FFFD.
        {
            use std::os::unix::ffi::OsStrExt;
            let dev =
                t.0.join("sys/class/net")
                    .join(std::ffi::OsStr::from_bytes(b"x\xffy"));
            std::fs::create_dir_all(&dev).unwrap();
            std::fs::write(dev.join("type"), "1\n").unwrap();
        }
        let d = HostDetail::read(&t.root(), None);
        for (what, absent) in [
            ("machine", d.machine.known().is_none()),
            ("os_release", d.os_release.known().is_none()),
            ("cpu", d.cpu.known().is_none()),
            ("numa", d.numa.known().is_none()),
            ("mem", d.mem_total_kib.known().is_none()),
            ("governor", d.governor.known().is_none()),
            ("load", d.load_average.known().is_none()),
        ] {
            assert!(absent, "{what}: {d:?}");
        }
        assert_eq!(d.infiniband, Fact::Known(Vec::new()));
        let net = d.network.known().unwrap();
        let kinds: Vec<(&str, &str)> = net
            .iter()
            .map(|n| (n.name.as_str(), n.kind.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [("e\u{e9}th", "unknown"), ("x\u{fffd}y", "ethernet")]
        );
        let v = serde_json::to_value(&d).unwrap();
        assert!(v["load_average"]["absent"]
            .as_str()
            .unwrap()
            .starts_with("/proc/loadavg: "));
        assert!(
            HostDetail::read(&Root(Path::new("/nonexistent").into()), None)
                .network
                .known()
                .is_none()
        );
    }

    #[test]
    fn parsers() {
        assert_eq!(cpu_list("0-3,8,10-11\n"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(cpu_list(""), Some(vec![]));
        assert_eq!(cpu_list("3-1"), None);
        assert_eq!(cpu_list("0-99999999999"), None);
        assert_eq!(cpu_list("x"), None);
        assert_eq!(topology(&[(0, 0), (0, 0), (0, 1), (1, 0)]), (2, 3, 2));
        assert_eq!(topology(&[]), (0, 0, 0));
        assert_eq!(meminfo_kib("MemTotal:  10 kB\n", "MemTotal"), Some(10));
        assert_eq!(meminfo_kib("Node 3 MemTotal: 7 kB", "MemTotal"), Some(7));
        assert_eq!(meminfo_kib("MemTotalX: 7 kB", "MemTotal"), None);
        assert_eq!(
            pretty_name("ID=x\nPRETTY_NAME='Arch \\\"Linux\\\"'\n").as_deref(),
            Some("Arch \"Linux\"")
        );
        assert_eq!(pretty_name("PRETTY_NAME=Plain\n").as_deref(), Some("Plain"));
        assert_eq!(pretty_name("PRETTY_NAME=\"\"\n"), None);
        assert_eq!(loadavg("1.0 2 3.5 1/2 3"), Some([1.0, 2.0, 3.5]));
        assert_eq!(loadavg("1.0 2"), None);
        assert_eq!(net::speed("-1"), None);
        assert_eq!(net::speed("100000\n"), Some(100_000));
        assert_eq!(net::arphrd_kind(32), "infiniband");
        assert_eq!(net::arphrd_kind(9), "arphrd 9");
    }

    /// Host names with one identity are one machine; a host without one is its own.
    #[test]
    fn machines_of_hosts() {
        let with = |host: &str, id: Option<&str>, ranks: Vec<usize>| {
            let t = Tree::new(&format!("m-{host}"));
            let mut d = HostDetail::read(&t.root(), None);
            d.machine = match id {
                Some(id) => Fact::Known(Machine {
                    id: id.into(),
                    from: "boot_id".into(),
                }),
                None => Fact::absent("no"),
            };
            HostFacts {
                host: host.into(),
                cpu_model: None,
                ranks,
                detail: Some(Box::new(d)),
            }
        };
        let m = machines(&[
            with("node1", Some("ab"), vec![0, 2]),
            with("node2", Some("ab"), vec![1]),
            with("x", None, vec![3]),
            with("y", None, vec![4]),
            with("z", Some("cd"), vec![5]),
        ]);
        let got: Vec<(Option<&str>, Vec<&str>, Vec<usize>)> = m
            .iter()
            .map(|m| {
                (
                    m.machine.as_deref(),
                    m.hosts.iter().map(String::as_str).collect(),
                    m.ranks.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (Some("ab"), vec!["node1", "node2"], vec![0, 1, 2]),
                (None, vec!["x"], vec![3]),
                (None, vec!["y"], vec![4]),
                (Some("cd"), vec!["z"], vec![5]),
            ]
        );
    }
}
