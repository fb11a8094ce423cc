//! What started the run, as world rank 0 can see it: the launchers its environment names
//! (Slurm, Open MPI's mpirun, PMIx, a PMI launcher such as MPICH's Hydra), their variables,
//! and the parent process's command line, which under mpirun and Hydra on rank 0's node is the
//! launching command itself.

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
    pub parent: Fact<Parent>,
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
        let (none, _) = from_env(std::iter::empty());
        assert!(none.is_empty());
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
