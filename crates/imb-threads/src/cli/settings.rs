//! imb-threads' settings file (settings/threads.toml): its `[defaults]`, every key required,
//! read as the MPI executables read theirs (`imb_core::settings::read_toml`: a small regular
//! file of UTF-8 text, TOML and type errors one line naming the file, the line and the key in
//! words), then checked here with the line of the value.

use super::{parse_binds, parse_list, MAX_REPS, MAX_THREADS};
use imb_core::cli::value::whole;
use imb_core::settings::{line_of, parse_toml, read_toml};
use serde::Deserialize;
use toml::Spanned;

pub(super) const DEFAULTS: &str = include_str!("../../../../settings/threads.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    defaults: Defaults,
}

/// The `[defaults]` of a settings file; each value keeps where it stands, so an error names
/// its line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Defaults {
    #[serde(rename = "CUTOFF_PCT")]
    pub cutoff_pct: Spanned<f64>,
    #[serde(rename = "MIN_REPS")]
    pub min_reps: Spanned<usize>,
    #[serde(rename = "MAX_REPS")]
    pub max_reps: Spanned<usize>,
    #[serde(rename = "BIND")]
    pub bind: Spanned<String>,
    #[serde(rename = "THREADS")]
    pub threads: Spanned<String>,
    #[serde(rename = "CORRECT")]
    pub correct: Spanned<bool>,
}

/// The `[defaults]` block of `text` (the file `file`); a TOML or type error is one line
/// naming its line and key, in the MPI executables' words.
pub(super) fn defaults(text: &str, file: &str) -> Result<Defaults, String> {
    parse_toml::<File>(text, file)
        .map(|f| f.defaults)
        .map_err(|e| e.to_string())
}

/// The built-in defaults (tested to parse).
pub(super) fn built_in() -> Result<Defaults, String> {
    defaults(DEFAULTS, "<built-in>")
}

/// The file of `-settings FILE`, read and checked.
pub(super) fn read(file: &str) -> Result<Defaults, String> {
    let (f, text) = read_toml::<File>(file).map_err(|e| e.to_string())?;
    check_file(&f.defaults, &text, file)?;
    Ok(f.defaults)
}

/// A cut-off is a finite percentage >= 0 (0: every timing must agree exactly).
pub(super) fn check_cutoff(v: f64) -> Result<f64, String> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err("must be a percentage >= 0".into())
    }
}

/// The values of a settings file, checked with the file and the line of the value in the
/// error (the same values from the command line name the option instead).
fn check_file(d: &Defaults, text: &str, file: &str) -> Result<(), String> {
    let at = |span: std::ops::Range<usize>, msg: String| {
        Err(imb_core::Error::line("-settings", file, line_of(text, span.start), msg).to_string())
    };
    if let Err(e) = check_cutoff(*d.cutoff_pct.get_ref()) {
        return at(
            d.cutoff_pct.span(),
            format!("CUTOFF_PCT = {}: {e}", d.cutoff_pct.get_ref()),
        );
    }
    for (key, v) in [("MIN_REPS", &d.min_reps), ("MAX_REPS", &d.max_reps)] {
        if let Err(e) = whole(&v.get_ref().to_string(), 2, MAX_REPS) {
            return at(v.span(), format!("{key} = {}: {e}", v.get_ref()));
        }
    }
    if d.max_reps.get_ref() < d.min_reps.get_ref() {
        return at(
            d.max_reps.span(),
            format!(
                "MAX_REPS = {}: must be at least MIN_REPS ({})",
                d.max_reps.get_ref(),
                d.min_reps.get_ref()
            ),
        );
    }
    if let Err(e) = parse_binds(d.bind.get_ref()) {
        return at(d.bind.span(), format!("BIND = {:?}: {e}", d.bind.get_ref()));
    }
    if let Err(e) = parse_list(d.threads.get_ref(), 1, MAX_THREADS) {
        return at(
            d.threads.span(),
            format!("THREADS = {:?}: {e}", d.threads.get_ref()),
        );
    }
    Ok(())
}
