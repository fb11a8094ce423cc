//! Where a result came from, for the `-json` document (doc/OUTPUT.md, "Provenance"): the
//! imb-rs version, how and from what it was built, the command line, every parameter with its
//! origin, the MPI library and the control variables the run set, each rank's host, CPUs and
//! clock, each host's facts and the machine behind it, the launcher, the MPI-related
//! environment, the load, the start and end times and how the run ended. Everything here is
//! read once, before the first benchmark, and what it took is recorded (`collection_us`).
//! `gather` collects the facts of an MPI run (per rank, and per host by one rank of each);
//! `host` and `net` read a host, `clock` measures the run's clock, `libs` finds the fabric
//! libraries, `buildinfo` the build and binary, `launcher` the launch, `mpit` the MPI
//! library's control variables, `params` lists the MPI executables' parameters; the suites
//! without MPI build theirs with `Provenance::new` directly.

use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;

mod buildinfo;
pub mod clock;
pub mod host;
pub mod launcher;
pub mod libs;
#[cfg(feature = "mpi")]
pub mod mpit;
pub mod net;
mod params;
mod sysfs;
#[cfg(test)]
mod tests;

pub use buildinfo::{sha256, Binary, BuildFacts};
pub use host::{Fact, HostDetail};
pub use launcher::Launcher;
pub use params::mpi_parameters;

pub use crate::settings::Origin;

/// Environment variables whose names start with one of these are recorded: the MPI
/// libraries' and launchers' tuning (Open MPI, MPICH, Intel MPI, UCX, libfabric, Slurm) and
/// the OpenMP runtimes' (GNU, LLVM/Intel).
pub const ENV_PREFIXES: &[&str] = &[
    "OMPI_", "MPICH_", "I_MPI_", "UCX_", "FI_", "SLURM_", "OMP_", "GOMP_", "KMP_",
];

/// The git commit imb-rs was built from (build.rs), when built from a checkout.
pub const GIT_COMMIT: Option<&str> = option_env!("IMB_RS_GIT_COMMIT");

/// Text from the operating system (an argument, an environment value), kept losslessly: a
/// JSON string when it is UTF-8, else `{"lossy": …, "hex": …}` with its bytes in hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OsText(pub Vec<u8>);

impl OsText {
    pub fn of(s: &OsStr) -> Self {
        OsText(s.as_bytes().to_vec())
    }
}

impl Serialize for OsText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(&self.0) {
            Ok(t) => s.serialize_str(t),
            Err(_) => {
                use serde::ser::SerializeMap;
                let hex: String = self.0.iter().map(|b| format!("{b:02x}")).collect();
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("lossy", &String::from_utf8_lossy(&self.0))?;
                m.serialize_entry("hex", &hex)?;
                m.end()
            }
        }
    }
}

/// One parameter of the run: a settings parameter (`MAXMSGLOG`) or an option (`-npmin`), its
/// value, its standard value (null for options that have none to compare with) and where the
/// value came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Param {
    pub name: String,
    pub value: serde_json::Value,
    pub standard: serde_json::Value,
    pub origin: Origin,
}

impl Param {
    pub fn new(
        name: &str,
        value: impl Serialize,
        standard: impl Serialize,
        origin: Origin,
    ) -> Self {
        Param {
            name: name.to_string(),
            value: to_json(value),
            standard: to_json(standard),
            origin,
        }
    }
}

/// Plain data as JSON (null for what has no JSON form, such as a NaN).
fn to_json(x: impl Serialize) -> serde_json::Value {
    serde_json::to_value(x).unwrap_or(serde_json::Value::Null)
}

/// The MPI library as rank 0 sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MpiFacts {
    /// `MPI_Get_library_version`.
    pub library_version: String,
    /// `MPI_Get_version`: [version, subversion].
    pub standard_version: (i32, i32),
    /// The thread level MPI granted, and the one asked for (`-thread_level`).
    pub thread_level: String,
    pub thread_level_requested: String,
    /// The control variables the run set (`mpit`), as rank 0's library holds them.
    #[cfg(feature = "mpi")]
    pub control_variables: Fact<mpit::ControlVariables>,
}

/// What one process knows about itself (sent from every rank to rank 0 in an MPI run).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Local {
    pub host: String,
    /// Its CPU affinity mask as a list, ascending (empty when it cannot be read).
    pub cpus: Vec<usize>,
    pub cpu_model: Option<String>,
    /// Seconds per clock tick: `MPI_Wtick` (imb-threads: its clock's measured resolution,
    /// imb-omp: `omp_get_wtick`).
    pub wtick: Option<f64>,
    /// `MPI_WTIME_IS_GLOBAL` (None without MPI or when the library does not set it).
    pub wtime_is_global: Option<bool>,
    /// The lowest world rank of its shared-memory node as MPI sees it (`MPI_COMM_TYPE_SHARED`):
    /// ranks with one value can share memory; None without MPI.
    #[serde(default)]
    pub mpi_node: Option<usize>,
    /// Its host's facts, from the one process that reads them for the host.
    #[serde(default)]
    pub detail: Option<Box<HostDetail>>,
}

impl Local {
    /// This process's host, CPUs and CPU model, with the clock facts given.
    pub fn here(wtick: Option<f64>, wtime_is_global: Option<bool>) -> Local {
        let host = nix::sys::utsname::uname()
            .map(|u| u.nodename().to_string_lossy().into_owned())
            .unwrap_or_default();
        Local {
            host,
            cpus: imb_harness::binding::allowed_cpus().unwrap_or_default(),
            cpu_model: std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|t| cpu_model(&t)),
            wtick,
            wtime_is_global,
            mpi_node: None,
            detail: None,
        }
    }

    /// With its host's facts read, the clock measured by `clock` if any.
    pub fn with_host_detail(mut self, clock: Option<&dyn Fn() -> clock::ClockFacts>) -> Local {
        self.detail = Some(Box::new(HostDetail::read(&host::Root::system(), clock)));
        self
    }
}

/// The CPU model from /proc/cpuinfo: `model name` (x86, most others), else `Processor` or
/// `cpu` (older ARM, POWER).
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    let field = |key: &str| {
        cpuinfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
        })
    };
    ["model name", "Processor", "cpu"]
        .into_iter()
        .find_map(field)
}

/// One rank: its host and its CPUs and clock.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankFacts {
    pub rank: usize,
    pub host: String,
    pub cpus: Vec<usize>,
    pub wtick: Option<f64>,
    pub wtime_is_global: Option<bool>,
    /// The lowest world rank of its shared-memory node as MPI sees it (schema 4; None without
    /// MPI): two host names on one machine may be one node to MPI (shared memory between
    /// them) or two (a network between them).
    pub mpi_node: Option<usize>,
}

/// One host: its CPU model and the ranks it runs, and its facts as one of its ranks read them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostFacts {
    pub host: String,
    pub cpu_model: Option<String>,
    pub ranks: Vec<usize>,
    #[serde(flatten)]
    pub detail: Option<Box<HostDetail>>,
}

/// One machine (by its identity, `host::Machine`) and the host names on it: two names on one
/// machine are network or UTS namespaces, containers or aliases of one kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MachineFacts {
    /// The identity; None for a host whose identity could not be read (a machine of its own).
    pub machine: Option<String>,
    pub hosts: Vec<String>,
    pub ranks: Vec<usize>,
}

/// The machines of `hosts`, in order of their lowest rank.
pub fn machines(hosts: &[HostFacts]) -> Vec<MachineFacts> {
    let mut out: Vec<MachineFacts> = Vec::new();
    for h in hosts {
        let id = h
            .detail
            .as_ref()
            .and_then(|d| d.machine.known())
            .map(|m| m.id.clone());
        match out.iter_mut().find(|m| id.is_some() && m.machine == id) {
            Some(m) => {
                m.hosts.push(h.host.clone());
                m.ranks.extend(&h.ranks);
                m.ranks.sort_unstable();
            }
            None => out.push(MachineFacts {
                machine: id,
                hosts: vec![h.host.clone()],
                ranks: h.ranks.clone(),
            }),
        }
    }
    out
}

/// The ranks in rank order and the hosts in order of their lowest rank (the CPU model is the
/// lowest rank's, the host's facts the first that came with one of its ranks).
pub fn assemble(locals: Vec<Local>) -> (Vec<RankFacts>, Vec<HostFacts>) {
    let mut hosts: Vec<HostFacts> = Vec::new();
    let mut ranks = Vec::new();
    for (rank, l) in locals.into_iter().enumerate() {
        match hosts.iter_mut().find(|h| h.host == l.host) {
            Some(h) => {
                h.ranks.push(rank);
                if h.detail.is_none() {
                    h.detail = l.detail;
                }
            }
            None => hosts.push(HostFacts {
                host: l.host.clone(),
                cpu_model: l.cpu_model,
                ranks: vec![rank],
                detail: l.detail,
            }),
        }
        ranks.push(RankFacts {
            rank,
            host: l.host,
            cpus: l.cpus,
            wtick: l.wtick,
            wtime_is_global: l.wtime_is_global,
            mpi_node: l.mpi_node,
        });
    }
    (ranks, hosts)
}

/// How the run ended, as far as the file knows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Status {
    /// Not ended yet; in a file left behind, the process died without a word (killed, crashed).
    Running,
    Complete,
    /// Stopped early without an error (its standard output was closed by the reader).
    Interrupted {
        reason: String,
    },
    /// An error ended it.
    Failed {
        error: String,
    },
}

/// Everything the `provenance` object of the `-json` document holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provenance {
    pub imb_rs_version: &'static str,
    pub git_commit: Option<&'static str>,
    /// The whole command line, the program first.
    pub argv: Vec<OsText>,
    pub parameters: Vec<Param>,
    pub settings_file: Option<String>,
    /// None in the suites without MPI.
    pub mpi: Option<MpiFacts>,
    pub ranks: Vec<RankFacts>,
    pub hosts: Vec<HostFacts>,
    /// The machines behind the hosts (schema 4).
    pub machines: Vec<MachineFacts>,
    /// The build and the binary (schema 4).
    pub build: BuildFacts,
    /// What started the run, as world rank 0 sees it (schema 4).
    pub launcher: Launcher,
    /// World rank 0's host's load average when the run ended (schema 4); null while it runs.
    pub load_average_end: Option<Fact<[f64; 3]>>,
    /// What collecting all this took on world rank 0, in microseconds (schema 4): in an MPI
    /// run the whole collective collection, of every rank and host.
    pub collection_us: f64,
    /// World rank 0's environment, the variables with `ENV_PREFIXES`, by name.
    pub environment: BTreeMap<String, OsText>,
    /// ISO 8601 UTC.
    pub start: String,
    pub end: Option<String>,
    pub status: Status,
}

/// When the run started: the first call's time (the executables call it first thing).
pub fn started() -> chrono::DateTime<chrono::Utc> {
    static START: OnceLock<chrono::DateTime<chrono::Utc>> = OnceLock::new();
    *START.get_or_init(chrono::Utc::now)
}

/// ISO 8601 in UTC with milliseconds: `2026-11-21T10:49:21.123Z`.
pub fn iso(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The variables of `vars` whose names start with one of `ENV_PREFIXES`, by name. Names that
/// are not UTF-8 cannot start with a prefix we look for, so they are left out.
pub fn environment(
    vars: impl Iterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
) -> BTreeMap<String, OsText> {
    vars.filter_map(|(k, v)| {
        let k = k.into_string().ok()?;
        ENV_PREFIXES
            .iter()
            .any(|p| k.starts_with(p))
            .then(|| (k, OsText::of(&v)))
    })
    .collect()
}

impl Provenance {
    /// The provenance of this process's run, with `status` Running and no end yet.
    pub fn new(
        parameters: Vec<Param>,
        settings_file: Option<String>,
        mpi: Option<MpiFacts>,
        locals: Vec<Local>,
    ) -> Self {
        let t0 = std::time::Instant::now();
        let (ranks, hosts) = assemble(locals);
        let build = BuildFacts::here();
        let launcher = Launcher::here();
        let before: f64 = hosts
            .iter()
            .filter_map(|h| h.detail.as_ref())
            .map(|d| d.collection_us)
            .sum();
        Provenance {
            imb_rs_version: env!("CARGO_PKG_VERSION"),
            git_commit: GIT_COMMIT,
            argv: std::env::args_os().map(|a| OsText::of(&a)).collect(),
            parameters,
            settings_file,
            mpi,
            ranks,
            machines: machines(&hosts),
            hosts,
            build,
            launcher,
            load_average_end: None,
            environment: environment(std::env::vars_os()),
            start: iso(started()),
            end: None,
            status: Status::Running,
            // In a process of its own: its host's facts, then the rest; `gather` replaces it
            // with the whole collective collection.
            collection_us: before + t0.elapsed().as_secs_f64() * 1e6,
        }
    }

    /// The run ended now, this way.
    pub fn end(&mut self, status: Status) {
        self.end = Some(iso(chrono::Utc::now()));
        self.load_average_end = Some(host::load(&host::Root::system()));
        self.status = status;
    }
}
