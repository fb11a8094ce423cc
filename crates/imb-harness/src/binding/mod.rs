//! Thread-to-CPU binding for the Pthreads suite, with proof that it took effect.
//!
//! The cost of many Pthreads operations depends on whether the threads involved share a CPU,
//! so each thread benchmark runs its threads all on one CPU, each on its own CPU, or left to
//! the scheduler (`-bind same|different|none`). The original study found that an OS may
//! silently ignore or later override a binding, which makes a "bound" number meaningless. So
//! binding here is never fire-and-forget: after binding, a thread reads its affinity mask back
//! and asks which CPU it is actually running on, and the row is flagged when either disagrees
//! with the request.
//!
//! Every choice is made inside the affinity mask the process inherited (from `taskset`, a
//! cgroup cpuset or a batch scheduler): binding outside it would fail, and "unbound" means
//! "anywhere the launcher allowed", not "anywhere on the machine".
//!
//! Nothing here touches MPI, so the module builds without the `mpi` feature.

use std::sync::OnceLock;

use nix::sched::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
use nix::unistd::Pid;

/// Where a thread should run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Anywhere in the process's inherited affinity mask.
    Unbound,
    /// Only on this CPU.
    Cpu(usize),
}

impl Placement {
    /// "unbound" or "cpu3", the form used in row labels and warnings.
    pub fn label(&self) -> String {
        match self {
            Placement::Unbound => "unbound".to_string(),
            Placement::Cpu(c) => format!("cpu{c}"),
        }
    }
}

/// A binding scenario for a group of threads (the -bind option): all on one CPU, each on its
/// own CPU, or left to the OS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bind {
    Same,
    Different,
    None,
}

/// Every scenario, in the order the error text lists them; a test checks it against `name`.
const BINDS: [Bind; 3] = [Bind::Same, Bind::Different, Bind::None];

impl Bind {
    /// "same", "different" or "none", ignoring case; anything else is an error naming the
    /// value and the valid ones.
    pub fn parse(s: &str) -> Result<Bind, String> {
        BINDS
            .iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .copied()
            .ok_or_else(|| {
                let valid: Vec<&str> = BINDS.iter().map(Bind::name).collect();
                format!("-bind {s:?}: unknown value (valid: {})", valid.join("|"))
            })
    }

    /// "same", "different" or "none".
    pub fn name(&self) -> &'static str {
        match self {
            Bind::Same => "same",
            Bind::Different => "different",
            Bind::None => "none",
        }
    }
}

/// The CPUs this process may run on, ascending.
///
/// The mask is read on the first call and cached: the first call should come from the main
/// thread before any binding, so a later call from a bound worker still sees the inherited
/// mask rather than the worker's single CPU.
pub fn allowed_cpus() -> Result<Vec<usize>, String> {
    static ALLOWED: OnceLock<Result<Vec<usize>, String>> = OnceLock::new();
    ALLOWED.get_or_init(read_own_mask).clone()
}

/// The calling thread's current affinity mask as a CPU list.
fn read_own_mask() -> Result<Vec<usize>, String> {
    // Pid 0 means the calling thread, not the whole process.
    let set = sched_getaffinity(Pid::from_raw(0))
        .map_err(|e| format!("cannot read the CPU affinity mask: {e}"))?;
    let cpus = cpus_of(&set);
    if cpus.is_empty() {
        return Err("the CPU affinity mask is empty".to_string());
    }
    Ok(cpus)
}

/// The members of a CpuSet, ascending.
fn cpus_of(set: &CpuSet) -> Vec<usize> {
    (0..CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect()
}

/// Placements for `n` threads under `bind`, chosen from `allowed` (taken in order, so the
/// choice is reproducible from run to run).
pub fn plan(bind: Bind, n: usize, allowed: &[usize]) -> Result<Vec<Placement>, String> {
    match bind {
        Bind::None => Ok(vec![Placement::Unbound; n]),
        Bind::Same => match allowed.first() {
            Some(&c) => Ok(vec![Placement::Cpu(c); n]),
            // Zero threads need no CPU; otherwise there is nothing to bind to.
            None if n == 0 => Ok(Vec::new()),
            None => Err("-bind same: this process may run on no CPU".to_string()),
        },
        Bind::Different => {
            if allowed.len() < n {
                return Err(format!(
                    "-bind different: {n} threads need {n} CPUs, but this process may run on \
                     only {} (allowed: {})",
                    allowed.len(),
                    cpu_list(allowed)
                ));
            }
            Ok(allowed[..n].iter().map(|&c| Placement::Cpu(c)).collect())
        }
    }
}

/// Check that a user-chosen CPU (the -cpu option) is in the allowed set, so the mistake is
/// reported up front instead of as an OS error from a worker thread.
pub fn check_allowed(cpu: usize, allowed: &[usize]) -> Result<(), String> {
    if allowed.contains(&cpu) {
        Ok(())
    } else {
        Err(format!(
            "-cpus {cpu}: not in this process's affinity mask (allowed: {})",
            cpu_list(allowed)
        ))
    }
}

/// Build a CpuSet, rejecting CPU numbers the kernel interface cannot express.
fn set_of(cpus: &[usize]) -> Result<CpuSet, String> {
    let mut set = CpuSet::new();
    for &c in cpus {
        set.set(c).map_err(|_| {
            format!(
                "CPU {c} is beyond the largest CPU number supported ({})",
                CpuSet::count() - 1
            )
        })?;
    }
    Ok(set)
}

/// The mask a thread should have for `p`.
fn wanted(p: Placement, allowed: &[usize]) -> Vec<usize> {
    match p {
        Placement::Cpu(c) => vec![c],
        Placement::Unbound => {
            let mut v = allowed.to_vec();
            v.sort_unstable();
            v.dedup();
            v
        }
    }
}

/// Bind the calling thread. `Unbound` sets the mask back to `allowed` rather than doing
/// nothing, so a thread reused from a bound scenario is really unbound again.
pub fn bind_current(p: Placement, allowed: &[usize]) -> Result<(), String> {
    let cpus = wanted(p, allowed);
    if cpus.is_empty() {
        return Err(format!("cannot bind to {}: no CPU is allowed", p.label()));
    }
    let set = set_of(&cpus)?;
    // Pid 0 is the calling thread only; other threads of the process keep their masks.
    sched_setaffinity(Pid::from_raw(0), &set)
        .map_err(|e| format!("cannot bind thread to {}: {e}", p.label()))
}

/// What the OS actually did for the calling thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Observed {
    /// The affinity mask read back is exactly what `p` asked for.
    pub mask_ok: bool,
    /// The CPU the thread was running on when observed, if the OS would say.
    pub cpu: Option<usize>,
}

/// Read back the calling thread's binding: call it right after `bind_current` and again while
/// the benchmark runs, since an OS may override the binding after a while.
///
/// `mask_ok` is exactly {cpu} for `Cpu(cpu)`, or exactly `allowed` for `Unbound`.
pub fn observe(p: Placement, allowed: &[usize]) -> Observed {
    let mask_ok = match sched_getaffinity(Pid::from_raw(0)) {
        Ok(set) => cpus_of(&set) == wanted(p, allowed),
        // A mask we cannot read is a binding we cannot vouch for.
        Err(_) => false,
    };
    Observed {
        mask_ok,
        cpu: current_cpu(),
    }
}

/// The CPU the calling thread is running on: `sched_getcpu`, or the kernel's own record in
/// /proc when the C library cannot answer (old kernels without the fast path).
fn current_cpu() -> Option<usize> {
    sched_getcpu().ok().or_else(|| {
        std::fs::read_to_string("/proc/thread-self/stat")
            .ok()
            .and_then(|s| stat_processor(&s))
    })
}

/// Field 39 ("processor") of a /proc/<pid>/stat line. The command name (field 2) is in
/// parentheses and may itself contain spaces or ')', so counting starts after the last ')',
/// where field 3 begins.
fn stat_processor(stat: &str) -> Option<usize> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(39 - 3)?.parse().ok()
}

/// Whether the OS honoured `p`: the mask was right and, for a bound thread, it was running on
/// the requested CPU. An unbound thread may run anywhere, so only its mask counts.
pub fn honoured(p: Placement, o: &Observed) -> bool {
    match p {
        Placement::Unbound => o.mask_ok,
        Placement::Cpu(c) => o.mask_ok && o.cpu == Some(c),
    }
}

/// Compress a CPU list for printing, as `taskset -c` writes it: [0,1,2,3,6] -> "0-3,6".
/// Input order and duplicates do not matter; an empty list prints as "none".
pub fn cpu_list(cpus: &[usize]) -> String {
    let mut v = cpus.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let start = v[i];
        let mut end = start;
        while i + 1 < v.len() && v[i + 1] == end + 1 {
            i += 1;
            end = v[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(",")
    }
}

#[cfg(test)]
mod tests;
