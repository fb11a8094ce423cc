//! Files the user names, read and written so that hostile paths cannot hang, exhaust or destroy
//! anything (doc/ReadMe_IMB.md, "Robustness").
//!
//! - Input files (`-msglen`, `-input`, `-settings`, the suites' settings files) must be regular
//!   files of at most [`INPUT_CAP`] bytes. A FIFO would block `open` for ever and `/dev/zero`
//!   would fill memory, so the type is checked before opening, the open never blocks, and the
//!   read stops one byte past the cap. A UTF-8 byte-order mark is skipped; other invalid UTF-8
//!   is an error naming the line.
//! - Output files (`-json`) are written only to a new or existing regular file that is not
//!   where the standard output or error of this process, or of a process that started it
//!   (mpirun), goes: renaming over it would replace the text tables. A symlink is followed (its
//!   target is written, the link stays); a device, FIFO, socket or directory is an error before
//!   anything runs. The check proves the directory takes our files by creating, filling with
//!   one page and removing a temporary file, so procfs, a read-only mount or a full disk is an
//!   error before the run, not after it. Every write goes to a fresh temporary file created next
//!   to the target (never an existing one) and renamed over it, and the temporary file is
//!   removed on every failure path, a full disk included.
//! - No temporary file survives a signal: SIGINT, SIGTERM and SIGHUP wait until the write in
//!   progress has renamed or removed its file, then end the process as they would have; the
//!   files of processes killed by SIGKILL are removed by the next check in their directory
//!   (`tmp`, where the choice is explained).

use crate::error::{Error, Result};
use std::ffi::OsStr;
use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

mod tmp;

pub use tmp::Deferring;

/// The largest input file accepted: far above any real settings or lengths file.
pub const INPUT_CAP: u64 = 4 << 20;

/// What a file system object is, in words, for an error message.
fn kind_of(ft: &std::fs::FileType) -> &'static str {
    if ft.is_dir() {
        "a directory"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

/// A path as text for a message; bytes that are not UTF-8 are shown escaped, never dropped.
pub fn shown(path: &OsStr) -> String {
    match path.to_str() {
        Some(s) => s.to_string(),
        None => {
            use std::os::unix::ffi::OsStrExt;
            path.as_bytes().escape_ascii().to_string()
        }
    }
}

/// Read the whole text of an input file named by option `arg`, within [`INPUT_CAP`].
pub fn read_text(arg: &str, path: &str) -> Result<String> {
    read_text_capped(arg, path, INPUT_CAP)
}

/// As [`read_text`] with another cap (tests).
pub fn read_text_capped(arg: &str, path: &str, cap: u64) -> Result<String> {
    let bytes = read_bytes(arg, path, cap)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            Err(Error::line(
                arg,
                path,
                line,
                "not UTF-8 text (an invalid byte sequence)",
            ))
        }
    }
}

fn read_bytes(arg: &str, path: &str, cap: u64) -> Result<Vec<u8>> {
    let fail = |msg: String| Error::file(arg, path, msg);
    let md = std::fs::metadata(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
    if !md.file_type().is_file() {
        return Err(fail(format!(
            "{}: only a regular file is read",
            kind_of(&md.file_type())
        )));
    }
    if md.len() > cap {
        return Err(fail(format!(
            "{} bytes: larger than the {} bytes an input file may have",
            md.len(),
            cap
        )));
    }
    // O_NONBLOCK: if the path was swapped for a FIFO after the check, open still returns.
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc_o_nonblock())
        .open(path)
        .map_err(|e| fail(format!("cannot read it: {e}")))?;
    let md = f
        .metadata()
        .map_err(|e| fail(format!("cannot read it: {e}")))?;
    if !md.file_type().is_file() {
        return Err(fail(format!(
            "{}: only a regular file is read",
            kind_of(&md.file_type())
        )));
    }
    let mut buf = Vec::new();
    f.take(cap + 1)
        .read_to_end(&mut buf)
        .map_err(|e| fail(format!("cannot read it: {e}")))?;
    if buf.len() as u64 > cap {
        return Err(fail(format!(
            "larger than the {cap} bytes an input file may have"
        )));
    }
    Ok(buf)
}

fn libc_o_nonblock() -> i32 {
    nix::fcntl::OFlag::O_NONBLOCK.bits()
}

/// An output file checked before the run: where the bytes go (a symlink resolved to its target)
/// and the name to show.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutFile {
    /// What the user wrote, for messages.
    pub shown: String,
    /// The file that is replaced on each write: the path itself, or a symlink's final target.
    target: PathBuf,
}

impl OutFile {
    /// Check that `path` (named by option `arg`) can take an output file: an existing regular
    /// file (through any symlinks) that is no standard output or error, or a new name, in a
    /// directory that takes a temporary file of ours (one is created and removed, and those of
    /// dead processes of ours are removed).
    pub fn check(arg: &str, path: &str) -> Result<OutFile> {
        let fail = |msg: String| Error::file(arg, path, msg);
        if path.is_empty() {
            return Err(Error::arg(arg, "needs a file name"));
        }
        let p = Path::new(path);
        // What the path finally names, through any symlinks (/dev/stdout, /proc/self/fd/1).
        match std::fs::metadata(p) {
            Ok(md) if md.file_type().is_file() => {
                if let Some(whose) = std_stream(&md, true) {
                    return Err(fail(format!(
                        "this is where {whose} goes; writing it would replace that output (give \
                         {arg} a file of its own)"
                    )));
                }
            }
            Ok(md) => {
                return Err(fail(format!(
                    "{}: only a regular file is written",
                    kind_of(&md.file_type())
                )))
            }
            // A new name, or a dangling link: told apart below.
            Err(_) => {}
        }
        let target = match std::fs::symlink_metadata(p) {
            Ok(md) if md.file_type().is_symlink() => match std::fs::canonicalize(p) {
                Ok(t) => t,
                // A dangling link: writing would create a file wherever it points; refuse.
                Err(e) => return Err(fail(format!("a symlink whose target cannot be used: {e}"))),
            },
            Ok(_) => p.to_path_buf(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => p.to_path_buf(),
            Err(e) => return Err(fail(format!("cannot use it: {e}"))),
        };
        match std::fs::metadata(&target) {
            Ok(md) if md.file_type().is_file() => {
                if let Err(e) = nix::unistd::access(&target, nix::unistd::AccessFlags::W_OK) {
                    return Err(fail(format!("cannot write it: {e}")));
                }
            }
            Ok(md) => {
                return Err(fail(format!(
                    "{}: only a regular file is written",
                    kind_of(&md.file_type())
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail(format!("cannot use it: {e}"))),
        }
        let dir = parent(&target);
        match std::fs::metadata(&dir) {
            Ok(md) if md.is_dir() => {}
            Ok(_) => return Err(fail(format!("{} is not a directory", dir.display()))),
            Err(e) => return Err(fail(format!("cannot use {}: {e}", dir.display()))),
        }
        // The temporary file is made in the same directory, so it must be writable.
        if let Err(e) = nix::unistd::access(
            &dir,
            nix::unistd::AccessFlags::W_OK | nix::unistd::AccessFlags::X_OK,
        ) {
            return Err(fail(format!(
                "cannot create files in {}: {e}",
                dir.display()
            )));
        }
        // Permissions are not the whole story (procfs, a read-only mount, a full disk).
        if let Err(e) = tmp::probe(&target) {
            return Err(fail(format!(
                "cannot create files in {}: {e}",
                dir.display()
            )));
        }
        Ok(OutFile {
            shown: path.to_string(),
            target,
        })
    }

    /// Replace the file's contents with `bytes`: a new temporary file beside the target,
    /// written and renamed over it; on any failure the temporary file is removed and the target
    /// keeps its previous contents.
    pub fn write(&self, bytes: &[u8]) -> io::Result<()> {
        // The target may have changed since the check (another program): never replace a
        // non-regular file.
        let old_mode = match std::fs::metadata(&self.target) {
            Ok(md) if md.file_type().is_file() => {
                if let Some(whose) = std_stream(&md, false) {
                    return Err(io::Error::other(format!("it is now where {whose} goes")));
                }
                Some(md.permissions().mode())
            }
            Ok(md) => {
                return Err(io::Error::other(format!(
                    "{}: only a regular file is written",
                    kind_of(&md.file_type())
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let _defer = tmp::Deferring::enter()?;
        let (tmp, mut f) = tmp::create(&self.target)?;
        let r = (|| {
            if let Some(mode) = old_mode {
                f.set_permissions(std::fs::Permissions::from_mode(mode & 0o7777))?;
            }
            f.write_all(bytes)?;
            f.sync_data()?;
            drop(f);
            std::fs::rename(&tmp, &self.target)
        })();
        if r.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        r
    }
}

/// Whose standard output or error the file of `md` is, in words: this program's, or with
/// `ancestors` that of a process that started it (mpirun's, whose output file the ranks never
/// see); None when it is neither.
fn std_stream(md: &std::fs::Metadata, ancestors: bool) -> Option<String> {
    let same = |m: &std::fs::Metadata| m.dev() == md.dev() && m.ino() == md.ino();
    let streams = [
        (io::stdout().as_fd_metadata(), "standard output"),
        (io::stderr().as_fd_metadata(), "standard error"),
    ];
    for (m, what) in &streams {
        if m.as_ref().is_ok_and(same) {
            return Some(format!("the {what} of this program"));
        }
    }
    if !ancestors {
        return None;
    }
    let mut pid = std::os::unix::process::parent_id();
    // A chain of launchers is short; the bound only guards against a /proc that loops.
    for _ in 0..64 {
        if pid <= 1 {
            break;
        }
        for (fd, what) in [(1, "standard output"), (2, "standard error")] {
            if std::fs::metadata(format!("/proc/{pid}/fd/{fd}")).is_ok_and(|m| same(&m)) {
                let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
                return Some(format!(
                    "the {what} of {} (process {pid}, which started this program)",
                    comm.trim()
                ));
            }
        }
        pid = match parent_of(pid) {
            Some(p) => p,
            None => break,
        };
    }
    None
}

/// The parent of process `pid`, from /proc/PID/stat (the field after the state, which follows
/// the command name in parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The metadata of what a standard stream's descriptor refers to.
trait FdMetadata {
    fn as_fd_metadata(&self) -> io::Result<std::fs::Metadata>;
}

impl<T: std::os::fd::AsFd> FdMetadata for T {
    fn as_fd_metadata(&self) -> io::Result<std::fs::Metadata> {
        // A duplicate of the descriptor, so its metadata can be read without owning it.
        self.as_fd()
            .try_clone_to_owned()
            .map(std::fs::File::from)
            .and_then(|f| f.metadata())
    }
}

fn parent(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// How an output failure ends a program: a closed pipe quietly, anything else with a message.
pub fn stdout_failure_message(e: &io::Error) -> Option<String> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        None
    } else {
        Some(format!("cannot write to standard output: {e}"))
    }
}

/// Exit status of a failed write (stdout, an output file) in every executable.
pub const EXIT_WRITE: u8 = 3;
/// Exit status when stdout was closed by its reader (`| head`): 128 + SIGPIPE, as the shell
/// reports a program that a closed pipe ended, and no message.
pub const EXIT_CLOSED: u8 = 141;

/// The exit status of an MPI-free suite after its last output: 0; 141, quietly, for a closed
/// stdout; 3 with `<exe>: error: <line>` for any other failed write.
pub fn exit_after(exe: &str, r: std::result::Result<(), Option<String>>) -> std::process::ExitCode {
    match r {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(None) => std::process::ExitCode::from(EXIT_CLOSED),
        Err(Some(line)) => {
            eprintln!("{exe}: error: {line}");
            std::process::ExitCode::from(EXIT_WRITE)
        }
    }
}

/// Whether stdout is a pipe whose reader has gone. Only a pipe is asked: a file, a terminal or
/// /dev/null never reports it, and their failures show at the next write.
pub fn reader_gone() -> bool {
    static PIPE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PIPE.get_or_init(|| is_pipe(&std::io::stdout())) && pipe_widowed(libc::STDOUT_FILENO)
}

fn is_pipe(f: &impl std::os::fd::AsFd) -> bool {
    f.as_fd_metadata().is_ok_and(|m| m.file_type().is_fifo())
}

/// True when `fd` is the write end of a pipe without readers: Linux's poll(2) reports POLLERR
/// for it (a write would fail with EPIPE). Never waits.
fn pipe_widowed(fd: libc::c_int) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    };
    // SAFETY: poll(2) on one pollfd that lives on this stack frame, with a zero timeout; an
    // invalid fd only sets POLLNVAL.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    n > 0 && p.revents & libc::POLLERR != 0
}

/// Print `text` to stdout for a one-shot output (`-help`, `-list`): Ok, a quiet closed pipe, or
/// the error line to report.
pub fn print_all(text: &str) -> std::result::Result<(), Option<String>> {
    let mut o = io::stdout().lock();
    o.write_all(text.as_bytes())
        .and_then(|_| o.flush())
        .map_err(|e| stdout_failure_message(&e))
}

#[cfg(test)]
mod tests;
