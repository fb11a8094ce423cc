//! The ranges of the parameters and the differences from the standard values; errors name the
//! line of the key's value in the file (`file` knows where each value stands).

use super::*;

/// Check value ranges; the error names the line of the key's value in force (`line`, 0 when
/// the value is not in the file).
pub fn validate(p: &Params, path: &str, kind: Kind, line: &dyn Fn(&str) -> usize) -> Result<()> {
    let bad = |key: &str, msg: String| match line(key) {
        0 => Error::file("-settings", path, format!("{key}: {msg}")),
        l => Error::line("-settings", path, l, format!("{key}: {msg}")),
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
        (
            "WINDOW_SIZE",
            p.window_size.to_string(),
            std.window_size.to_string(),
        ),
    ]
    .into_iter()
    .filter(|(_, v, s)| v != s)
    .collect()
}

pub(super) fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}
