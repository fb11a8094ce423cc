//! Standard and optional parameter sets (guide 5.2.1, Table 19 and the settings_io.h sample).
//!
//! The standard values are embedded from `settings/*.toml`, so a lone binary still works; a
//! settings file chosen with `-settings` may switch on its `[optional]` block. Command-line
//! overrides (`-iter`, `-msglog`) are merged later, in one step, by `cli`; `Origins` records
//! where every value came from. `file` reads a settings file, `check` holds the value ranges.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

mod check;
mod file;
#[cfg(test)]
mod tests;

use check::line_of;
pub use check::{differences, validate};
use file::parse;
pub use file::toml_message;

const MPI1_TOML: &str = include_str!("../../../../settings/settings.toml");
const IO_TOML: &str = include_str!("../../../../settings/settings_io.toml");

/// Which built-in parameter set a suite uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// imb-mpi1, imb-ext: `settings.toml`
    Mpi1,
    /// imb-io: `settings_io.toml`
    Io,
}

/// The parameters that control a run, named as in the guide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    #[serde(rename = "MINMSGLOG")]
    pub minmsglog: u32,
    #[serde(rename = "MAXMSGLOG")]
    pub maxmsglog: u32,
    #[serde(rename = "MSGSPERSAMPLE")]
    pub msgspersample: usize,
    #[serde(rename = "MSGS_NONAGGR")]
    pub msgs_nonaggr: usize,
    #[serde(rename = "OVERALL_VOL")]
    pub overall_vol: usize,
    #[serde(rename = "N_WARMUP")]
    pub n_warmup: usize,
    #[serde(rename = "N_BARR")]
    pub n_barr: usize,
    #[serde(rename = "TARGET_CPU_SECS")]
    pub target_cpu_secs: f64,
    #[serde(rename = "FILENAME", default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// Messages in flight per repetition of Uniband and Biband: IMB 2021's `-window_size`,
    /// set only from the command line (doc/ReadMe_IMB.md, "Uniband and Biband").
    #[serde(rename = "WINDOW_SIZE", default = "default_window")]
    pub window_size: usize,
}

/// IMB 2021's `-window_size` default.
pub const WINDOW_SIZE: usize = 256;

/// Largest `-window_size`: one MPI_Request each, allocated before timing.
pub const MAX_WINDOW_SIZE: usize = 1 << 20;

fn default_window() -> usize {
    WINDOW_SIZE
}

/// Parameters plus where they came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub params: Params,
    /// True when the optional block of a settings file is in force.
    pub optional: bool,
    /// The settings file, if one was given.
    pub source: Option<String>,
    /// MPI_Info hints (key, value) from the file's `[info]` table; empty means MPI_INFO_NULL.
    #[serde(default)]
    pub info: Vec<(String, String)>,
    /// The keys the file's `[optional]` block set (when it is in force).
    #[serde(default)]
    pub origins: Origins,
}

/// Where a parameter's value came from: the merge is command line over the `[optional]` block
/// of a settings file over the standard values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    #[serde(rename = "standard")]
    Standard,
    #[serde(rename = "settings file")]
    SettingsFile,
    #[serde(rename = "command line")]
    CommandLine,
}

/// The origin of every parameter not at its standard origin, by key (`MINMSGLOG`, ...).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Origins(Vec<(String, Origin)>);

impl Origins {
    /// Where `key`'s value came from.
    pub fn of(&self, key: &str) -> Origin {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map_or(Origin::Standard, |&(_, o)| o)
    }
    /// `key`'s value now comes from `origin` (a later layer of the merge).
    pub fn set(&mut self, key: &str, origin: Origin) {
        self.0.retain(|(k, _)| k != key);
        if origin != Origin::Standard {
            self.0.push((key.to_string(), origin));
        }
    }
    /// Whether some value came from `origin`.
    pub fn any(&self, origin: Origin) -> bool {
        self.0.iter().any(|&(_, o)| o == origin)
    }
}

/// Largest MAXMSGLOG we accept: MPI counts are C ints.
pub const MAX_MSGLOG: u32 = 30;

/// Largest repetition or barrier count: IMB keeps them in C ints, and a larger value can only
/// be a mistake (at 0.1 µs a repetition, 2^31 repetitions take 3.6 minutes per size).
pub const MAX_COUNT: usize = i32::MAX as usize;

/// Longest FILENAME: NAME_MAX (255) less the longest suffix imb-io (`_g<group>_<rank>`) and
/// the MPI-IO libraries (OMPIO `-<jobid>-<n>.lock`, `.locktest.<rank>`; ROMIO `.<name>.shfp.<n>`)
/// add. Open MPI 4.1's sharedfp aborts the job on a name of 250 characters.
pub const MAX_FILENAME: usize = 200;

/// Largest OVERALL_VOL: 1 TiB. n_sample = OVERALL_VOL / X, so a larger volume only makes
/// MSGSPERSAMPLE the cap for every size, and EXT windows are OVERALL_VOL bytes each.
pub const MAX_OVERALL_VOL: usize = 1 << 40;

/// The built-in standard parameters of a suite.
pub fn standard(kind: Kind) -> Params {
    let text = embedded(kind);
    // The embedded files are tested (`embedded_files_parse`), so this cannot fail at run time.
    parse(text, "<built-in>", kind)
        .map(|s| s.params)
        .unwrap_or_else(|e| unreachable!("built-in settings: {e}"))
}

fn embedded(kind: Kind) -> &'static str {
    match kind {
        Kind::Mpi1 => MPI1_TOML,
        Kind::Io => IO_TOML,
    }
}

/// Settings with no file: standard mode.
pub fn built_in(kind: Kind) -> Settings {
    Settings {
        params: standard(kind),
        optional: false,
        source: None,
        info: Vec::new(),
        origins: Origins::default(),
    }
}

/// Read a settings file chosen with `-settings`.
pub fn load(path: &str, kind: Kind) -> Result<Settings> {
    let text = crate::safefile::read_text("-settings", path)?;
    let mut s = parse(&text, path, kind)?;
    if s.params != standard(kind) && !s.optional {
        // Unreachable through parse (checked there), kept as a guard for future keys.
        return Err(Error::file(
            "-settings",
            path,
            "the [standard] block was changed",
        ));
    }
    s.source = Some(path.to_string());
    Ok(s)
}
