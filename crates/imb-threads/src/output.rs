//! Standard output of a run. Every piece (header, one table) is written and flushed at once, so
//! a crash keeps every finished table; a failed write ends the run (doc/THREADS.md, "Options":
//! exit 3 with one line, or a quiet 141 when the reader of a pipe went away). Between rows the
//! run asks whether the reader is still there, so `| head` stops the measuring at the next row
//! instead of running the suite for nobody.

use std::sync::OnceLock;

/// Print and flush at once. Err(None): stdout was closed by its reader; Err(Some(line)): any
/// other failure (a full disk).
pub fn out(s: &str) -> Result<(), Option<String>> {
    imb_core::safefile::print_all(s)
}

/// The exit status after the last output (`imb_core::safefile::exit_after`).
pub fn finish(r: Result<(), Option<String>>) -> std::process::ExitCode {
    imb_core::safefile::exit_after("imb-threads", r)
}

/// Whether stdout is a pipe whose reader has gone. Only a pipe is asked: a file, a terminal or
/// /dev/null never reports it, and their failures show at the next write.
pub fn reader_gone() -> bool {
    static PIPE: OnceLock<bool> = OnceLock::new();
    *PIPE.get_or_init(|| is_pipe(&std::io::stdout())) && pipe_widowed(libc::STDOUT_FILENO)
}

fn is_pipe(f: &impl std::os::fd::AsFd) -> bool {
    use std::os::unix::fs::FileTypeExt;
    // A duplicate of the descriptor, so its metadata can be read without owning stdout.
    f.as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|f| f.metadata())
        .is_ok_and(|m| m.file_type().is_fifo())
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    #[test]
    fn a_pipe_is_widowed_only_when_its_reader_closes() {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two-element array it is given.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe(2) failed");
        // SAFETY: both descriptors were just created by pipe(2) and are owned only here.
        let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        assert!(is_pipe(&w), "the write end of pipe(2) is a FIFO");
        assert!(
            !pipe_widowed(w.as_raw_fd()),
            "a pipe with a reader is not widowed"
        );
        drop(r);
        assert!(
            pipe_widowed(w.as_raw_fd()),
            "a pipe without a reader is widowed"
        );
        let f = std::fs::File::open("/dev/null").expect("/dev/null opens");
        assert!(!is_pipe(&f), "/dev/null is not a pipe");
    }
}
