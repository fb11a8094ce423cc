//! The IMB-style command line as clap sees it: argv normalised from single-dash IMB spellings
//! (the option names come from the table in `mpi_opts`), and the value parsers.

use super::mpi_opts::MPI;
use super::*;

/// IMB 2021 options imb-rs does not implement: named in the error, so a script written for
/// IMB 2021 fails with a reason instead of "unknown option".
pub(super) const IMB2021_UNSUPPORTED: &[&str] = &[
    "off_cache",
    "sync",
    "root_shift",
    "msgwidth",
    "warm_up",
    "data_type",
    "red_data_type",
    "contig_type",
    "imb_barrier",
    "msgsize",
    "msg_pause",
    "mem_alloc_type",
    "dump",
    "load",
];
/// Rewrite IMB argv into clap's long-option form. Returns `None` for `-h`/`-help`.
pub(super) fn normalise(args: &[String]) -> Result<Option<Vec<String>>> {
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
            if table::value_names(MPI).any(|n| n == name) {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| Error::arg(format!("-{name}"), "needs a value"))?,
                };
                out.push(format!("--{name}={v}"));
            } else if table::flag_names(MPI).any(|n| n == name) {
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

pub(super) fn positive_int(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a positive integer".into()),
    }
}

pub(super) fn window_size(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=settings::MAX_WINDOW_SIZE).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of messages from 1 to {}",
            settings::MAX_WINDOW_SIZE
        )),
    }
}

pub(super) fn parse_multi(s: &str) -> std::result::Result<Multi, String> {
    match s.trim() {
        "0" => Ok(Multi::Merged),
        "1" => Ok(Multi::PerGroup),
        _ => Err("expected 0 (one row over all groups) or 1 (one row per group)".into()),
    }
}

pub(super) fn parse_map(s: &str) -> std::result::Result<Map, String> {
    let err = || "expected PxQ with two positive integers, e.g. 2x7".to_string();
    let (p, q) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let p = positive_int(p).map_err(|_| err())?;
    let q = positive_int(q).map_err(|_| err())?;
    Ok(Map { p, q })
}

pub(super) fn parse_msglog(s: &str) -> std::result::Result<(u32, u32), String> {
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
pub(super) fn parse_iter(
    s: &str,
) -> std::result::Result<(usize, Option<usize>, Option<usize>), String> {
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

pub(super) fn positive_float(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err("expected a positive number".into()),
    }
}

pub(super) fn nonneg_float(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err("expected a percentage >= 0".into()),
    }
}

/// IMB 2021's `-iter_policy`: only `off` (fixed counts, IMB 3.0's rule and ours) is accepted.
pub(super) fn iter_policy(s: &str) -> std::result::Result<(), String> {
    match s.to_ascii_lowercase().as_str() {
        "off" => Ok(()),
        "dynamic" | "multiple_np" | "auto" => Err(format!(
            "{s}: not supported; imb-rs uses IMB 3.0's fixed repetition counts (off); \
             -time caps the time per size"
        )),
        _ => Err("expected off (dynamic, multiple_np and auto are not supported)".into()),
    }
}

pub(super) fn on_off(s: &str) -> std::result::Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "1" | "yes" | "enable" | "true" => Ok(true),
        "off" | "0" | "no" | "disable" | "false" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

pub(super) fn from_clap(e: clap::Error) -> Error {
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
