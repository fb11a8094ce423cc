//! The arguments several commands share, and how a value is checked: the metric, a
//! confidence, a path, the store and the system.

use crate::read::key::Metric;
use crate::store::name::name;
use clap::{Arg, ArgAction};

pub(super) fn metric_arg() -> Arg {
    Arg::new("metric")
        .long("metric")
        .value_name("M")
        .default_value("t")
        .value_parser(Metric::parse)
        .help(
            "t (t[usec], else t_avg, else t_ovrl), t_avg, t_min, t_max, mbytes, t_ovrl, t_pure \
             or msg_per_s (Msg/sec)",
        )
}

pub(super) fn confidence(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.5..=0.999).contains(&x) => Ok(x),
        _ => Err(format!("{s:?}: a fraction from 0.5 to 0.999, e.g. 0.95")),
    }
}

/// A path argument: an empty one would name the current directory (or nothing), never what the
/// user meant, so it is a usage error naming the argument.
pub(super) fn path(s: &str) -> Result<String, String> {
    if s.is_empty() {
        Err("an empty path: name a file or directory".to_string())
    } else {
        Ok(s.to_string())
    }
}

pub(super) fn db_arg() -> Arg {
    Arg::new("db")
        .long("db")
        .value_name("FILE")
        .value_parser(path)
        .help("the results store (else $IMB_RS_DB, else $XDG_DATA_HOME/imb-rs/results.sqlite)")
}

pub(super) fn system_arg(help: &'static str) -> Arg {
    Arg::new("system")
        .long("system")
        .value_name("NAME")
        .value_parser(name)
        .help(help)
}

pub(super) const SELECTS: &str =
    "selectors (@...) choose runs of this system (else $IMB_RS_SYSTEM)";

/// A flag: `--NAME`, no value.
pub(super) fn flag(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .action(ArgAction::SetTrue)
        .help(help)
}

/// An option `--NAME V`.
pub(super) fn value(name: &'static str, v: &'static str, help: &'static str) -> Arg {
    Arg::new(name).long(name).value_name(v).help(help)
}

/// An option that names a file or directory.
pub(super) fn file(name: &'static str, v: &'static str, help: &'static str) -> Arg {
    value(name, v, help).value_parser(path)
}

/// A file or directory imb-compare writes (`--json`, `--junit`, `--plot`): `-` would be a
/// file of that name in the current directory, where a user means standard output, which
/// the report holds.
fn output(s: &str) -> Result<String, String> {
    if s == "-" {
        Err("standard output holds the report; name a file".to_string())
    } else {
        path(s)
    }
}

/// An option that names a file or directory imb-compare writes.
pub(super) fn output_file(name: &'static str, v: &'static str, help: &'static str) -> Arg {
    value(name, v, help).value_parser(output)
}
