//! The temporary files an output is written through, and why none of them outlives its process.
//!
//! Two layers (doc/OUTPUT.md, "Temporary files"):
//!
//! - **SIGINT, SIGTERM and SIGHUP wait for a write in progress.** While a temporary file of ours
//!   exists (from its creation to its rename or removal) these signals are deferred: the
//!   handler, which does only async-signal-safe work (atomic operations, `signal`, `raise`),
//!   records the signal and returns; when the last write in progress has renamed or removed its
//!   file, the signal is re-raised with its default action, so the process still ends as the
//!   signal says (and mpirun sees a rank killed by it). With no write in progress the handler
//!   re-raises at once. Deferring was chosen over unlinking in the handler because an unlink
//!   needs the path published before the file exists (a signal in between would unlink a name
//!   we do not own) or after (a signal in between leaves the file); deferring has no such
//!   window, and the file the process leaves is the newest complete one. A signal that was
//!   ignored or handled by someone else when we first write keeps its disposition.
//! - **SIGKILL cannot be caught** (`MPI_Abort`, mpirun's escalation after a second, the OOM
//!   killer). Temporary names carry the host and process id (`.NAME.imb-rs-HOST-PID-N.tmp`),
//!   and the check of an output file, before anything runs, removes the temporary files in its
//!   directory that name this host and a process that no longer exists, owned by this user.
//!   Another host's files are never touched: its processes cannot be asked whether they live.

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::Once;

/// The signals a write defers: those that end a process by default and that users, mpirun and
/// batch systems send to stop a run.
const DEFERRED: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The writes in progress (low 32 bits), the signal that arrived during them (bits 32..63), and
/// [`DYING`]. One word, so the handler and the writers agree without a lock.
static STATE: AtomicU64 = AtomicU64::new(0);
/// Set when a signal is being re-raised: no new write may start.
const DYING: u64 = 1 << 63;
const WRITERS: u64 = 0xffff_ffff;

fn pending(s: u64) -> libc::c_int {
    ((s & !DYING) >> 32) as libc::c_int
}

/// The default action of `sig`, now.
fn die(sig: libc::c_int) {
    // SAFETY: signal(2) and raise(3) are async-signal-safe and take plain integers; raising a
    // signal whose action is the default one ends the process (or stays pending while this
    // thread blocks it, and another thread takes it).
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    let mut s = STATE.load(SeqCst);
    loop {
        let next = if s & DYING != 0 || s & WRITERS == 0 {
            DYING
        } else if pending(s) != 0 {
            return;
        } else {
            s | (sig as u64) << 32
        };
        match STATE.compare_exchange(s, next, SeqCst, SeqCst) {
            Ok(_) if next == DYING => return die(sig),
            Ok(_) => return,
            Err(now) => s = now,
        }
    }
}

/// Install the handler for each deferred signal whose action is still the default one.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for sig in DEFERRED {
            // SAFETY: sigaction(2) with a null new action only reads the current one into a
            // zeroed struct of ours; the second call installs a handler that does only
            // async-signal-safe work (atomics, signal, raise).
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                new.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut new.sa_mask);
                for other in DEFERRED {
                    libc::sigaddset(&mut new.sa_mask, other);
                }
                libc::sigaction(sig, &new, std::ptr::null_mut());
            }
        }
    });
}

/// A write in progress: SIGINT, SIGTERM and SIGHUP wait until every such value is dropped.
/// Public for outputs of several files (imb-compare's `--plot`), which hold one while they
/// write and clean up what they made before it is dropped.
pub struct Deferring(());

impl Deferring {
    /// Start a write; an error when a signal is already ending the process.
    pub fn enter() -> io::Result<Deferring> {
        install();
        let mut s = STATE.load(SeqCst);
        loop {
            if s & DYING != 0 || pending(s) != 0 {
                return Err(io::Error::other("the program is being stopped by a signal"));
            }
            match STATE.compare_exchange(s, s + 1, SeqCst, SeqCst) {
                Ok(_) => return Ok(Deferring(())),
                Err(now) => s = now,
            }
        }
    }
}

impl Drop for Deferring {
    fn drop(&mut self) {
        let mut s = STATE.load(SeqCst);
        loop {
            let left = s - 1;
            let sig = if left & WRITERS == 0 {
                pending(left)
            } else {
                0
            };
            let next = if sig != 0 { DYING } else { left };
            match STATE.compare_exchange(s, next, SeqCst, SeqCst) {
                Ok(_) => {
                    if sig != 0 {
                        die(sig);
                    }
                    return;
                }
                Err(now) => s = now,
            }
        }
    }
}

/// This host's name as it appears in temporary names: bytes other than letters, digits, `.`,
/// `_` and `-` become `_`, at most 64 of them.
fn host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let name = nix::sys::utsname::uname()
            .map(|u| u.nodename().as_bytes().to_vec())
            .unwrap_or_default();
        let s: String = name
            .iter()
            .take(64)
            .map(|&b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'_' | b'-' => b as char,
                _ => '_',
            })
            .collect();
        if s.is_empty() {
            "_".into()
        } else {
            s
        }
    })
}

/// The `k`th temporary name for `target`'s file name: `.NAME.imb-rs-HOST-PID-K.tmp`, NAME cut
/// to 100 bytes so that the whole stays within the 255 bytes of a file name.
fn name(target: &Path, pid: u32, k: u32) -> OsString {
    let base = target.file_name().map(OsStr::as_bytes).unwrap_or_default();
    let mut v = b".".to_vec();
    v.extend_from_slice(&base[..base.len().min(100)]);
    v.extend_from_slice(format!(".imb-rs-{}-{pid}-{k}.tmp", host()).as_bytes());
    OsString::from_vec(v)
}

/// The process id in `file`, if it is a temporary name of this host's.
fn pid_of(file: &OsStr) -> Option<i32> {
    let s = file.as_bytes();
    let s = s.strip_prefix(b".")?.strip_suffix(b".tmp")?;
    let digits = |b: &[u8]| !b.is_empty() && b.iter().all(u8::is_ascii_digit);
    let dash = s.iter().rposition(|&b| b == b'-')?;
    let (rest, k) = (&s[..dash], &s[dash + 1..]);
    let dash = rest.iter().rposition(|&b| b == b'-')?;
    let (rest, pid) = (&rest[..dash], &rest[dash + 1..]);
    if !digits(k) || !digits(pid) || !rest.ends_with(format!(".imb-rs-{}", host()).as_bytes()) {
        return None;
    }
    std::str::from_utf8(pid).ok()?.parse().ok()
}

/// Whether process `pid` no longer exists (kill(2) with no signal answers ESRCH).
fn gone(pid: i32) -> bool {
    pid > 0
        && nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None)
            == Err(nix::errno::Errno::ESRCH)
}

/// Remove from `dir` the temporary files of processes of this host that no longer exist and
/// belonged to this user; the number removed. Errors only leave a file in place.
pub(super) fn sweep(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    // SAFETY: geteuid(2) takes no argument and cannot fail.
    let me = unsafe { libc::geteuid() };
    let ours = std::process::id() as i32;
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            pid_of(&name).is_some_and(|pid| pid != ours && gone(pid))
                && e.path()
                    .symlink_metadata()
                    .is_ok_and(|m| m.file_type().is_file() && m.uid() == me)
        })
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// A temporary file beside `target` that did not exist before (O_EXCL), and its path. Call it
/// inside a [`Deferring`].
pub(super) fn create(target: &Path) -> io::Result<(PathBuf, File)> {
    let dir = super::parent(target);
    let pid = std::process::id();
    for k in 0..100u32 {
        let tmp = dir.join(name(target, pid, k));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free temporary file name"))
}

/// Bytes the check writes: one page, so a full file system refuses it as it would the output.
const PROBE: usize = 4096;

/// Prove that `target`'s directory takes a temporary file of ours: sweep the stale ones of dead
/// processes, then create one, write a page, flush it and remove it.
pub(super) fn probe(target: &Path) -> io::Result<()> {
    sweep(&super::parent(target));
    let _defer = Deferring::enter()?;
    let (tmp, mut f) = create(target)?;
    let r = io::Write::write_all(&mut f, &[b' '; PROBE]).and_then(|_| f.sync_data());
    drop(f);
    let removed = std::fs::remove_file(&tmp);
    r.and(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_host_and_pid_and_stay_short() {
        let n = name(Path::new("/x/r.json"), 42, 3);
        assert_eq!(
            n.to_str().unwrap(),
            format!(".r.json.imb-rs-{}-42-3.tmp", host())
        );
        assert_eq!(pid_of(&n), Some(42));
        let long = "a".repeat(255);
        let n = name(Path::new(&long), i32::MAX as u32, 99);
        assert!(n.len() <= 255, "{} bytes", n.len());
        assert_eq!(pid_of(&n), Some(i32::MAX));
        for other in [
            ".r.json.imb-rs-42-3.tmp",
            ".r.json.imb-rs-otherhost-42-3.tmp",
            "r.json.tmp",
            ".r.json.imb-rs-HOST--3.tmp",
        ] {
            let other = other.replace("HOST", host());
            assert_eq!(pid_of(OsStr::new(&other)), None, "{other}");
        }
    }

    #[test]
    fn a_sweep_removes_only_dead_processes_files_of_this_host() {
        let d = std::env::temp_dir().join(format!("imb-tmp-sweep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        // No process has this id: Linux's pid_max is at most 2^22.
        let dead = i32::MAX as u32;
        let target = d.join("r.json");
        let stale = d.join(name(&target, dead, 0));
        let live = d.join(name(&target, std::process::id(), 7));
        let parent = d.join(name(&target, std::os::unix::process::parent_id(), 0));
        let foreign = d.join(format!(".r.json.imb-rs-elsewhere-{dead}-0.tmp"));
        let user = d.join("r.json.tmp");
        for f in [&stale, &live, &parent, &foreign, &user] {
            std::fs::write(f, "x").unwrap();
        }
        assert_eq!(sweep(&d), 1);
        assert!(!stale.exists());
        for f in [&live, &parent, &foreign, &user] {
            assert!(f.exists(), "{f:?} was removed");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
