//! What defines a result, and whether two runs share it (doc/ACCEPTANCE.md, "Comparable
//! runs"). Two figures of one benchmark and size compare only when the program, the MPI
//! library, the thread level, the parameters that set the repetitions and the timing method,
//! where the table's ranks ran, how the job's ranks sat on its hosts and how they were bound to
//! CPUs are the same; each is a [`Kind`]. A comparison prints every difference above the
//! tables it affects, and a criterion judged across one fails unless the user accepts that
//! kind by name (`--accept-difference`). What a file does not record (text has no hosts) is
//! said once, never taken as equal or as different.

use crate::read::header::suite;
use crate::read::key::TableKey;
use crate::read::run::Run;
use crate::read::sides::Side;
use std::collections::BTreeMap;

/// One kind of result-defining condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// In the order a report lists differences: the ones that move small-message times most
/// (and are easiest to overlook) first.
pub enum Kind {
    /// The granted MPI thread level.
    ThreadLevel,
    /// The threads each process ran the benchmark on (IMB-MT's `(threads: T)`).
    Threads,
    /// How the ranks were bound to CPUs: a rank on one CPU and a rank free to move differ by
    /// orders of magnitude where the kernel's network work waits for a busy CPU.
    Binding,
    /// Where a table's ranks ran: one host or several, per group.
    Placement,
    /// How the job's ranks sat on its hosts.
    Layout,
    /// The MPI library and the standard version it reports.
    Mpi,
    /// The program and its version (IMB 3.0, IMB 2021.11, imb-rs 0.1.0, OSU 7.4).
    Program,
    /// Repetitions, warm-up, time cap, `-adaptive` and other parameters off standard mode.
    Parameters,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Program,
        Kind::Mpi,
        Kind::ThreadLevel,
        Kind::Parameters,
        Kind::Placement,
        Kind::Layout,
        Kind::Binding,
        Kind::Threads,
    ];

    /// The name `--accept-difference` takes.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Program => "program",
            Kind::Mpi => "mpi",
            Kind::ThreadLevel => "thread-level",
            Kind::Threads => "threads",
            Kind::Parameters => "parameters",
            Kind::Placement => "placement",
            Kind::Layout => "layout",
            Kind::Binding => "binding",
        }
    }

    /// The words a report uses.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Program => "program",
            Kind::Mpi => "MPI library",
            Kind::ThreadLevel => "thread level",
            Kind::Threads => "threads per process",
            Kind::Parameters => "parameters",
            Kind::Placement => "placement",
            Kind::Layout => "ranks per host",
            Kind::Binding => "binding",
        }
    }

    pub fn parse(s: &str) -> Result<Kind, String> {
        Kind::ALL.into_iter().find(|k| k.key() == s).ok_or_else(|| {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.key()).collect();
            format!("{s:?}: the kinds are {}", names.join(", "))
        })
    }
}

/// One condition that differs between two runs, or between launches of one run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Difference {
    pub kind: Kind,
    /// "thread level: MPI_THREAD_MULTIPLE (base) vs MPI_THREAD_SINGLE (new)".
    pub text: String,
}

/// A side's known values of one condition, with the launches that had each.
struct Seen {
    values: BTreeMap<String, Vec<usize>>,
}

fn seen(side: &Side, f: impl Fn(&Run) -> Option<String>) -> Seen {
    let mut s = Seen {
        values: BTreeMap::new(),
    };
    for (k, r) in side.runs.iter().enumerate() {
        if let Some(v) = f(r) {
            s.values.entry(v).or_default().push(k);
        }
    }
    s
}

fn launches(side: &Side, ks: &[usize]) -> String {
    let names: Vec<String> = ks
        .iter()
        .map(|&k| {
            side.files.get(k).map_or(format!("launch {}", k + 1), |f| {
                std::path::Path::new(f)
                    .file_name()
                    .map_or(f.clone(), |n| n.to_string_lossy().into_owned())
            })
        })
        .collect();
    names.join(", ")
}

/// A difference among the launches of one side, when they disagree.
fn within(kind: Kind, what: &str, side: &Side, name: &str, s: &Seen, out: &mut Vec<Difference>) {
    if s.values.len() > 1 {
        let parts: Vec<String> = s
            .values
            .iter()
            .map(|(v, ks)| format!("{v} ({})", launches(side, ks)))
            .collect();
        out.push(Difference {
            kind,
            text: format!(
                "{what}: the launches of {name} differ: {}",
                parts.join(" vs ")
            ),
        });
    }
}

/// The differences of one condition between `a` and `b` (named `na`, `nb` in the text), and
/// within each.
fn differ(
    kind: Kind,
    what: &str,
    (a, na, sa): (&Side, &str, &Seen),
    (b, nb, sb): (&Side, &str, &Seen),
    out: &mut Vec<Difference>,
) {
    within(kind, what, a, na, sa, out);
    within(kind, what, b, nb, sb, out);
    if !sa.values.is_empty() && !sb.values.is_empty() && sa.values.keys().ne(sb.values.keys()) {
        let list = |s: &Seen| s.values.keys().cloned().collect::<Vec<_>>().join(" / ");
        out.push(Difference {
            kind,
            text: format!("{what}: {} ({na}) vs {} ({nb})", list(sa), list(sb)),
        });
    }
}

/// The conditions that hold for a whole run, but the parameters, with their words.
type RunCondition = (Kind, &'static str, fn(&Run) -> Option<String>);
const RUN_CONDITIONS: [RunCondition; 8] = [
    (Kind::Program, "program", |r| r.conditions.program.clone()),
    // IMB-MPI1's PingPong and IMB-P2P's are other methods under one name.
    (Kind::Program, "suite", |r| suite(&r.title)),
    (Kind::Mpi, "MPI standard", |r| {
        r.conditions.mpi_standard.clone()
    }),
    (Kind::Mpi, "MPI library", |r| {
        r.conditions.mpi_library.clone()
    }),
    (Kind::ThreadLevel, "thread level", |r| {
        r.conditions.thread_level.clone()
    }),
    (Kind::Layout, "ranks per host", |r| {
        r.conditions.layout.clone()
    }),
    (Kind::Binding, "binding", |r| r.conditions.binding.clone()),
    (Kind::Threads, "threads per process", |r| {
        r.conditions.threads.clone()
    }),
];

/// A side's parameters in words: "standard", or "MSGSPERSAMPLE 50, -time 0.5 s".
fn render(m: &BTreeMap<String, String>) -> String {
    if m.is_empty() {
        return "standard".to_string();
    }
    let v: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
    v.join(", ")
}

/// Every difference of the conditions that hold for the whole run (all but placement)
/// between sides `a` and `b`, named `na` and `nb`.
pub fn run_differences(a: (&Side, &str), b: (&Side, &str)) -> Vec<Difference> {
    let mut out = Vec::new();
    for (kind, what, f) in RUN_CONDITIONS {
        let (sa, sb) = (seen(a.0, f), seen(b.0, f));
        differ(kind, what, (a.0, a.1, &sa), (b.0, b.1, &sb), &mut out);
    }
    parameter_differences(a, b, &mut out);
    out
}

/// The differences among the launches of one side only (when no baseline is judged).
pub fn side_differences(a: (&Side, &str)) -> Vec<Difference> {
    let mut out = Vec::new();
    for (kind, what, f) in RUN_CONDITIONS {
        within(kind, what, a.0, a.1, &seen(a.0, f), &mut out);
    }
    let s = seen(a.0, |r| r.conditions.parameters.as_ref().map(render));
    within(Kind::Parameters, "parameters", a.0, a.1, &s, &mut out);
    out
}

/// The placement differences among one side's launches for one table.
pub fn table_side_differences(key: &TableKey, a: (&Side, &str, &Placements)) -> Vec<Difference> {
    let mut out = Vec::new();
    within(
        Kind::Placement,
        "placement",
        a.0,
        a.1,
        &a.2.seen(key),
        &mut out,
    );
    out
}

/// Parameters compare key by key: a key one side does not set is at its standard value.
fn parameter_differences(a: (&Side, &str), b: (&Side, &str), out: &mut Vec<Difference>) {
    // Launches of one side that differ among themselves are named as such first.
    for (side, name) in [a, b] {
        let s = seen(side, |r| r.conditions.parameters.as_ref().map(render));
        within(Kind::Parameters, "parameters", side, name, &s, out);
    }
    let first = |s: &Side| s.runs.iter().find_map(|r| r.conditions.parameters.clone());
    let (Some(pa), Some(pb)) = (first(a.0), first(b.0)) else {
        return;
    };
    let keys: std::collections::BTreeSet<&String> = pa.keys().chain(pb.keys()).collect();
    for k in keys {
        let (va, vb) = (pa.get(k), pb.get(k));
        if va != vb {
            let show = |v: Option<&String>| v.map_or("standard".to_string(), |v| v.clone());
            out.push(Difference {
                kind: Kind::Parameters,
                text: format!(
                    "parameters: {k} {} ({}) vs {} ({})",
                    show(va),
                    a.1,
                    show(vb),
                    b.1
                ),
            });
        }
    }
}

/// Where each launch's tables ran (a `-json` file's placement), by table. Built once per side
/// and comparison: a scan of the launch for every table was quadratic in the tables, minutes
/// for a file of thousands.
pub struct Placements(Vec<BTreeMap<TableKey, String>>);

impl Placements {
    pub fn of(side: &Side, world: &BTreeMap<String, usize>) -> Placements {
        Placements(
            side.runs
                .iter()
                .map(|r| {
                    let mut m = BTreeMap::new();
                    for t in &r.tables {
                        if let Some(p) = &t.placement {
                            m.entry(TableKey::of(t, world)).or_insert_with(|| p.clone());
                        }
                    }
                    m
                })
                .collect(),
        )
    }

    /// Each launch's placements of table `key`.
    fn seen(&self, key: &TableKey) -> Seen {
        let mut s = Seen {
            values: BTreeMap::new(),
        };
        for (k, m) in self.0.iter().enumerate() {
            if let Some(v) = m.get(key) {
                s.values.entry(v.clone()).or_default().push(k);
            }
        }
        s
    }
}

/// The placement differences of one table (by `key`) between `a` and `b`, each side with its
/// [`Placements`].
pub fn table_differences(
    key: &TableKey,
    a: (&Side, &str, &Placements),
    b: (&Side, &str, &Placements),
) -> Vec<Difference> {
    let (sa, sb) = (a.2.seen(key), b.2.seen(key));
    let mut out = Vec::new();
    differ(
        Kind::Placement,
        "placement",
        (a.0, a.1, &sa),
        (b.0, b.1, &sb),
        &mut out,
    );
    out
}

/// Whether a launch records each condition, with its words and kind (placement stands for
/// ranks per host too: both come from `-json` provenance).
type Recorded = (Kind, &'static str, fn(&Run) -> bool);
const RECORDED: [Recorded; 7] = [
    (Kind::ThreadLevel, "thread level", |r| {
        r.conditions.thread_level.is_some()
    }),
    (Kind::Mpi, "MPI library", |r| {
        r.conditions.mpi_library.is_some()
    }),
    (Kind::Parameters, "parameters", |r| {
        r.conditions.parameters.is_some()
    }),
    (Kind::Placement, "placement and ranks per host", |r| {
        r.conditions.layout.is_some()
    }),
    (Kind::Binding, "binding", |r| r.conditions.binding.is_some()),
    (Kind::Program, "program", |r| r.conditions.program.is_some()),
    // Only the MT suite runs a benchmark on several threads of a process.
    (Kind::Threads, "threads per process", |r| {
        r.conditions.threads.is_some() || suite(&r.title).as_deref() != Some("MT")
    }),
];

/// The conditions some launch of `side` does not record: kind and words.
pub fn unrecorded_by(side: &Side) -> Vec<(Kind, &'static str)> {
    RECORDED
        .iter()
        .filter(|(_, _, known)| side.runs.iter().any(|r| !known(r)))
        .map(|&(kind, what, _)| (kind, what))
        .collect()
}

/// The conditions a side's files do not record, in words ("placement: not recorded by
/// base (text output has no hosts)"), one line per kind and side.
pub fn unrecorded(sides: &[(&Side, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    for (kind, what, _) in RECORDED {
        let missing: Vec<&str> = sides
            .iter()
            .filter(|(s, _)| unrecorded_by(s).iter().any(|(k, _)| *k == kind))
            .map(|(_, n)| *n)
            .collect();
        if !missing.is_empty() {
            out.push(format!(
                "{what}: not recorded by {} (keep -json files with provenance to have it checked)",
                missing.join(", ")
            ));
        }
    }
    out
}

/// What differs between sides `a` and `b` without defining their figures, one line each: the
/// hosts they ran on (the same fabric on other nodes is comparable), and the facts of schema 4
/// that describe a run (OS, kernel, CPU model and topology, frequency governor, fabric
/// libraries, build, binary) and the MPI control variables it set. doc/ACCEPTANCE.md,
/// "Comparable runs", says why these describe rather than define a result. (Named for its
/// first line, the hosts; `comparison` calls it.)
pub fn host_note(a: (&Side, &str), b: (&Side, &str)) -> Vec<String> {
    let mut out = Vec::new();
    let hosts = |s: &Side| {
        let mut h: Vec<String> = s
            .runs
            .iter()
            .filter_map(|r| r.conditions.hosts.clone())
            .flatten()
            .collect();
        h.sort();
        h.dedup();
        h
    };
    let (ha, hb) = (hosts(a.0), hosts(b.0));
    if !ha.is_empty() && !hb.is_empty() && ha != hb {
        out.push(format!(
            "hosts: {} ({}) vs {} ({})",
            ha.join(", "),
            a.1,
            hb.join(", "),
            b.1
        ));
    }
    let facts = |s: &Side| {
        let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in &s.runs {
            for (k, v) in &r.conditions.facts {
                let e = m.entry(k.clone()).or_default();
                if !e.contains(v) {
                    e.push(v.clone());
                }
            }
        }
        m
    };
    let (fa, fb) = (facts(a.0), facts(b.0));
    for (k, va) in &fa {
        if let Some(vb) = fb.get(k) {
            if va != vb {
                out.push(format!(
                    "{k}: {} ({}) vs {} ({})",
                    va.join(" / "),
                    a.1,
                    vb.join(" / "),
                    b.1
                ));
            }
        }
    }
    out.extend(control_variable_notes(a, b));
    out
}

/// The MPI control variables that the runs of `a` and `b` set to different values, or that
/// one side set and the other did not, when both sides record them.
fn control_variable_notes(a: (&Side, &str), b: (&Side, &str)) -> Vec<String> {
    // Per name, each side's values over its launches that record control variables ("not
    // set" for a launch that did not set it).
    let values = |s: &Side| -> Option<BTreeMap<String, Vec<String>>> {
        let recorded: Vec<&BTreeMap<String, String>> = s
            .runs
            .iter()
            .filter_map(|r| r.conditions.control_variables.as_ref())
            .collect();
        if recorded.is_empty() {
            return None;
        }
        let names: std::collections::BTreeSet<&String> =
            recorded.iter().flat_map(|m| m.keys()).collect();
        Some(
            names
                .into_iter()
                .map(|n| {
                    let mut v: Vec<String> = recorded
                        .iter()
                        .map(|m| m.get(n).cloned().unwrap_or("not set".to_string()))
                        .collect();
                    v.sort();
                    v.dedup();
                    (n.clone(), v)
                })
                .collect(),
        )
    };
    let (Some(va), Some(vb)) = (values(a.0), values(b.0)) else {
        return Vec::new();
    };
    let names: std::collections::BTreeSet<&String> = va.keys().chain(vb.keys()).collect();
    let unset = vec!["not set".to_string()];
    names
        .into_iter()
        .filter_map(|n| {
            let (x, y) = (va.get(n).unwrap_or(&unset), vb.get(n).unwrap_or(&unset));
            (x != y).then(|| {
                format!(
                    "MPI control variable {n}: {} ({}) vs {} ({})",
                    x.join(" / "),
                    a.1,
                    y.join(" / "),
                    b.1
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::header::spread;

    #[test]
    fn spreads() {
        assert_eq!(spread(vec![2]), "2 ranks on 1 host");
        assert_eq!(spread(vec![1]), "1 rank on 1 host");
        assert_eq!(spread(vec![1, 1]), "1+1 ranks on 2 hosts");
        assert_eq!(spread(vec![1, 3]), "3+1 ranks on 2 hosts");
        assert_eq!(Kind::parse("thread-level"), Ok(Kind::ThreadLevel));
        assert_eq!(Kind::parse("binding"), Ok(Kind::Binding));
        assert!(Kind::parse("hosts")
            .unwrap_err()
            .contains("program, mpi, thread-level"));
    }
}
