//! Option values: the parsers the rows' setters call, and the values they make. Each parser
//! says why a value is wrong; the argv reader puts the option (and the value) in front.
//! Nothing here knows a row, so every module of `cli` may use it.

use crate::settings;
use crate::vocab::{Map, Multi};
use serde::{Deserialize, Serialize};

/// The MPI thread level to request (`-thread_level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThreadLevel {
    Single,
    Funneled,
    Serialized,
    Multiple,
}

impl ThreadLevel {
    pub fn parse(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "single" => Ok(Self::Single),
            "funneled" => Ok(Self::Funneled),
            "serialized" => Ok(Self::Serialized),
            "multiple" => Ok(Self::Multiple),
            _ => Err("expected single, funneled, serialized or multiple".into()),
        }
    }

    /// The spelling `-thread_level` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Single => "single",
            Self::Funneled => "funneled",
            Self::Serialized => "serialized",
            Self::Multiple => "multiple",
        }
    }
}

/// `-aggregate_mode`: which of the aggregate / non-aggregate tables run (imb-ext, imb-io).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AggregateMode {
    Aggregate,
    NonAggregate,
    Both,
}

impl AggregateMode {
    pub fn parse(s: &str) -> Result<Self, String> {
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
    pub fn parse(s: &str) -> Result<Self, String> {
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

pub fn positive_int(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a positive integer".into()),
    }
}

pub fn parse_multi(s: &str) -> Result<Multi, String> {
    match s.trim() {
        "0" => Ok(Multi::Merged),
        "1" => Ok(Multi::PerGroup),
        _ => Err("expected 0 (one row over all groups) or 1 (one row per group)".into()),
    }
}

pub fn parse_map(s: &str) -> Result<Map, String> {
    let err = || "expected PxQ with two positive integers, e.g. 2x7".to_string();
    let (p, q) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let p = positive_int(p).map_err(|_| err())?;
    let q = positive_int(q).map_err(|_| err())?;
    Ok(Map { p, q })
}

pub fn parse_msglog(s: &str) -> Result<(u32, u32), String> {
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

/// `-iter MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]]` as typed, fields left out as None.
pub type Iter = (usize, Option<usize>, Option<usize>);

/// `-iter msgs[,vol_MB[,nonaggr]]` as in IMB 2021.
pub fn parse_iter(s: &str) -> Result<Iter, String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err("expected MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]]".into());
    }
    let get = |i: usize| -> Result<Option<usize>, String> {
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

pub fn positive_float(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err("expected a positive number".into()),
    }
}

pub fn nonneg_float(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err("expected a percentage >= 0".into()),
    }
}

pub fn on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "1" | "yes" | "enable" | "true" => Ok(true),
        "off" | "0" | "no" | "disable" | "false" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

/// A whole number `min..=max` (the thread suites' counts); the error says why, and the caller
/// names the option or the file. All digits but too long for a number is above any limit.
pub fn whole(s: &str, min: usize, max: usize) -> Result<usize, String> {
    let s = s.trim();
    let v: usize = match s.parse() {
        Ok(v) => v,
        Err(_) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => usize::MAX,
        Err(_) => return Err(format!("expected a whole number ({min}..{max})")),
    };
    if v < min || v > max {
        return Err(format!("must be {min}..{max}"));
    }
    Ok(v)
}

/// Most numbers a list may hold: every thread count or CPU the suites take once (imb-omp's
/// 4096 threads). A longer list only repeats them, and a range written over and over (a
/// 128 KiB argument of `1-1024,` took 1.9 GB and 45 s to refuse) must not fill the memory.
pub const MAX_LIST: usize = 4096;

/// A list of numbers written `4`, `1,2,4` or `1-4` (the thread suites' `-threads`, imb-threads'
/// `-cpus`), each number read by `num`, which says why one is wrong; a range that goes
/// downwards is an error, and so is a list of more than [`MAX_LIST`] numbers. The callers put
/// the option in front of the message.
pub fn number_list(
    s: &str,
    num: impl Fn(&str) -> Result<usize, String>,
) -> Result<Vec<usize>, String> {
    let mut v = Vec::new();
    for part in s.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b) = (num(a)?, num(b)?);
        if b < a {
            return Err(format!(
                "range {} goes downwards (write it low-high)",
                part.trim()
            ));
        }
        if v.len().saturating_add((b - a).saturating_add(1)) > MAX_LIST {
            return Err(format!("more than {MAX_LIST} numbers"));
        }
        v.extend(a..=b);
    }
    Ok(v)
}
