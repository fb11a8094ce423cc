//! The machines a `-json` file's provenance describes: each rank's CPU set and each host's
//! logical CPUs, read into how the ranks were bound and whether a machine ran more ranks than
//! it has CPUs.

use super::doc::{known, words};
use serde_json::Value;
use std::collections::BTreeMap;

/// A rank's CPU set (`ranks[].cpus`); `None` when the file has none or an empty one (the
/// program could not read it).
pub(super) fn cpu_set(rank: &Value) -> Option<Vec<u64>> {
    let v: Vec<u64> = rank
        .get("cpus")?
        .as_array()?
        .iter()
        .map(Value::as_u64)
        .collect::<Option<_>>()?;
    (!v.is_empty()).then_some(v)
}

/// A host's online CPUs (schema 4's `cpu.logical`).
pub(super) fn logical_cpus(host: &Value) -> Option<u64> {
    known(host.get("cpu"))?
        .get("logical")?
        .as_u64()
        .filter(|n| *n > 0)
}

/// How the ranks were bound to CPUs, as a policy: by how many CPUs each rank's set holds
/// against its machine's online CPUs (schema 4), never by which CPUs, since one `--bind-to
/// core` puts rank 0 on CPU 0 in one launch and on CPU 1 in the next. A rank free to run on
/// every CPU of its machine is unbound; without the machine's count (schema 3) a set of more
/// than one CPU is told by its size alone, which a difference then shows rather than hides.
/// `None` unless every rank has a set.
pub(super) fn binding(p: &Value, hosts: &[Value]) -> Option<String> {
    /// What one rank holds: some CPUs, or all of its machine's.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Held {
        Cpus(usize),
        All,
    }
    let logical: BTreeMap<&str, u64> = hosts
        .iter()
        .filter_map(|h| Some((h.get("host")?.as_str()?, logical_cpus(h)?)))
        .collect();
    let ranks = p.get("ranks")?.as_array()?;
    let mut count: BTreeMap<Held, usize> = BTreeMap::new();
    for r in ranks {
        let set = cpu_set(r)?;
        let all = r
            .get("host")
            .and_then(Value::as_str)
            .and_then(|h| logical.get(h))
            .is_some_and(|n| set.len() as u64 >= *n);
        let held = if all {
            Held::All
        } else {
            Held::Cpus(set.len())
        };
        *count.entry(held).or_default() += 1;
    }
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let kinds: Vec<&Held> = count.keys().collect();
    Some(match kinds[..] {
        [] => return None,
        [Held::All] => "unbound".to_string(),
        [Held::Cpus(k)] => format!("each rank on {}", plural(*k, "CPU")),
        _ => {
            let parts: Vec<String> = count
                .iter()
                .map(|(held, n)| match held {
                    Held::All => format!("{} unbound", plural(*n, "rank")),
                    Held::Cpus(k) => format!("{} on {}", plural(*n, "rank"), plural(*k, "CPU")),
                })
                .collect();
            format!("mixed: {}", parts.join(", "))
        }
    })
}

/// The binding policy the launcher was given, where the file records it: Open MPI's
/// `hwloc_base_binding_policy` (`--bind-to`, in rank 0's environment or the control
/// variables) and, when srun started the ranks, Slurm's `SLURM_CPU_BIND` without its CPU
/// masks. Under mpirun, Slurm's variable is the step of mpirun's daemons (doc/OUTPUT.md), not
/// the ranks', so it is left out then.
pub(super) fn binding_policy(p: &Value) -> Option<String> {
    let mut out = Vec::new();
    let cvar = p
        .get("mpi")
        .and_then(|m| known(m.get("control_variables")))
        .and_then(|cv| cv.get("set"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|c| c.get("name").and_then(Value::as_str) == Some("hwloc_base_binding_policy"))
        .and_then(|c| known(c.get("value")))
        .map(words);
    let env = p
        .get("environment")
        .and_then(|e| e.get("OMPI_MCA_hwloc_base_binding_policy"))
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(v) = cvar.or(env) {
        out.push(format!("Open MPI {v}"));
    }
    let launcher = p.get("launcher");
    let by_srun = launcher
        .and_then(|l| l.get("parent"))
        .and_then(|pa| pa.get("cmdline"))
        .and_then(|c| c.get(0))
        .and_then(Value::as_str)
        .is_some_and(|c| c.rsplit('/').next() == Some("srun"));
    let slurm = launcher
        .and_then(|l| l.get("variables"))
        .and_then(|v| v.get("SLURM_CPU_BIND"))
        .and_then(Value::as_str);
    if let Some(bind) = slurm.filter(|_| by_srun) {
        // "quiet,mask_cpu:0x1,0x2": the policy is the word before each list of masks.
        let policy: Vec<&str> = bind
            .split(',')
            .filter(|w| !matches!(*w, "quiet" | "verbose"))
            .filter(|w| !w.starts_with(|c: char| c.is_ascii_digit()))
            .map(|w| w.split(':').next().unwrap_or(w))
            .collect();
        out.push(format!("Slurm {}", policy.join(",")));
    }
    (!out.is_empty()).then(|| out.join(", "))
}

/// The reader's own oversubscription line, for the machine whose ranks most outnumber the
/// CPUs they may run on: the union of their CPU sets, as the header counts them, else the
/// machine's online CPUs. The header counts per MPI node, and the two host names of one
/// machine may be two MPI nodes (the test cluster's namespaces, over TCP): their ranks escape
/// it, though they share the machine's CPUs.
/// `machine_of` maps a host name to its machine, as placement counts them.
pub(super) fn machine_oversubscription(
    p: &Value,
    machine_of: &BTreeMap<String, String>,
) -> Option<String> {
    #[derive(Default)]
    struct Load {
        hosts: Vec<String>,
        ranks: u64,
        cpus: std::collections::BTreeSet<u64>,
        every_set: bool,
        logical: Option<u64>,
    }
    let machine = |host: &str| {
        machine_of
            .get(host)
            .cloned()
            .unwrap_or(format!("host {host}"))
    };
    let mut per: BTreeMap<String, Load> = BTreeMap::new();
    fn load<'a>(per: &'a mut BTreeMap<String, Load>, machine: String, host: &str) -> &'a mut Load {
        let e = per.entry(machine).or_insert_with(|| Load {
            every_set: true,
            ..Load::default()
        });
        if !e.hosts.iter().any(|h| h == host) {
            e.hosts.push(host.to_string());
        }
        e
    }
    for h in p
        .get("hosts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = h.get("host").and_then(Value::as_str) {
            let e = load(&mut per, machine(name), name);
            e.logical = e.logical.max(logical_cpus(h));
        }
    }
    for r in p
        .get("ranks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(host) = r.get("host").and_then(Value::as_str) else {
            continue;
        };
        let e = load(&mut per, machine(host), host);
        e.ranks += 1;
        match cpu_set(r) {
            Some(set) => e.cpus.extend(set),
            None => e.every_set = false,
        }
    }
    let (key, l, cpus) = per
        .iter()
        .filter_map(|(k, l)| {
            let cpus = if l.every_set && !l.cpus.is_empty() {
                l.cpus.len() as u64
            } else {
                l.logical?
            };
            (l.ranks > cpus).then_some((k, l, cpus))
        })
        .max_by_key(|(_, l, cpus)| l.ranks * 1000 / cpus.max(&1))?;
    let names = |l: &Load| {
        let s = if l.hosts.len() == 1 { "" } else { "s" };
        format!("host{s} {}", l.hosts.join(", "))
    };
    let on = match key.strip_prefix("machine ") {
        Some(id) => format!("one machine ({id}: {})", names(l)),
        None => format!("one host ({})", l.hosts.join(", ")),
    };
    Some(format!(
        "{} processes share {cpus} CPU{} on {on} (oversubscribed): times measure the scheduler, \
         they are not results",
        l.ranks,
        if cpus == 1 { "" } else { "s" }
    ))
}
