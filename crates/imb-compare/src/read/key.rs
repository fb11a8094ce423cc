//! Where a figure sits in the runs read: its table ([`TableKey`], with the process count a
//! table without one is taken at, [`world_counts`]) and its column ([`Metric`]).

use super::run::Table;
use super::sides::Side;
use std::collections::BTreeMap;

/// Which figure of a row is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// `t[usec]` where the table has it, else `t_avg[usec]`, else a non-blocking table's
    /// `t_ovrl[usec]`: the time IMB users quote.
    T,
    TAvg,
    TMin,
    TMax,
    Mbytes,
    /// The non-blocking tables' (imb-io, imb-nbc, IMB-NBC) time with and without overlap.
    TOvrl,
    TPure,
    /// IMB-P2P's and IMB-MT's message rate (`Msg/sec`, imb-rs's `msg_per_s`), IMB-MPI1's
    /// Uniband and Biband's: higher is better, as for `mbytes`.
    MsgPerS,
}

impl Metric {
    pub fn parse(s: &str) -> Result<Metric, String> {
        Ok(match s {
            "t" => Metric::T,
            "t_avg" => Metric::TAvg,
            "t_min" => Metric::TMin,
            "t_max" => Metric::TMax,
            "mbytes" => Metric::Mbytes,
            "t_ovrl" => Metric::TOvrl,
            "t_pure" => Metric::TPure,
            "msg_per_s" => Metric::MsgPerS,
            _ => {
                return Err(format!(
                    "{s:?}: use t, t_avg, t_min, t_max, mbytes, t_ovrl, t_pure or msg_per_s"
                ))
            }
        })
    }

    /// The column this metric reads in `table`, if any.
    pub fn column(self, table: &Table) -> Option<usize> {
        match self {
            Metric::T => table
                .column("t")
                .or_else(|| table.column("t_avg"))
                .or_else(|| table.column("t_ovrl")),
            Metric::TAvg => table.column("t_avg").or_else(|| table.column("t")),
            Metric::TMin => table.column("t_min").or_else(|| table.column("t")),
            Metric::TMax => table.column("t_max").or_else(|| table.column("t")),
            Metric::Mbytes => table.column("mbytes"),
            Metric::TOvrl => table.column("t_ovrl"),
            Metric::TPure => table.column("t_pure"),
            Metric::MsgPerS => table.column("msg_per_s"),
        }
    }

    /// The metric as `--metric` spells it.
    pub fn key(self) -> &'static str {
        match self {
            Metric::T => "t",
            Metric::TAvg => "t_avg",
            Metric::TMin => "t_min",
            Metric::TMax => "t_max",
            Metric::Mbytes => "mbytes",
            Metric::TOvrl => "t_ovrl",
            Metric::TPure => "t_pure",
            Metric::MsgPerS => "msg_per_s",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::T => "t (t[usec], else t_avg[usec], else t_ovrl[usec])",
            Metric::TAvg => "t_avg[usec]",
            Metric::TMin => "t_min[usec]",
            Metric::TMax => "t_max[usec]",
            Metric::Mbytes => "Mbytes/sec",
            Metric::TOvrl => "t_ovrl[usec]",
            Metric::TPure => "t_pure[usec]",
            Metric::MsgPerS => "Msg/sec",
        }
    }

    /// A rate (Mbytes/sec, Msg/sec): a higher figure is better, a ratio below 1 worse.
    pub fn higher_is_better(self) -> bool {
        matches!(self, Metric::Mbytes | Metric::MsgPerS)
    }
}

/// Where one table sits: benchmark, processes per group, groups, mode.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TableKey {
    pub benchmark: String,
    /// None when no table of the benchmark printed a count (OSU's never do).
    pub processes: Option<usize>,
    pub groups: usize,
    pub mode: String,
}

impl TableKey {
    /// Where `t` sits; a table without a process count is taken at the benchmark's `world`.
    pub fn of(t: &Table, world: &BTreeMap<String, usize>) -> TableKey {
        TableKey {
            benchmark: t.benchmark.clone(),
            processes: t.processes.or_else(|| world.get(&t.benchmark).copied()),
            groups: t.groups,
            mode: t.mode.clone().unwrap_or_default(),
        }
    }
}

/// "PingPong, 2 processes"; OSU prints no count, and a made-up one would read as a fact.
pub fn table_title(k: &TableKey) -> String {
    let mut t = match (k.groups, k.processes) {
        (0 | 1, Some(p)) => format!("{}, {p} processes", k.benchmark),
        (g, Some(p)) => format!("{}, {g} groups of {p} processes", k.benchmark),
        (0 | 1, None) => format!("{}, processes not printed", k.benchmark),
        (g, None) => format!("{}, {g} groups, processes not printed", k.benchmark),
    };
    if !k.mode.is_empty() {
        t.push_str(&format!(", {}", k.mode));
    }
    t
}

/// The largest process count of each benchmark, which is what a table without a count (OSU's:
/// it runs on the whole world) is measured at.
pub fn world_counts(sides: &[&Side]) -> BTreeMap<String, usize> {
    let mut m: BTreeMap<String, usize> = BTreeMap::new();
    for t in sides.iter().flat_map(|s| &s.runs).flat_map(|r| &r.tables) {
        if let Some(p) = t.processes {
            let e = m.entry(t.benchmark.clone()).or_default();
            *e = (*e).max(p);
        }
    }
    m
}
