//! What started the run, as world rank 0 can see it: the launchers its environment names
//! (Slurm, Open MPI's mpirun, PMIx, a PMI launcher such as MPICH's Hydra), their variables,
//! and the parent process's command line, which under mpirun and Hydra on rank 0's node is the
//! launching command itself. Under Slurm, the job and step it runs in, as Slurm's variables say.

use super::host::{reason, Fact};
use super::OsText;
use serde::Serialize;
use std::collections::BTreeMap;
use std::ffi::OsString;

/// Variables that say how the job was launched (values of `environment` cover the rest).
const PREFIXES: &[&str] = &["PMIX_", "PMI_", "HYDRA_", "MPI_LOCAL"];
const NAMES: &[&str] = &[
    "SLURM_JOB_ID",
    "SLURM_STEP_ID",
    "SLURM_JOB_NUM_NODES",
    "SLURM_NTASKS",
    "SLURM_CPUS_PER_TASK",
    "SLURM_CPU_BIND",
    "SLURM_DISTRIBUTION",
    "SLURM_JOB_NODELIST",
    "SLURM_JOB_CPUS_PER_NODE",
    "SLURM_TASKS_PER_NODE",
    "SLURM_STEP_NODELIST",
    "SLURM_STEP_NUM_NODES",
    "SLURM_STEP_NUM_TASKS",
    "SLURM_STEP_TASKS_PER_NODE",
    "SLURM_CPU_BIND_TYPE",
    "SLURM_CPU_BIND_LIST",
    "SLURM_MPI_TYPE",
    "OMPI_COMM_WORLD_SIZE",
    "OMPI_COMM_WORLD_LOCAL_SIZE",
    "OMPI_UNIVERSE_SIZE",
];
/// The parent's command line is cut after this many bytes.
const MAX_CMDLINE: usize = 8192;

/// The launch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Launcher {
    /// What the environment names, in this order: `slurm`, `open mpi`, `pmix`, `pmi`; empty
    /// for a process started on its own (an MPI singleton).
    pub kinds: Vec<String>,
    /// The launch variables, by name.
    pub variables: BTreeMap<String, OsText>,
    /// The Slurm job and step, when `SLURM_JOB_ID` is set.
    pub slurm: Option<Slurm>,
    pub parent: Fact<Parent>,
}

/// The Slurm job and the step that world rank 0 runs in, as Slurm's variables give them (a
/// value Slurm did not set is `None`). Under `srun` the step is the ranks' own; under `mpirun`
/// inside an allocation it is mpirun's daemons' step (one task a node), so the job's figures
/// and the ranks' own placement and masks (`ranks`, `hosts`) are what tell the run apart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slurm {
    pub job_id: OsText,
    /// `SLURM_JOB_NODELIST`, in Slurm's compressed form (`node[1-2]`).
    pub job_nodes: Option<OsText>,
    pub job_num_nodes: Option<OsText>,
    /// `SLURM_JOB_CPUS_PER_NODE` (`2(x2)`).
    pub job_cpus_per_node: Option<OsText>,
    pub step_id: Option<OsText>,
    pub step_nodes: Option<OsText>,
    pub step_tasks: Option<OsText>,
    /// `SLURM_STEP_TASKS_PER_NODE` (`2(x2)`).
    pub step_tasks_per_node: Option<OsText>,
    /// `SLURM_MPI_TYPE`: srun's `--mpi` plugin (`pmix`, `pmi2`).
    pub mpi: Option<OsText>,
    /// `SLURM_CPU_BIND` (`quiet,mask_cpu:0x1,0x2`): how Slurm bound the tasks on rank 0's node,
    /// in task order; each rank's mask as it found it is `ranks[].cpus`.
    pub cpu_bind: Option<OsText>,
}

impl Slurm {
    /// The job in `variables` (the launch variables of `from_env`); `None` without a job id.
    pub fn of(variables: &BTreeMap<String, OsText>) -> Option<Slurm> {
        let get = |k: &str| variables.get(k).cloned();
        Some(Slurm {
            job_id: get("SLURM_JOB_ID")?,
            job_nodes: get("SLURM_JOB_NODELIST"),
            job_num_nodes: get("SLURM_JOB_NUM_NODES"),
            job_cpus_per_node: get("SLURM_JOB_CPUS_PER_NODE"),
            step_id: get("SLURM_STEP_ID"),
            step_nodes: get("SLURM_STEP_NODELIST"),
            step_tasks: get("SLURM_STEP_NUM_TASKS"),
            step_tasks_per_node: get("SLURM_STEP_TASKS_PER_NODE"),
            mpi: get("SLURM_MPI_TYPE"),
            cpu_bind: get("SLURM_CPU_BIND"),
        })
    }
}

/// The parent process.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parent {
    pub pid: i32,
    /// Its arguments (/proc/PID/cmdline), the program first.
    pub cmdline: Vec<OsText>,
    /// Whether the command line was longer than what is kept.
    pub cut: bool,
}

/// The launch variables of `vars`, and the launchers they name.
pub fn from_env(
    vars: impl Iterator<Item = (OsString, OsString)>,
) -> (Vec<String>, BTreeMap<String, OsText>) {
    let variables: BTreeMap<String, OsText> = vars
        .filter_map(|(k, v)| {
            let k = k.into_string().ok()?;
            (NAMES.contains(&k.as_str()) || PREFIXES.iter().any(|p| k.starts_with(p)))
                .then(|| (k, OsText::of(&v)))
        })
        .collect();
    let has = |p: &str| variables.keys().any(|k| k.starts_with(p));
    let kinds = [
        ("slurm", has("SLURM_JOB_ID")),
        ("open mpi", has("OMPI_COMM_WORLD_SIZE")),
        ("pmix", has("PMIX_RANK")),
        ("pmi", has("PMI_RANK") || has("PMI_FD") || has("PMI_PORT")),
    ]
    .into_iter()
    .filter(|(_, y)| *y)
    .map(|(k, _)| k.to_string())
    .collect();
    (kinds, variables)
}

/// /proc/PID/cmdline text as arguments, at most `MAX_CMDLINE` bytes of it.
pub fn cmdline(bytes: &[u8]) -> (Vec<OsText>, bool) {
    let cut = bytes.len() > MAX_CMDLINE;
    let b = &bytes[..bytes.len().min(MAX_CMDLINE)];
    let b = b.strip_suffix(&[0]).unwrap_or(b);
    let args = if b.is_empty() {
        Vec::new()
    } else {
        b.split(|&c| c == 0).map(|a| OsText(a.to_vec())).collect()
    };
    (args, cut)
}

fn parent() -> Result<Parent, String> {
    let pid = nix::unistd::getppid().as_raw();
    let path = format!("/proc/{pid}/cmdline");
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {}", reason(&e)))?;
    if bytes.is_empty() {
        // A kernel thread, or a process that has exited and left a zombie.
        return Err(format!("{path}: empty"));
    }
    let (cmdline, cut) = cmdline(&bytes);
    Ok(Parent { pid, cmdline, cut })
}

impl Launcher {
    pub fn here() -> Launcher {
        let (kinds, variables) = from_env(std::env::vars_os());
        Launcher {
            kinds,
            slurm: Slurm::of(&variables),
            variables,
            parent: parent().into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStringExt;

    #[test]
    fn launchers_from_the_environment() {
        let vars = [
            ("SLURM_JOB_ID", b"42".to_vec()),
            ("SLURM_JOB_NAME", b"x".to_vec()),
            ("PMIX_RANK", b"0".to_vec()),
            ("PMI_FD", b"\xff".to_vec()),
            ("OMPI_COMM_WORLD_SIZE", b"2".to_vec()),
            ("HOME", b"/root".to_vec()),
        ]
        .into_iter()
        .map(|(k, v)| (OsString::from(k), OsString::from_vec(v)));
        let (kinds, vars) = from_env(vars);
        assert_eq!(kinds, ["slurm", "open mpi", "pmix", "pmi"]);
        let names: Vec<&str> = vars.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "OMPI_COMM_WORLD_SIZE",
                "PMIX_RANK",
                "PMI_FD",
                "SLURM_JOB_ID"
            ]
        );
        assert_eq!(vars["PMI_FD"], OsText(b"\xff".to_vec()));
        let (none, nothing) = from_env(std::iter::empty());
        assert!(none.is_empty());
        assert_eq!(Slurm::of(&nothing), None);
    }

    #[test]
    fn the_slurm_job_and_step() {
        // What srun -N 2 -n 4 --mpi=pmix set for rank 0 on the project's test cluster.
        let vars = [
            ("SLURM_JOB_ID", "2"),
            ("SLURM_JOB_NODELIST", "node[1-2]"),
            ("SLURM_JOB_NUM_NODES", "2"),
            ("SLURM_JOB_CPUS_PER_NODE", "2(x2)"),
            ("SLURM_STEP_ID", "0"),
            ("SLURM_STEP_NODELIST", "node[1-2]"),
            ("SLURM_STEP_NUM_TASKS", "4"),
            ("SLURM_STEP_TASKS_PER_NODE", "2(x2)"),
            ("SLURM_MPI_TYPE", "pmix"),
            ("SLURM_CPU_BIND", "quiet,mask_cpu:0x1,0x2"),
            ("SLURM_CPU_BIND_LIST", "0x1,0x2"),
            ("SLURM_JOB_NAME", "sh"),
        ]
        .into_iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let (kinds, vars) = from_env(vars);
        assert_eq!(kinds, ["slurm"]);
        assert!(vars.contains_key("SLURM_CPU_BIND_LIST"));
        assert!(
            !vars.contains_key("SLURM_JOB_NAME"),
            "the environment keeps the rest"
        );
        let s = Slurm::of(&vars).unwrap();
        let text = |o: &Option<OsText>| o.as_ref().map(|t| String::from_utf8(t.0.clone()).unwrap());
        assert_eq!(s.job_id, OsText(b"2".to_vec()));
        assert_eq!(text(&s.job_nodes).as_deref(), Some("node[1-2]"));
        assert_eq!(text(&s.step_tasks_per_node).as_deref(), Some("2(x2)"));
        assert_eq!(text(&s.mpi).as_deref(), Some("pmix"));
        assert_eq!(text(&s.cpu_bind).as_deref(), Some("quiet,mask_cpu:0x1,0x2"));
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["job_cpus_per_node"], "2(x2)");
        assert_eq!(json["step_id"], "0");
    }

    #[test]
    fn command_lines() {
        let (a, cut) = cmdline(b"mpirun\0-np\x002\0./imb-mpi1\0");
        assert_eq!(
            a,
            [
                OsText(b"mpirun".to_vec()),
                OsText(b"-np".to_vec()),
                OsText(b"2".to_vec()),
                OsText(b"./imb-mpi1".to_vec())
            ]
        );
        assert!(!cut);
        assert_eq!(cmdline(b"").0, Vec::<OsText>::new());
        let long = vec![b'a'; MAX_CMDLINE + 5];
        let (a, cut) = cmdline(&long);
        assert!(cut);
        assert_eq!(a[0].0.len(), MAX_CMDLINE);
        assert!(Launcher::here().parent.known().is_some());
    }
}
