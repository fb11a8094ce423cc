//! Reading a settings file: the `[standard]` block (absent or equal to the built-in values),
//! the `[optional]` block when `IMB_OPTIONAL` switches it on, and the `[info]` hints.
//!
//! Every value is read with its place in the file (`toml::Spanned`), straight from the text:
//! a wrong type, an unknown or duplicate key, a value out of range or a standard value changed
//! is an error naming the line of the value or key. (Reading a block into a `toml::Table`
//! first and converting it afterwards loses the places, which is how `[standard]` once lost
//! its line numbers.)

use super::*;
use toml::Spanned;

type Value<T> = Option<Spanned<T>>;

/// The `[standard]` block: when present, every key but FILENAME (imb-io's) and WINDOW_SIZE
/// (the command line's) is required, and each must equal the built-in value.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StandardBlock {
    #[serde(rename = "MINMSGLOG")]
    minmsglog: Value<u32>,
    #[serde(rename = "MAXMSGLOG")]
    maxmsglog: Value<u32>,
    #[serde(rename = "MSGSPERSAMPLE")]
    msgspersample: Value<usize>,
    #[serde(rename = "MSGS_NONAGGR")]
    msgs_nonaggr: Value<usize>,
    #[serde(rename = "OVERALL_VOL")]
    overall_vol: Value<usize>,
    #[serde(rename = "N_WARMUP")]
    n_warmup: Value<usize>,
    #[serde(rename = "N_BARR")]
    n_barr: Value<usize>,
    #[serde(rename = "TARGET_CPU_SECS")]
    target_cpu_secs: Value<f64>,
    #[serde(rename = "FILENAME")]
    filename: Value<String>,
    #[serde(rename = "WINDOW_SIZE")]
    window_size: Value<usize>,
}

/// The user's block: every key optional, `IMB_OPTIONAL` switches it on.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionalBlock {
    #[serde(rename = "IMB_OPTIONAL")]
    imb_optional: Value<bool>,
    #[serde(rename = "MINMSGLOG")]
    minmsglog: Value<u32>,
    #[serde(rename = "MAXMSGLOG")]
    maxmsglog: Value<u32>,
    #[serde(rename = "MSGSPERSAMPLE")]
    msgspersample: Value<usize>,
    #[serde(rename = "MSGS_NONAGGR")]
    msgs_nonaggr: Value<usize>,
    #[serde(rename = "OVERALL_VOL")]
    overall_vol: Value<usize>,
    #[serde(rename = "N_WARMUP")]
    n_warmup: Value<usize>,
    #[serde(rename = "N_BARR")]
    n_barr: Value<usize>,
    #[serde(rename = "TARGET_CPU_SECS")]
    target_cpu_secs: Value<f64>,
    #[serde(rename = "FILENAME")]
    filename: Value<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLayout {
    /// Absent: the built-in standard values (a file may hold only its `[optional]` block).
    standard: Option<StandardBlock>,
    #[serde(default)]
    optional: OptionalBlock,
    /// MPI_Info hints for MPI_Win_create / MPI_File_open (the guide's `User_Set_Info`).
    #[serde(default)]
    info: std::collections::BTreeMap<Spanned<String>, Spanned<String>>,
}

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

/// `-settings FILE, line N: MSG`, or without the line when it is 0.
fn at(path: &str, line: usize, msg: String) -> Error {
    match line {
        0 => Error::file("-settings", path, msg),
        l => Error::line("-settings", path, l, msg),
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
/// imb-threads' settings file can use it too.
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

pub(super) fn parse(text: &str, path: &str, kind: Kind) -> Result<Settings> {
    let line = |s: &std::ops::Range<usize>| line_of(text, s.start);
    let layout: FileLayout = toml::from_str(text).map_err(|e| {
        let (l, msg) = toml_message(text, &e);
        at(path, l, msg)
    })?;
    let mut lines = Lines::default();
    let std_params = match layout.standard {
        Some(b) => standard_block(b, text, path, kind, &mut lines)?,
        None if path == "<built-in>" => {
            return Err(Error::file("-settings", path, "no [standard] block"))
        }
        None => standard(kind),
    };
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
    validate(&std_params, path, kind, &|k| lines.of(k))?;
    let o = layout.optional;
    if !o.imb_optional.as_ref().is_some_and(|b| *b.get_ref()) {
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
    macro_rules! over {
        ($($field:ident: $key:literal),*) => {$(
            if let Some(v) = o.$field {
                lines.set($key, line(&v.span()));
                origins.set($key, Origin::SettingsFile);
                p.$field = v.into_inner().into();
            }
        )*};
    }
    over!(
        minmsglog: "MINMSGLOG",
        maxmsglog: "MAXMSGLOG",
        msgspersample: "MSGSPERSAMPLE",
        msgs_nonaggr: "MSGS_NONAGGR",
        overall_vol: "OVERALL_VOL",
        n_warmup: "N_WARMUP",
        n_barr: "N_BARR",
        target_cpu_secs: "TARGET_CPU_SECS",
        filename: "FILENAME"
    );
    validate(&p, path, kind, &|k| lines.of(k))?;
    Ok(Settings {
        params: p,
        optional: true,
        source: None,
        info,
        origins,
    })
}

/// The `[standard]` block of a file: for the built-in text, the values; for a user's file it
/// must hold every key and equal the built-in values key for key (the first differing key is
/// named with its line), and a block of the other suite's file says which file to use. The
/// line of each key goes into `lines`.
fn standard_block(
    b: StandardBlock,
    text: &str,
    path: &str,
    kind: Kind,
    lines: &mut Lines,
) -> Result<Params> {
    let line = |s: &std::ops::Range<usize>| line_of(text, s.start);
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
    let (other, this_file, other_exe) = match kind {
        Kind::Mpi1 => ("settings_io.toml", "settings/settings.toml", "imb-io"),
        Kind::Io => (
            "settings.toml",
            "settings/settings_io.toml",
            "imb-mpi1 and imb-ext",
        ),
    };
    let wrong_suite = match kind {
        Kind::Mpi1 => b.filename.is_some(),
        Kind::Io => b.filename.is_none(),
    };
    if wrong_suite && path != "<built-in>" {
        return Err(Error::file(
            "-settings",
            path,
            format!(
                "this looks like {other} (the settings of {other_exe}); this executable takes \
                 {this_file}"
            ),
        ));
    }
    macro_rules! required {
        ($($field:ident: $key:literal),*) => {
            Params {
                $($field: match b.$field {
                    Some(v) => {
                        lines.set($key, line(&v.span()));
                        v.into_inner()
                    }
                    None => {
                        return Err(at(
                            path,
                            header,
                            format!(
                                "[standard]: {} is missing; the block holds every standard \
                                 value, unchanged (or leave it out)",
                                $key
                            ),
                        ))
                    }
                },)*
                filename: b.filename.map(|v| {
                    lines.set("FILENAME", line(&v.span()));
                    v.into_inner()
                }),
                window_size: b.window_size.map_or(WINDOW_SIZE, |v| {
                    lines.set("WINDOW_SIZE", line(&v.span()));
                    v.into_inner()
                }),
            }
        };
    }
    let p = required!(
        minmsglog: "MINMSGLOG",
        maxmsglog: "MAXMSGLOG",
        msgspersample: "MSGSPERSAMPLE",
        msgs_nonaggr: "MSGS_NONAGGR",
        overall_vol: "OVERALL_VOL",
        n_warmup: "N_WARMUP",
        n_barr: "N_BARR",
        target_cpu_secs: "TARGET_CPU_SECS"
    );
    if path == "<built-in>" {
        return Ok(p);
    }
    let built_in = standard(kind);
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
