//! IMB-style command lines: `-npmin 2 -map 2x7 PingPong`, names in any case and order.
//!
//! clap has no single-dash long options, so argv is first normalised (`-npmin 2` becomes
//! `--npmin=2`, which also lets values start with `-`), then parsed by clap. Rank 0 parses,
//! reads the files the options name, and broadcasts the resolved `Options`; every error is one
//! line naming the argument, file and line.

use crate::error::{Error, Result};
use crate::lengths;
use crate::plan::Map;
use crate::settings::{self, Kind, Params, Settings};
use clap::{Arg, ArgAction, Command};
use serde::{Deserialize, Serialize};

/// Options that take a value, in help order.
const VALUE_OPTS: &[&str] = &[
    "npmin",
    "multi",
    "map",
    "msglen",
    "input",
    "msglog",
    "iter",
    "time",
    "mem",
    "zero_size",
    "thread_level",
    "settings",
    "json",
    "aggregate_mode",
    "dir",
    "cutoff",
    "min_reps",
    "max_reps",
    "include",
    "exclude",
    "iter_policy",
];
/// IMB 2021 options imb-rs does not implement: named in the error, so a script written for
/// IMB 2021 fails with a reason instead of "unknown option".
const IMB2021_UNSUPPORTED: &[&str] = &[
    "off_cache",
    "sync",
    "root_shift",
    "msgwidth",
    "warm_up",
    "data_type",
    "red_data_type",
    "contig_type",
    "imb_barrier",
    "window_size",
    "msgsize",
    "msg_pause",
    "mem_alloc_type",
    "dump",
    "load",
];
/// Options without a value.
const FLAG_OPTS: &[&str] = &["list", "check", "overwrite", "adaptive", "force"];

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

/// Rewrite IMB argv into clap's long-option form. Returns `None` for `-h`/`-help`.
fn normalise(args: &[String]) -> Result<Option<Vec<String>>> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if matches!(a.as_str(), "-h" | "-help" | "--help") {
            return Ok(None);
        }
        if a.len() > 1 && a.starts_with('-') {
            let bare = a.trim_start_matches('-');
            let (name, inline) = match bare.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (bare, None),
            };
            if VALUE_OPTS.contains(&name) {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| Error::arg(format!("-{name}"), "needs a value"))?,
                };
                out.push(format!("--{name}={v}"));
            } else if FLAG_OPTS.contains(&name) {
                if inline.is_some() {
                    return Err(Error::arg(format!("-{name}"), "takes no value"));
                }
                out.push(format!("--{name}"));
            } else if IMB2021_UNSUPPORTED.contains(&name) {
                return Err(Error::arg(
                    format!("-{name}"),
                    "an IMB 2021 option that imb-rs does not support (doc/ReadMe_IMB.md, \
                     \"IMB 2021 options\")",
                ));
            } else {
                return Err(Error::arg(
                    a.clone(),
                    "unknown option (see -help for the options)",
                ));
            }
        } else {
            out.push(a.clone());
        }
    }
    Ok(Some(out))
}

fn positive_int(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a positive integer".into()),
    }
}

fn parse_multi(s: &str) -> std::result::Result<Multi, String> {
    match s.trim() {
        "0" => Ok(Multi::Merged),
        "1" => Ok(Multi::PerGroup),
        _ => Err("expected 0 (one row over all groups) or 1 (one row per group)".into()),
    }
}

fn parse_map(s: &str) -> std::result::Result<Map, String> {
    let err = || "expected PxQ with two positive integers, e.g. 2x7".to_string();
    let (p, q) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let p = positive_int(p).map_err(|_| err())?;
    let q = positive_int(q).map_err(|_| err())?;
    Ok(Map { p, q })
}

fn parse_msglog(s: &str) -> std::result::Result<(u32, u32), String> {
    let err = |m: &str| format!("expected [min:]max with 0 <= min <= max <= 30{m}");
    let num = |t: &str| t.trim().parse::<u32>().map_err(|_| err(""));
    let (min, max) = match s.split_once(':') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (0, num(s)?),
    };
    if max > settings::MAX_MSGLOG {
        return Err(err(&format!(" (max {max} is too large)")));
    }
    if min > max {
        return Err(err(&format!(" (min {min} is above max {max})")));
    }
    Ok((min, max))
}

/// `-iter msgs[,vol_MB[,nonaggr]]` as in IMB 2021.
fn parse_iter(s: &str) -> std::result::Result<(usize, Option<usize>, Option<usize>), String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err("expected MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]]".into());
    }
    let get = |i: usize| -> std::result::Result<Option<usize>, String> {
        parts
            .get(i)
            .map(|p| match positive_int(p) {
                Ok(n) if n <= settings::MAX_COUNT => Ok(n),
                Ok(n) => Err(format!("{n} is above {} (a C int, as in IMB)", settings::MAX_COUNT)),
                Err(_) => Err(format!(
                    "\"{p}\" is not a positive integer (MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]])"
                )),
            })
            .transpose()
    };
    Ok((get(0)?.unwrap_or(1), get(1)?, get(2)?))
}

fn positive_float(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err("expected a positive number".into()),
    }
}

fn nonneg_float(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err("expected a percentage >= 0".into()),
    }
}

/// IMB 2021's `-iter_policy`: only `off` (fixed counts, IMB 3.0's rule and ours) is accepted.
fn iter_policy(s: &str) -> std::result::Result<(), String> {
    match s.to_ascii_lowercase().as_str() {
        "off" => Ok(()),
        "dynamic" | "multiple_np" | "auto" => Err(format!(
            "{s}: not supported; imb-rs uses IMB 3.0's fixed repetition counts (off); \
             -time caps the time per size"
        )),
        _ => Err("expected off (dynamic, multiple_np and auto are not supported)".into()),
    }
}

fn on_off(s: &str) -> std::result::Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "1" | "yes" | "enable" | "true" => Ok(true),
        "off" | "0" | "no" | "disable" | "false" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

fn command() -> Command {
    let v = |name: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::Set)
            .num_args(1)
            .allow_hyphen_values(true)
    };
    Command::new("imb")
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args_override_self(true)
        .arg(v("npmin").value_parser(positive_int))
        .arg(v("multi").value_parser(parse_multi))
        .arg(v("map").value_parser(parse_map))
        .arg(v("msglen"))
        .arg(v("input").action(ArgAction::Append))
        .arg(v("msglog").value_parser(parse_msglog))
        .arg(v("iter").value_parser(parse_iter))
        .arg(v("time").value_parser(positive_float))
        .arg(v("mem").value_parser(positive_float))
        .arg(v("zero_size").value_parser(on_off))
        .arg(v("thread_level").value_parser(ThreadLevel::parse))
        .arg(v("settings"))
        .arg(v("json"))
        .arg(v("aggregate_mode").value_parser(AggregateMode::parse))
        .arg(v("dir"))
        .arg(v("cutoff").value_parser(nonneg_float))
        .arg(v("min_reps").value_parser(positive_int))
        .arg(v("max_reps").value_parser(positive_int))
        .arg(v("include").action(ArgAction::Append))
        .arg(v("exclude").action(ArgAction::Append))
        .arg(v("iter_policy").value_parser(iter_policy))
        .arg(
            Arg::new("overwrite")
                .long("overwrite")
                .action(ArgAction::SetTrue),
        )
        .arg(
            Arg::new("adaptive")
                .long("adaptive")
                .action(ArgAction::SetTrue),
        )
        .arg(Arg::new("list").long("list").action(ArgAction::SetTrue))
        .arg(Arg::new("force").long("force").action(ArgAction::SetTrue))
        .arg(Arg::new("check").long("check").action(ArgAction::SetTrue))
        .arg(Arg::new("names").action(ArgAction::Append).num_args(0..))
}

fn from_clap(e: clap::Error) -> Error {
    use clap::error::{ContextKind, ContextValue};
    let arg = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => {
            let name = s.split(['=', ' ']).next().unwrap_or(s);
            format!("-{}", name.trim_start_matches('-'))
        }
        _ => "command line".to_string(),
    };
    let value = match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(s)) => format!("invalid value \"{s}\": "),
        _ => String::new(),
    };
    let why = std::error::Error::source(&e)
        .map(|s| s.to_string())
        .unwrap_or_else(|| e.kind().to_string());
    Error::arg(arg, format!("{value}{why}"))
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

/// `-adaptive` and its `-cutoff`, `-min_reps`, `-max_reps` (defaults 10 %, 5, 10: the n_sample
/// loop split in 5, at most twice the standard run's repetitions). The three are errors without
/// `-adaptive`, so a forgotten flag is noticed.
fn adaptive_options(m: &clap::ArgMatches) -> Result<Option<Adaptive>> {
    let cutoff = m.get_one::<f64>("cutoff").copied();
    let min = m.get_one::<usize>("min_reps").copied();
    let max = m.get_one::<usize>("max_reps").copied();
    if !m.get_flag("adaptive") {
        for (name, given) in [
            ("-cutoff", cutoff.is_some()),
            ("-min_reps", min.is_some()),
            ("-max_reps", max.is_some()),
        ] {
            if given {
                return Err(Error::arg(name, "only with -adaptive"));
            }
        }
        return Ok(None);
    }
    let a = Adaptive {
        cutoff_pct: cutoff.unwrap_or(10.0),
        min_reps: min.unwrap_or(5),
        max_reps: max.unwrap_or_else(|| {
            let min = min.unwrap_or(5);
            (2 * min).clamp(min, crate::settle::MAX_TIMINGS.max(min))
        }),
    };
    if a.min_reps < 2 {
        return Err(Error::arg(
            "-min_reps",
            format!("{}: at least 2 timings are needed for a spread", a.min_reps),
        ));
    }
    if a.min_reps > crate::settle::MAX_TIMINGS {
        return Err(Error::arg(
            "-min_reps",
            format!("{}: at most {}", a.min_reps, crate::settle::MAX_TIMINGS),
        ));
    }
    if a.max_reps < a.min_reps {
        return Err(Error::arg(
            "-max_reps",
            format!(
                "{}: must be at least -min_reps ({})",
                a.max_reps, a.min_reps
            ),
        ));
    }
    if a.max_reps > crate::settle::MAX_TIMINGS {
        return Err(Error::arg(
            "-max_reps",
            format!("{}: at most {}", a.max_reps, crate::settle::MAX_TIMINGS),
        ));
    }
    Ok(Some(a))
}

/// `-dir` and `-overwrite` (imb-io only): the directory must be a writable directory, and no
/// file of ours may already be there unless `-overwrite` says it may be replaced. Checked on
/// rank 0 before anything runs; a node-local directory is checked again where files are made.
/// The longest file path imb-io opens. Open MPI 4.1's MPI-IO (OMPIO) builds names from the
/// path as given (`<path>-<job id>-<rank>.lock`, `<path>.locktest.<rank>`) in a 256-byte buffer
/// and aborts the whole job ("buffer overflow detected") when they do not fit: measured, a
/// 240-byte path worked and 242 aborted, the margin moving with the job id's digits. The
/// limit leaves room for a 10-digit job id and a 6-digit rank, under every MPI, so no run dies
/// half-way for its path.
pub const MAX_FILE_PATH: usize = 227;

/// The length of the longest path imb-io opens in `dir` for `np` processes: the base name, and
/// `_g<group>_<rank>` for private files under -multi (imb-io's `layout::file_name`).
fn longest_file_path(dir: &str, base: &str, np: usize) -> usize {
    let digits = np.saturating_sub(1).max(1).ilog10() as usize + 1;
    let sep = usize::from(!dir.ends_with('/'));
    dir.len() + sep + base.len() + "_g".len() + digits + "_".len() + digits
}

fn files_options(
    m: &clap::ArgMatches,
    kind: Kind,
    base: &str,
    np: usize,
) -> Result<(String, bool)> {
    let dir = m.get_one::<String>("dir").cloned();
    let overwrite = m.get_flag("overwrite");
    if kind != Kind::Io {
        let which = if dir.is_some() { "-dir" } else { "-overwrite" };
        if dir.is_some() || overwrite {
            return Err(Error::arg(which, "only imb-io creates files"));
        }
        return Ok((".".into(), false));
    }
    let given = dir.is_some();
    let dir = dir.unwrap_or_else(|| ".".into());
    let what = if given {
        "-dir"
    } else {
        "the current directory"
    };
    match std::fs::metadata(&dir) {
        Ok(md) if md.is_dir() => {}
        Ok(_) => return Err(Error::file("-dir", &dir, "not a directory")),
        Err(e) => return Err(Error::file("-dir", &dir, format!("cannot use it: {e}"))),
    }
    let writable = nix::unistd::access(
        dir.as_str(),
        nix::unistd::AccessFlags::W_OK | nix::unistd::AccessFlags::X_OK,
    );
    if let Err(e) = writable {
        return Err(if given {
            Error::file("-dir", &dir, format!("cannot create files there: {e}"))
        } else {
            Error::arg(
                "-dir",
                format!("{what} ({dir}) is not writable ({e}); choose one with -dir"),
            )
        });
    }
    let longest = longest_file_path(&dir, base, np);
    if longest > MAX_FILE_PATH {
        return Err(Error::file(
            "-dir",
            &dir,
            format!(
                "the file paths imb-io makes there reach {longest} bytes, more than \
                 {MAX_FILE_PATH}: Open MPI's MPI-IO aborts the job on paths past about 240 \
                 bytes; choose a shorter -dir (or FILENAME)"
            ),
        ));
    }
    if !overwrite {
        if let Some(f) = crate::files::foreign(std::path::Path::new(&dir), base) {
            // The full path: "./IMB_out" says little about which directory was meant.
            let f = std::fs::canonicalize(&f).unwrap_or(f);
            return Err(Error::arg(
                "-overwrite",
                format!(
                    "{} exists and was not created by this run: remove it, choose another -dir, \
                     or pass -overwrite to let imb-io replace (and then remove) it",
                    f.display()
                ),
            ));
        }
    }
    Ok((dir, overwrite))
}

/// A benchmark name and, when it came from an `-input` file, that file and line.
type Named = (String, Option<(String, usize)>);

/// The index of benchmark `name` (any case), or an error listing the valid names.
fn lookup(spec: &Spec, name: &str, origin: Option<&(String, usize)>) -> Result<usize> {
    if let Some(i) = spec.names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
        return Ok(i);
    }
    let msg = format!(
        "unknown benchmark{}; valid names: {}",
        if name.eq_ignore_ascii_case("all") {
            " (give no name to run them all)"
        } else {
            ""
        },
        spec.names.join(", ")
    );
    Err(match origin {
        Some((file, line)) => Error::line("-input", file, *line, format!("\"{name}\": {msg}")),
        None => Error::arg(name, msg),
    })
}

/// Benchmark names of an `-input` file with their line numbers: `#` lines and blank lines are
/// skipped, the first word of every other line is a name.
fn read_input(file: &str) -> Result<Vec<Named>> {
    let text = crate::safefile::read_text("-input", file)?;
    Ok(text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                return None;
            }
            let w = l.split_whitespace().next()?;
            Some((w.to_string(), Some((file.to_string(), i + 1))))
        })
        .collect())
}

/// `-list`: the benchmarks of this executable in default run order.
pub fn list(spec: &Spec) -> String {
    let mut s = format!("# Benchmarks of {} (default run order):\n", spec.exe);
    for n in &spec.names[..spec.defaults] {
        s.push_str(&format!("# {n}\n"));
    }
    if spec.defaults < spec.names.len() {
        s.push_str("# Run only when named:\n");
        for n in &spec.names[spec.defaults..] {
            s.push_str(&format!("# {n}\n"));
        }
    }
    s
}

/// `-help`: 3.0's calling sequence, then the options imb-rs adds; only the options this
/// executable accepts.
pub fn help(spec: &Spec) -> String {
    let exe = format!("{:<12}", spec.exe);
    let pad = " ".repeat(12);
    let io = spec.kind == Kind::Io;
    let mut synopsis = vec![
        format!("{exe}[-h{{elp}}]"),
        "[-npmin  <NPmin>]".into(),
        "[-multi  <MultiMode>]".into(),
        "[-msglen <Lengths_file>]".into(),
        "[-map    <PxQ>]".into(),
        "[-input  <filename>] [-include <b1,b2,...>] [-exclude <b1,b2,...>]".into(),
        "[-msglog [<min>:]<max>] [-iter <msgs>[,<vol_MB>[,<nonaggr>]]] [-iter_policy off]".into(),
        "[-time <seconds>] [-mem <GB>] [-zero_size on|off] [-force]".into(),
        "[-thread_level single|funneled|serialized|multiple]".into(),
        "[-settings <file.toml>] [-json <file>] [-check] [-list]".into(),
    ];
    if spec.aggregate {
        synopsis.push("[-aggregate_mode aggregate|non_aggregate|both]".into());
    }
    if io {
        synopsis.push("[-dir <directory>] [-overwrite]".into());
    }
    synopsis.push("[-adaptive [-cutoff <pct>] [-min_reps <n>] [-max_reps <n>]]".into());
    synopsis.push("[benchmark1 [benchmark2 [...]]]".into());
    let mut s = String::from("\nCalling sequence:\n\n\n");
    for (i, l) in synopsis.iter().enumerate() {
        if i > 0 {
            s.push_str(&pad);
        }
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("\nwhere \n\n");
    let npmin = spec.npmin;
    let std = settings::standard(spec.kind);
    s.push_str(&format!(
        "- h ( or help) just provides basic help; all other arguments are then ignored.\n\n\
- NPmin is the minimum number of processes to run the benchmarks on: they run on\n  \
NPmin, 2NPmin, 4NPmin, ..., up to the number of processes P, always ending with P.\n  \
Default: NPmin={npmin}.\n\n\
- PxQ renumbers the processes along the rows of a P x Q grid (P·Q must equal the number of\n  \
processes): with P processes per node and Q nodes, consecutive ranks then lie on\n  \
different nodes, so e.g. `-map 2x7 PingPong` measures between nodes.\n\n\
- MultiMode 0 or 1 runs the Multi- versions: disjoint groups of NP processes run the\n  \
benchmark at the same time. 0: one row with min/max/avg over all processes of all groups;\n  \
1: one row per group (a Group column comes first).\n\n\
- Lengths_file holds one message length per line (bytes, optionally followed by k or M);\n  \
lines starting with # and blank lines are skipped. It replaces the default lengths.\n\n\
- filename (-input) holds one benchmark name per line; # lines are skipped.\n\
- -include / -exclude b1,b2: add benchmarks to the list (also those run only when named),\n  \
or remove them from it (IMB 2021).\n\n\
- -msglog [min:]max: lengths 0, 2^min, ..., 2^max (default {min}:{max}).\n\
- -iter msgs[,vol_MB[,nonaggr]]: MSGSPERSAMPLE, OVERALL_VOL in MiB, MSGS_NONAGGR.\n\
- -iter_policy off: IMB 2021's name for the fixed repetition counts imb-rs always uses.\n\
- -time S: at most about S seconds of repetitions per message size.\n\
- -mem GB: skip message sizes whose buffers need more than GB GiB per process.\n\
- -zero_size off: leave out the 0-byte size.\n\
- -force: run even when the repetition counts cannot finish within an hour on any machine.\n\
- -thread_level L: the thread level requested from MPI_Init_thread (default single).\n\
- -settings F: parameters from a settings file ({file}); its [optional] block\n  \
applies when IMB_OPTIONAL = true, and the header then says so.\n",
        min = std.minmsglog,
        max = std.maxmsglog,
        file = if io {
            "settings/settings_io.toml"
        } else {
            "settings/settings.toml"
        },
    ));
    if spec.aggregate {
        s.push_str(
            "- -aggregate_mode M: run the AGGREGATE tables, the NON-AGGREGATE tables, or both\n  \
(default).\n",
        );
    }
    if io {
        s.push_str(
            "- -dir D: create the files (FILENAME, FILENAME_<rank>, ...) in D (default the\n  \
current directory). They are removed when each benchmark ends, also after an error or a\n  \
signal. A file already there under one of those names stops the run, unless -overwrite\n  \
lets imb-io replace it (and then remove it).\n",
        );
    }
    s.push_str(&format!(
        "- -adaptive: split the n_sample loop of every size into -min_reps timings (default 5)\n  \
and add timings until the 95 % confidence interval of their median is within +-cutoff %\n  \
(default 10) of it, at most -max_reps timings (default 2 x -min_reps, so at most twice the\n  \
standard run's repetitions). Rows show each rank's median; a note after each table gives\n  \
every size's median, interval and timings, and UNSETTLED where the budget ran out.\n\
- -json F: also write every table as JSON to F (rewritten after each table).\n\
- -check: verify every received buffer; adds the defects column and fails the run on any\n  \
defect (check-mode timings are not benchmark results).\n\
- -list: list the benchmarks and exit.\n\n\
- benchmarki is a benchmark name of this executable, in any case. They run in the order\n  \
given; default: all of the first list below, in its order.\n\n\
List of benchmarks of {exe}:\n",
        exe = spec.exe,
    ));
    for n in &spec.names[..spec.defaults] {
        s.push_str(&format!("{n}\n"));
    }
    if spec.defaults < spec.names.len() {
        s.push_str("\nRun only when named:\n");
        for n in &spec.names[spec.defaults..] {
            s.push_str(&format!("{n}\n"));
        }
    }
    s
}

/// For the suites with their own options (imb-threads, imb-omp): IMB style (`-name value`,
/// `-name=value`, `--name`) to clap's `--name=value`. A value option without its value, a flag
/// with one, and an unknown option are one-line errors naming them.
pub fn dashes(
    args: &[String],
    value_opts: &[&str],
    flag_opts: &[&str],
) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(bare) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
            out.push(a.clone());
            continue;
        };
        let (name, inline) = match bare.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (bare, None),
        };
        if value_opts.contains(&name) {
            let value = match inline {
                Some(v) => v,
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("-{name}: needs a value"))?,
            };
            out.push(format!("--{name}={value}"));
        } else if flag_opts.contains(&name) {
            if inline.is_some() {
                return Err(format!("-{name}: takes no value"));
            }
            out.push(format!("--{name}"));
        } else {
            return Err(format!("-{name}: unknown option (see -help)"));
        }
    }
    Ok(out)
}

/// The whole command line of a suite with its own options (imb-threads, imb-omp): `dashes`,
/// then clap with every value option taking one value, every flag a switch, and the rest as
/// `names`. Errors are one line.
pub fn dash_matches(
    exe: &'static str,
    args: &[String],
    value_opts: &[&'static str],
    flag_opts: &[&'static str],
) -> std::result::Result<clap::ArgMatches, String> {
    let norm = dashes(args, value_opts, flag_opts)?;
    let mut c = Command::new(exe)
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args_override_self(true);
    for o in value_opts {
        c = c.arg(Arg::new(*o).long(*o).num_args(1).allow_hyphen_values(true));
    }
    for o in flag_opts {
        c = c.arg(Arg::new(*o).long(*o).action(ArgAction::SetTrue));
    }
    c.arg(Arg::new("names").action(ArgAction::Append).num_args(0..))
        .try_get_matches_from(&norm)
        .map_err(|e| e.to_string().lines().next().unwrap_or_default().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &["PingPong", "PingPing", "Sendrecv", "Allreduce", "Barrier"];
    fn spec() -> Spec<'static> {
        Spec {
            exe: "imb-mpi1",
            names: NAMES,
            defaults: NAMES.len(),
            kind: Kind::Mpi1,
            npmin: 2,
            aggregate: true,
        }
    }
    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }
    fn run(s: &str, np: usize) -> Options {
        match parse(&spec(), &args(s), np).unwrap() {
            Action::Run(o) => *o,
            a => panic!("{a:?}"),
        }
    }
    fn err(s: &str, np: usize) -> String {
        parse(&spec(), &args(s), np).unwrap_err().to_string()
    }

    #[test]
    fn adaptive_defaults_and_budget() {
        let a = |s: &str| run(s, 2).adaptive.unwrap();
        let d = a("-adaptive");
        assert_eq!((d.cutoff_pct, d.min_reps, d.max_reps), (10.0, 5, 10));
        assert_eq!(a("-adaptive -min_reps 3").max_reps, 6);
        assert_eq!(a("-adaptive -min_reps 700").max_reps, 1000);
        assert_eq!(a("-adaptive -min_reps 1000").max_reps, 1000);
        assert!(err("-adaptive -min_reps 1001", 2).starts_with("-min_reps: 1001: at most 1000"));
        assert!(err("-adaptive -max_reps 1001", 2).starts_with("-max_reps: 1001: at most 1000"));
        assert!(run("", 2).adaptive.is_none());
    }

    #[test]
    fn imb_2021_list_options_and_unsupported_ones() {
        let r = run("PingPong -include Barrier,sendrecv", 2);
        assert_eq!(r.benchmarks, [0, 4, 2]);
        let r = run("-exclude PingPing -exclude Barrier", 2);
        assert_eq!(r.benchmarks, [0, 2, 3]);
        assert!(err("-include Nope", 2).starts_with("-include: Nope: unknown benchmark"));
        assert_eq!(
            err("PingPong -exclude pingpong", 2),
            "-exclude: leaves no benchmark to run"
        );
        assert!(run("-iter_policy off", 2).benchmarks.len() == 5);
        assert!(err("-iter_policy dynamic", 2).contains("not supported"));
        for o in [
            "-off_cache",
            "-sync",
            "-root_shift",
            "-warm_up",
            "-data_type",
            "-imb_barrier",
        ] {
            let e = err(&format!("{o} 1"), 2);
            assert!(
                e.starts_with(&format!(
                    "{o}: an IMB 2021 option that imb-rs does not support"
                )),
                "{e}"
            );
        }
    }

    #[test]
    fn help_lists_only_accepted_options() {
        let mpi1 = Spec {
            aggregate: false,
            ..spec()
        };
        let h = help(&mpi1);
        assert!(!h.contains("-aggregate_mode") && !h.contains("-dir") && !h.contains("-overwrite"));
        assert!(
            h.contains("-include") && h.contains("-force") && h.contains("settings/settings.toml")
        );
        let e = parse(&mpi1, &args("-aggregate_mode both"), 2)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("-aggregate_mode: imb-mpi1 has no AGGREGATE"),
            "{e}"
        );
        assert!(help(&spec()).contains("-aggregate_mode"));
    }

    #[test]
    fn non_utf8_arguments_are_named() {
        use std::os::unix::ffi::OsStringExt;
        let a = vec![
            std::ffi::OsString::from("PingPong"),
            std::ffi::OsString::from_vec(b"-json=a\xffb".to_vec()),
        ];
        let (v, e) = utf8_args(a.into_iter());
        assert_eq!(v.len(), 2);
        assert_eq!(
            e.unwrap().to_string(),
            "-json=a\\xffb: argument 2 is not valid UTF-8 text"
        );
    }

    #[test]
    fn hostile_files_are_refused_before_the_run() {
        for (o, f) in [
            ("-json", "/dev/null"),
            ("-json", "/tmp"),
            ("-msglen", "/dev/zero"),
            ("-input", "/dev/urandom"),
            ("-settings", "/dev/zero"),
        ] {
            let e = err(&format!("{o} {f}"), 2);
            assert!(e.starts_with(&format!("{o} {f}: ")), "{e}");
        }
        let e = err("-iter 4294967296", 2);
        assert!(e.contains("is above 2147483647"), "{e}");
    }

    #[test]
    fn defaults() {
        let o = run("", 2);
        assert_eq!(o.benchmarks, vec![0, 1, 2, 3, 4]);
        assert_eq!((o.npmin, o.multi, o.map), (2, None, None));
        assert_eq!(o.lengths, Lengths::Ladder);
        assert_eq!(o.params, settings::standard(Kind::Mpi1));
        assert!(o.zero_size && !o.check);
        assert_eq!(o.thread_level, ThreadLevel::Single);
    }

    #[test]
    fn names_any_case_and_order_options_interleaved() {
        let o = run("allreduce -npmin 3 PINGPONG -multi 1 pingpong -map 2x2", 4);
        assert_eq!(o.benchmarks, vec![3, 0, 0]);
        assert_eq!(o.npmin, 3);
        assert_eq!(o.multi, Some(Multi::PerGroup));
        assert_eq!(o.map, Some(Map { p: 2, q: 2 }));
        // a repeated option keeps its last value
        assert_eq!(run("-npmin 3 -npmin 4", 4).npmin, 4);
        assert_eq!(run("--npmin=5", 8).npmin, 5);
    }

    #[test]
    fn help_and_list() {
        assert!(matches!(
            parse(&spec(), &args("-h"), 2),
            Ok(Action::Help(_))
        ));
        assert!(matches!(
            parse(&spec(), &args("PingPong -help"), 2),
            Ok(Action::Help(_))
        ));
        match parse(&spec(), &args("-list"), 2).unwrap() {
            Action::List(s) => assert!(s.contains("# Sendrecv\n")),
            a => panic!("{a:?}"),
        }
        let h = help(&spec());
        assert!(h.starts_with(
            "\nCalling sequence:\n\n\nimb-mpi1    [-h{elp}]\n            [-npmin  <NPmin>]\n"
        ));
        assert!(h.ends_with("Allreduce\nBarrier\n"));
    }

    #[test]
    fn additions() {
        let o = run("-msglog 3:10 -iter 50,4,7 -time 0.5 -mem 2 -zero_size off -check -thread_level multiple", 2);
        assert_eq!((o.params.minmsglog, o.params.maxmsglog), (3, 10));
        assert_eq!(
            (
                o.params.msgspersample,
                o.params.overall_vol,
                o.params.msgs_nonaggr
            ),
            (50, 4 << 20, 7)
        );
        assert_eq!(o.time, Some(0.5));
        assert_eq!(o.mem, Some(2.0 * (1u64 << 30) as f64));
        assert!(!o.zero_size && o.check);
        assert_eq!(o.thread_level, ThreadLevel::Multiple);
        assert_eq!(run("-msglog 5", 2).params.maxmsglog, 5);
        assert_eq!(run("-iter 20", 2).params.overall_vol, 40 << 20);
        use crate::bench::Mode;
        let a = run("-aggregate_mode non_aggregate", 2).aggregate_mode;
        assert!(a.runs(Mode::NonAggregate) && a.runs(Mode::Plain) && !a.runs(Mode::Aggregate));
        assert_eq!(
            run("-aggregate_mode multi", 2).aggregate_mode,
            AggregateMode::Both
        );
        assert_eq!(run("", 2).aggregate_mode, AggregateMode::Both);
    }

    #[test]
    fn bad_values_name_the_option() {
        for (cmd, needle) in [
            ("-npmin", "-npmin: needs a value"),
            ("-npmin 0", "-npmin: invalid value \"0\""),
            ("-npmin abc", "-npmin: invalid value \"abc\""),
            ("-npmin -1", "-npmin: invalid value \"-1\""),
            ("-multi 2", "-multi: invalid value \"2\""),
            ("-map 2", "-map: invalid value \"2\""),
            ("-map 2x", "-map: invalid value \"2x\""),
            ("-map 2,2", "-map: invalid value \"2,2\""),
            ("-map 0x4", "-map: invalid value \"0x4\""),
            ("-msglog 5:3", "-msglog: invalid value \"5:3\""),
            ("-msglog 40", "-msglog: invalid value \"40\""),
            ("-iter 0", "-iter: invalid value \"0\""),
            ("-time -1", "-time: invalid value \"-1\""),
            ("-mem x", "-mem: invalid value \"x\""),
            ("-zero_size maybe", "-zero_size: invalid value \"maybe\""),
            (
                "-thread_level lots",
                "-thread_level: invalid value \"lots\"",
            ),
            (
                "-aggregate_mode some",
                "-aggregate_mode: invalid value \"some\"",
            ),
            ("-foo", "-foo: unknown option"),
            ("-NPMIN 2", "-NPMIN: unknown option"),
            ("-check=1", "-check: takes no value"),
            ("-dir /tmp", "-dir: only imb-io creates files"),
            ("-overwrite", "-overwrite: only imb-io creates files"),
        ] {
            let e = err(cmd, 4);
            assert!(e.starts_with(needle), "{cmd}: {e}");
            assert!(!e.contains('\n'), "{cmd}: {e}");
        }
    }

    #[test]
    fn io_dir_and_foreign_files() {
        let io = Spec {
            exe: "imb-io",
            names: NAMES,
            defaults: NAMES.len(),
            kind: Kind::Io,
            npmin: 1,
            aggregate: true,
        };
        let d = std::env::temp_dir().join(format!("imb-cli-dir-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let ds = d.to_string_lossy().into_owned();
        let parse_io = |s: &str| parse(&io, &args(s), 2);
        match parse_io(&format!("-dir {ds}")).unwrap() {
            Action::Run(o) => assert_eq!((o.dir.as_str(), o.overwrite), (ds.as_str(), false)),
            a => panic!("{a:?}"),
        }
        std::fs::write(d.join("IMB_out_g1"), "").unwrap();
        let e = parse_io(&format!("-dir {ds}")).unwrap_err().to_string();
        assert!(
            e.starts_with("-overwrite: ") && e.contains("IMB_out_g1 exists"),
            "{e}"
        );
        assert!(parse_io(&format!("-dir {ds} -overwrite")).is_ok());
        let e = parse_io(&format!("-dir {ds}/IMB_out_g1"))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("IMB_out_g1: not a directory"), "{e}");
        // A path Open MPI's MPI-IO would overflow on is refused before anything runs.
        let fill = "x".repeat(MAX_FILE_PATH - ds.len() - "/".len() - "/IMB_out_g1_1".len());
        let deep = d.join(&fill);
        std::fs::create_dir_all(&deep).unwrap();
        let deep = deep.to_string_lossy().into_owned();
        assert_eq!(longest_file_path(&deep, "IMB_out", 2), MAX_FILE_PATH);
        assert!(parse_io(&format!("-dir {deep}")).is_ok());
        // A trailing slash adds nothing to the paths.
        assert!(parse_io(&format!("-dir {deep}/")).is_ok());
        let over = format!("{deep}x");
        std::fs::create_dir_all(&over).unwrap();
        let e = parse_io(&format!("-dir {over}")).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "-dir {over}: the file paths imb-io makes there reach 228 bytes"
            )),
            "{e}"
        );
        // Ranks with more digits make longer names.
        assert!(parse(&io, &args(&format!("-dir {deep}")), 11).is_err());
        assert_eq!(longest_file_path("/d/", "B", 1), "/d/B_g0_0".len());
        assert_eq!(longest_file_path("/d", "B", 101), "/d/B_g100_100".len());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn map_must_fit_the_job() {
        assert!(err("-map 2x3", 4).starts_with("-map: 2x3 has 6 places but the job has 4"));
        assert!(err("-map 2x2", 6).contains("P·Q must equal"));
        assert_eq!(run("-map 2X3", 6).map, Some(Map { p: 2, q: 3 }));
        assert_eq!(run("-map 1x4", 4).map, Some(Map { p: 1, q: 4 }));
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let e = err("PingPong foo", 2);
        assert_eq!(
            e,
            "foo: unknown benchmark; valid names: PingPong, PingPing, Sendrecv, Allreduce, Barrier"
        );
        assert!(err("all", 2).contains("give no name"));
    }

    fn tmp(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("imb-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn input_files_insert_names_in_place() {
        let f = tmp("sel", "#\n# selection\nbarrier extra words\n\nSENDRECV\n");
        let o = run(&format!("PingPong -input {f} Allreduce"), 2);
        assert_eq!(o.benchmarks, vec![0, 4, 2, 3]);
        let bad = tmp("bad", "PingPong\nnope\n");
        assert_eq!(
            err(&format!("-input {bad}"), 2),
            format!("-input {bad}, line 2: \"nope\": unknown benchmark; valid names: PingPong, PingPing, Sendrecv, Allreduce, Barrier")
        );
        assert!(
            err("-input /nonexistent/sel", 2).starts_with("-input /nonexistent/sel: cannot read")
        );
        // a file with only comments selects the default list
        let empty = tmp("empty", "# nothing\n");
        assert_eq!(run(&format!("-input {empty}"), 2).benchmarks.len(), 5);
    }

    #[test]
    fn msglen_file_is_read() {
        let f = tmp("len", "0\n100\n1k\n");
        match run(&format!("-msglen {f}"), 2).lengths {
            Lengths::File { values, .. } => assert_eq!(values, vec![0, 100, 1024]),
            l => panic!("{l:?}"),
        }
        let bad = tmp("badlen", "0\nx\n");
        assert!(err(&format!("-msglen {bad}"), 2).starts_with(&format!("-msglen {bad}, line 2:")));
    }

    #[test]
    fn thread_level_prescan() {
        assert_eq!(
            prescan_thread_level(&args("a -thread_level multiple")),
            ThreadLevel::Multiple
        );
        assert_eq!(
            prescan_thread_level(&args("-thread_level")),
            ThreadLevel::Single
        );
        assert_eq!(
            prescan_thread_level(&args("-thread_level x")),
            ThreadLevel::Single
        );
    }
}
