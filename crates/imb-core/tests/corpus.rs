//! The fuzz corpus of the engine's readers — the MPI executables' command line, settings
//! files, `-msglen` and `-input` files — and every input the fuzzer found a fault with,
//! replayed through them (scripts/fuzz; imb_testkit::corpus): each ends in Ok or in a one-line
//! error naming its option and file, within the watchdog.

use imb_core::cli::{self, Action, Spec};
use imb_core::settings::Kind;
use imb_core::Error;
use imb_testkit::corpus::{one_line, replay};
use std::path::PathBuf;

fn text(data: &[u8]) -> Option<&str> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    std::str::from_utf8(data).ok()
}

/// One argument a line, as the corpus keeps command lines.
fn args(data: &[u8]) -> Option<Vec<String>> {
    let t = std::str::from_utf8(data).ok()?;
    let t = t.strip_suffix('\n').unwrap_or(t);
    if t.is_empty() {
        return Some(Vec::new());
    }
    Some(t.split('\n').map(str::to_string).collect())
}

/// An engine error's contract: one line; a file's error names the option and the file.
fn check(e: &Error) -> Result<(), String> {
    let named = match e {
        Error::File { arg, file, .. } | Error::Line { arg, file, .. } => format!("{arg} {file}"),
        _ => String::new(),
    };
    one_line(&e.to_string(), &named)
}

const MPI1: &[&str] = &[
    "PingPong",
    "PingPing",
    "Sendrecv",
    "Exchange",
    "Allreduce",
    "Reduce",
    "Reduce_scatter",
    "Allgather",
    "Allgatherv",
    "Alltoall",
    "Alltoallv",
    "Bcast",
    "Barrier",
    "Bcast_latency",
    "Reduce_latency",
    "Jacobi2D",
    "Uniband",
    "Biband",
];
const EXT: &[&str] = &[
    "Window",
    "Unidir_Put",
    "Unidir_Get",
    "Bidir_Put",
    "Bidir_Get",
    "Accumulate",
];
const IO: &[&str] = &[
    "S_Write_indv",
    "S_Read_indv",
    "P_Write_shared",
    "C_Read_expl",
    "Open_Close",
];
const RMA: &[&str] = &["Unidir_put", "One_put_all", "Compare_and_swap"];
const NBC: &[&str] = &["Ibcast", "Iallreduce", "Ibarrier", "Ibcast_pure"];

/// The parsing facts of the five MPI executables, as `driver::run_world` builds them.
fn specs() -> [Spec<'static>; 5] {
    let s = |exe, names: &'static [&'static str], defaults, kind, npmin, aggregate, window| Spec {
        exe,
        names,
        defaults,
        kind,
        npmin,
        aggregate,
        window,
    };
    [
        s("imb-mpi1", MPI1, 13, Kind::Mpi1, 2, false, true),
        s("imb-ext", EXT, 6, Kind::Mpi1, 2, true, false),
        s("imb-io", IO, 5, Kind::Io, 1, true, false),
        s("imb-rma", RMA, 3, Kind::Mpi1, 2, true, false),
        s("imb-nbc", NBC, 3, Kind::Mpi1, 2, false, false),
    ]
}

/// A file for the readers that take a path, in a directory of this test's own.
fn scratch_file(name: &str, data: &[u8]) -> String {
    let d = std::env::temp_dir().join(format!("imb-core-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p: PathBuf = d.join(name);
    std::fs::write(&p, data).unwrap();
    p.to_string_lossy().into_owned()
}

fn parse_all(argv: &[String], nps: &[usize]) -> Result<(), String> {
    for spec in specs() {
        for &np in nps {
            match cli::parse(&spec, argv, np) {
                Err(e) => check(&e).map_err(|m| format!("{}: {m}", spec.exe))?,
                Ok(Action::Run(o)) if o.benchmarks.is_empty() => {
                    return Err(format!("{}: Ok with no benchmark", spec.exe))
                }
                Ok(_) => {}
            }
        }
    }
    Ok(())
}

#[test]
fn command_lines() {
    replay("core_cli", 10, |data| match args(data) {
        Some(argv) => {
            let _ = cli::prescan_thread_level(&argv);
            parse_all(&argv, &[1, 2, 4, 6])
        }
        None => Ok(()),
    });
}

#[test]
fn msglen_files() {
    replay("msglen", 3, |data| match text(data) {
        Some(t) => match imb_core::lengths::parse_msglen(t, "lengths") {
            Err(e) => check(&e),
            Ok(v) if v.is_empty() => Err("Ok with no length".into()),
            Ok(v) => {
                let p = imb_core::settings::standard(Kind::Mpi1);
                let max = imb_core::lengths::maxmsg(&p, 4);
                match imb_core::lengths::resolve(&v, &p, 4, 4)
                    .iter()
                    .find(|l| l.x > max)
                {
                    Some(l) => Err(format!("{} above the largest size {max}", l.x)),
                    None => Ok(()),
                }
            }
        },
        None => Ok(()),
    });
}

#[test]
fn input_files() {
    replay("input", 2, |data| {
        if text(data).is_none() {
            return Ok(());
        }
        let path = scratch_file("input", data);
        parse_all(&["-input".to_string(), path], &[2])
    });
}

#[test]
fn settings_files() {
    replay("settings", 3, |data| {
        if text(data).is_none() {
            return Ok(());
        }
        let path = scratch_file("settings.toml", data);
        for kind in [Kind::Mpi1, Kind::Io] {
            match imb_core::settings::load(&path, kind) {
                Err(e) => check(&e)?,
                Ok(_) => {
                    let argv = ["-settings", path.as_str(), "-msglog", "3:5", "-iter", "7"]
                        .map(String::from);
                    parse_all(&argv[..2], &[2])?;
                    parse_all(&argv, &[2])?;
                }
            }
        }
        Ok(())
    });
}
