//! What one host is (doc/OUTPUT.md, "Provenance"), read by one rank per host before the first
//! benchmark: the machine's identity, OS release, kernel, CPU model and topology, NUMA nodes
//! and memory, the frequency governor, network and InfiniBand devices, the load average, the
//! fabric libraries the process has loaded, and (in MPI runs) MPI_Wtime's cost and
//! resolution. Every fact is read from procfs and sysfs under a root directory (`/`, or a
//! constructed tree in the tests); whatever cannot be read is recorded as absent with the
//! reason, never an error that stops the run.

use super::clock::ClockFacts;
use super::libs::FabricLibrary;
use super::net::{self, IbDevice, NetDevice};
pub use super::sysfs::{first_line, is_virtual, reason, Fact, Root};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// What tells two host names on one machine apart from two machines: the running kernel's
/// boot id, which every container and namespace of one machine shares and a reboot or another
/// machine changes. (`/etc/machine-id` is the fallback only: each container image has its
/// own, which would split one machine into several.) Published as a hash, since machine-id(5)
/// asks that the id itself be kept confidential.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// The first 16 hex digits of the SHA-256 of the source's text.
    pub id: String,
    /// `"boot_id"` or `"machine-id"`.
    pub from: String,
}

pub fn machine(root: &Root) -> Result<Machine, String> {
    let hash = |what: &str, text: &str| {
        let d = Sha256::digest(format!("imb-rs machine {what}\n{}", text.trim()).as_bytes());
        d.iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let boot = root.line("/proc/sys/kernel/random/boot_id");
    match &boot {
        Ok(b) if !b.is_empty() => {
            return Ok(Machine {
                id: hash("boot_id", b),
                from: "boot_id".to_string(),
            })
        }
        _ => {}
    }
    match root.line("/etc/machine-id") {
        Ok(m) if !m.is_empty() => Ok(Machine {
            id: hash("machine-id", &m),
            from: "machine-id".to_string(),
        }),
        other => Err(format!(
            "{}; {}",
            boot.err().unwrap_or_else(|| "boot_id empty".into()),
            other
                .err()
                .unwrap_or_else(|| "/etc/machine-id empty".into())
        )),
    }
}

/// `PRETTY_NAME` of an os-release file (quotes and shell escapes removed).
pub fn pretty_name(os_release: &str) -> Option<String> {
    os_release.lines().find_map(|l| {
        let v = l.trim().strip_prefix("PRETTY_NAME=")?;
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(v);
        let v = v.replace("\\\"", "\"").replace("\\\\", "\\");
        (!v.is_empty()).then_some(v)
    })
}

fn os_release(root: &Root) -> Result<String, String> {
    // os-release(5): /etc first, /usr/lib as the fallback.
    let text = root.read("/etc/os-release").or_else(|e| {
        root.read("/usr/lib/os-release")
            .map_err(|f| format!("{e}; {f}"))
    })?;
    pretty_name(&text).ok_or_else(|| "os-release has no PRETTY_NAME".to_string())
}

/// The kernel as uname(2) gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kernel {
    pub sysname: String,
    pub release: String,
    pub version: String,
    pub machine: String,
}

fn kernel() -> Result<Kernel, String> {
    let u = nix::sys::utsname::uname().map_err(|e| format!("uname: {e}"))?;
    let s = |x: &std::ffi::OsStr| x.to_string_lossy().into_owned();
    Ok(Kernel {
        sysname: s(u.sysname()),
        release: s(u.release()),
        version: s(u.version()),
        machine: s(u.machine()),
    })
}

/// A Linux CPU list (`0-3,8,10-11`) as CPU numbers, ascending; None when it is not one.
pub fn cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut v = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                // A list of more than 2^20 CPUs is not a real machine's.
                if b < a || b - a > 1 << 20 {
                    return None;
                }
                v.extend(a..=b);
            }
            None => v.push(part.trim().parse().ok()?),
        }
    }
    v.sort_unstable();
    v.dedup();
    Some(v)
}

/// The CPUs: model, how many are online, and how they sit on sockets and cores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cpus {
    pub model: Option<String>,
    /// Online logical CPUs.
    pub logical: usize,
    pub sockets: usize,
    /// Physical cores over all sockets.
    pub cores: usize,
    /// The most logical CPUs sharing one core (1: no SMT).
    pub threads_per_core: usize,
}

/// Sockets, cores and SMT from each online CPU's (package, core) pair.
pub fn topology(pairs: &[(i64, i64)]) -> (usize, usize, usize) {
    let mut per_core: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for &p in pairs {
        *per_core.entry(p).or_default() += 1;
    }
    let sockets = per_core
        .keys()
        .map(|k| k.0)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let smt = per_core.values().copied().max().unwrap_or(0);
    (sockets, per_core.len(), smt)
}

fn cpus(root: &Root) -> Result<Cpus, String> {
    let online = root.line("/sys/devices/system/cpu/online")?;
    let list = cpu_list(&online)
        .ok_or_else(|| format!("/sys/devices/system/cpu/online: {online:?} is not a CPU list"))?;
    let mut pairs = Vec::with_capacity(list.len());
    for c in &list {
        let num = |f: &str| -> Result<i64, String> {
            let rel = format!("/sys/devices/system/cpu/cpu{c}/topology/{f}");
            let t = root.line(&rel)?;
            t.parse()
                .map_err(|_| format!("{rel}: {t:?} is not a number"))
        };
        pairs.push((num("physical_package_id")?, num("core_id")?));
    }
    let (sockets, cores, threads_per_core) = topology(&pairs);
    Ok(Cpus {
        model: root
            .read("/proc/cpuinfo")
            .ok()
            .and_then(|t| super::cpu_model(&t)),
        logical: list.len(),
        sockets,
        cores,
        threads_per_core,
    })
}

/// A `KEY: N kB` line's N from /proc/meminfo or a node's meminfo (`Node 0 MemTotal: N kB`).
pub fn meminfo_kib(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.split_whitespace().last()? == key).then_some(())?;
        v.split_whitespace().next()?.parse().ok()
    })
}

/// One NUMA node: its CPUs and memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NumaNode {
    pub node: usize,
    pub cpus: Vec<usize>,
    pub mem_total_kib: Option<u64>,
}

fn numa(root: &Root) -> Result<Vec<NumaNode>, String> {
    let online = root.line("/sys/devices/system/node/online")?;
    let nodes = cpu_list(&online)
        .ok_or_else(|| format!("/sys/devices/system/node/online: {online:?} is not a node list"))?;
    Ok(nodes
        .into_iter()
        .map(|n| {
            let dir = format!("/sys/devices/system/node/node{n}");
            NumaNode {
                node: n,
                cpus: root
                    .line(&format!("{dir}/cpulist"))
                    .ok()
                    .and_then(|t| cpu_list(&t))
                    .unwrap_or_default(),
                mem_total_kib: root
                    .read(&format!("{dir}/meminfo"))
                    .ok()
                    .and_then(|t| meminfo_kib(&t, "MemTotal")),
            }
        })
        .collect())
}

fn mem_total(root: &Root) -> Result<u64, String> {
    meminfo_kib(&root.read("/proc/meminfo")?, "MemTotal")
        .ok_or_else(|| "/proc/meminfo has no MemTotal".to_string())
}

/// Each CPU frequency governor in use, with the online CPUs under it.
fn governor(root: &Root) -> Result<BTreeMap<String, Vec<usize>>, String> {
    let online = root
        .line("/sys/devices/system/cpu/online")
        .ok()
        .and_then(|t| cpu_list(&t))
        .unwrap_or_default();
    let mut m: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for c in online {
        if let Ok(g) = root.line(&format!(
            "/sys/devices/system/cpu/cpu{c}/cpufreq/scaling_governor"
        )) {
            m.entry(g).or_default().push(c);
        }
    }
    if m.is_empty() {
        return Err(
            "not available: no cpufreq governor in sysfs (usual in a virtual machine \
                    or container)"
                .to_string(),
        );
    }
    Ok(m)
}

/// The 1, 5 and 15 minute load averages of /proc/loadavg.
pub fn loadavg(text: &str) -> Option<[f64; 3]> {
    let mut w = text.split_whitespace().map(|x| x.parse::<f64>().ok());
    Some([w.next()??, w.next()??, w.next()??])
}

pub fn load(root: &Root) -> Fact<[f64; 3]> {
    root.read("/proc/loadavg")
        .and_then(|t| loadavg(&t).ok_or_else(|| format!("/proc/loadavg: {:?}", t.trim())))
        .into()
}

/// Everything one rank per host reads about its host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostDetail {
    pub machine: Fact<Machine>,
    pub os_release: Fact<String>,
    pub kernel: Fact<Kernel>,
    pub cpu: Fact<Cpus>,
    pub numa: Fact<Vec<NumaNode>>,
    pub mem_total_kib: Fact<u64>,
    pub governor: Fact<BTreeMap<String, Vec<usize>>>,
    pub network: Fact<Vec<NetDevice>>,
    pub infiniband: Fact<Vec<IbDevice>>,
    /// At the start, before the first benchmark.
    pub load_average: Fact<[f64; 3]>,
    /// UCX and libfabric when this process has them loaded, by name.
    pub fabric_libraries: BTreeMap<String, FabricLibrary>,
    /// MPI_Wtime's cost and resolution (None without MPI).
    pub wtime: Option<ClockFacts>,
    /// What reading all this took on the host, in microseconds.
    pub collection_us: f64,
}

impl HostDetail {
    /// Read this host's facts under `root`; `clock` measures the run's clock, if any.
    pub fn read(root: &Root, clock: Option<&dyn Fn() -> ClockFacts>) -> HostDetail {
        let t0 = std::time::Instant::now();
        let mut d = HostDetail {
            machine: machine(root).into(),
            os_release: os_release(root).into(),
            kernel: kernel().into(),
            cpu: cpus(root).into(),
            numa: numa(root).into(),
            mem_total_kib: mem_total(root).into(),
            governor: governor(root).into(),
            network: net::devices(root).into(),
            infiniband: net::infiniband(root).into(),
            load_average: load(root),
            fabric_libraries: super::libs::loaded(root),
            wtime: clock.map(|c| c()),
            collection_us: 0.0,
        };
        d.collection_us = t0.elapsed().as_secs_f64() * 1e6;
        d
    }
}
