//! Standard and optional parameter sets (guide 5.2.1, Table 19).
//!
//! A suite's settings file is data it supplies (`Spec`): the file shipped for it, its text
//! (the standard values, built into the binary so a lone binary still works) and the keys it
//! has beyond the guide's eight. A settings file chosen with `-settings` may switch on its
//! `[optional]` block. Command-line overrides (`-iter`, `-msglog`, a family's own options) are
//! merged later, in one step, by `cli`; `Origins` records where every value came from. `file`
//! reads a settings file, `check` holds the value ranges.

use crate::error::{Error, Result};
use crate::values::{Value, Values};
use serde::{Deserialize, Serialize};

mod check;
#[cfg(test)]
mod family_tests;
mod file;
mod read;
#[cfg(test)]
mod tests;

use check::validate;
pub use check::{differences, line_of};
use file::parse;
pub use file::{parse_toml, read_toml, toml_message};

/// The guide's standard parameter set, for imb-mpi1, imb-ext, imb-rma and imb-nbc: a suite
/// uses it as it is or adds its own keys (`Spec { keys, ..STANDARD }`).
pub const STANDARD: Spec = Spec {
    file: "settings/settings.toml",
    toml: include_str!("../../../../settings/settings.toml"),
    keys: &[],
    foreign: &[],
};

/// A suite's settings file.
#[derive(Debug)]
pub struct Spec {
    /// The file shipped for it, as `-help` and the errors name it.
    pub file: &'static str,
    /// Its text: the standard values, built in.
    pub toml: &'static str,
    /// Its keys beyond the guide's eight, in the order the header and `-json` list them.
    pub keys: &'static [Key],
    /// Keys of other suites' files: read, then refused with the file they belong to, so a
    /// file given to the wrong executable says which one takes it.
    pub foreign: &'static [Foreign],
}

/// The type of a suite's own key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Count,
    Text,
}

/// Where a suite's own key stands in `[standard]`.
#[derive(Debug, Clone, Copy)]
pub enum InStandard {
    /// Every `[standard]` block holds it; a user's block without it is the settings file of
    /// other executables: (that file's name, those executables), for the error.
    Required {
        else_file: (&'static str, &'static str),
    },
    /// Absent, or equal to this standard value.
    Default(fn() -> Value),
}

/// A key of a suite's own (`Spec::keys`).
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub name: &'static str,
    pub ty: Type,
    pub standard: InStandard,
    /// Whether the `[optional]` block may set it (else only the command line does).
    pub optional: bool,
    /// Why a value is out of range (the caller names the key, the file and the line).
    pub check: fn(&Value) -> std::result::Result<(), String>,
}

/// A key of another suite's file (`Spec::foreign`).
#[derive(Debug, Clone, Copy)]
pub struct Foreign {
    pub name: &'static str,
    pub ty: Type,
    /// The file it belongs to and its executable: `settings_x.toml`, `imb-x`.
    pub file: &'static str,
    pub exe: &'static str,
}

/// Accepts every value (`Key::check` of a key without a range).
pub fn any_value(_: &Value) -> std::result::Result<(), String> {
    Ok(())
}

/// The parameters that control a run, named as in the guide, and the suite's own keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// The suite's own keys (`Spec::keys`), read through the suite's `values::Slot`s.
    #[serde(flatten)]
    pub family: Values,
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
    /// One layer of the merge, over the layers below it: if `layer` holds a value of `key`,
    /// it is `value`'s now, and `origin` is where it came from. Every suite merges so: the MPI
    /// executables' settings file over the standard values and the command line over both
    /// (`cli::merge`), imb-threads' and imb-omp's options alike.
    pub fn layer<T>(&mut self, key: &str, origin: Origin, layer: Option<T>, value: &mut T) {
        if let Some(v) = layer {
            *value = v;
            self.set(key, origin);
        }
    }
}

/// Largest MAXMSGLOG we accept: MPI counts are C ints.
pub const MAX_MSGLOG: u32 = 30;

/// Largest repetition or barrier count: IMB keeps them in C ints, and a larger value can only
/// be a mistake (at 0.1 µs a repetition, 2^31 repetitions take 3.6 minutes per size).
pub const MAX_COUNT: usize = i32::MAX as usize;

/// Largest OVERALL_VOL: 1 TiB. n_sample = OVERALL_VOL / X, so a larger volume only makes
/// MSGSPERSAMPLE the cap for every size, and EXT windows are OVERALL_VOL bytes each.
pub const MAX_OVERALL_VOL: usize = 1 << 40;

/// The built-in standard parameters of a suite.
pub fn standard(spec: &Spec) -> Params {
    // The embedded files are tested (`embedded_files_parse`), so this cannot fail at run time.
    parse(spec.toml, "<built-in>", spec)
        .map(|s| s.params)
        .unwrap_or_else(|e| unreachable!("built-in settings: {e}"))
}

/// Settings with no file: standard mode.
pub fn built_in(spec: &Spec) -> Settings {
    Settings {
        params: standard(spec),
        optional: false,
        source: None,
        info: Vec::new(),
        origins: Origins::default(),
    }
}

/// Read a settings file chosen with `-settings`.
pub fn load(path: &str, spec: &Spec) -> Result<Settings> {
    let text = crate::safefile::read_text("-settings", path)?;
    let mut s = parse(&text, path, spec)?;
    if s.params != standard(spec) && !s.optional {
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
