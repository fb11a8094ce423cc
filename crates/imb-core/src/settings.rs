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
    /// Absent: the built-in standard values (a file may hold only its `[optional]` block).
    standard: Option<toml::Table>,
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
    let std_params = standard_block(layout.standard, text, path, kind)?;
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

/// The `[standard]` block of a file: absent means the built-in values; present, it must equal
/// them key for key (the first differing key is named with its line), and a block of the
/// other suite's file says which file to use.
fn standard_block(
    block: Option<toml::Table>,
    text: &str,
    path: &str,
    kind: Kind,
) -> Result<Params> {
    if path == "<built-in>" {
        let t = block.unwrap_or_default();
        return toml::Value::Table(t)
            .try_into()
            .map_err(|e| Error::file("-settings", path, e.to_string()));
    }
    let built_in = standard(kind);
    let Some(t) = block else {
        return Ok(built_in);
    };
    let first = |key: &str| {
        text.lines()
            .position(|l| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|r| !key.is_empty() && r.trim_start().starts_with('='))
            })
            .map_or(0, |i| i + 1)
    };
    let at = |key: &str, msg: String| match first(key) {
        0 => Error::file("-settings", path, msg),
        line => Error::line("-settings", path, line, msg),
    };
    let (other, this_file, other_exe) = match kind {
        Kind::Mpi1 => ("settings_io.toml", "settings/settings.toml", "imb-io"),
        Kind::Io => (
            "settings.toml",
            "settings/settings_io.toml",
            "imb-mpi1 and imb-ext",
        ),
    };
    let wrong_suite = match kind {
        Kind::Mpi1 => t.contains_key("FILENAME"),
        Kind::Io => !t.contains_key("FILENAME"),
    };
    if wrong_suite {
        return Err(Error::file(
            "-settings",
            path,
            format!(
                "this looks like {other} (the settings of {other_exe}); this executable takes \
                 {this_file}"
            ),
        ));
    }
    let p: Params = toml::Value::Table(t.clone())
        .try_into()
        .map_err(|e: toml::de::Error| {
            let msg = e.message().trim().to_string();
            // Key errors carry the key in the message; find its line when we can.
            let key = msg.split('`').nth(1).unwrap_or("");
            at(key, format!("[standard]: {msg}"))
        })?;
    if let Some((key, v, std)) = differences(&p, &built_in).into_iter().next() {
        return Err(at(
            key,
            format!(
                "[standard] {key} = {v} differs from the standard value {std}; put your values \
                 in [optional] with IMB_OPTIONAL = true"
            ),
        ));
    }
    Ok(p)
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
    for (key, v, min) in [
        ("MSGSPERSAMPLE", p.msgspersample, 1),
        ("MSGS_NONAGGR", p.msgs_nonaggr, 1),
        ("N_WARMUP", p.n_warmup, 0),
        ("N_BARR", p.n_barr, 0),
    ] {
        if v < min {
            return Err(bad(key, format!("must be at least {min}")));
        }
        if v > MAX_COUNT {
            return Err(bad(
                key,
                format!("{v} is above {MAX_COUNT} (a C int, as in IMB)"),
            ));
        }
    }
    if p.overall_vol == 0 {
        return Err(bad("OVERALL_VOL", "must be at least 1".into()));
    }
    if p.overall_vol > MAX_OVERALL_VOL {
        return Err(bad(
            "OVERALL_VOL",
            format!("{} is above {MAX_OVERALL_VOL} (1 TiB)", p.overall_vol),
        ));
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
        (Kind::Io, Some(f)) if f.is_empty() || f == "." || f == ".." || f.contains(['/', '\0']) => {
            return Err(bad(
                "FILENAME",
                format!("{f:?}: must be a plain file name (not empty, . or .., no / or NUL)"),
            ))
        }
        (Kind::Io, Some(f)) if f.len() > MAX_FILENAME => {
            return Err(bad(
                "FILENAME",
                format!(
                    "{} bytes: at most {MAX_FILENAME}, so the names made from it fit the 255 \
                     of a file name (imb-io adds _g<group>_<rank>, the MPI-IO library \
                     .locktest.<rank> or -<job>-<n>.lock)",
                    f.len()
                ),
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
        let e = load(&tmp("f.toml", &text), Kind::Mpi1)
            .unwrap_err()
            .to_string();
        let line = MPI1_TOML
            .lines()
            .position(|l| l.starts_with("MAXMSGLOG"))
            .unwrap()
            + 1;
        assert!(
            e.contains(&format!(
                ", line {line}: [standard] MAXMSGLOG = 20 differs from the standard value 22"
            )),
            "{e}"
        );
    }

    #[test]
    fn a_file_with_only_an_optional_block_works() {
        let s = load(
            &tmp(
                "opt.toml",
                "[optional]\nIMB_OPTIONAL = true\nMAXMSGLOG = 3\n",
            ),
            Kind::Mpi1,
        )
        .unwrap();
        assert!(s.optional);
        assert_eq!(s.params.maxmsglog, 3);
        assert_eq!(s.params.msgspersample, standard(Kind::Mpi1).msgspersample);
        let io = load(
            &tmp("optio.toml", "[optional]\nIMB_OPTIONAL = true\n"),
            Kind::Io,
        )
        .unwrap();
        assert_eq!(io.params, standard(Kind::Io));
    }

    #[test]
    fn the_other_suites_file_says_which_file_to_use() {
        let e = load(&tmp("io.toml", IO_TOML), Kind::Mpi1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("looks like settings_io.toml") && e.contains("settings/settings.toml"),
            "{e}"
        );
        let e = load(&tmp("mpi.toml", MPI1_TOML), Kind::Io)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("looks like settings.toml") && e.contains("settings/settings_io.toml"),
            "{e}"
        );
    }

    #[test]
    fn counts_have_limits() {
        for (text, key) in [
            (
                "IMB_OPTIONAL = true\nMSGSPERSAMPLE = 4294967296",
                "MSGSPERSAMPLE",
            ),
            ("IMB_OPTIONAL = true\nN_BARR = 4294967296", "N_BARR"),
            ("IMB_OPTIONAL = true\nN_WARMUP = 4294967296", "N_WARMUP"),
            (
                "IMB_OPTIONAL = true\nOVERALL_VOL = 2199023255552",
                "OVERALL_VOL",
            ),
        ] {
            let f = tmp("lim.toml", &format!("[optional]\n{text}\n"));
            let e = load(&f, Kind::Mpi1).unwrap_err().to_string();
            assert!(
                e.contains(&format!(", line 3: {key}: ")) && e.contains("is above"),
                "{e}"
            );
        }
    }

    #[test]
    fn hostile_settings_files_are_refused() {
        for f in ["/dev/zero", "/dev/urandom", "/tmp"] {
            let e = load(f, Kind::Mpi1).unwrap_err().to_string();
            assert!(e.starts_with(&format!("-settings {f}: ")), "{e}");
        }
        // A byte-order mark is accepted.
        let bom = format!("\u{feff}{MPI1_TOML}");
        assert!(load(&tmp("bom.toml", &bom), Kind::Mpi1).is_ok());
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
