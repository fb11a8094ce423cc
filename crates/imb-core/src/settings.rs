//! Standard and optional parameter sets (guide 5.2.1, Table 19 and the settings_io.h sample).
//!
//! The standard values are embedded from `settings/*.toml`, so a lone binary still works; a
//! settings file chosen with `-settings` may switch on its `[optional]` block. Command-line
//! overrides (`-iter`, `-msglog`) are merged later, in one step, by `cli`.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

const MPI1_TOML: &str = include_str!("../../../settings/settings.toml");
const IO_TOML: &str = include_str!("../../../settings/settings_io.toml");

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
}

/// The user's block: every key optional, `IMB_OPTIONAL` switches it on.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionalBlock {
    #[serde(rename = "IMB_OPTIONAL", default)]
    imb_optional: bool,
    #[serde(rename = "MINMSGLOG")]
    minmsglog: Option<u32>,
    #[serde(rename = "MAXMSGLOG")]
    maxmsglog: Option<u32>,
    #[serde(rename = "MSGSPERSAMPLE")]
    msgspersample: Option<usize>,
    #[serde(rename = "MSGS_NONAGGR")]
    msgs_nonaggr: Option<usize>,
    #[serde(rename = "OVERALL_VOL")]
    overall_vol: Option<usize>,
    #[serde(rename = "N_WARMUP")]
    n_warmup: Option<usize>,
    #[serde(rename = "N_BARR")]
    n_barr: Option<usize>,
    #[serde(rename = "TARGET_CPU_SECS")]
    target_cpu_secs: Option<f64>,
    #[serde(rename = "FILENAME")]
    filename: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLayout {
    standard: Params,
    #[serde(default)]
    optional: OptionalBlock,
    /// MPI_Info hints for MPI_Win_create / MPI_File_open (the guide's `User_Set_Info`).
    #[serde(default)]
    info: std::collections::BTreeMap<String, String>,
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
}

/// Largest MAXMSGLOG we accept: MPI counts are C ints.
pub const MAX_MSGLOG: u32 = 30;

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
    }
}

/// Read a settings file chosen with `-settings`.
pub fn load(path: &str, kind: Kind) -> Result<Settings> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::file("-settings", path, format!("cannot read it: {e}")))?;
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

fn parse(text: &str, path: &str, kind: Kind) -> Result<Settings> {
    let layout: FileLayout = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
        let msg = e.message().trim().to_string();
        if line > 0 {
            Error::line("-settings", path, line, msg)
        } else {
            Error::file("-settings", path, msg)
        }
    })?;
    let std_params = layout.standard;
    let info: Vec<(String, String)> = layout.info.into_iter().collect();
    if let Some((k, _)) = info
        .iter()
        .find(|(k, v)| k.is_empty() || k.len() > 255 || v.len() > 1023)
    {
        return Err(Error::file(
            "-settings",
            path,
            format!("[info] key \"{k}\": keys must be 1..255 characters, values at most 1023"),
        ));
    }
    validate(&std_params, text, path, kind)?;
    if path != "<built-in>" {
        let built_in = parse(embedded(kind), "<built-in>", kind)?.params;
        if std_params != built_in {
            return Err(Error::file(
                "-settings",
                path,
                "the [standard] block differs from the standard values; put your values in \
                 [optional] with IMB_OPTIONAL = true",
            ));
        }
    }
    let o = layout.optional;
    if !o.imb_optional {
        return Ok(Settings {
            params: std_params,
            optional: false,
            source: None,
            info,
        });
    }
    let p = Params {
        minmsglog: o.minmsglog.unwrap_or(std_params.minmsglog),
        maxmsglog: o.maxmsglog.unwrap_or(std_params.maxmsglog),
        msgspersample: o.msgspersample.unwrap_or(std_params.msgspersample),
        msgs_nonaggr: o.msgs_nonaggr.unwrap_or(std_params.msgs_nonaggr),
        overall_vol: o.overall_vol.unwrap_or(std_params.overall_vol),
        n_warmup: o.n_warmup.unwrap_or(std_params.n_warmup),
        n_barr: o.n_barr.unwrap_or(std_params.n_barr),
        target_cpu_secs: o.target_cpu_secs.unwrap_or(std_params.target_cpu_secs),
        filename: o.filename.or(std_params.filename),
    };
    validate(&p, text, path, kind)?;
    Ok(Settings {
        params: p,
        optional: true,
        source: None,
        info,
    })
}

/// Check value ranges; the error names the key's line in the file when it can be found.
pub fn validate(p: &Params, text: &str, path: &str, kind: Kind) -> Result<()> {
    let bad = |key: &str, msg: String| {
        let line = key_line(text, key);
        if line > 0 {
            Error::line("-settings", path, line, format!("{key}: {msg}"))
        } else {
            Error::file("-settings", path, format!("{key}: {msg}"))
        }
    };
    if p.maxmsglog > MAX_MSGLOG {
        return Err(bad(
            "MAXMSGLOG",
            format!("{} is above {MAX_MSGLOG}", p.maxmsglog),
        ));
    }
    if p.minmsglog > p.maxmsglog {
        return Err(bad(
            "MINMSGLOG",
            format!("{} is above MAXMSGLOG {}", p.minmsglog, p.maxmsglog),
        ));
    }
    if p.msgspersample == 0 {
        return Err(bad("MSGSPERSAMPLE", "must be at least 1".into()));
    }
    if p.msgs_nonaggr == 0 {
        return Err(bad("MSGS_NONAGGR", "must be at least 1".into()));
    }
    if p.overall_vol == 0 {
        return Err(bad("OVERALL_VOL", "must be at least 1".into()));
    }
    if !(p.target_cpu_secs.is_finite() && p.target_cpu_secs > 0.0) {
        return Err(bad("TARGET_CPU_SECS", "must be a positive number".into()));
    }
    match (kind, &p.filename) {
        (Kind::Mpi1, Some(_)) => {
            return Err(bad(
                "FILENAME",
                "is an imb-io setting (settings_io.toml)".into(),
            ))
        }
        (Kind::Io, Some(f)) if f.is_empty() || f.contains('/') => {
            return Err(bad(
                "FILENAME",
                "must be a plain, non-empty file name".into(),
            ))
        }
        (Kind::Io, None) => return Err(bad("FILENAME", "is missing".into())),
        _ => {}
    }
    Ok(())
}

/// (key, value, standard value) of every parameter where `p` differs from `std`.
pub fn differences(p: &Params, std: &Params) -> Vec<(&'static str, String, String)> {
    let f = |o: &Option<String>| o.clone().unwrap_or_default();
    [
        (
            "MINMSGLOG",
            p.minmsglog.to_string(),
            std.minmsglog.to_string(),
        ),
        (
            "MAXMSGLOG",
            p.maxmsglog.to_string(),
            std.maxmsglog.to_string(),
        ),
        (
            "MSGSPERSAMPLE",
            p.msgspersample.to_string(),
            std.msgspersample.to_string(),
        ),
        (
            "MSGS_NONAGGR",
            p.msgs_nonaggr.to_string(),
            std.msgs_nonaggr.to_string(),
        ),
        (
            "OVERALL_VOL",
            p.overall_vol.to_string(),
            std.overall_vol.to_string(),
        ),
        ("N_WARMUP", p.n_warmup.to_string(), std.n_warmup.to_string()),
        ("N_BARR", p.n_barr.to_string(), std.n_barr.to_string()),
        (
            "TARGET_CPU_SECS",
            p.target_cpu_secs.to_string(),
            std.target_cpu_secs.to_string(),
        ),
        ("FILENAME", f(&p.filename), f(&std.filename)),
    ]
    .into_iter()
    .filter(|(_, v, s)| v != s)
    .collect()
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The last line that assigns `key` (the optional block comes last, and wins).
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_parse() {
        let p = standard(Kind::Mpi1);
        assert_eq!(
            (p.minmsglog, p.maxmsglog, p.msgspersample, p.msgs_nonaggr),
            (0, 22, 1000, 100)
        );
        assert_eq!((p.overall_vol, p.n_warmup, p.n_barr), (40 << 20, 2, 2));
        assert_eq!(p.target_cpu_secs, 0.01);
        let io = standard(Kind::Io);
        assert_eq!(
            (
                io.minmsglog,
                io.maxmsglog,
                io.msgspersample,
                io.msgs_nonaggr
            ),
            (0, 24, 50, 10)
        );
        assert_eq!((io.overall_vol, io.target_cpu_secs), (16 << 20, 0.1));
        assert_eq!(io.filename.as_deref(), Some("IMB_out"));
    }

    fn tmp(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("imb-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn shipped_file_is_standard_mode() {
        let s = load(&tmp("a.toml", MPI1_TOML), Kind::Mpi1).unwrap();
        assert!(!s.optional);
        assert_eq!(s.params, standard(Kind::Mpi1));
    }

    #[test]
    fn optional_block_overrides() {
        let text = MPI1_TOML.replace(
            "IMB_OPTIONAL = false",
            "IMB_OPTIONAL = true\nMAXMSGLOG = 10\nMSGSPERSAMPLE = 7",
        );
        let s = load(&tmp("b.toml", &text), Kind::Mpi1).unwrap();
        assert!(s.optional);
        assert_eq!((s.params.maxmsglog, s.params.msgspersample), (10, 7));
        assert_eq!(s.params.n_barr, 2);
    }

    #[test]
    fn optional_block_ignored_unless_switched_on() {
        let text = MPI1_TOML.replace("# MAXMSGLOG = 24", "MAXMSGLOG = 5");
        let s = load(&tmp("c.toml", &text), Kind::Mpi1).unwrap();
        assert!(!s.optional);
        assert_eq!(s.params.maxmsglog, 22);
    }

    #[test]
    fn bad_key_names_file_and_line() {
        let text = MPI1_TOML.replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true\nMAXMSG = 3");
        let f = tmp("d.toml", &text);
        let e = load(&f, Kind::Mpi1).unwrap_err();
        let line = text.lines().position(|l| l == "MAXMSG = 3").unwrap() + 1;
        match &e {
            Error::Line { line: l, msg, .. } => {
                assert_eq!(*l, line);
                assert!(msg.contains("MAXMSG"), "{msg}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_values_are_errors() {
        for (repl, key) in [
            ("IMB_OPTIONAL = true\nMAXMSGLOG = 40", "MAXMSGLOG"),
            ("IMB_OPTIONAL = true\nMINMSGLOG = 23", "MINMSGLOG"),
            ("IMB_OPTIONAL = true\nMSGSPERSAMPLE = 0", "MSGSPERSAMPLE"),
            (
                "IMB_OPTIONAL = true\nTARGET_CPU_SECS = -1.0",
                "TARGET_CPU_SECS",
            ),
            ("IMB_OPTIONAL = true\nN_BARR = -1", "N_BARR"),
            (
                "IMB_OPTIONAL = true\nMSGSPERSAMPLE = \"x\"",
                "MSGSPERSAMPLE",
            ),
            ("IMB_OPTIONAL = true\nFILENAME = \"a\"", "FILENAME"),
        ] {
            let text = MPI1_TOML.replace("IMB_OPTIONAL = false", repl);
            let e = load(&tmp("e.toml", &text), Kind::Mpi1).unwrap_err();
            assert!(matches!(e, Error::Line { .. }), "{repl}: {e:?}");
            let s = e.to_string();
            assert!(s.contains("line"), "{repl}: {s}");
            let _ = key;
        }
    }

    #[test]
    fn changed_standard_block_is_an_error() {
        let text = MPI1_TOML.replace("MAXMSGLOG = 22", "MAXMSGLOG = 20");
        let e = load(&tmp("f.toml", &text), Kind::Mpi1).unwrap_err();
        assert!(e.to_string().contains("[standard]"), "{e}");
    }

    #[test]
    fn differences_name_the_changed_keys() {
        let std = standard(Kind::Mpi1);
        assert!(differences(&std, &std).is_empty());
        let mut p = std.clone();
        p.maxmsglog = 10;
        p.overall_vol = 1;
        assert_eq!(
            differences(&p, &std),
            vec![
                ("MAXMSGLOG", "10".to_string(), "22".to_string()),
                ("OVERALL_VOL", "1".to_string(), "41943040".to_string())
            ]
        );
    }

    #[test]
    fn info_hints() {
        let text =
            format!("{MPI1_TOML}\n[info]\nno_locks = \"true\"\naccumulate_ordering = \"none\"\n");
        let s = load(&tmp("g.toml", &text), Kind::Mpi1).unwrap();
        assert_eq!(
            s.info,
            vec![
                ("accumulate_ordering".to_string(), "none".to_string()),
                ("no_locks".to_string(), "true".to_string())
            ]
        );
        let bad = format!("{MPI1_TOML}\n[info]\nno_locks = true\n");
        let e = load(&tmp("h.toml", &bad), Kind::Mpi1).unwrap_err();
        assert!(matches!(e, Error::Line { .. }), "{e:?}");
    }

    #[test]
    fn missing_file() {
        let e = load("/nonexistent/x.toml", Kind::Mpi1).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("-settings /nonexistent/x.toml: cannot read"),
            "{e}"
        );
    }
}
