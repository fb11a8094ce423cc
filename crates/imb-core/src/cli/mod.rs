//! IMB-style command lines: `-npmin 2 -map 2x7 PingPong`, names in any case and order.
//!
//! clap has no single-dash long options, so argv is first normalised (`-npmin 2` becomes
//! `--npmin=2`, which also lets values start with `-`), then parsed by clap. Rank 0 parses,
//! reads the files the options name, and broadcasts the resolved `Options`; every error is one
//! line naming the argument, file and line. `table` is the option-table machinery every
//! executable uses, `mpi_opts` the MPI executables' table, `syntax` the normaliser and value
//! parsers, `raw` argv read into typed values (pure), `resolve` what they mean on this machine
//! and world size, `merge` the one settings merge with each value's origin, `help` the `-help`
//! and `-list` texts.

use crate::error::{Error, Result};
use crate::lengths;
use crate::settings::{self, Kind, Params, Settings};
use crate::vocab::Map;
use serde::{Deserialize, Serialize};

mod help;
mod merge;
mod mpi_opts;
pub mod raw;
mod resolve;
mod syntax;
pub mod table;
#[cfg(test)]
mod tests;

pub use help::{help, list};
pub use resolve::MAX_FILE_PATH;
use syntax::*;
pub use table::{dash_matches, dashes};

/// What a binary tells the parser about itself.
pub struct Spec<'a> {
    pub exe: &'a str,
    /// Benchmark names in default order (canonical spelling).
    pub names: &'a [&'a str],
    /// The first `defaults` names run when none is given; the rest only when named.
    pub defaults: usize,
    pub kind: Kind,
    pub npmin: usize,
    /// Whether some benchmark has AGGREGATE/NON-AGGREGATE tables (`-aggregate_mode` applies).
    pub aggregate: bool,
    /// Whether some benchmark sends windows of messages (`-window_size` applies).
    pub window: bool,
}

impl Spec<'_> {
    /// Whether this executable lists options of `a` in `-help`.
    pub fn accepts(&self, a: table::Accept) -> bool {
        match a {
            table::Accept::All => true,
            table::Accept::Aggregate => self.aggregate,
            table::Accept::Files => self.kind == Kind::Io,
            table::Accept::Window => self.window,
        }
    }
}

/// The MPI thread level to request (`-thread_level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThreadLevel {
    Single,
    Funneled,
    Serialized,
    Multiple,
}

impl ThreadLevel {
    fn parse(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "single" => Ok(Self::Single),
            "funneled" => Ok(Self::Funneled),
            "serialized" => Ok(Self::Serialized),
            "multiple" => Ok(Self::Multiple),
            _ => Err("expected single, funneled, serialized or multiple".into()),
        }
    }
}

pub use crate::vocab::Multi;

/// `-aggregate_mode`: which of the aggregate / non-aggregate tables run (imb-ext, imb-io).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AggregateMode {
    Aggregate,
    NonAggregate,
    Both,
}

impl AggregateMode {
    fn parse(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "aggregate" => Ok(Self::Aggregate),
            "non_aggregate" => Ok(Self::NonAggregate),
            // IMB 2021 calls both tables "multi"
            "both" | "multi" => Ok(Self::Both),
            _ => Err("expected aggregate, non_aggregate or both".into()),
        }
    }
    /// Whether a table of this mode runs.
    pub fn runs(self, m: crate::vocab::Mode) -> bool {
        use crate::vocab::Mode;
        matches!(
            (self, m),
            (_, Mode::Plain)
                | (Self::Both, _)
                | (Self::Aggregate, Mode::Aggregate)
                | (Self::NonAggregate, Mode::NonAggregate)
        )
    }
}

/// `-progress`: lines on stderr saying where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProgressMode {
    On,
    Off,
    /// On when rank 0's stderr is a terminal.
    #[default]
    Auto,
}

impl ProgressMode {
    /// `on`, `off` (or another on/off word) or `auto`, in any case.
    pub fn parse(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(Self::Auto),
            v => match on_off(v) {
                Ok(true) => Ok(Self::On),
                Ok(false) => Ok(Self::Off),
                Err(_) => Err("expected on, off or auto".into()),
            },
        }
    }

    /// Whether progress lines are written: `auto` asks whether stderr is a terminal.
    pub fn wanted(self) -> bool {
        use std::io::IsTerminal;
        match self {
            Self::On => true,
            Self::Off => false,
            Self::Auto => std::io::stderr().is_terminal(),
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
    /// imb-io: the directory of the files (`-dir`, default the current directory).
    pub dir: String,
    /// imb-io `-overwrite`: replace files that exist under our names instead of refusing.
    pub overwrite: bool,
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
    /// The options named on the command line, without the dash (`Raw::given`).
    #[serde(default)]
    pub given: Vec<String>,
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
    let mut out = Vec::new();
    let mut bad = None;
    for (i, a) in args.enumerate() {
        match a.into_string() {
            Ok(s) => out.push(s),
            Err(a) => {
                bad.get_or_insert_with(|| {
                    Error::arg(
                        crate::safefile::shown(&a),
                        format!("argument {} is not valid UTF-8 text", i + 1),
                    )
                });
                out.push(a.to_string_lossy().into_owned());
            }
        }
    }
    (out, bad)
}

/// The thread level requested on the command line, read before MPI starts (every rank sees
/// the same argv). Anything unreadable falls back to `Single`; rank 0's parse reports it.
pub fn prescan_thread_level(args: &[String]) -> ThreadLevel {
    let mut value = None;
    for (i, a) in args.iter().enumerate() {
        let bare = a.trim_start_matches('-');
        if bare == "thread_level" {
            value = args.get(i + 1).map(String::as_str);
        } else if let Some(v) = bare.strip_prefix("thread_level=") {
            value = Some(v);
        }
    }
    value
        .and_then(|v| ThreadLevel::parse(v).ok())
        .unwrap_or(ThreadLevel::Single)
}

/// Parse argv (without the program name) on world size `np`: `raw::read`, then
/// `resolve::resolve`.
pub fn parse(spec: &Spec, args: &[String], np: usize) -> Result<Action> {
    Ok(match raw::read(args)? {
        raw::Command::Help => Action::Help(help(spec)),
        raw::Command::List => Action::List(list(spec)),
        raw::Command::Run(raw) => Action::Run(Box::new(resolve::resolve(spec, &raw, np)?)),
    })
}
