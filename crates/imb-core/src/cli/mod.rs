//! IMB-style command lines: `-npmin 2 -map 2x7 PingPong`, names in any case and order.
//!
//! clap has no single-dash long options, so argv is first normalised (`-npmin 2` becomes
//! `--npmin=2`, which also lets values start with `-`), then parsed by clap. Rank 0 parses,
//! reads the files the options name, and broadcasts the resolved `Options`; every error is one
//! line naming the argument, file and line. `syntax` is the command line as clap sees it,
//! `resolve` what the values mean on this machine, `help` the `-help` and `-list` texts.

use crate::error::{Error, Result};
use crate::lengths;
use crate::plan::Map;
use crate::settings::{self, Kind, Params, Settings};
use clap::{Arg, ArgAction, Command};
use serde::{Deserialize, Serialize};

mod help;
mod resolve;
mod syntax;
#[cfg(test)]
mod tests;

pub use help::{dash_matches, dashes, help, list};
pub use resolve::MAX_FILE_PATH;
use resolve::{adaptive_options, files_options, lookup, read_input, Named};
use syntax::*;

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
    pub fn runs(self, m: crate::bench::Mode) -> bool {
        use crate::bench::Mode;
        matches!(
            (self, m),
            (_, Mode::Plain)
                | (Self::Both, _)
                | (Self::Aggregate, Mode::Aggregate)
                | (Self::NonAggregate, Mode::NonAggregate)
        )
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

/// Parse argv (without the program name) on world size `np`.
pub fn parse(spec: &Spec, args: &[String], np: usize) -> Result<Action> {
    let Some(norm) = normalise(args)? else {
        return Ok(Action::Help(help(spec)));
    };
    let m = command().try_get_matches_from(&norm).map_err(from_clap)?;
    if m.get_flag("list") {
        return Ok(Action::List(list(spec)));
    }

    // Names from the command line and from -input files, in argv order.
    let mut named: Vec<(usize, Vec<Named>)> = Vec::new();
    if let (Some(vals), Some(idx)) = (m.get_many::<String>("names"), m.indices_of("names")) {
        for (v, i) in vals.zip(idx) {
            named.push((i, vec![(v.clone(), None)]));
        }
    }
    if let (Some(vals), Some(idx)) = (m.get_many::<String>("input"), m.indices_of("input")) {
        for (f, i) in vals.zip(idx) {
            named.push((i, read_input(f)?));
        }
    }
    named.sort_by_key(|(i, _)| *i);
    let mut benchmarks = Vec::new();
    for (name, origin) in named.into_iter().flat_map(|(_, v)| v) {
        benchmarks.push(lookup(spec, &name, origin.as_ref())?);
    }
    if benchmarks.is_empty() {
        benchmarks = (0..spec.defaults).collect();
    }
    // IMB 2021: -include adds (also benchmarks run only when named), -exclude removes.
    for (opt, add) in [("include", true), ("exclude", false)] {
        let lists = m.get_many::<String>(opt).into_iter().flatten();
        for name in lists.flat_map(|l| l.split(',')).map(str::trim) {
            if name.is_empty() {
                continue;
            }
            let i = lookup(spec, name, None).map_err(|e| match e {
                Error::Arg { msg, .. } => Error::arg(format!("-{opt}"), format!("{name}: {msg}")),
                e => e,
            })?;
            if add {
                if !benchmarks.contains(&i) {
                    benchmarks.push(i);
                }
            } else {
                benchmarks.retain(|&b| b != i);
            }
        }
    }
    if benchmarks.is_empty() {
        return Err(Error::arg("-exclude", "leaves no benchmark to run"));
    }
    if !spec.aggregate && m.get_one::<AggregateMode>("aggregate_mode").is_some() {
        return Err(Error::arg(
            "-aggregate_mode",
            format!(
                "{} has no AGGREGATE/NON-AGGREGATE tables (imb-ext and imb-io have)",
                spec.exe
            ),
        ));
    }

    let map = m.get_one::<Map>("map").copied();
    if let Some(Map { p, q }) = map {
        if p * q != np {
            return Err(Error::arg(
                "-map",
                format!("{p}x{q} has {} places but the job has {np} processes (P·Q must equal the process count)", p * q),
            ));
        }
    }

    let settings = match m.get_one::<String>("settings") {
        Some(f) => settings::load(f, spec.kind)?,
        None => settings::built_in(spec.kind),
    };
    let mut params = settings.params.clone();
    if let Some(&(min, max)) = m.get_one::<(u32, u32)>("msglog") {
        params.minmsglog = min;
        params.maxmsglog = max;
    }
    if let Some(&(msgs, vol, nonaggr)) = m.get_one::<(usize, Option<usize>, Option<usize>)>("iter")
    {
        params.msgspersample = msgs;
        if let Some(mb) = vol {
            params.overall_vol = mb
                .checked_mul(1 << 20)
                .filter(|&v| v <= settings::MAX_OVERALL_VOL)
                .ok_or_else(|| {
                    Error::arg(
                        "-iter",
                        format!("{mb} MB is above OVERALL_VOL's 1 TiB limit"),
                    )
                })?;
        }
        if let Some(n) = nonaggr {
            params.msgs_nonaggr = n;
        }
    }

    // Fail before measuring, not after the first table; nothing is created yet.
    let json = m
        .get_one::<String>("json")
        .map(|f| crate::safefile::OutFile::check("-json", f))
        .transpose()?;

    let adaptive = adaptive_options(&m)?;
    let (dir, overwrite) = files_options(
        &m,
        spec.kind,
        params.filename.as_deref().unwrap_or("IMB_out"),
        np,
    )?;

    let lengths = match m.get_one::<String>("msglen") {
        Some(f) => Lengths::File {
            file: f.clone(),
            values: lengths::read_msglen(f)?,
        },
        None => Lengths::Ladder,
    };

    Ok(Action::Run(Box::new(Options {
        benchmarks,
        npmin: m.get_one::<usize>("npmin").copied().unwrap_or(spec.npmin),
        multi: m.get_one::<Multi>("multi").copied(),
        map,
        lengths,
        params,
        settings,
        time: m.get_one::<f64>("time").copied(),
        mem: m.get_one::<f64>("mem").map(|gb| gb * (1u64 << 30) as f64),
        zero_size: m.get_one::<bool>("zero_size").copied().unwrap_or(true),
        check: m.get_flag("check"),
        thread_level: m
            .get_one::<ThreadLevel>("thread_level")
            .copied()
            .unwrap_or(ThreadLevel::Single),
        json,
        aggregate_mode: m
            .get_one::<AggregateMode>("aggregate_mode")
            .copied()
            .unwrap_or(AggregateMode::Both),
        dir,
        overwrite,
        adaptive,
        force: m.get_flag("force"),
    })))
}
