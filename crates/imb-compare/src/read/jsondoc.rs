//! Reading an imb-rs `-json` results file (doc/OUTPUT.md, "JSON") into the same tables as its
//! text output, so launches kept either way can be compared. Schemas 1 to 4 read alike; a
//! newer schema is refused rather than half understood. Every cell a comparison may use must
//! be a number: a `null`, a string or a missing key is an input error naming its JSON path
//! (`tables[0].rows[3].t_us`), and the figures pass [`crate::read::check`]. Schema 3's provenance
//! gives the launch's status, its conditions ([`crate::conditions`]) and where each table's
//! ranks ran; schema 4's adds each host's machine (two host names on one machine count as one
//! host, for oversubscription too) and the facts that describe the run without defining it
//! (kernel, CPU, governor, MPI control variables, build).

use crate::error::Error;
use crate::read::check::{self, At};
use crate::read::header;
use crate::read::imbtext::column_key;
use crate::read::run::{Conditions, Flag, Identity, Run, Status, Table};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The newest schema this reader knows (doc/OUTPUT.md, "JSON").
pub const NEWEST_SCHEMA: u64 = 4;

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    schema_version: Option<Value>,
    #[serde(default)]
    suite: Option<String>,
    header: Option<Header>,
    tables: Vec<TableDoc>,
    #[serde(default)]
    complete: bool,
    /// Schema 3: where and how the run ran.
    #[serde(default)]
    provenance: Option<Value>,
}

#[derive(Deserialize)]
struct Header {
    version: String,
    part: String,
    thread_env: String,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    mpi_version: Option<Vec<Value>>,
    /// Schema 2: typed notes; schema 1: none here (its `warnings` are strings).
    #[serde(default)]
    notes: Vec<Value>,
    #[serde(default)]
    warnings: Vec<Value>,
    /// Schema 1: the optional-mode lines.
    #[serde(default)]
    optional: Vec<Value>,
}

#[derive(Deserialize)]
struct TableDoc {
    benchmark: String,
    processes: usize,
    groups: Vec<Vec<usize>>,
    #[serde(default)]
    multi: bool,
    mode: Option<String>,
    columns: Vec<String>,
    /// Schema 2: the machine key of each column, which the rows are keyed by (schema 1 keyed
    /// them by the column titles and had no `keys`).
    #[serde(default)]
    keys: Vec<String>,
    rows: Vec<Map<String, Value>>,
    #[serde(default)]
    notes: Vec<Value>,
}

/// A note's text: schema 2's objects carry it in `text`, schema 1's notes are the text.
fn note_text(n: &Value) -> &str {
    n.get("text")
        .and_then(Value::as_str)
        .or(n.as_str())
        .unwrap_or("")
}

/// A table note's flag: schema 2 by `kind` and fields, schema 1 by its text.
fn json_flag(n: &Value) -> Option<(Option<u64>, Flag)> {
    let bytes = n.get("bytes").and_then(Value::as_u64);
    match n.get("kind").and_then(Value::as_str) {
        Some("adaptive") => n
            .get("unsettled")
            .is_some_and(|u| !u.is_null())
            .then_some((bytes, Flag::Unsettled)),
        Some("unreliable") => Some((bytes, Flag::Unreliable)),
        Some("defect") => Some((bytes, Flag::Defect)),
        Some(_) => None,
        None => crate::read::imbtext::note_flag(note_text(n)),
    }
}

/// Every string under a key named `key` anywhere in `v`, in order, without repeats.
fn strings_under(v: &Value, key: &str, out: &mut Vec<String>) {
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
fn provenance_line(p: &Value) -> Option<String> {
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

fn at_error(name: &str, at: String, msg: String) -> Error {
    Error::At {
        file: name.to_string(),
        at,
        msg,
    }
}

/// The schema version, checked: absent (schema 1) or 1 to [`NEWEST_SCHEMA`].
fn schema(name: &str, v: &Option<Value>) -> Result<u64, Error> {
    match v {
        None => Ok(1),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|s| (1..=NEWEST_SCHEMA).contains(&s)) => {
            Ok(n.as_u64().unwrap_or(1))
        }
        Some(other) => Err(at_error(
            name,
            "schema_version".into(),
            format!(
                "{other}: this imb-compare reads schemas 1 to {NEWEST_SCHEMA} (a newer imb-rs \
                 wrote it? use the imb-compare of that version)"
            ),
        )),
    }
}

/// How the launch ended: schema 3's `provenance.status`, else the top-level `complete`.
fn status(name: &str, doc: &Doc) -> Result<Status, Error> {
    let Some(st) = doc.provenance.as_ref().and_then(|p| p.get("status")) else {
        return Ok(if doc.complete {
            Status::Complete
        } else {
            Status::CutShort("complete is false: the run stopped before its end".into())
        });
    };
    let text = |k: &str| st.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Ok(match st.get("state").and_then(Value::as_str) {
        Some("complete") => Status::Complete,
        Some("running") => Status::CutShort(
            "status running: the process was killed or crashed before its end".into(),
        ),
        Some("interrupted") => Status::CutShort(format!("status interrupted: {}", text("reason"))),
        Some("failed") => Status::CutShort(format!("status failed: {}", text("error"))),
        _ => {
            return Err(at_error(
                name,
                "provenance.status.state".into(),
                format!(
                    "{}: a status is complete, running, interrupted or failed",
                    st.get("state").unwrap_or(&Value::Null)
                ),
            ))
        }
    })
}

/// One row's cells in column order, each a number, or an error naming the cell.
fn cells(name: &str, at: &str, row: &Map<String, Value>, by: &[String]) -> Result<Vec<f64>, Error> {
    by.iter()
        .map(|c| match row.get(c) {
            Some(Value::Number(n)) => n
                .as_f64()
                .ok_or_else(|| at_error(name, format!("{at}.{c}"), format!("{n}: not a figure"))),
            None => Err(at_error(
                name,
                at.to_string(),
                format!("no {c:?}: every column of the table needs a value"),
            )),
            Some(other) => Err(at_error(
                name,
                format!("{at}.{c}"),
                format!("{other}: a figure must be a number"),
            )),
        })
        .collect()
}

/// Where a rank ran: its machine (schema 4's identity of its host, else the host's name) and
/// its shared-memory node as MPI saw it (schema 4), for placement and layout.
type Seat = (String, Option<u64>);

/// "2 ranks on 1 host" for `ranks`, with ", 2 MPI nodes" when MPI saw more nodes than there
/// were machines (two host names on one machine that talk over a network, not shared memory).
fn seated<'a>(ranks: impl Iterator<Item = &'a Seat>) -> String {
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
fn placement(groups: &[Vec<usize>], seat_of: &BTreeMap<u64, Seat>) -> Option<String> {
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

/// A value of schema 4's provenance that may be `{"absent": why}`: None then.
fn known(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null() && v.get("absent").is_none())
}

/// A value in words: a string as it is, anything else as JSON.
fn words(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Schema 4's facts of the hosts that describe, not define, a run, each host's values
/// distinct and joined; the CPU model of schema 3 too.
fn host_facts(hosts: &[Value], p: &Value) -> BTreeMap<String, String> {
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
fn control_variables(p: &Value) -> Option<BTreeMap<String, String>> {
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

/// A rank's CPU set (`ranks[].cpus`); `None` when the file has none or an empty one (the
/// program could not read it).
fn cpu_set(rank: &Value) -> Option<Vec<u64>> {
    let v: Vec<u64> = rank
        .get("cpus")?
        .as_array()?
        .iter()
        .map(Value::as_u64)
        .collect::<Option<_>>()?;
    (!v.is_empty()).then_some(v)
}

/// A host's online CPUs (schema 4's `cpu.logical`).
fn logical_cpus(host: &Value) -> Option<u64> {
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
fn binding(p: &Value, hosts: &[Value]) -> Option<String> {
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
fn binding_policy(p: &Value) -> Option<String> {
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
fn machine_oversubscription(p: &Value, machine_of: &BTreeMap<String, String>) -> Option<String> {
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

/// What the provenance says of the MPI library, the thread level, the hosts and the machines
/// behind them, and the facts that describe the run. Returns each rank's seat (schema 4's
/// identity of its host, else (schema 3, an identity not read) its host's name, and its MPI
/// node where the file says) and the reader's oversubscription line, if any.
fn provenance_conditions(p: &Value, c: &mut Conditions) -> (BTreeMap<u64, Seat>, Option<String>) {
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
fn mt_threads(p: &Value) -> Option<String> {
    p.get("parameters")?
        .as_array()?
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some("-threads"))?
        .get("value")?
        .as_u64()
        .map(|t| t.to_string())
}

/// Parse one `-json` document. `name` is the file's name, for messages.
pub fn parse(name: &str, text: &str) -> Result<Run, Error> {
    let doc: Doc = match serde_json::from_str(text) {
        Ok(d) => d,
        Err(e) => {
            // A newer schema may have changed the shape: say so, not which field is missing.
            if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) {
                schema(name, &m.get("schema_version").cloned())?;
            }
            return Err(Error::Line {
                file: name.to_string(),
                line: e.line(),
                msg: format!("not an imb-rs -json document: {e}"),
            });
        }
    };
    schema(name, &doc.schema_version)?;
    if let Some(s @ ("imb-threads" | "imb-omp")) = doc.suite.as_deref() {
        return Err(Error::File {
            file: name.to_string(),
            msg: format!(
                "an {s} document: its tables are not IMB tables (imb-compare reads the MPI \
                 executables' files)"
            ),
        });
    }
    let status = status(name, &doc)?;
    let mut conditions = Conditions::default();
    let (seat_of, machine_over) = doc
        .provenance
        .as_ref()
        .map(|p| provenance_conditions(p, &mut conditions))
        .unwrap_or_default();
    if doc.suite.as_deref() == Some("imb-mt") {
        conditions.threads = doc.provenance.as_ref().and_then(mt_threads);
    }
    let mut tables = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (i, t) in doc.tables.iter().enumerate() {
        if t.rows.is_empty() {
            continue;
        }
        if t.processes == 0 || t.processes > i32::MAX as usize {
            return Err(at_error(
                name,
                format!("tables[{i}].processes"),
                format!(
                    "{}: a table runs on 1 to {} processes (an MPI int)",
                    t.processes,
                    i32::MAX
                ),
            ));
        }
        for (k, n) in t.notes.iter().enumerate() {
            let size = n.get("bytes").filter(|b| !b.is_null());
            let bad = size.and_then(|b| match b.as_f64() {
                Some(v) => check::bad_size(v).map(|why| format!("{}: {why}", check::shown(v))),
                None => Some(format!("{b}: a size must be a number")),
            });
            if let Some(why) = bad {
                return Err(at_error(name, format!("tables[{i}].notes[{k}].bytes"), why));
            }
        }
        let by = if t.keys.len() == t.columns.len() {
            &t.keys
        } else {
            &t.columns
        };
        let mut rows = Vec::with_capacity(t.rows.len());
        let mut at = Vec::with_capacity(t.rows.len());
        for (r, row) in t.rows.iter().enumerate() {
            let here = format!("tables[{i}].rows[{r}]");
            rows.push(cells(name, &here, row, by)?);
            at.push(At::Path(here));
        }
        let groups = t.groups.len().max(1);
        let mut table = Table {
            // The text banner's name: Multi- when more than one group ran at once.
            benchmark: if t.multi && groups > 1 {
                format!("Multi-{}", t.benchmark)
            } else {
                t.benchmark.clone()
            },
            processes: Some(t.processes),
            groups,
            mode: t.mode.clone(),
            rows,
            columns: t.columns.iter().map(|c| column_key(c)).collect(),
            line: 0,
            flags: t.notes.iter().filter_map(json_flag).collect(),
            placement: placement(&t.groups, &seat_of),
        };
        check::table(name, &table, &at, by)?;
        if let Some(g) = table.column("group") {
            // A row's group is its group's place in `groups` (the text's Group column).
            if let Some(r) = table.rows.iter().position(|row| row[g] >= groups as f64) {
                return Err(at_error(
                    name,
                    format!("tables[{i}].rows[{r}].{}", by[g]),
                    format!("group {} in a table of {groups} group(s)", table.rows[r][g]),
                ));
            }
        }
        check::flag_defects(&mut table);
        // A document is one launch: a second table under one key is its benchmark named
        // twice (`imb-mpi1 PingPong PingPong`), whose rows join the first's as the text's do
        // (doc/ACCEPTANCE.md, "Repeated sizes"); with other columns it cannot.
        match seen.get(&crate::read::imbtext::key(&table)) {
            None => {
                seen.insert(crate::read::imbtext::key(&table), (i, tables.len()));
                tables.push(table);
            }
            Some(&(_, k)) if tables[k].columns == table.columns => {
                check::join(&mut tables[k], table)
            }
            Some(&(first, _)) => {
                return Err(at_error(
                    name,
                    format!("tables[{i}]"),
                    format!(
                        "a second table of {} (the first is tables[{first}]) with other \
                         columns: not one launch's document",
                        crate::read::imbtext::key_words(&table)
                    ),
                ))
            }
        }
    }
    tables.iter_mut().for_each(check::merge_repeats);
    if tables.is_empty() {
        return Err(Error::File {
            file: name.to_string(),
            msg: "no table with rows in this -json document".to_string(),
        });
    }
    let mut oversubscribed = None;
    let mut identity = Identity {
        json: true,
        ..Identity::default()
    };
    if let Some(p) = &doc.provenance {
        identity.start = p.get("start").and_then(Value::as_str).map(str::to_string);
        identity.argv = p.get("argv").map(Value::to_string);
        // A load average is a count of runnable tasks: never below 0, and no machine has a
        // million. Beyond that the file is not as imb-rs wrote it.
        let one_minute = |at: &str, v: Option<&Value>| match v.and_then(|l| l.get(0)) {
            Some(x) => match x.as_f64() {
                Some(l) if (0.0..=1e6).contains(&l) => Ok(Some(l)),
                l => Err(at_error(
                    name,
                    format!("provenance.{at}[0]"),
                    format!(
                        "{}: a load average is a number from 0 to 10^6",
                        l.map_or(x.to_string(), check::shown)
                    ),
                )),
            },
            None => Ok(None),
        };
        let start = one_minute("hosts[0].load_average", p.pointer("/hosts/0/load_average"))?;
        let end = one_minute("load_average_end", p.get("load_average_end"))?;
        identity.load = start.map(|s| (s, end));
    }
    let title = match &doc.header {
        Some(h) => {
            oversubscribed = h
                .notes
                .iter()
                .chain(&h.warnings)
                .find(|n| {
                    n.get("kind").and_then(Value::as_str) == Some("oversubscribed")
                        || note_text(n).contains("(oversubscribed)")
                })
                .map(|n| note_text(n).trim_start_matches("!!").trim().to_string());
            let optional: Vec<String> = h
                .notes
                .iter()
                .filter(|n| {
                    matches!(
                        n.get("kind").and_then(Value::as_str),
                        Some("optional_mode" | "method" | "p2p_method")
                    )
                })
                .chain(&h.optional)
                .flat_map(|n| {
                    note_text(n)
                        .lines()
                        .map(|l| l.trim_start_matches("!!").to_string())
                        .collect::<Vec<_>>()
                })
                .collect();
            conditions.parameters = Some(header::optional_parameters(
                optional.iter().map(String::as_str),
            ));
            // -compat 2021's Mbytes/sec count 10^6 bytes; the text reader converts the same.
            if optional
                .iter()
                .any(|l| crate::read::run::decimal_megabyte_line(l))
            {
                tables.iter_mut().for_each(Table::to_binary_megabytes);
            }
            if conditions.thread_level.is_none() {
                conditions.thread_level = Some(h.thread_env.clone());
            }
            let numbers: Vec<String> = h
                .mpi_version
                .iter()
                .flatten()
                .map(|v| v.to_string())
                .collect();
            if !numbers.is_empty() {
                conditions.mpi_standard = Some(numbers.join("."));
            }
            identity.date = h.date.clone();
            conditions.program = Some(format!("imb-rs {}", h.version));
            format!("imb-rs {}, {}", h.version, h.part)
        }
        None => "imb-rs".to_string(),
    };
    Ok(Run {
        title,
        tables,
        status,
        core_to_core: None,
        wall_secs: None,
        // The header's own note, else the machines' count: either makes the times no result.
        oversubscribed: oversubscribed.or(machine_over),
        provenance: doc.provenance.as_ref().and_then(provenance_line),
        conditions,
        identity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::run::Status;

    const DOC: &str = r##"{
  "suite": "imb-mpi1",
  "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE"},
  "tables": [
    {"benchmark": "PingPong", "processes": 2, "groups": [[0, 1]], "idle": 0, "multi": false,
     "mode": null, "columns": ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"],
     "keys": ["bytes", "repetitions", "t_us", "mbytes_per_s"],
     "rows": [{"bytes": 0, "repetitions": 1000, "mbytes_per_s": 0.0, "t_us": 0.12}],
     "notes": [], "unsuccessful": false},
    {"benchmark": "Allreduce", "processes": 2, "groups": [[0, 1], [2, 3]], "idle": 0,
     "multi": true, "mode": null,
     "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
     "rows": [{"#bytes": 4, "#repetitions": 1000, "t_min[usec]": 0.2, "t_max[usec]": 0.3,
               "t_avg[usec]": 0.25}],
     "notes": [], "unsuccessful": false}
  ],
  "complete": true
}"##;

    /// imb-mt's threads per rank come from its resolved parameters (`-threads`), as the
    /// text's `(threads: T)`: runs of one and two threads a rank differ when only `-json`
    /// is read.
    #[test]
    fn imb_mt_threads_per_rank() {
        let doc = |t: usize| {
            format!(
                r##"{{"schema_version": 4, "suite": "imb-mt",
  "provenance": {{"parameters": [{{"name": "-threads", "value": {t}, "standard": null,
                                  "origin": "standard"}}]}},
  "header": {{"version": "0.1.0", "part": "MT part", "thread_env": "MPI_THREAD_MULTIPLE"}},
  "tables": [
    {{"benchmark": "PingPongMT", "processes": 2, "groups": [[0, 1]], "idle": 0, "multi": false,
     "mode": null,
     "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"],
     "keys": ["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us", "mbytes_per_s"],
     "rows": [{{"bytes": 8, "repetitions": 10, "t_min_us": 1.0, "t_max_us": 2.0,
               "t_avg_us": 1.5, "mbytes_per_s": 4.0}}],
     "notes": [], "unsuccessful": false}}
  ],
  "complete": true
}}"##
            )
        };
        let one = parse("one.json", &doc(1)).unwrap();
        let two = parse("two.json", &doc(2)).unwrap();
        assert_eq!(one.conditions.threads.as_deref(), Some("1"));
        assert_eq!(two.conditions.threads.as_deref(), Some("2"));
        // Another suite's parameter of that name is not a thread count.
        let mpi1 = parse("m.json", &doc(2).replace("\"imb-mt\"", "\"imb-mpi1\"")).unwrap();
        assert_eq!(mpi1.conditions.threads, None);
    }

    /// The first table is schema 2 (rows keyed by machine key), the second schema 1 (by
    /// column title): files kept from either read the same.
    #[test]
    fn tables_as_the_text_shows_them() {
        let r = parse("a.json", DOC).unwrap();
        assert_eq!(r.title, "imb-rs 0.1.0, MPI-1 part");
        assert_eq!(r.thread_level(), Some("MPI_THREAD_SINGLE"));
        assert_eq!(r.status, Status::Complete);
        assert_eq!(r.tables[0].columns, ["bytes", "repetitions", "t", "mbytes"]);
        assert_eq!(r.tables[0].rows, [[0.0, 1000.0, 0.12, 0.0]]);
        let multi = &r.tables[1];
        assert_eq!(
            (multi.benchmark.as_str(), multi.processes, multi.groups),
            ("Multi-Allreduce", Some(2), 2)
        );
        assert_eq!(multi.rows[0][4], 0.25);
    }

    /// Schema 3's provenance is read loosely (library and hosts, wherever they sit) and any
    /// other key is ignored; typed notes give flags and oversubscription.
    #[test]
    fn notes_and_provenance() {
        let doc = r##"{"schema_version": 3, "unknown": {"x": 1},
          "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE",
            "notes": [{"kind": "oversubscribed", "what": "processes", "count": 3, "cpus": 2,
                       "text": "3 processes share 2 CPUs on one host (oversubscribed): x"}]},
          "provenance": {"mpi": {"library_version": "Open MPI v4.1.4, package: Debian\nmore"},
                         "ranks": [{"rank": 0, "host": "n1", "cpus": [0]},
                                   {"rank": 1, "host": "n2", "cpus": [0]},
                                   {"rank": 2, "host": "n1", "cpus": [1]}],
                         "hosts": [{"host": "n1", "cpu_model": "AMD EPYC", "ranks": [0, 2]},
                                   {"host": "n2", "cpu_model": "AMD EPYC", "ranks": [1]}]},
          "tables": [{"benchmark": "Bcast_latency", "processes": 2, "groups": [[0, 1]],
            "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
            "keys": ["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us"],
            "rows": [{"bytes": 4, "repetitions": 10, "t_min_us": 1, "t_max_us": 1, "t_avg_us": 1}],
            "notes": [{"kind": "adaptive", "bytes": 4, "unsettled": {"half_width_pct": 2.0}},
                      {"kind": "adaptive", "bytes": 8, "unsettled": null},
                      {"kind": "unreliable", "bytes": 4, "rank": 1},
                      "adaptive: 16 bytes: median 1 usec: UNSETTLED (half-width 3 %)"]}]}"##;
        let r = parse("p.json", doc).unwrap();
        assert_eq!(
            r.provenance.as_deref(),
            Some("MPI library Open MPI v4.1.4, package: Debian; hosts n1, n2")
        );
        assert!(r
            .oversubscribed
            .unwrap()
            .starts_with("3 processes share 2 CPUs"));
        assert_eq!(
            r.tables[0].flags,
            [
                (Some(4), Flag::Unsettled),
                (Some(4), Flag::Unreliable),
                (Some(16), Flag::Unsettled)
            ]
        );
        // The conditions: where the ranks sat, by table and for the job.
        let c = &r.conditions;
        assert_eq!(
            c.mpi_library.as_deref(),
            Some("Open MPI v4.1.4, package: Debian")
        );
        assert_eq!(c.layout.as_deref(), Some("2+1 ranks on 2 hosts"));
        assert_eq!(
            c.hosts.as_deref(),
            Some(&["n1".to_string(), "n2".to_string()][..])
        );
        assert_eq!(
            r.tables[0].placement.as_deref(),
            Some("1+1 ranks on 2 hosts")
        );
        assert_eq!(c.program.as_deref(), Some("imb-rs 0.1.0"));
        assert_eq!(c.parameters.as_ref().map(|p| p.len()), Some(0));
    }

    #[test]
    fn status_and_schema() {
        let with = |extra: &str| DOC.replace("\"suite\": \"imb-mpi1\",", extra);
        let st = |extra: &str| parse("s.json", &with(extra)).map(|r| r.status);
        assert_eq!(st("\"schema_version\": 2,"), Ok(Status::Complete));
        assert_eq!(
            st(r#""provenance": {"status": {"state": "failed", "error": "-dir: x"}},"#),
            Ok(Status::CutShort("status failed: -dir: x".into()))
        );
        assert!(matches!(
            st(r#""provenance": {"status": {"state": "running"}},"#),
            Ok(Status::CutShort(w)) if w.starts_with("status running")
        ));
        let e = st(r#""provenance": {"status": {"state": "odd"}},"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.json, provenance.status.state: \"odd\": a status is complete, running, \
             interrupted or failed"
        );
        let e = st("\"schema_version\": \"3\",").unwrap_err().to_string();
        assert!(
            e.starts_with("s.json, schema_version: \"3\": this imb-compare reads"),
            "{e}"
        );
        let cut = DOC.replace("\"complete\": true", "\"complete\": false");
        assert!(parse("c.json", &cut).unwrap().status.cut_short().is_some());
    }

    /// The optional-mode note gives the parameters (as the text's `# !!` block does).
    #[test]
    fn optional_mode_parameters() {
        let doc = DOC.replace(
            "\"thread_env\": \"MPI_THREAD_SINGLE\"}",
            r#""thread_env": "MPI_THREAD_SINGLE", "date": "Wed Nov 25 05:21:10 2026",
               "notes": [{"kind": "optional_mode", "text": "Results from OPTIONAL mode, not standard mode:\nparameters set by the command line:\n  MAXMSGLOG = 4 (standard 22)\n  MSGSPERSAMPLE = 50 (standard 1000)"}]}"#,
        );
        let r = parse("o.json", &doc).unwrap();
        let p = r.conditions.parameters.unwrap();
        assert_eq!(p.get("MSGSPERSAMPLE").map(String::as_str), Some("50"));
        assert!(!p.contains_key("MAXMSGLOG"));
        assert_eq!(r.identity.date.as_deref(), Some("Wed Nov 25 05:21:10 2026"));
        assert!(r.identity.json);
    }

    /// A `-compat 2021` document: its method note gives the parameters, and its Mbytes/sec
    /// (10^6 bytes) read as 2^20-byte megabytes, the unit runs are compared in.
    #[test]
    fn compat_2021_method_and_megabytes() {
        let doc = DOC
            .replace(
                "\"thread_env\": \"MPI_THREAD_SINGLE\"}",
                r#""thread_env": "MPI_THREAD_SINGLE",
               "notes": [{"kind": "method", "text": "Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:\n  collectives timed call by call, an untimed barrier after each call (-sync on)\n  Mbytes/sec counts MB = 10^6 bytes"}]}"#,
            )
            .replace("\"mbytes_per_s\": 0.0", "\"mbytes_per_s\": 1048576.0");
        let r = parse("m.json", &doc).unwrap();
        let p = r.conditions.parameters.unwrap();
        assert_eq!(p.get("-compat").map(String::as_str), Some("2021"));
        assert_eq!(p.get("-sync").map(String::as_str), Some("on"));
        assert_eq!(r.tables[0].rows[0][3], 1e6);
    }

    /// Schema 3 adds `provenance` (and the suites without MPI write other tables); the tables
    /// read as before.
    #[test]
    fn schema_3_reads_like_schema_2() {
        let doc = DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            r#""schema_version": 3, "suite": "imb-mpi1",
  "provenance": {"imb_rs_version": "0.1.0", "git_commit": null, "argv": ["imb-mpi1", {"lossy": "\ufffd", "hex": "ff"}],
    "parameters": [{"name": "MAXMSGLOG", "value": 3, "standard": 22, "origin": "command line"}],
    "settings_file": null,
    "mpi": {"library_version": "Open MPI v4.1.4", "standard_version": [3, 1],
            "thread_level": "MPI_THREAD_SINGLE", "thread_level_requested": "MPI_THREAD_SINGLE"},
    "ranks": [{"rank": 0, "host": "a", "cpus": [0], "wtick": 1e-9, "wtime_is_global": false}],
    "hosts": [{"host": "a", "cpu_model": null, "ranks": [0]}], "environment": {},
    "start": "2026-01-01T00:00:00.000Z", "end": "2026-01-01T00:00:01.000Z",
    "status": {"state": "complete"}},"#,
        );
        assert!(doc.contains("\"provenance\""));
        let (a, b) = (
            parse("a.json", DOC).unwrap(),
            parse("d.json", &doc).unwrap(),
        );
        assert_eq!(a.tables.len(), b.tables.len());
        assert_eq!(a.tables[0].rows, b.tables[0].rows);
        assert_eq!(a.title, b.title);
    }

    /// A schema 4 document as imb-mpi1 writes it on two names of one machine (the two
    /// nodes of a test cluster on one computer): `p` is spliced into its provenance.
    pub(crate) fn schema4(ids: [&str; 2], p: &str) -> String {
        DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            &format!(
                r##""schema_version": 4, "suite": "imb-mpi1",
  "provenance": {{"mpi": {{"library_version": "Open MPI v4.1.4", "thread_level": "MPI_THREAD_SINGLE",
      "control_variables": {{"count": 1116, "set": [
        {{"name": "btl", "source": "environment OMPI_MCA_btl", "launcher": false, "value": "self,vader,tcp"}},
        {{"name": "orte_hnp_uri", "source": "environment OMPI_MCA_orte_hnp_uri", "launcher": true, "value": "1.0;tcp://x"}},
        {{"name": "mpi_oversubscribe", "source": "environment OMPI_MCA_mpi_oversubscribe", "launcher": false, "value": {{"absent": "not read"}}}}],
        "unknown": [], "truncated": false}}}},
    "ranks": [{{"rank": 0, "host": "node1"}}, {{"rank": 1, "host": "node2"}}],
    "hosts": [{{"host": "node1", "cpu_model": "AMD EPYC", "ranks": [0],
                "machine": {{"id": "{}", "from": "boot_id"}}, "os_release": "Debian 12",
                "kernel": {{"sysname": "Linux", "release": "6.1.0", "version": "#1", "machine": "x86_64"}},
                "cpu": {{"model": "AMD EPYC", "logical": 2, "sockets": 1, "cores": 2, "threads_per_core": 1}},
                "numa": [{{"node": 0, "cpus": [0, 1], "mem_total_kib": 1}}],
                "governor": {{"absent": "not available"}}, "fabric_libraries": {{}}}},
              {{"host": "node2", "cpu_model": "AMD EPYC", "ranks": [1],
                "machine": {{"id": "{}", "from": "boot_id"}}, "os_release": "Debian 12",
                "kernel": {{"sysname": "Linux", "release": "6.1.0", "version": "#1", "machine": "x86_64"}},
                "governor": {{"performance": [0, 1]}},
                "fabric_libraries": {{"ucx": {{"path": "/x/libucp.so.0", "version": "1.13.1"}}}}}}],
    "build": {{"rustc": "rustc 1.95.0", "profile": "release", "opt_level": "3",
               "binary": {{"path": "/x", "bytes": 1, "sha256": "ab\u00e9cdef0123456789"}}}},
    {p}
    "status": {{"state": "complete"}}}},"##,
                ids[0], ids[1]
            ),
        )
    }

    /// Two host names with one identity are one host to placement and layout; the names
    /// stay, the facts are read, the launcher's control variables are left out.
    #[test]
    fn schema_4_names_on_one_machine() {
        let r = parse("m.json", &schema4(["aa", "aa"], "")).unwrap();
        let c = &r.conditions;
        assert_eq!(c.layout.as_deref(), Some("2 ranks on 1 host"));
        assert_eq!(r.tables[0].placement.as_deref(), Some("2 ranks on 1 host"));
        assert_eq!(
            c.hosts.as_deref(),
            Some(&["node1".to_string(), "node2".to_string()][..])
        );
        let f = |k: &str| c.facts.get(k).map(String::as_str);
        assert_eq!(f("kernel"), Some("6.1.0"));
        assert_eq!(f("OS"), Some("Debian 12"));
        assert_eq!(f("CPU model"), Some("AMD EPYC"));
        assert_eq!(
            f("CPU topology"),
            Some("1 socket(s), 2 cores, 1 thread(s) per core")
        );
        assert_eq!(f("frequency governor"), Some("not available / performance"));
        assert_eq!(f("fabric libraries"), Some("none / ucx 1.13.1"));
        assert_eq!(f("build"), Some("rustc 1.95.0, release (opt-level 3)"));
        assert_eq!(f("binary"), Some("SHA-256 ab\u{e9}cdef01234…"));
        let cv = c.control_variables.as_ref().unwrap();
        let got: Vec<(&str, &str)> = cv.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            got,
            [
                ("btl", "self,vader,tcp"),
                ("mpi_oversubscribe", "(not read)")
            ]
        );
        // MPI saw two nodes on the one machine (a network between the names, as on a test
        // cluster of namespaces): the placement says so, and differs from shared memory.
        let nodes = schema4(["aa", "aa"], "").replace(
            r#"[{"rank": 0, "host": "node1"}, {"rank": 1, "host": "node2"}]"#,
            r#"[{"rank": 0, "host": "node1", "mpi_node": 0}, {"rank": 1, "host": "node2", "mpi_node": 1}]"#,
        );
        let r = parse("n.json", &nodes).unwrap();
        assert_eq!(
            r.conditions.layout.as_deref(),
            Some("2 ranks on 1 host (2 MPI nodes)")
        );
        assert_eq!(
            r.tables[0].placement.as_deref(),
            Some("2 ranks on 1 host (2 MPI nodes)")
        );
        let one_node = nodes.replace(r#""mpi_node": 1"#, r#""mpi_node": 0"#);
        let r = parse("o.json", &one_node).unwrap();
        assert_eq!(r.conditions.layout.as_deref(), Some("2 ranks on 1 host"));
        // Two identities: two hosts, as before schema 4.
        let r = parse("n.json", &schema4(["aa", "bb"], "")).unwrap();
        assert_eq!(r.conditions.layout.as_deref(), Some("1+1 ranks on 2 hosts"));
        assert_eq!(
            r.tables[0].placement.as_deref(),
            Some("1+1 ranks on 2 hosts")
        );
        // An identity that is absent: the name decides.
        let doc = schema4(["aa", "aa"], "").replacen(
            r#""machine": {"id": "aa", "from": "boot_id"}"#,
            r#""machine": {"absent": "no boot_id"}"#,
            1,
        );
        let r = parse("a.json", &doc).unwrap();
        assert_eq!(r.conditions.layout.as_deref(), Some("1+1 ranks on 2 hosts"));
        // Schema 5 is refused.
        let e = parse(
            "5.json",
            &DOC.replace("\"suite\"", "\"schema_version\": 5, \"suite\""),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("reads schemas 1 to 4"), "{e}");
        // Also when a newer schema changed the document's shape (no `tables`): the schema is
        // what is wrong, not a missing field.
        let e = parse("9.json", r#"{"schema_version": 9, "runs": []}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "9.json, schema_version: 9: this imb-compare reads schemas 1 to 4 (a newer imb-rs \
             wrote it? use the imb-compare of that version)"
        );
    }

    /// A schema 4 document of 4 ranks, 2 on each of two host names, as the test cluster's
    /// namespaces give them: `ids` are the hosts' machine identities, `cpus` each rank's CPU
    /// set and `logical` each host's online CPUs.
    pub(crate) fn four_ranks(ids: [&str; 2], cpus: [&str; 4], logical: usize) -> String {
        let host = |name: &str, id: &str, ranks: &str| {
            format!(
                r#"{{"host": "{name}", "cpu_model": "AMD EPYC", "ranks": {ranks},
                    "machine": {{"id": "{id}", "from": "boot_id"}},
                    "cpu": {{"model": "AMD EPYC", "logical": {logical}, "sockets": 1,
                             "cores": {logical}, "threads_per_core": 1}}}}"#
            )
        };
        DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            &format!(
                r#""schema_version": 4, "suite": "imb-mpi1",
  "provenance": {{"mpi": {{"library_version": "Open MPI v4.1.4", "thread_level": "MPI_THREAD_SINGLE"}},
    "ranks": [{{"rank": 0, "host": "node1", "cpus": {}, "mpi_node": 0}},
              {{"rank": 1, "host": "node1", "cpus": {}, "mpi_node": 0}},
              {{"rank": 2, "host": "node2", "cpus": {}, "mpi_node": 2}},
              {{"rank": 3, "host": "node2", "cpus": {}, "mpi_node": 2}}],
    "hosts": [{}, {}],
    "status": {{"state": "complete"}}}},"#,
                cpus[0],
                cpus[1],
                cpus[2],
                cpus[3],
                host("node1", ids[0], "[0, 1]"),
                host("node2", ids[1], "[2, 3]")
            ),
        )
    }

    /// Four ranks on one 2-CPU machine under two host names: the header (which counts per
    /// host name) has no note, but the ranks on the machine outnumber its CPUs. On two
    /// machines, or with a CPU per rank, nothing is oversubscribed.
    #[test]
    fn oversubscribed_per_machine_not_per_host_name() {
        let unbound = ["[0, 1]"; 4];
        let r = parse("m.json", &four_ranks(["aa", "aa"], unbound, 2)).unwrap();
        assert_eq!(
            r.oversubscribed.as_deref(),
            Some(
                "4 processes share 2 CPUs on one machine (aa: hosts node1, node2) \
                 (oversubscribed): times measure the scheduler, they are not results"
            )
        );
        // Bound to a core each by each host's launcher, the ranks of both names share the
        // same two cores.
        let bound = ["[0]", "[1]", "[0]", "[1]"];
        let r = parse("b.json", &four_ranks(["aa", "aa"], bound, 2)).unwrap();
        assert!(r.oversubscribed.is_some());
        // Two machines: 2 ranks on 2 CPUs each.
        let r = parse("t.json", &four_ranks(["aa", "bb"], unbound, 2)).unwrap();
        assert_eq!(r.oversubscribed, None);
        // One machine of 4 CPUs.
        let four = ["[0, 1, 2, 3]"; 4];
        let r = parse("f.json", &four_ranks(["aa", "aa"], four, 4)).unwrap();
        assert_eq!(r.oversubscribed, None);
        // The ranks' CPU sets decide, as in the header: 4 ranks held to 2 of 4 CPUs.
        let r = parse("h.json", &four_ranks(["aa", "aa"], unbound, 4)).unwrap();
        assert!(r
            .oversubscribed
            .unwrap()
            .starts_with("4 processes share 2 CPUs on one machine"));
        // Without the ranks' CPU sets, the machine's online CPUs.
        let r = parse("n.json", &four_ranks(["aa", "aa"], ["[]"; 4], 2)).unwrap();
        assert!(r.oversubscribed.is_some());
        // Without a machine identity each name is a host, as the header counts.
        let doc = four_ranks(["aa", "aa"], unbound, 2).replace(
            r#""machine": {"id": "aa", "from": "boot_id"}"#,
            r#""machine": {"absent": "no boot_id"}"#,
        );
        assert_eq!(parse("a.json", &doc).unwrap().oversubscribed, None);
        // The header's own note stays when it has one.
        let doc = four_ranks(["aa", "aa"], unbound, 2).replace(
            r#""thread_env": "MPI_THREAD_SINGLE"}"#,
            r#""thread_env": "MPI_THREAD_SINGLE", "notes": [{"kind": "oversubscribed",
                "what": "processes", "count": 4, "cpus": 2,
                "text": "4 processes share 2 CPUs on one host (oversubscribed): x"}]}"#,
        );
        assert_eq!(
            parse("o.json", &doc).unwrap().oversubscribed.as_deref(),
            Some("4 processes share 2 CPUs on one host (oversubscribed): x")
        );
    }

    /// Binding is read as a policy from the ranks' CPU sets against their machine's CPUs: the
    /// CPU numbers never count, so one policy in two launches reads the same.
    #[test]
    fn binding_as_a_policy() {
        let read = |ids: [&str; 2], cpus: [&str; 4], logical: usize| {
            parse("b.json", &four_ranks(ids, cpus, logical))
                .unwrap()
                .conditions
                .binding
        };
        let one = |s: &str| Some(s.to_string());
        let core = ["[0]", "[1]", "[0]", "[1]"];
        assert_eq!(read(["aa", "bb"], core, 2), one("each rank on 1 CPU"));
        // The same policy that put rank 0 on CPU 1 this time.
        assert_eq!(
            read(["aa", "bb"], ["[1]", "[0]", "[1]", "[0]"], 2),
            read(["aa", "bb"], core, 2)
        );
        assert_eq!(read(["aa", "bb"], ["[0, 1]"; 4], 2), one("unbound"));
        // Two CPUs of four (a socket of two): bound, though to more than one CPU.
        assert_eq!(
            read(["aa", "bb"], ["[0, 1]", "[2, 3]", "[0, 1]", "[2, 3]"], 4),
            one("each rank on 2 CPUs")
        );
        assert_eq!(
            read(["aa", "bb"], ["[0]", "[0, 1]", "[1]", "[1]"], 2),
            one("mixed: 3 ranks on 1 CPU, 1 rank unbound")
        );
        // Without the machine's CPU count (before schema 4) a set is told by its size.
        assert_eq!(
            read(["aa", "bb"], ["[0, 1]"; 4], 0),
            one("each rank on 2 CPUs")
        );
        // A rank without its set: not recorded, as in text and before schema 3.
        assert_eq!(read(["aa", "bb"], ["[0]", "[1]", "[]", "[1]"], 2), None);
        assert_eq!(parse("d.json", DOC).unwrap().conditions.binding, None);
        // The launcher's policy is a note: explicit `--bind-to core` and Open MPI's default
        // give the same sets.
        let doc = four_ranks(["aa", "bb"], core, 2).replace(
            r#""status": {"state": "complete"}"#,
            r#""environment": {"OMPI_MCA_hwloc_base_binding_policy": "core"},
               "status": {"state": "complete"}"#,
        );
        let c = parse("p.json", &doc).unwrap().conditions;
        assert_eq!(c.binding, one("each rank on 1 CPU"));
        assert_eq!(
            c.facts.get("binding policy").map(String::as_str),
            Some("Open MPI core")
        );
        // Slurm's binding when srun started the ranks, without its masks; under mpirun it is
        // the daemons' step, not the ranks'.
        let slurm = |parent: &str| {
            let doc = four_ranks(["aa", "bb"], core, 2).replace(
                r#""status": {"state": "complete"}"#,
                &format!(
                    r#""launcher": {{"kinds": ["slurm"],
                        "variables": {{"SLURM_CPU_BIND": "quiet,mask_cpu:0x1,0x2"}},
                        "parent": {{"pid": 1, "cmdline": ["{parent}", "-n", "4"], "cut": false}}}},
                       "status": {{"state": "complete"}}"#
                ),
            );
            parse("s.json", &doc)
                .unwrap()
                .conditions
                .facts
                .get("binding policy")
                .cloned()
        };
        assert_eq!(slurm("/usr/bin/srun"), one("Slurm mask_cpu"));
        assert_eq!(slurm("mpirun"), None);
    }

    /// Two tables under one key: with the same columns, a benchmark named twice, its rows
    /// joined to the first's; with other columns, refused. A row of a group the table does not
    /// have is refused.
    #[test]
    fn tables_under_one_key_and_groups_beyond_the_table() {
        let twice = DOC
            .replace(r#""benchmark": "Allreduce""#, r#""benchmark": "PingPong""#)
            .replace(r#""multi": true"#, r#""multi": false"#)
            .replace("[[0, 1], [2, 3]]", "[[0, 1]]");
        let e = parse("t.json", &twice).unwrap_err().to_string();
        assert_eq!(
            e,
            "t.json, tables[1]: a second table of PingPong, 2 processes (the first is tables[0]) \
             with other columns: not one launch's document"
        );
        // PingPong's table twice again, its row slower: one row of the three's medians.
        let mut v: Value = serde_json::from_str(DOC).unwrap();
        for t in [0.3, 0.2] {
            let mut again = v["tables"][0].clone();
            again["rows"][0]["t_us"] = Value::from(t);
            v["tables"].as_array_mut().unwrap().push(again);
        }
        let r = parse("t.json", &v.to_string()).unwrap();
        assert_eq!(r.tables.len(), 2);
        assert_eq!(r.tables[0].rows, [[0.0, 1000.0, 0.2, 0.0]]);
        let grouped = DOC
            .replacen(
                r##""columns": ["#bytes""##,
                r##""columns": ["Group", "#bytes""##,
                1,
            )
            .replace(r#""keys": ["bytes""#, r#""keys": ["group", "bytes""#)
            .replace(r#"{"bytes": 0,"#, r#"{"group": 1, "bytes": 0,"#);
        let e = parse("g.json", &grouped).unwrap_err().to_string();
        assert_eq!(
            e,
            "g.json, tables[0].rows[0].group: group 1 in a table of 1 group(s)"
        );
        let ok = grouped.replace(r#""group": 1,"#, r#""group": 0,"#);
        assert_eq!(parse("g.json", &ok).unwrap().tables[0].columns[0], "group");
    }

    #[test]
    fn a_broken_document_names_its_line() {
        let e = parse("b.json", "{\n  \"tables\": [\n  oops\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("b.json, line 3: not an imb-rs -json document: "),
            "{e}"
        );
        let e = parse("c.json", r#"{"tables": []}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "c.json: no table with rows in this -json document");
    }
}
