//! The ranges of the parameters and the differences from the standard values; errors name the
//! line of the key's value in the file (`file` knows where each value stands).

use super::*;

/// `-settings FILE, line N: MSG`, or without the line when it is 0.
pub(super) fn at(path: &str, line: usize, msg: String) -> Error {
    match line {
        0 => Error::file("-settings", path, msg),
        l => Error::line("-settings", path, l, msg),
    }
}

/// Check value ranges, then the suite's own keys (`Key::check`), then the keys of other
/// suites' files an `[optional]` block set (`foreign`: key and line); the error names the line
/// of the key's value in force (`line`, 0 when the value is not in the file).
pub(super) fn validate(
    p: &Params,
    path: &str,
    spec: &Spec,
    foreign: &[(&str, usize)],
    line: &dyn Fn(&str) -> usize,
) -> Result<()> {
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
    for k in spec.keys {
        match p.family.get(k.name) {
            Some(v) => (k.check)(v).map_err(|msg| bad(k.name, msg))?,
            None if matches!(k.standard, InStandard::Required { .. }) => {
                return Err(bad(k.name, "is missing".into()))
            }
            None => {}
        }
    }
    if let Some(&(key, l)) = foreign.first() {
        let f = spec.foreign.iter().find(|f| f.name == key);
        let (exe, file) = f.map_or(("other", "another file"), |f| (f.exe, f.file));
        return Err(at(path, l, format!("{key}: is an {exe} setting ({file})")));
    }
    Ok(())
}

/// (key, value, standard value) of every parameter where `p` differs from `std`: the guide's
/// keys, then the suite's own in `std`'s order.
pub fn differences<'a>(p: &'a Params, std: &'a Params) -> Vec<(&'a str, String, String)> {
    let mut v: Vec<(&'a str, String, String)> = vec![
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
    ];
    let shown = |x: Option<&Value>| x.map(Value::to_string).unwrap_or_default();
    for (key, s) in std.family.iter() {
        v.push((key, shown(p.family.get(key)), s.to_string()));
    }
    for (key, x) in p.family.iter().filter(|(k, _)| std.family.get(k).is_none()) {
        v.push((key, x.to_string(), String::new()));
    }
    v.retain(|(_, v, s)| v != s);
    v
}

/// The line (from 1) of byte `offset` of `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}
