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
mod tests {
    use super::*;

    /// Run `f` on a fresh thread, so binding never touches the test harness's threads.
    fn on_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().expect("test thread panicked")
    }

    #[test]
    fn placement_labels() {
        assert_eq!(Placement::Unbound.label(), "unbound");
        assert_eq!(Placement::Cpu(3).label(), "cpu3");
    }

    #[test]
    fn bind_parse_and_name() {
        for b in BINDS {
            assert_eq!(Bind::parse(b.name()), Ok(b));
        }
        assert_eq!(BINDS.map(|b| b.name()), ["same", "different", "none"]);
        assert_eq!(Bind::parse("SAME"), Ok(Bind::Same));
        assert_eq!(Bind::parse("Different"), Ok(Bind::Different));
        let err = Bind::parse("both").unwrap_err();
        assert!(err.contains("both"), "{err}");
        assert!(err.contains("same|different|none"), "{err}");
    }

    #[test]
    fn plan_each_bind() {
        let allowed = [2, 5, 7];
        assert_eq!(
            plan(Bind::Same, 3, &allowed),
            Ok(vec![Placement::Cpu(2); 3])
        );
        assert_eq!(
            plan(Bind::Different, 2, &allowed),
            Ok(vec![Placement::Cpu(2), Placement::Cpu(5)])
        );
        assert_eq!(
            plan(Bind::None, 4, &allowed),
            Ok(vec![Placement::Unbound; 4])
        );
        assert_eq!(plan(Bind::Same, 0, &[]), Ok(vec![]));
        assert!(plan(Bind::Same, 1, &[]).is_err());
    }

    #[test]
    fn plan_different_needs_enough_cpus() {
        let err = plan(Bind::Different, 3, &[0, 1]).unwrap_err();
        assert!(err.contains("need 3 CPUs"), "{err}");
        assert!(err.contains("only 2"), "{err}");
        assert!(err.contains("allowed: 0-1"), "{err}");
    }

    #[test]
    fn cpu_list_compresses_ranges() {
        assert_eq!(cpu_list(&[0, 1, 2, 3, 6]), "0-3,6");
        assert_eq!(cpu_list(&[0, 1]), "0-1");
        assert_eq!(cpu_list(&[4]), "4");
        assert_eq!(cpu_list(&[1, 3, 5, 6, 7, 9]), "1,3,5-7,9");
        assert_eq!(cpu_list(&[3, 1, 2, 2]), "1-3");
        assert_eq!(cpu_list(&[]), "none");
    }

    #[test]
    fn check_allowed_names_cpu_and_mask() {
        assert_eq!(check_allowed(1, &[0, 1]), Ok(()));
        assert_eq!(
            check_allowed(7, &[0, 1]),
            Err("-cpus 7: not in this process's affinity mask (allowed: 0-1)".to_string())
        );
    }

    #[test]
    fn stat_processor_skips_awkward_command_names() {
        // 52 fields as in a real line; the command name holds a space and a ')'.
        let mut fields: Vec<String> = (3..=52).map(|i| i.to_string()).collect();
        fields[39 - 3] = "5".to_string();
        let line = format!("1234 (a b) c) {}\n", fields.join(" "));
        assert_eq!(stat_processor(&line), Some(5));
        assert_eq!(stat_processor("garbage"), None);
    }

    #[test]
    fn allowed_cpus_is_ascending_and_not_empty() {
        let allowed = allowed_cpus().unwrap();
        assert!(!allowed.is_empty());
        assert!(allowed.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn bind_observe_and_unbind_on_a_spawned_thread() {
        let allowed = allowed_cpus().unwrap();
        on_thread(move || {
            let first = Placement::Cpu(allowed[0]);
            bind_current(first, &allowed).unwrap();
            let o = observe(first, &allowed);
            assert!(o.mask_ok, "{o:?}");
            assert_eq!(o.cpu, Some(allowed[0]));
            assert!(honoured(first, &o));

            bind_current(Placement::Unbound, &allowed).unwrap();
            let o = observe(Placement::Unbound, &allowed);
            assert!(o.mask_ok, "{o:?}");
            assert!(honoured(Placement::Unbound, &o));
            // The thread is no longer pinned, so a bound verdict must not pass on the mask.
            if allowed.len() >= 2 {
                assert!(!observe(first, &allowed).mask_ok);
            }
        });
    }

    #[test]
    fn different_cpus_on_spawned_threads() {
        let allowed = allowed_cpus().unwrap();
        if allowed.len() < 2 {
            return; // Needs two CPUs in the mask.
        }
        let places = plan(Bind::Different, 2, &allowed).unwrap();
        let handles: Vec<_> = places
            .into_iter()
            .map(|p| {
                let allowed = allowed.clone();
                std::thread::spawn(move || {
                    bind_current(p, &allowed).unwrap();
                    (p, observe(p, &allowed))
                })
            })
            .collect();
        for h in handles {
            let (p, o) = h.join().unwrap();
            assert!(honoured(p, &o), "{} not honoured: {o:?}", p.label());
        }
    }

    #[test]
    fn honoured_verdicts() {
        let good = Observed {
            mask_ok: true,
            cpu: Some(1),
        };
        assert!(honoured(Placement::Cpu(1), &good));
        assert!(!honoured(Placement::Cpu(0), &good));
        assert!(honoured(Placement::Unbound, &good));
        let bad_mask = Observed {
            mask_ok: false,
            cpu: Some(1),
        };
        assert!(!honoured(Placement::Cpu(1), &bad_mask));
        assert!(!honoured(Placement::Unbound, &bad_mask));
        let unknown_cpu = Observed {
            mask_ok: true,
            cpu: None,
        };
        assert!(!honoured(Placement::Cpu(1), &unknown_cpu));
    }

    #[test]
    fn binding_outside_the_cpuset_range_is_an_error() {
        let allowed = allowed_cpus().unwrap();
        let err = on_thread(move || bind_current(Placement::Cpu(CpuSet::count()), &allowed));
        assert!(err.unwrap_err().contains("beyond"));
    }
}
