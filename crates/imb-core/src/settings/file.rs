//! Reading a settings file: the `[standard]` block (absent or equal to the built-in values),
//! the `[optional]` block when `IMB_OPTIONAL` switches it on, and the `[info]` hints.

use super::*;

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

pub(super) fn parse(text: &str, path: &str, kind: Kind) -> Result<Settings> {
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
            origins: Origins::default(),
        });
    }
    let mut origins = Origins::default();
    let given = [
        ("MINMSGLOG", o.minmsglog.is_some()),
        ("MAXMSGLOG", o.maxmsglog.is_some()),
        ("MSGSPERSAMPLE", o.msgspersample.is_some()),
        ("MSGS_NONAGGR", o.msgs_nonaggr.is_some()),
        ("OVERALL_VOL", o.overall_vol.is_some()),
        ("N_WARMUP", o.n_warmup.is_some()),
        ("N_BARR", o.n_barr.is_some()),
        ("TARGET_CPU_SECS", o.target_cpu_secs.is_some()),
        ("FILENAME", o.filename.is_some()),
    ];
    for (key, _) in given.into_iter().filter(|&(_, g)| g) {
        origins.set(key, Origin::SettingsFile);
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
        window_size: std_params.window_size,
    };
    validate(&p, text, path, kind)?;
    Ok(Settings {
        params: p,
        optional: true,
        source: None,
        info,
        origins,
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
