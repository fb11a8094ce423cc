//! IMB-style command lines: `-npmin 2 -map 2x7 PingPong`, names in any case and order.
//!
//! Rank 0 parses, reads the files the options name, and broadcasts the resolved `Options`;
//! every error is one line naming the argument, file and line. The modules build on each
//! other in this order, none importing a later one: `value` (the value parsers and the values
//! they make), `record` (what every record of argv holds), `table` (option rows and the argv
//! readers every executable uses), `shared` (the rows every executable has), `raw` (argv as
//! typed, pure), `family` (a family's own options), `method_opts` (IMB 2021's options of the measurement method), `mpi_opts`
//! (the MPI executables' rows and `read`), then `merge` (the one settings merge with each value's origin), `resolve` (what
//! the values mean on this machine and world size), `help` (`-help` and `-list`) and `doc`
//! (the docs' option tables).

use crate::error::{Error, Result};
use crate::lengths;
use crate::settings::{self, Params, Settings};
use crate::values::Values;
use crate::vocab::Map;
use serde::{Deserialize, Serialize};

pub mod doc;
mod family;
#[cfg(test)]
mod family_tests;
mod help;
mod merge;
mod method_opts;
mod mpi_opts;
pub mod raw;
pub mod record;
mod resolve;
pub mod shared;
pub mod table;
#[cfg(test)]
mod tests;
pub mod value;

pub use crate::vocab::Multi;
pub use family::{Family, FamilyIn, Refused};
pub use help::{help, list};
pub use mpi_opts::read;
pub use value::{AggregateMode, ProgressMode, ThreadLevel};

/// What a binary tells the parser about itself.
pub struct Spec<'a> {
    pub exe: &'a str,
    /// Benchmark names in default order (canonical spelling).
    pub names: &'a [&'a str],
    /// The first `defaults` names run when none is given; the rest only when named.
    pub defaults: usize,
    /// What runs when none is given under `-compat 2021` (empty: the same).
    pub defaults_2021: &'a [&'a str],
    /// Its settings file.
    pub settings: &'static settings::Spec,
    pub npmin: usize,
    /// Whether some benchmark has AGGREGATE/NON-AGGREGATE tables (`-aggregate_mode` applies).
    pub aggregate: bool,
    /// Its family's options.
    pub family: &'a Family,
}

impl Spec<'_> {
    /// The names that run when none is given under `compat`, in order, and the others in
    /// list order.
    pub fn default_names(&self, compat: crate::method::Compat) -> (Vec<&str>, Vec<&str>) {
        if compat == crate::method::Compat::V2021 && !self.defaults_2021.is_empty() {
            let first: Vec<&str> = self.defaults_2021.to_vec();
            let rest = self.names.iter().copied().filter(|n| !first.contains(n));
            (first.clone(), rest.collect())
        } else {
            (
                self.names[..self.defaults].to_vec(),
                self.names[self.defaults..].to_vec(),
            )
        }
    }

    /// Whether this executable lists options of `a` in `-help`.
    pub fn accepts(&self, a: table::Accept) -> bool {
        match a {
            table::Accept::All => true,
            table::Accept::Aggregate => self.aggregate,
        }
    }
}

/// Where the message lengths come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Lengths {
    /// The ladder from MINMSGLOG/MAXMSGLOG.
    Ladder,
    /// A `-msglen` file: its name and values in file order.
    File { file: String, values: Vec<usize> },
    /// `-msgsize`'s list, in its order.
    List { values: Vec<usize> },
}

/// The resolved options of a run (the same on every rank).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Benchmark indices into the suite, in run order (duplicates run again).
    pub benchmarks: Vec<usize>,
    pub npmin: usize,
    pub multi: Option<Multi>,
    pub map: Option<Map>,
    pub lengths: Lengths,
    /// Effective parameters: settings file, then `-iter`/`-msglog`.
    pub params: Params,
    /// Where each of `params` came from.
    pub origins: settings::Origins,
    pub settings: Settings,
    /// `-time`: seconds per message size at most.
    pub time: Option<f64>,
    /// `-mem`: bytes of buffers per process at most.
    pub mem: Option<f64>,
    pub zero_size: bool,
    pub check: bool,
    pub thread_level: ThreadLevel,
    /// `-json FILE`: the tables as data, rewritten after every table (checked before the run).
    pub json: Option<crate::safefile::OutFile>,
    pub aggregate_mode: AggregateMode,
    /// What the family's own options resolved to (`Family::resolve`), read through its slots.
    #[serde(default)]
    pub family: Values,
    /// `-adaptive`: repeat each size's n_sample loop until the timings settle.
    pub adaptive: Option<Adaptive>,
    /// `-force`: run even when the run cannot finish within `LONG_RUN_SECS`.
    #[serde(default)]
    pub force: bool,
    /// `-summary`: each table's lowest latency and highest bandwidth after the last table.
    #[serde(default)]
    pub summary: bool,
    /// `-progress`: where the run is, on rank 0's stderr.
    #[serde(default)]
    pub progress: ProgressMode,
    /// How the run measures: `-compat`'s profile and the IMB 2021 options refining it.
    #[serde(default)]
    pub method: crate::method::Method,
    /// The options named on the command line, without the dash (`Raw::given`).
    #[serde(default)]
    pub given: Vec<String>,
    /// Buffer bytes per byte of message (`Family::span`): the buffers hold span·X.
    #[serde(default = "one")]
    pub span: usize,
}

fn one() -> usize {
    1
}

/// The stopping rule of `-adaptive` (`imb_core::settle`): timings per size at least and at
/// most, and the largest half-width of the median's confidence interval, in % of the median.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Adaptive {
    pub cutoff_pct: f64,
    pub min_reps: usize,
    pub max_reps: usize,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Action {
    Run(Box<Options>),
    Help(String),
    List(String),
}

/// argv as text. Every option and name is ASCII, so an argument that is not UTF-8 can only be a
/// mistake or a path we cannot show and pass on faithfully: it is an error naming the argument
/// (escaped), which rank 0 reports like any other argument error.
pub fn utf8_args(args: impl Iterator<Item = std::ffi::OsString>) -> (Vec<String>, Option<Error>) {
    let mut out: Vec<String> = Vec::new();
    let mut bad = None;
    for (i, a) in args.enumerate() {
        match a.into_string() {
            Ok(s) => out.push(s),
            Err(a) => {
                // The option before it, if any: the value of `-npmin` is found by its name,
                // not by counting arguments.
                let after = match out.last() {
                    Some(p) if p.starts_with('-') && !p.contains('=') => {
                        format!(", after {p},")
                    }
                    _ => String::new(),
                };
                bad.get_or_insert_with(|| {
                    Error::arg(
                        crate::safefile::shown(&a),
                        format!("argument {}{after} is not valid UTF-8 text", i + 1),
                    )
                });
                out.push(a.to_string_lossy().into_owned());
            }
        }
    }
    (out, bad)
}

/// The thread level requested on the command line, read before MPI starts (every rank sees
/// the same argv). None when not given or unreadable (the family's default then; rank 0's
/// parse reports a bad value).
pub fn prescan_thread_level(args: &[String]) -> Option<ThreadLevel> {
    let mut value = None;
    for (i, a) in args.iter().enumerate() {
        let bare = a.trim_start_matches('-');
        if bare == "thread_level" {
            value = args.get(i + 1).map(String::as_str);
        } else if let Some(v) = bare.strip_prefix("thread_level=") {
            value = Some(v);
        }
    }
    value.and_then(|v| ThreadLevel::parse(v).ok())
}

/// Parse argv (without the program name) on world size `np`: `read`, then
/// `resolve::resolve`.
pub fn parse(spec: &Spec, args: &[String], np: usize) -> Result<Action> {
    Ok(match read(args, spec.family, spec.aggregate)? {
        raw::Command::Help => Action::Help(help(spec)),
        raw::Command::List(compat) => Action::List(list(spec, compat)),
        raw::Command::Run(raw) => Action::Run(Box::new(resolve::resolve(spec, &raw, np)?)),
    })
}
