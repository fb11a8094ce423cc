//! What the command line means on this machine and world size: benchmark names and `-input`
//! files, options of other executables refused, `-map` against the process count, the
//! settings merged once, `-adaptive`'s rule, the family's own options (`Family::resolve`), the
//! `-json` and `-msglen` files.

use super::raw::{Named, Raw};
use super::*;

/// The options of a run from the command line `raw` on `np` processes. Rank 0 resolves (it
/// reads files and probes paths); the other ranks receive the result.
pub fn resolve(spec: &Spec, raw: &Raw, np: usize) -> Result<Options> {
    let benchmarks = benchmarks(spec, raw)?;
    if let Some(r) = spec
        .family
        .refused
        .iter()
        .find(|r| raw.shared.was_given(r.name))
    {
        return Err(Error::arg(
            format!("-{}", r.name),
            r.why.replace("{exe}", spec.exe),
        ));
    }
    // The engine's own refusal, so that no family can forget it (imb-p2p once took the
    // option and ran without a word).
    if !spec.aggregate && raw.shared.was_given("aggregate_mode") {
        return Err(Error::arg(
            "-aggregate_mode",
            format!("{} has no AGGREGATE/NON-AGGREGATE tables", spec.exe),
        ));
    }
    if let Some(Map { p, q }) = raw.map {
        match p.checked_mul(q) {
            Some(places) if places == np => {}
            Some(places) => {
                return Err(Error::arg(
                    "-map",
                    format!("{p}x{q} has {places} places but the job has {np} processes (P·Q must equal the process count)"),
                ))
            }
            None => {
                return Err(Error::arg(
                    "-map",
                    format!("{p}x{q} has more places than a machine can count, but the job has {np} processes (P·Q must equal the process count)"),
                ))
            }
        }
    }
    let settings = match &raw.shared.settings {
        Some(f) => settings::load(f, spec.settings)?,
        None => settings::built_in(spec.settings),
    };
    let (params, origins) = merge::merge(&settings, spec.settings, raw)?;
    // Fail before measuring, not after the first table; nothing is created yet.
    let json = raw
        .shared
        .json
        .as_ref()
        .map(|f| crate::safefile::OutFile::check("-json", f))
        .transpose()?;
    let adaptive = adaptive_options(raw)?;
    let thread_level = raw.thread_level.unwrap_or(spec.family.thread_level);
    let family_in = FamilyIn {
        exe: spec.exe,
        raw: &raw.family,
        params: &params,
        np,
        thread_level,
    };
    let family = (spec.family.resolve)(&family_in)?;
    let lengths = match (&raw.msglen, &raw.msgsize) {
        (Some(_), Some(_)) => {
            return Err(Error::arg(
                format!("-{}", raw.msgsize_by.unwrap_or("msgsize")),
                "cannot be combined with -msglen (both give the lengths)",
            ))
        }
        (Some(f), None) => Lengths::File {
            file: f.clone(),
            values: lengths::read_msglen(f)?,
        },
        (None, Some(values)) => Lengths::List {
            values: values.clone(),
        },
        (None, None) => match (spec.family.lengths)(&family_in, &family) {
            Some(values) => Lengths::List { values },
            None => Lengths::Ladder,
        },
    };
    let span = (spec.family.span)(&params, &family).max(1);
    Ok(Options {
        benchmarks,
        npmin: raw.npmin.unwrap_or(spec.npmin),
        multi: raw.multi,
        map: raw.map,
        lengths,
        params,
        origins,
        settings,
        time: raw.time,
        mem: raw.mem_gb.map(|gb| gb * (1u64 << 30) as f64),
        zero_size: raw.zero_size.unwrap_or(true),
        check: raw.check,
        thread_level,
        json,
        aggregate_mode: raw.aggregate_mode.unwrap_or(AggregateMode::Both),
        family,
        adaptive,
        force: raw.shared.force,
        summary: raw.summary,
        progress: raw.shared.progress.unwrap_or_default(),
        method: crate::method::Method::resolve(&raw.method),
        given: raw.shared.given.iter().map(|g| g.to_string()).collect(),
        span,
    })
}

/// The benchmarks to run, in order: names and `-input` files in argv order (or the defaults),
/// then IMB 2021's `-include` (adds, also benchmarks run only when named) and `-exclude`.
fn benchmarks(spec: &Spec, raw: &Raw) -> Result<Vec<usize>> {
    let mut benchmarks = Vec::new();
    for n in &raw.shared.names {
        let named = match n {
            Named::Name(name) => vec![(name.clone(), None)],
            Named::Input(file) => read_input(file)?,
        };
        for (name, origin) in named {
            benchmarks.push(lookup(spec, &name, origin.as_ref())?);
        }
    }
    if benchmarks.is_empty() {
        let (first, _) = spec.default_names(raw.method.compat.unwrap_or_default());
        for name in first {
            benchmarks.push(lookup(spec, name, None)?);
        }
    }
    for (opt, lists, add) in [
        ("include", &raw.include, true),
        ("exclude", &raw.exclude, false),
    ] {
        for name in lists.iter().flat_map(|l| l.split(',')).map(str::trim) {
            if name.is_empty() {
                continue;
            }
            let i = lookup(spec, name, None).map_err(|e| match e {
                Error::Arg { msg, .. } => Error::arg(format!("-{opt}"), format!("{name}: {msg}")),
                e => e,
            })?;
            if add {
                if !benchmarks.contains(&i) {
                    benchmarks.push(i);
                }
            } else {
                benchmarks.retain(|&b| b != i);
            }
        }
    }
    if benchmarks.is_empty() {
        return Err(Error::arg("-exclude", "leaves no benchmark to run"));
    }
    Ok(benchmarks)
}

/// `-adaptive` and its `-cutoff`, `-min_reps`, `-max_reps` (defaults 10 %, 5, 10: the n_sample
/// loop split in 5, at most twice the standard run's repetitions). The three are errors without
/// `-adaptive`, so a forgotten flag is noticed.
fn adaptive_options(raw: &Raw) -> Result<Option<Adaptive>> {
    let (cutoff, min, max) = (raw.cutoff, raw.min_reps, raw.max_reps);
    if !raw.adaptive {
        for (name, given) in [
            ("-cutoff", cutoff.is_some()),
            ("-min_reps", min.is_some()),
            ("-max_reps", max.is_some()),
        ] {
            if given {
                return Err(Error::arg(name, "only with -adaptive"));
            }
        }
        return Ok(None);
    }
    let a = Adaptive {
        cutoff_pct: cutoff.unwrap_or(10.0),
        min_reps: min.unwrap_or(5),
        max_reps: max.unwrap_or_else(|| {
            let min = min.unwrap_or(5);
            (2 * min).clamp(min, crate::settle::MAX_TIMINGS.max(min))
        }),
    };
    if a.min_reps < 2 {
        return Err(Error::arg(
            "-min_reps",
            format!("{}: at least 2 timings are needed for a spread", a.min_reps),
        ));
    }
    if a.min_reps > crate::settle::MAX_TIMINGS {
        return Err(Error::arg(
            "-min_reps",
            format!("{}: at most {}", a.min_reps, crate::settle::MAX_TIMINGS),
        ));
    }
    if a.max_reps < a.min_reps {
        return Err(Error::arg(
            "-max_reps",
            format!(
                "{}: must be at least -min_reps ({})",
                a.max_reps, a.min_reps
            ),
        ));
    }
    if a.max_reps > crate::settle::MAX_TIMINGS {
        return Err(Error::arg(
            "-max_reps",
            format!("{}: at most {}", a.max_reps, crate::settle::MAX_TIMINGS),
        ));
    }
    Ok(Some(a))
}

/// A benchmark name and, when it came from an `-input` file, that file and line.
type Origin = Option<(String, usize)>;

/// The index of benchmark `name` (any case), or an error listing the valid names.
fn lookup(spec: &Spec, name: &str, origin: Option<&(String, usize)>) -> Result<usize> {
    if let Some(i) = spec.names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
        return Ok(i);
    }
    let msg = format!(
        "unknown benchmark{}; valid names: {}",
        if name.eq_ignore_ascii_case("all") {
            " (give no name to run them all)"
        } else {
            ""
        },
        spec.names.join(", ")
    );
    Err(match origin {
        Some((file, line)) => Error::line("-input", file, *line, format!("{name:?}: {msg}")),
        None => Error::arg(name, msg),
    })
}

/// Benchmark names of an `-input` file with their line numbers: `#` lines and blank lines are
/// skipped, the first word of every other line is a name.
fn read_input(file: &str) -> Result<Vec<(String, Origin)>> {
    let text = crate::safefile::read_text("-input", file)?;
    Ok(text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                return None;
            }
            let w = l.split_whitespace().next()?;
            Some((w.to_string(), Some((file.to_string(), i + 1))))
        })
        .collect())
}
