//! What the parsed options mean on this machine: `-adaptive`'s rule, the directory of imb-io's
//! files and their path lengths, benchmark names and `-input` files.

use super::*;

/// `-adaptive` and its `-cutoff`, `-min_reps`, `-max_reps` (defaults 10 %, 5, 10: the n_sample
/// loop split in 5, at most twice the standard run's repetitions). The three are errors without
/// `-adaptive`, so a forgotten flag is noticed.
pub(super) fn adaptive_options(m: &clap::ArgMatches) -> Result<Option<Adaptive>> {
    let cutoff = m.get_one::<f64>("cutoff").copied();
    let min = m.get_one::<usize>("min_reps").copied();
    let max = m.get_one::<usize>("max_reps").copied();
    if !m.get_flag("adaptive") {
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

/// `-dir` and `-overwrite` (imb-io only): the directory must be a writable directory, and no
/// file of ours may already be there unless `-overwrite` says it may be replaced. Checked on
/// rank 0 before anything runs; a node-local directory is checked again where files are made.
/// The longest file path imb-io opens. Open MPI 4.1's MPI-IO (OMPIO) builds names from the
/// path as given (`<path>-<job id>-<rank>.lock`, `<path>.locktest.<rank>`) in a 256-byte buffer
/// and aborts the whole job ("buffer overflow detected") when they do not fit: measured, a
/// 240-byte path worked and 242 aborted, the margin moving with the job id's digits. The
/// limit leaves room for a 10-digit job id and a 6-digit rank, under every MPI, so no run dies
/// half-way for its path.
pub const MAX_FILE_PATH: usize = 227;

/// The length of the longest path imb-io opens in `dir` for `np` processes: the base name, and
/// `_g<group>_<rank>` for private files under -multi (imb-io's `layout::file_name`).
pub(super) fn longest_file_path(dir: &str, base: &str, np: usize) -> usize {
    let digits = np.saturating_sub(1).max(1).ilog10() as usize + 1;
    let sep = usize::from(!dir.ends_with('/'));
    dir.len() + sep + base.len() + "_g".len() + digits + "_".len() + digits
}

pub(super) fn files_options(
    m: &clap::ArgMatches,
    kind: Kind,
    base: &str,
    np: usize,
) -> Result<(String, bool)> {
    let dir = m.get_one::<String>("dir").cloned();
    let overwrite = m.get_flag("overwrite");
    if kind != Kind::Io {
        let which = if dir.is_some() { "-dir" } else { "-overwrite" };
        if dir.is_some() || overwrite {
            return Err(Error::arg(which, "only imb-io creates files"));
        }
        return Ok((".".into(), false));
    }
    let given = dir.is_some();
    let dir = dir.unwrap_or_else(|| ".".into());
    let what = if given {
        "-dir"
    } else {
        "the current directory"
    };
    match std::fs::metadata(&dir) {
        Ok(md) if md.is_dir() => {}
        Ok(_) => return Err(Error::file("-dir", &dir, "not a directory")),
        Err(e) => return Err(Error::file("-dir", &dir, format!("cannot use it: {e}"))),
    }
    let writable = nix::unistd::access(
        dir.as_str(),
        nix::unistd::AccessFlags::W_OK | nix::unistd::AccessFlags::X_OK,
    );
    if let Err(e) = writable {
        return Err(if given {
            Error::file("-dir", &dir, format!("cannot create files there: {e}"))
        } else {
            Error::arg(
                "-dir",
                format!("{what} ({dir}) is not writable ({e}); choose one with -dir"),
            )
        });
    }
    let longest = longest_file_path(&dir, base, np);
    if longest > MAX_FILE_PATH {
        return Err(Error::file(
            "-dir",
            &dir,
            format!(
                "the file paths imb-io makes there reach {longest} bytes, more than \
                 {MAX_FILE_PATH}: Open MPI's MPI-IO aborts the job on paths past about 240 \
                 bytes; choose a shorter -dir (or FILENAME)"
            ),
        ));
    }
    if !overwrite {
        if let Some(f) = crate::files::foreign(std::path::Path::new(&dir), base) {
            // The full path: "./IMB_out" says little about which directory was meant.
            let f = std::fs::canonicalize(&f).unwrap_or(f);
            return Err(Error::arg(
                "-overwrite",
                format!(
                    "{} exists and was not created by this run: remove it, choose another -dir, \
                     or pass -overwrite to let imb-io replace (and then remove) it",
                    f.display()
                ),
            ));
        }
    }
    Ok((dir, overwrite))
}

/// A benchmark name and, when it came from an `-input` file, that file and line.
pub(super) type Named = (String, Option<(String, usize)>);

/// The index of benchmark `name` (any case), or an error listing the valid names.
pub(super) fn lookup(spec: &Spec, name: &str, origin: Option<&(String, usize)>) -> Result<usize> {
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
        Some((file, line)) => Error::line("-input", file, *line, format!("\"{name}\": {msg}")),
        None => Error::arg(name, msg),
    })
}

/// Benchmark names of an `-input` file with their line numbers: `#` lines and blank lines are
/// skipped, the first word of every other line is a name.
pub(super) fn read_input(file: &str) -> Result<Vec<Named>> {
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
