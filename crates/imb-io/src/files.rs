//! The files imb-io creates, and a guardian process that removes them however the rank ends:
//! imb-io's half of the engine's resource hooks (`imb_core::kernel::Hooks`): `before_mpi`
//! starts the guardian, `Benchmark::prepare` registers each file (`Created`).
//!
//! IMB-IO must leave no file behind: not after success or an error, not after SIGINT/SIGTERM
//! to mpirun, not after `MPI_Abort` (which SIGKILLs the ranks). No signal handler survives
//! SIGKILL, so before `MPI_Init` each rank starts a guardian: the same executable, re-executed
//! with [`GUARDIAN_ENV`] set, in a session of its own so that signals to the rank's process
//! group miss it. The rank announces on a pipe each file it creates and each file it removes
//! itself; when the pipe reaches end-of-file (the rank has exited, whatever the cause) the
//! guardian removes the files still announced.
//!
//! Records on the pipe: `+<path>\0` created, `-<path>\0` removed, paths as raw bytes and made
//! absolute by the rank, so the guardian does not depend on the rank's working directory.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

use nix::sys::signal::{signal, SigHandler, Signal};

use imb_core::error::{Error, Result};

/// Environment variable that turns an executable into a guardian.
pub const GUARDIAN_ENV: &str = "IMB_RS_GUARDIAN";

/// The write end of this rank's pipe to its guardian; unset when no guardian runs.
static GUARDIAN: OnceLock<Mutex<ChildStdin>> = OnceLock::new();

/// If this process was started as a guardian, run the guardian loop on stdin and return
/// `Some(exit code)`; else `None`. `Hooks::before_mpi` calls this first thing in `main`.
pub fn guardian_main() -> Option<u8> {
    if std::env::var_os(GUARDIAN_ENV).as_deref() != Some(OsStr::new("1")) {
        return None;
    }
    // The guardian has the rank's executable name, so `pkill imb-io` hits it too; only the
    // end of its input may end it, or the files it guards would stay.
    for sig in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        // SAFETY: ignoring a signal installs no handler code, so nothing runs in signal context.
        let _ = unsafe { signal(sig, SigHandler::SigIgn) };
    }
    guard(std::io::stdin().lock());
    Some(0)
}

/// The guardian loop: read records until end-of-file, then remove every path still registered.
///
/// Returns the number of files removed. Removal errors are ignored: nobody is left to read a
/// report. A final record without its `\0` is honoured (the rank died mid-record).
pub fn guard(input: impl Read) -> usize {
    let mut live = BTreeSet::new();
    // A read error ends the input like EOF: the rank cannot reach us any more either way.
    for record in BufReader::new(input).split(0).map_while(|r| r.ok()) {
        let Some((&op, path)) = record.split_first() else {
            continue;
        };
        if path.is_empty() {
            continue;
        }
        let path = PathBuf::from(OsStr::from_bytes(path));
        match op {
            b'+' => {
                live.insert(path);
            }
            b'-' => {
                live.remove(&path);
            }
            _ => {}
        }
    }
    live.iter()
        .map(|p| usize::from(std::fs::remove_file(p).is_ok()) + remove_companions(p))
        .sum()
}

/// Files an MPI-IO library makes next to ours and removes on a clean close, but leaves behind
/// when the rank is killed: Open MPI's (OMPIO) shared-file-pointer lock test `<name>.locktest.<n>`
/// and lock file `<name>-<job>-<n>.lock`, ROMIO's (MPICH) hidden `.<name>.shfp.<n>`.
pub fn is_companion(entry: &str, name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = entry.strip_prefix(name) {
        if let Some(n) = rest.strip_prefix(".locktest.") {
            return digits(n);
        }
        if let Some(mid) = rest.strip_prefix('-').and_then(|r| r.strip_suffix(".lock")) {
            return mid.split('-').count() == 2 && mid.split('-').all(digits);
        }
    }
    entry
        .strip_prefix('.')
        .and_then(|r| r.strip_prefix(name))
        .and_then(|r| r.strip_prefix(".shfp."))
        .is_some_and(digits)
}

/// Remove the companions of `path` (see `is_companion`); how many were removed.
fn remove_companions(path: &Path) -> usize {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return 0;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| is_companion(n, name))
        })
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// Start this rank's guardian (once, before `MPI_Init`, only in the IO executable). A second
/// call does nothing.
pub fn start_guardian() -> Result<()> {
    if GUARDIAN.get().is_some() {
        return Ok(());
    }
    let exe = std::env::current_exe().map_err(|e| {
        Error::Run(format!(
            "cannot find this executable to start the file guardian: {e}"
        ))
    })?;
    let mut cmd = Command::new(&exe);
    cmd.env(GUARDIAN_ENV, "1")
        // Paths arrive absolute; "/" keeps the guardian from pinning the rank's directory.
        .current_dir("/")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: the closure runs between fork and exec, where only async-signal-safe calls are
    // allowed; setsid is one, and the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            nix::unistd::setsid()
                .map(drop)
                .map_err(std::io::Error::from)
        });
    }
    let mut child = cmd.spawn().map_err(|e| {
        Error::Run(format!(
            "cannot start the file guardian {}: {e}",
            exe.display()
        ))
    })?;
    let stdin = child
        .stdin
        .take()
        .ok_or_else(|| Error::Run("the file guardian has no input pipe".into()))?;
    // `child` is dropped without waiting: the guardian must outlive this process.
    let _ = GUARDIAN.set(Mutex::new(stdin));
    Ok(())
}

/// Tell the guardian a file was (or is about to be) created. No-op when no guardian runs.
pub fn register(path: &Path) {
    send(b'+', path);
}

/// Tell the guardian a file is gone.
pub fn forget(path: &Path) {
    send(b'-', path);
}

fn send(op: u8, path: &Path) {
    let Some(pipe) = GUARDIAN.get() else {
        return;
    };
    let path = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path))
    };
    let bytes = path.as_os_str().as_bytes();
    let mut record = Vec::with_capacity(bytes.len() + 2);
    record.push(op);
    record.extend_from_slice(bytes);
    record.push(0);
    // One write per record under the lock keeps records whole. An error means the guardian is
    // gone; the rank still removes its own files on the normal path.
    let _ = pipe
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .write_all(&record);
}

/// A created file: removed and forgotten on drop.
#[derive(Debug)]
pub struct Created {
    path: PathBuf,
}

impl Created {
    /// Register `path` with the guardian as soon as the file is ours (`prep::claim`), never
    /// before: a name we failed to claim may be another run's file.
    pub fn new(path: PathBuf) -> Created {
        register(&path);
        Created { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Created {
    fn drop(&mut self) {
        match std::fs::remove_file(&self.path) {
            Ok(()) => forget(&self.path),
            Err(e) if e.kind() == ErrorKind::NotFound => forget(&self.path),
            // Still registered, so the guardian tries again when the rank exits.
            Err(_) => {}
        }
    }
}

/// Make a file-size limit (`ulimit -f`) an I/O error (EFBIG) instead of a SIGXFSZ that kills
/// the rank without a message.
pub fn ignore_sigxfsz() {
    // SAFETY: ignoring a signal installs no handler code, so nothing runs in signal context.
    let _ = unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory of this test's own (tests run in parallel).
    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("imb-files-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn record(op: u8, path: &Path, end: bool) -> Vec<u8> {
        let mut r = vec![op];
        r.extend_from_slice(path.as_os_str().as_bytes());
        if end {
            r.push(0);
        }
        r
    }

    #[test]
    fn guard_removes_exactly_the_files_still_registered() {
        let dir = scratch("guard");
        let kept = dir.join("removed by the rank");
        let gone = dir.join("line\nbreak and space");
        std::fs::write(&kept, b"x").unwrap();
        std::fs::write(&gone, b"x").unwrap();
        let mut input = record(b'+', &kept, true);
        input.extend(record(b'+', &gone, true));
        input.extend(record(b'-', &kept, true));
        assert_eq!(guard(&input[..]), 1);
        assert!(kept.exists());
        assert!(!gone.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn guard_honours_a_truncated_final_record() {
        let dir = scratch("truncated");
        let file = dir.join("IMB_out");
        std::fs::write(&file, b"x").unwrap();
        let missing = dir.join("never created");
        let mut input = record(b'+', &missing, true);
        input.extend(record(b'+', &file, false));
        assert_eq!(guard(&input[..]), 1);
        assert!(!file.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn created_removes_its_file_on_drop() {
        let dir = scratch("created");
        let created = Created::new(dir.join("IMB_out_0"));
        std::fs::write(created.path(), b"x").unwrap();
        let path = created.path().to_path_buf();
        drop(created);
        assert!(!path.exists());
        // Dropping a file that was never created is fine too.
        drop(Created::new(dir.join("IMB_out_1")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn mpi_companions_are_recognised_and_removed() {
        for yes in [
            "IMB_out.locktest.0",
            "IMB_out-2044657665-1.lock",
            ".IMB_out.shfp.12345",
        ] {
            assert!(is_companion(yes, "IMB_out"), "{yes}");
        }
        for no in [
            "IMB_out",
            "IMB_out_1",
            "IMB_out.locktest.",
            "IMB_out-x-1.lock",
            "IMB_out.lock",
            ".IMB_out.shfp.",
            "mine.locktest.0",
        ] {
            assert!(!is_companion(no, "IMB_out"), "{no}");
        }
        let d = std::env::temp_dir().join(format!("imb-files-comp-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        for f in ["IMB_out", "IMB_out.locktest.1", "IMB_out_0", "other"] {
            std::fs::write(d.join(f), "").unwrap();
        }
        let rec = format!("+{}\0", d.join("IMB_out").display());
        assert_eq!(guard(rec.as_bytes()), 2);
        let mut left: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["IMB_out_0", "other"]);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
