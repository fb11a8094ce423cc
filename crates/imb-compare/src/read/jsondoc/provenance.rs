//! What a `-json` file's provenance says of the run: where it ran (the provenance line, each
//! table's placement, the ranks per host), how its ranks were bound, whether the machines were
//! oversubscribed, the facts that describe the run and the MPI control variables it set.

use super::doc::{known, words};
use super::machine::{binding, binding_policy, machine_oversubscription};
use crate::read::header;
use crate::read::run::Conditions;
use serde_json::Value;
use std::collections::BTreeMap;

/// Every string under a key named `key` anywhere in `v`, in order, without repeats.
pub(super) fn strings_under(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == key && !out.contains(s) => out.push(s.clone()),
                    Value::Array(a) if k == key => {
                        for s in a.iter().filter_map(Value::as_str) {
                            if !out.iter().any(|o| o == s) {
                                out.push(s.to_string());
                            }
                        }
                    }
                    _ => strings_under(x, key, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| strings_under(x, key, out)),
        _ => {}
    }
}

/// "MPI library …; hosts a, b" from a provenance object, whatever its nesting.
pub(super) fn provenance_line(p: &Value) -> Option<String> {
    let mut parts = Vec::new();
    let mut lib = Vec::new();
    for key in ["mpi_library", "library_version", "library"] {
        strings_under(p, key, &mut lib);
    }
    if let Some(l) = lib.first() {
        // Open MPI's string runs over several lines; its first says enough.
        parts.push(format!(
            "MPI library {}",
            l.lines().next().unwrap_or("").trim()
        ));
    }
    let mut hosts = Vec::new();
    for key in ["hostname", "host", "hosts"] {
        strings_under(p, key, &mut hosts);
    }
    if !hosts.is_empty() {
        parts.push(format!("hosts {}", hosts.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Where a rank ran: its machine (schema 4's identity of its host, else the host's name) and
/// its shared-memory node as MPI saw it (schema 4), for placement and layout.
pub(super) type Seat = (String, Option<u64>);

/// "2 ranks on 1 host" for `ranks`, with ", 2 MPI nodes" when MPI saw more nodes than there
/// were machines (two host names on one machine that talk over a network, not shared memory).
pub(super) fn seated<'a>(ranks: impl Iterator<Item = &'a Seat>) -> String {
    let mut per: BTreeMap<&String, usize> = BTreeMap::new();
    let mut nodes = std::collections::BTreeSet::new();
    let mut all_nodes = true;
    for (m, n) in ranks {
        *per.entry(m).or_default() += 1;
        match n {
            Some(n) => {
                nodes.insert(*n);
            }
            None => all_nodes = false,
        }
    }
    let machines = per.len();
    let mut s = header::spread(per.into_values().collect());
    if all_nodes && nodes.len() > machines {
        s.push_str(&format!(" ({} MPI nodes)", nodes.len()));
    }
    s
}

/// Where a table's ranks ran: per group the ranks on each host; the groups alike, or listed.
pub(super) fn placement(groups: &[Vec<usize>], seat_of: &BTreeMap<u64, Seat>) -> Option<String> {
    let mut each = Vec::new();
    for g in groups {
        let seats: Vec<&Seat> = g
            .iter()
            .map(|r| seat_of.get(&(*r as u64)))
            .collect::<Option<_>>()?;
        each.push(seated(seats.into_iter()));
    }
    let first = each.first()?.clone();
    Some(if each.iter().all(|e| *e == first) {
        if each.len() > 1 {
            format!("{first} per group")
        } else {
            first
        }
    } else {
        each.join("; ")
    })
}

/// Schema 4's facts of the hosts that describe, not define, a run, each host's values
/// distinct and joined; the CPU model of schema 3 too.
pub(super) fn host_facts(hosts: &[Value], p: &Value) -> BTreeMap<String, String> {
    let mut each: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut add = |k: &'static str, v: Option<String>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            let e = each.entry(k).or_default();
            if !e.contains(&v) {
                e.push(v);
            }
        }
    };
    for h in hosts {
        let s = |v: Option<&Value>| known(v).map(words);
        add("CPU model", s(h.get("cpu_model")));
        add("OS", s(h.get("os_release")));
        add(
            "kernel",
            s(known(h.get("kernel")).and_then(|k| k.get("release"))),
        );
        if let Some(c) = known(h.get("cpu")) {
            let n = |k: &str| c.get(k).and_then(Value::as_u64).unwrap_or(0);
            add(
                "CPU topology",
                Some(format!(
                    "{} socket(s), {} cores, {} thread(s) per core",
                    n("sockets"),
                    n("cores"),
                    n("threads_per_core")
                )),
            );
        }
        if let Some(n) = known(h.get("numa")).and_then(Value::as_array) {
            add("NUMA nodes", Some(n.len().to_string()));
        }
        match h.get("governor") {
            Some(g) if known(Some(g)).is_some() => {
                let names: Vec<&str> = g
                    .as_object()
                    .map(|m| m.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                add("frequency governor", Some(names.join(",")));
            }
            Some(_) => add("frequency governor", Some("not available".to_string())),
            None => {}
        }
        if let Some(libs) = h.get("fabric_libraries").and_then(Value::as_object) {
            let v: Vec<String> = libs
                .iter()
                .map(|(name, l)| match known(l.get("version")) {
                    Some(v) => format!("{name} {}", words(v)),
                    None => name.clone(),
                })
                .collect();
            add(
                "fabric libraries",
                Some(if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(", ")
                }),
            );
        }
    }
    if let Some(b) = p.get("build") {
        let s = |k: &str| b.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
        if b.get("rustc").is_some() {
            add(
                "build",
                Some(format!(
                    "{}, {} (opt-level {})",
                    s("rustc"),
                    s("profile"),
                    s("opt_level")
                )),
            );
        }
        if let Some(sha) = known(b.get("binary"))
            .and_then(|x| x.get("sha256"))
            .and_then(Value::as_str)
        {
            let short: String = sha.chars().take(12).collect();
            add("binary", Some(format!("SHA-256 {short}…")));
        }
    }
    each.into_iter()
        .map(|(k, v)| (k.to_string(), v.join(" / ")))
        .collect()
}

/// Schema 4's MPI control variables that the run set, but its launcher's, by name.
pub(super) fn control_variables(p: &Value) -> Option<BTreeMap<String, String>> {
    let cv = known(p.get("mpi").and_then(|m| m.get("control_variables")))?;
    let set = cv.get("set")?.as_array()?;
    Some(
        set.iter()
            .filter(|c| c.get("launcher").and_then(Value::as_bool) != Some(true))
            .filter_map(|c| {
                let name = c.get("name")?.as_str()?.to_string();
                let value = known(c.get("value")).map_or("(not read)".to_string(), words);
                Some((name, value))
            })
            .collect(),
    )
}

/// What the provenance says of the MPI library, the thread level, the hosts and the machines
/// behind them, and the facts that describe the run. Returns each rank's seat (schema 4's
/// identity of its host, else (schema 3, an identity not read) its host's name, and its MPI
/// node where the file says) and the reader's oversubscription line, if any.
pub(super) fn provenance_conditions(
    p: &Value,
    c: &mut Conditions,
) -> (BTreeMap<u64, Seat>, Option<String>) {
    let mpi = p.get("mpi");
    let s = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    if let Some(lib) = s(mpi.and_then(|m| m.get("library_version"))) {
        c.mpi_library = Some(lib.lines().next().unwrap_or("").trim().to_string());
    }
    if let Some(level) = s(mpi.and_then(|m| m.get("thread_level"))) {
        c.thread_level = Some(level);
    }
    let host_list: Vec<Value> = p
        .get("hosts")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // Host name → machine: two names with one identity are one machine.
    let mut machine_of: BTreeMap<String, String> = BTreeMap::new();
    for h in &host_list {
        if let Some(name) = s(h.get("host")) {
            let id = known(h.get("machine"))
                .and_then(|m| m.get("id"))
                .and_then(Value::as_str)
                .map(|id| format!("machine {id}"));
            machine_of.insert(name.clone(), id.unwrap_or(format!("host {name}")));
        }
    }
    let mut seat_of: BTreeMap<u64, Seat> = BTreeMap::new();
    for r in p
        .get("ranks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(rank), Some(host)) = (r.get("rank").and_then(Value::as_u64), s(r.get("host")))
        {
            let m = machine_of
                .get(&host)
                .cloned()
                .unwrap_or(format!("host {host}"));
            seat_of.insert(rank, (m, r.get("mpi_node").and_then(Value::as_u64)));
        }
    }
    let hosts: Vec<(String, usize)> = host_list
        .iter()
        .filter_map(|h| {
            let ranks = h.get("ranks").and_then(Value::as_array)?.len();
            Some((s(h.get("host"))?, ranks))
        })
        .collect();
    if !hosts.is_empty() {
        let mut per_machine: Vec<(String, usize)> = Vec::new();
        for (name, n) in &hosts {
            let m = machine_of
                .get(name)
                .cloned()
                .unwrap_or(format!("host {name}"));
            match per_machine.iter_mut().find(|(k, _)| *k == m) {
                Some(e) => e.1 += n,
                None => per_machine.push((m, *n)),
            }
        }
        let machines = per_machine.len();
        let mut layout = header::spread(per_machine.into_iter().map(|e| e.1).collect());
        // MPI's nodes, when every rank says.
        let nodes: Option<std::collections::BTreeSet<u64>> =
            seat_of.values().map(|(_, n)| *n).collect();
        if let Some(n) = nodes.filter(|n| !seat_of.is_empty() && n.len() > machines) {
            layout.push_str(&format!(" ({} MPI nodes)", n.len()));
        }
        c.layout = Some(layout);
        c.hosts = Some(hosts.into_iter().map(|h| h.0).collect());
    }
    c.facts = host_facts(&host_list, p);
    if let Some(policy) = binding_policy(p) {
        c.facts.insert("binding policy".to_string(), policy);
    }
    c.binding = binding(p, &host_list);
    c.control_variables = control_variables(p);
    (seat_of, machine_oversubscription(p, &machine_of))
}

/// imb-mt's threads per rank, the text banner's `(threads: T)`: its resolved parameter
/// `-threads` in the provenance.
pub(super) fn mt_threads(p: &Value) -> Option<String> {
    p.get("parameters")?
        .as_array()?
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some("-threads"))?
        .get("value")?
        .as_u64()
        .map(|t| t.to_string())
}
