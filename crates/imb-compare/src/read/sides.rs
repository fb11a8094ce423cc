//! A side of a comparison: one program's launches, read from a directory of output files (one
//! file a launch, IMB text or imb-rs `-json`) or from a single file.
//!
//! One launch kept twice (its text on stdout and its `-json` file, as doc/ACCEPTANCE.md §1
//! keeps them, or a file copied) counts once: two files are one launch when their headers give
//! the same start (the `Date` line, to the second; for two `-json` files also the same
//! provenance start and command line) and every figure they share agrees to the text's
//! printed precision. The `-json` file is kept (full precision, provenance). Two files with
//! the same text are one launch in every format, also in those that print no date (OSU,
//! IMB-MT), as the results store counts them.
//!
//! Evidence is independent only when no launch is on both sides of a comparison:
//! [`shared_launches`] names those that are (the same files, a text and the `-json` of one
//! launch, one stored run selected twice).

use crate::error::Error;
use crate::read::imbtext;
use crate::read::run::Run;
use std::path::Path;

/// One program's launches.
#[derive(Debug, Clone)]
pub struct Side {
    /// The directory's (or file's) name.
    pub label: String,
    pub runs: Vec<Run>,
    /// Each run's file, for messages.
    pub files: Vec<String>,
    /// Files that repeated a launch already read: (the file left out, the one kept).
    pub repeats: Vec<(String, String)>,
    /// Files of the directory with nothing in them (a stray empty stderr capture, `1.err`):
    /// passed over, and named.
    pub empty: Vec<String>,
}

/// The file's error in our terms: the engine's reader names an option we do not have.
fn from_core(path: &str, e: imb_core::Error) -> Error {
    match e {
        imb_core::Error::File { file, msg, .. } => Error::File { file, msg },
        imb_core::Error::Line {
            file, line, msg, ..
        } => Error::Line { file, line, msg },
        other => Error::File {
            file: path.to_string(),
            msg: other.to_string(),
        },
    }
}

/// Launch files sort by the number in their name when they have one (2.txt before 10.txt).
fn launch_order(name: &str) -> (u64, String) {
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    (digits.parse().unwrap_or(u64::MAX), name.to_string())
}

/// Read a side from `path`: a directory's regular files in launch order, or one file.
pub fn load(path: &str) -> Result<Side, Error> {
    let label = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string());
    let (texts, empty) = read_launches(path)?;
    let mut side = from_texts(label, texts)?;
    side.empty = empty;
    Ok(side)
}

/// The SHA-256 of a launch file's text, in hex: what tells two copies of one file apart from
/// two launches, here and in the results store, which keys its files by it.
pub fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(text.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file's path and its text.
pub type Named = (String, String);

/// The launch files of `path` with their texts, and the files of a directory that are empty
/// (or white space only), passed over: an empty `.err` beside the launches is no launch, and
/// no reason to refuse the run. A directory of empty files only has no launch.
pub fn read_launches(path: &str) -> Result<(Vec<Named>, Vec<String>), Error> {
    let dir = std::fs::metadata(path).is_ok_and(|m| m.is_dir());
    let (mut texts, mut empty) = (Vec::new(), Vec::new());
    for f in launch_files(path)? {
        let text = read_file(&f)?;
        if dir && text.trim().is_empty() {
            empty.push(f);
        } else {
            texts.push((f, text));
        }
    }
    if texts.is_empty() {
        let names: Vec<String> = empty.iter().map(|f| file_name(f)).collect();
        return Err(Error::File {
            file: path.to_string(),
            msg: format!(
                "no launch files in this directory, only empty ones ({})",
                names.join(", ")
            ),
        });
    }
    Ok((texts, empty))
}

/// The last part of a path, for messages.
pub fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The launch files `path` names: a directory's regular files in launch order, or the file.
pub fn launch_files(path: &str) -> Result<Vec<String>, Error> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| Error::File {
        file: path.to_string(),
        msg: e.to_string(),
    })?;
    let files: Vec<String> = if meta.is_dir() {
        let entries = std::fs::read_dir(p).map_err(|e| Error::File {
            file: path.to_string(),
            msg: e.to_string(),
        })?;
        let mut names = Vec::new();
        for e in entries.filter_map(|e| e.ok()) {
            // Regular files, also behind a symbolic link; FIFOs, devices and directories are
            // not launches.
            if !std::fs::metadata(e.path()).is_ok_and(|m| m.is_file()) {
                continue;
            }
            let name = e.file_name().into_string().map_err(|raw| Error::File {
                file: imb_core::safefile::shown(p.join(raw).as_os_str()),
                msg: "a file name that is not UTF-8: rename it".to_string(),
            })?;
            if !name.starts_with('.') {
                names.push(name);
            }
        }
        names.sort_by_key(|n| launch_order(n));
        names
            .into_iter()
            .map(|n| p.join(n).to_string_lossy().into_owned())
            .collect()
    } else {
        vec![path.to_string()]
    };
    if files.is_empty() {
        return Err(Error::File {
            file: path.to_string(),
            msg: "no launch files in this directory (a run's directory holds each launch's \
                  output or -json file)"
                .to_string(),
        });
    }
    Ok(files)
}

/// One launch file's text, as every reader takes it (capped, UTF-8, a byte-order mark dropped).
pub fn read_file(f: &str) -> Result<String, Error> {
    imb_core::safefile::read_text("", f).map_err(|e| from_core(f, e))
}

/// One launch from its file's text: a `-json` document or IMB/OSU text.
pub fn parse_launch(f: &str, text: &str) -> Result<Run, Error> {
    if text.trim_start().starts_with('{') {
        crate::read::jsondoc::parse(f, text)
    } else {
        imbtext::parse(f, text)
    }
}

/// A side from its launch files' names and texts, in launch order (files read from a
/// directory, or kept in the results store, [`crate::store`]).
pub fn from_texts(label: String, texts: Vec<(String, String)>) -> Result<Side, Error> {
    let mut runs: Vec<Run> = Vec::with_capacity(texts.len());
    let mut kept: Vec<String> = Vec::with_capacity(texts.len());
    let mut repeats = Vec::new();
    for (f, text) in texts {
        let mut run = parse_launch(&f, &text)?;
        run.identity.content = Some(sha256_hex(&text));
        match runs.iter().position(|r| same_launch(r, &run)) {
            // Keep the better reading of the launch: a whole one over one cut short, then the
            // -json (full precision and provenance).
            Some(k) if better(&run, &runs[k]) => {
                repeats.push((std::mem::replace(&mut kept[k], f.clone()), f.clone()));
                runs[k] = run;
            }
            Some(k) => repeats.push((f.clone(), kept[k].clone())),
            None => {
                runs.push(run);
                kept.push(f.clone());
            }
        }
    }
    Ok(Side {
        label,
        runs,
        files: kept,
        repeats,
        empty: Vec::new(),
    })
}

/// Whether `a` is a better reading of one launch than `b`: whole where `b` was cut short (a
/// text cut off while its `-json` went on, or the other way round), else from `-json`.
pub(crate) fn better(a: &Run, b: &Run) -> bool {
    let whole = |r: &Run| r.status.cut_short().is_none();
    match (whole(a), whole(b)) {
        (true, false) => true,
        (false, true) => false,
        _ => a.identity.json && !b.identity.json,
    }
}

/// The launches of `a` that are also launches of `b`, as (file of `a`, file of `b`).
pub fn shared_launches(a: &Side, b: &Side) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (ra, fa) in a.runs.iter().zip(&a.files) {
        if let Some(k) = b.runs.iter().position(|rb| same_launch(ra, rb)) {
            out.push((fa.clone(), b.files.get(k).cloned().unwrap_or_default()));
        }
    }
    out
}

/// Whether `a` and `b` are one launch (the module's rule).
pub fn same_launch(a: &Run, b: &Run) -> bool {
    let (ia, ib) = (&a.identity, &b.identity);
    if ia.content.is_some() && ia.content == ib.content {
        return true;
    }
    if ia.date.is_none() || ia.date != ib.date {
        return false;
    }
    if ia.json && ib.json && (ia.start != ib.start || ia.argv != ib.argv) {
        return false;
    }
    figures_agree(a, b)
}

/// Every table both print has the same columns and, row by row, the same figures to the
/// text's precision (2 decimals; whole numbers for Msg/sec), and they share at least one row.
/// A table only one prints is allowed: the text may be cut off where the `-json` went on.
fn figures_agree(a: &Run, b: &Run) -> bool {
    let mut shared = 0;
    for ta in &a.tables {
        let Some(tb) = b.tables.iter().find(|t| {
            t.benchmark == ta.benchmark
                && t.processes == ta.processes
                && t.groups == ta.groups
                && t.mode == ta.mode
        }) else {
            continue;
        };
        if ta.columns != tb.columns {
            return false;
        }
        // Rows pair by their size and group, not by place: a text that lost a row in the
        // middle (a line cut, a launcher's message) must not shift every row after it.
        let key = |t: &crate::read::run::Table, r: &[f64]| {
            let at = |c: Option<usize>| c.map(|c| r[c].to_bits());
            (at(t.column("group")), at(t.column("bytes")))
        };
        let rows_b: std::collections::HashMap<_, &Vec<f64>> =
            tb.rows.iter().map(|r| (key(tb, r), r)).collect();
        for (ra, rb) in ta
            .rows
            .iter()
            .filter_map(|ra| rows_b.get(&key(ta, ra)).map(|rb| (ra, *rb)))
        {
            let close = ra.iter().zip(rb).zip(&ta.columns).all(|((x, y), c)| {
                let step = if c == "msg_per_s" { 0.51 } else { 0.0051 };
                (x - y).abs() <= step + 1e-9 * x.abs().max(y.abs())
            });
            if !close {
                return false;
            }
            shared += 1;
        }
    }
    shared > 0
}

/// A side of `launches`, each an Allreduce table at 2 processes with one row per value (4, 8,
/// 16 ... bytes) under the given thread level.
#[cfg(test)]
pub(crate) fn fixture_side(label: &str, launches: &[(&str, &[f64])]) -> Side {
    let runs = launches
        .iter()
        .map(|(level, ts)| {
            let mut text = format!(
                "#    Intel (R) MPI Benchmark Suite V3.0, MPI-1 part\n\
                 # MPI Thread Environment: {level}\n\
                 # Benchmarking Allreduce \n# #processes = 2 \n\
                 #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
            );
            for (k, t) in ts.iter().enumerate() {
                text.push_str(&format!("{} 1000 {t} {t} {t}\n", 4 << k));
            }
            text.push_str("\n# All processes entering MPI_Finalize\n");
            super::imbtext::parse(label, &text).unwrap()
        })
        .collect();
    Side {
        label: label.to_string(),
        runs,
        files: Vec::new(),
        repeats: Vec::new(),
        empty: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_sort_by_number() {
        let mut v = vec!["10.txt", "2.txt", "1.txt", "notes"];
        v.sort_by_key(|n| launch_order(n));
        assert_eq!(v, ["1.txt", "2.txt", "10.txt", "notes"]);
    }

    /// A copy of a launch that lost a row in the middle is still that launch: rows pair by
    /// size, not by place.
    #[test]
    fn rows_pair_by_size() {
        let head = "# Date                  : Wed Nov 25 05:21:10 2026\n\
                    # Benchmarking PingPong \n# #processes = 2 \n       \
                    #bytes #repetitions      t[usec]   Mbytes/sec\n";
        let full = format!(
            "{head}            0         1000         0.27         0.00\n            \
             1         1000         0.31         3.08\n            2         1000         \
             0.33         5.78\n"
        );
        let cut = full.replace("            1         1000         0.31         3.08\n", "");
        let (a, b) = (
            parse_launch("a.txt", &full).unwrap(),
            parse_launch("b.txt", &cut).unwrap(),
        );
        assert_eq!(b.tables[0].rows.len(), 2);
        assert!(same_launch(&a, &b));
        let other = parse_launch("c.txt", &cut.replace("0.33", "0.93")).unwrap();
        assert!(!same_launch(&a, &other));
    }

    /// Two records of one launch, one cut short: the whole one is kept, whichever came first.
    #[test]
    fn the_whole_record_of_a_launch_is_kept() {
        let text = "# Date                  : Wed Nov 25 05:21:10 2026\n\
                    # Benchmarking PingPong \n# #processes = 2 \n       \
                    #bytes #repetitions      t[usec]   Mbytes/sec\n            \
                    0         1000         0.27         0.00\n            \
                    1         1000         0.31         3.08\n";
        let text = format!("#    imb-rs 0.1.0, MPI-1 part\n{text}");
        let whole = format!("{text}\n# All processes entering MPI_Finalize\n");
        assert!(parse_launch("t", &text)
            .unwrap()
            .status
            .cut_short()
            .is_some());
        for order in [[&text[..], &whole[..]], [&whole[..], &text[..]]] {
            let files = order
                .iter()
                .enumerate()
                .map(|(k, t)| (format!("{k}.txt"), t.to_string()))
                .collect();
            let s = from_texts("s".into(), files).unwrap();
            assert_eq!(s.runs.len(), 1);
            assert!(
                s.runs[0].status.cut_short().is_none(),
                "{:?}",
                s.runs[0].status
            );
        }
    }

    #[test]
    fn a_directory_of_launches_and_its_errors() {
        let dir = std::env::temp_dir().join(format!("imb-compare-sides-{}", std::process::id()));
        let side = dir.join("imb-3.0");
        std::fs::create_dir_all(&side).unwrap();
        let table = "# Benchmarking PingPong \n# #processes = 2 \n       #bytes #repetitions      t[usec]   Mbytes/sec\n            0         1000         0.27         0.00\n";
        // Two files with one text are one launch, though IMB 3.0's table carries no date.
        std::fs::write(side.join("2.txt"), table).unwrap();
        std::fs::write(side.join("1.txt"), table).unwrap();
        let s = load(side.to_str().unwrap()).unwrap();
        assert_eq!((s.runs.len(), s.repeats.len()), (1, 1));
        std::fs::write(side.join("2.txt"), table.replace("0.27", "0.28")).unwrap();
        let s = load(side.to_str().unwrap()).unwrap();
        assert_eq!(s.label, "imb-3.0");
        assert_eq!(s.runs.len(), 2);
        assert!(s.files[0].ends_with("1.txt"));
        assert_eq!(shared_launches(&s, &s).len(), 2);

        std::fs::write(side.join("3.txt"), "nothing\n").unwrap();
        let e = load(side.to_str().unwrap()).unwrap_err().to_string();
        assert!(e.ends_with("3.txt: no IMB or OSU table in it"), "{e}");

        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let e = load(empty.to_str().unwrap()).unwrap_err().to_string();
        assert!(
            e.ends_with(
                "empty: no launch files in this directory (a run's directory holds each \
                 launch's output or -json file)"
            ),
            "{e}"
        );
        // An empty stderr capture beside the launches is passed over and named; alone it is
        // no launch.
        std::fs::write(empty.join("1.err"), "\n").unwrap();
        let e = load(empty.to_str().unwrap()).unwrap_err().to_string();
        assert!(
            e.ends_with("empty: no launch files in this directory, only empty ones (1.err)"),
            "{e}"
        );
        std::fs::write(empty.join("1.txt"), table).unwrap();
        let s = load(empty.to_str().unwrap()).unwrap();
        assert_eq!(s.runs.len(), 1);
        assert!(s.empty[0].ends_with("1.err"), "{:?}", s.empty);
        let e = load("/dev/zero").unwrap_err().to_string();
        assert!(e.starts_with("/dev/zero: "), "{e}");

        // A symbolic link to a launch counts; a FIFO is skipped; a name that is not UTF-8 is
        // an error naming it.
        let linked = dir.join("linked");
        std::fs::create_dir_all(&linked).unwrap();
        std::os::unix::fs::symlink(side.join("1.txt"), linked.join("1.txt")).unwrap();
        nix::unistd::mkfifo(&linked.join("2.txt"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let s = load(linked.to_str().unwrap()).unwrap();
        assert_eq!(s.runs.len(), 1);
        use std::os::unix::ffi::OsStrExt;
        let odd = std::ffi::OsStr::from_bytes(b"3\xff.txt");
        std::fs::write(linked.join(odd), table).unwrap();
        let e = load(linked.to_str().unwrap()).unwrap_err().to_string();
        assert!(
            e.ends_with("3\\xff.txt: a file name that is not UTF-8: rename it"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
