//! Reading a settings file: the `[standard]` block (absent or equal to the built-in values),
//! the `[optional]` block when `IMB_OPTIONAL` switches it on, and the `[info]` hints.
//!
//! The keys a block takes come from the suite's `Spec`, so one reader (`read`) serves every
//! suite. Every value is read with its place in the file (`toml::Spanned`), straight from the
//! text: a wrong type, an unknown key, a value out of range or a standard value changed is an
//! error naming the line of the value or key. (Reading a block into a `toml::Table` first and
//! converting it afterwards loses the places, which is how `[standard]` once lost its line
//! numbers.)

use super::check::at;
use super::read::{Block, LayoutSeed, Read, GUIDE};
use super::*;
use serde::de::DeserializeSeed;

/// Where each parameter's value in force stands in the file (key, line); 0 when it does not.
#[derive(Debug, Default)]
pub(super) struct Lines(Vec<(&'static str, usize)>);

impl Lines {
    fn set(&mut self, key: &'static str, line: usize) {
        self.0.retain(|&(k, _)| k != key);
        self.0.push((key, line));
    }
    /// The line of `key`'s value, or 0.
    pub fn of(&self, key: &str) -> usize {
        self.0
            .iter()
            .find(|&&(k, _)| k == key)
            .map_or(0, |&(_, l)| l)
    }
}

/// The key assigned just before byte `at` (`KEY = value`, also `a.KEY = ` and `{ KEY = `).
fn key_before(text: &str, at: usize) -> Option<&str> {
    let before = text.get(..at)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let lhs = line.trim_end().strip_suffix('=')?.trim_end();
    let key = lhs
        .rsplit(|c: char| c == '.' || c == '{' || c == ',' || c.is_whitespace())
        .next()?
        .trim_matches('"');
    (!key.is_empty()).then_some(key)
}

/// A TOML or type error of `text` as one line and the line it names (0: none): the key it
/// concerns first when the message does not name it, and Rust's type names said in words.
pub fn toml_message(text: &str, e: &toml::de::Error) -> (usize, String) {
    let mut msg = e.message().trim().replace('\n', ": ");
    for (rust, words) in [
        ("expected usize", "expected a whole number of at least 0"),
        ("expected u32", "expected a whole number of at least 0"),
        ("expected f64", "expected a number"),
        ("expected a borrowed string", "expected a string"),
    ] {
        msg = msg.replace(rust, words);
    }
    let (line, key) = match e.span() {
        Some(s) => (line_of(text, s.start), key_before(text, s.start)),
        None => (0, None),
    };
    if let Some(k) = key.filter(|k| !msg.contains(&format!("`{k}`"))) {
        msg = format!("{k}: {msg}");
    }
    (line, msg)
}

/// A settings file of a suite's own shape (imb-threads' `[defaults]`): read from `path` as the
/// MPI executables read theirs (a small regular file of UTF-8 text), its TOML and type errors
/// one line naming the file and line (`toml_message`). Returns the value and the text, whose
/// lines the suite's own checks name (`line_of`).
pub fn read_toml<T: serde::de::DeserializeOwned>(path: &str) -> Result<(T, String)> {
    let text = crate::safefile::read_text("-settings", path)?;
    let v = parse_toml(&text, path)?;
    Ok((v, text))
}

/// `text` as `T`, with `read_toml`'s errors.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str, path: &str) -> Result<T> {
    toml::from_str(text).map_err(|e| {
        let (l, msg) = toml_message(text, &e);
        at(path, l, msg)
    })
}

pub(super) fn parse(text: &str, path: &str, spec: &Spec) -> Result<Settings> {
    let layout = LayoutSeed { spec, text }
        .deserialize(toml::Deserializer::new(text))
        .map_err(|e| {
            let (l, msg) = toml_message(text, &e);
            at(path, l, msg)
        })?;
    let mut lines = Lines::default();
    let std_params = match layout.standard {
        Some(b) => standard_block(&b, text, path, spec, &mut lines)?,
        None if path == "<built-in>" => {
            return Err(Error::file("-settings", path, "no [standard] block"))
        }
        None => standard(spec),
    };
    let line = |s: &std::ops::Range<usize>| line_of(text, s.start);
    let mut info = Vec::new();
    for (k, v) in &layout.info {
        let (key, value) = (k.get_ref(), v.get_ref());
        if key.is_empty() || key.len() > 255 || value.len() > 1023 {
            return Err(at(
                path,
                line(&k.span()),
                format!(
                    "[info] key \"{key}\": keys must be 1..255 characters, values at most 1023"
                ),
            ));
        }
        if key.contains('\0') || value.contains('\0') {
            // CString refuses NUL: MPI_Info_set could not be called with it.
            return Err(at(
                path,
                line(&k.span()),
                format!("[info] key {key:?}: a NUL character in the key or value"),
            ));
        }
        info.push((key.clone(), value.clone()));
    }
    validate(&std_params, path, spec, &[], &|k| lines.of(k))?;
    let o = layout.optional;
    if !matches!(o.get("IMB_OPTIONAL"), Some((_, Read::Bool(true), _))) {
        return Ok(Settings {
            params: std_params,
            optional: false,
            source: None,
            info,
            origins: Origins::default(),
        });
    }
    let mut origins = Origins::default();
    let mut p = std_params;
    let mut foreign = Vec::new();
    for (key, v, l) in &o.0 {
        if *key == "IMB_OPTIONAL" {
            continue;
        }
        if spec.foreign.iter().any(|f| f.name == *key) {
            foreign.push((*key, *l));
            continue;
        }
        lines.set(key, *l);
        origins.set(key, Origin::SettingsFile);
        set(&mut p, key, v);
    }
    validate(&p, path, spec, &foreign, &|k| lines.of(k))?;
    Ok(Settings {
        params: p,
        optional: true,
        source: None,
        info,
        origins,
    })
}

/// Parameter `key` of `p` is `v` (its type is the key's: the reader read it so).
fn set(p: &mut Params, key: &str, v: &Read) {
    match (key, v) {
        ("MINMSGLOG", Read::U32(x)) => p.minmsglog = *x,
        ("MAXMSGLOG", Read::U32(x)) => p.maxmsglog = *x,
        ("MSGSPERSAMPLE", Read::Usize(x)) => p.msgspersample = *x,
        ("MSGS_NONAGGR", Read::Usize(x)) => p.msgs_nonaggr = *x,
        ("OVERALL_VOL", Read::Usize(x)) => p.overall_vol = *x,
        ("N_WARMUP", Read::Usize(x)) => p.n_warmup = *x,
        ("N_BARR", Read::Usize(x)) => p.n_barr = *x,
        ("TARGET_CPU_SECS", Read::F64(x)) => p.target_cpu_secs = *x,
        (k, Read::Own(x)) => p.family.set(k, x.clone()),
        (k, v) => unreachable!("{k} read as {v:?}"),
    }
}

/// The `[standard]` block of a file: for the built-in text, the values; for a user's file it
/// must hold every key and equal the built-in values key for key (the first differing key is
/// named with its line), and a block of another suite's file says which file to use. The
/// line of each key goes into `lines`.
fn standard_block(
    b: &Block,
    text: &str,
    path: &str,
    spec: &Spec,
    lines: &mut Lines,
) -> Result<Params> {
    // Where the block starts: its header, or the line of `standard = {` or `standard.KEY =`.
    let header = text
        .lines()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with("[standard]")
                || l.strip_prefix("standard")
                    .is_some_and(|r| r.trim_start().starts_with(['=', '.']))
        })
        .map_or(0, |i| i + 1);
    if path != "<built-in>" {
        let other = spec
            .foreign
            .iter()
            .find(|f| b.get(f.name).is_some())
            .map(|f| (f.file, f.exe))
            .or_else(|| {
                spec.keys.iter().find_map(|k| match k.standard {
                    InStandard::Required { else_file } if b.get(k.name).is_none() => {
                        Some(else_file)
                    }
                    _ => None,
                })
            });
        if let Some((file, exe)) = other {
            return Err(Error::file(
                "-settings",
                path,
                format!(
                    "this looks like {file} (the settings of {exe}); this executable takes {}",
                    spec.file
                ),
            ));
        }
    }
    let mut p = Params {
        minmsglog: 0,
        maxmsglog: 0,
        msgspersample: 0,
        msgs_nonaggr: 0,
        overall_vol: 0,
        n_warmup: 0,
        n_barr: 0,
        target_cpu_secs: 0.0,
        family: Values::default(),
    };
    for key in GUIDE {
        let Some((key, v, l)) = b.get(key) else {
            return Err(at(
                path,
                header,
                format!(
                    "[standard]: {key} is missing; the block holds every standard value, \
                     unchanged (or leave it out)"
                ),
            ));
        };
        lines.set(key, *l);
        set(&mut p, key, v);
    }
    for k in spec.keys {
        match (b.get(k.name), k.standard) {
            (Some((key, v, l)), _) => {
                lines.set(key, *l);
                set(&mut p, key, v);
            }
            (None, InStandard::Default(v)) => p.family.set(k.name, v()),
            (None, InStandard::Required { .. }) => {}
        }
    }
    if path == "<built-in>" {
        return Ok(p);
    }
    let built_in = standard(spec);
    if let Some((key, v, std)) = differences(&p, &built_in).into_iter().next() {
        return Err(at(
            path,
            lines.of(key),
            format!(
                "[standard] {key} = {v} differs from the standard value {std}; put your values \
                 in [optional] with IMB_OPTIONAL = true"
            ),
        ));
    }
    Ok(p)
}
