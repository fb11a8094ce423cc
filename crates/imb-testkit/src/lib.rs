//! Dev-only test kit: launch an imb-rs executable under a real `mpirun`, with a watchdog, and
//! parse its tables. Each crate's `tests/common/mod.rs` re-exports this and adds `mpirun`/
//! `mpirun_in` bound to its own binary (`env!("CARGO_BIN_EXE_…")`).
//!
//! `structure` reads the workspace's sources for the structure tests (`tests/structure.rs`).
//!
//! mpirun runs in its own session (`setsid`): Open MPI puts ranks in their own process groups,
//! so on a timeout every process of the session is killed, not just mpirun's group.

pub mod corpus;
pub mod json;
pub mod structure;
mod table;
pub mod watchdog;

pub use table::{checked_clean, grid_shape, ok, progress_lines, tables, GridShape, Table};

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One mpirun (or MPI singleton start) at a time: concurrent oversubscribed jobs on 2 cores
/// would crawl, and two Open MPI starts that both create the first session directory
/// (`/tmp/ompi.HOST.UID`, as on a fresh machine) race in its mkdir and one fails. (The lock is
/// per test binary; cargo runs test binaries one after another.)
static LAUNCH: Mutex<()> = Mutex::new(());

pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub secs: f64,
}

/// Whether `mpirun` is Open MPI's (some failure modes are library-specific).
pub fn open_mpi() -> bool {
    Command::new("mpirun")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("Open MPI"))
        .unwrap_or(false)
}

/// Kill every process whose session id is `sid`.
fn kill_session(sid: i32) {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in dir.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // fields after the command (which may hold spaces): state ppid pgrp session ...
        let rest = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.get(3).and_then(|s| s.parse::<i32>().ok()) == Some(sid) {
            // SAFETY: plain kill(2) on a pid we just read; a stale pid only fails.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// The signals a test sends to what it starts, at their default action in this process, so
/// in every child too: a test run started as a background job of a script inherits SIGINT
/// ignored, and a run the test stops with SIGINT then went on to its end (or hung a test that
/// waits for it to end). Tests must not depend on what they inherit.
pub fn default_signals() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
            // SAFETY: sigaction(2) reads the current action into a zeroed struct of ours;
            // signal(2) then sets an ignored signal to its default action, which runs no code.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                    && old.sa_sigaction == libc::SIG_IGN
                {
                    libc::signal(sig, libc::SIG_DFL);
                }
            }
        }
    });
}

/// `mpirun -np NP BIN ARGS` in `dir`, killed (with every rank) after `limit` seconds.
pub fn mpirun_in(bin: &str, dir: &std::path::Path, np: usize, args: &[&str], limit: u64) -> Out {
    mpirun_env(bin, dir, np, args, &[], limit)
}

/// As `mpirun_in`, with extra environment variables (e.g. `OMPI_MCA_osc`) for every rank.
pub fn mpirun_env(
    bin: &str,
    dir: &std::path::Path,
    np: usize,
    args: &[&str],
    env: &[(&str, &str)],
    limit: u64,
) -> Out {
    mpirun_with(
        bin,
        dir,
        np,
        args,
        limit,
        Launch {
            env,
            ..Launch::default()
        },
    )
}

/// Extras of a launch.
#[derive(Default)]
pub struct Launch<'a> {
    /// Environment variables for every rank.
    pub env: &'a [(&'a str, &'a str)],
    /// Send this signal to mpirun once the predicate holds (polled every 20 ms).
    pub signal_when: Option<(i32, &'a dyn Fn() -> bool)>,
    /// Start the binary itself (MPI's singleton start, one process) instead of `mpirun`: an
    /// input error ends in 0.3 s this way, against 2 s through mpirun's abort handling.
    pub direct: bool,
}

/// `mpirun -np NP BIN ARGS` in `dir` with the extras of `l`, killed after `limit` seconds.
pub fn mpirun_with(
    bin: &str,
    dir: &std::path::Path,
    np: usize,
    args: &[&str],
    limit: u64,
    l: Launch,
) -> Out {
    default_signals();
    let env = l.env;
    let _one = LAUNCH.lock().unwrap_or_else(|e| e.into_inner());
    let mut cmd = Command::new("setsid");
    if l.direct {
        assert_eq!(np, 1, "a direct start is one process");
        cmd.arg(bin);
    } else {
        cmd.arg("mpirun");
        if open_mpi() {
            cmd.arg("--oversubscribe");
        }
        cmd.args(["-np", &np.to_string(), bin]);
    }
    cmd.args(args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut signalled = false;
    let mut child = cmd
        .spawn()
        .expect("mpirun starts (is Open MPI installed? run scripts/setup)");
    let sid = child.id() as i32;
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let ro = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let re = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let mut dog = watchdog::Watchdog::new(Duration::from_secs(limit));
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if let Some((sig, ready)) = l.signal_when {
            if !signalled && ready() {
                // SAFETY: plain kill(2) of our own child (setsid execs mpirun in place).
                unsafe {
                    libc::kill(sid, sig);
                }
                signalled = true;
            }
        }
        if dog.expired() {
            kill_session(sid);
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Ranks that outlive mpirun would keep the pipes open: clear the session first.
    kill_session(sid);
    let out = Out {
        code: status.and_then(|s| s.code()),
        stdout: ro.join().unwrap(),
        stderr: re.join().unwrap(),
        secs: start.elapsed().as_secs_f64(),
    };
    assert!(
        status.is_some(),
        "mpirun -np {np} {args:?} hung and was killed after {limit} s of the machine's time \
         ({:.0} s on the wall clock; imb_testkit::watchdog)\nstdout:\n{}\nstderr:\n{}",
        out.secs,
        out.stdout,
        out.stderr
    );
    out
}

/// `BIN ARGS` without mpirun (one process, MPI's singleton start) in `dir`, killed after
/// `limit` seconds.
pub fn direct_in(bin: &str, dir: &std::path::Path, args: &[&str], limit: u64) -> Out {
    mpirun_with(
        bin,
        dir,
        1,
        args,
        limit,
        Launch {
            direct: true,
            ..Launch::default()
        },
    )
}

/// `mpirun -np NP BIN ARGS` in the temporary directory, with a 120 s limit.
pub fn mpirun(bin: &str, np: usize, args: &[&str]) -> Out {
    mpirun_in(bin, &std::env::temp_dir(), np, args, 120)
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("imb-it-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Run `cmd` (stdout and stderr piped, read while it runs so a long output cannot stall it)
/// under a [`watchdog`] of `limit` seconds: its output, or a panic naming `what` after killing
/// it (a hang; the limit judges no speed).
pub fn output_within(mut cmd: Command, limit: u64, what: &str) -> std::process::Output {
    // One at a time as mpirun is (the command may be an MPI singleton start).
    let _one = LAUNCH.lock().unwrap_or_else(|e| e.into_inner());
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match watchdog::recv(&rx, Duration::from_secs(limit)) {
        Some(o) => o.unwrap(),
        None => {
            // SAFETY: kill(2) of our own child; wait_with_output has not reaped it, so the
            // pid cannot have been reused.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{what}: still running after {limit} s of the machine's time (a hang)");
        }
    }
}

/// How a process ended: its exit status, or 128 + the signal that ended it (as a shell says).
fn status_code(st: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0))
}

/// Wait for `child` at most `limit` seconds (then kill it and fail: a hang); its status and
/// stderr.
fn wait_child(mut child: std::process::Child, limit: u64, what: &str) -> (i32, String) {
    let mut dog = watchdog::Watchdog::new(Duration::from_secs(limit));
    let st = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if dog.expired() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit} s of the machine's time (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (status_code(st), err)
}

/// `BIN ARGS` without mpirun, in `dir`, with stdout going to `stdout` (e.g. `/dev/full`):
/// its exit status (128 + signal when killed) and stderr; a hang past `limit` s fails.
pub fn run_with_stdout(
    bin: &str,
    dir: &std::path::Path,
    args: &[std::ffi::OsString],
    stdout: Stdio,
    limit: u64,
) -> (i32, String) {
    default_signals();
    let _one = LAUNCH.lock().unwrap_or_else(|e| e.into_inner());
    let child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    wait_child(child, limit, &format!("{bin} {args:?}"))
}

/// `BIN ARGS` without mpirun, in `dir`, whose reader takes the first line of stdout and goes
/// away (as `| head -1`): the first line, the exit status and stderr.
///
/// The pipe holds one page and the reader takes the line byte by byte, so when the reader
/// leaves the program is at most a page past that line, however the two were scheduled: a
/// program with more to say always meets the closed pipe (a test of that judges no speed).
pub fn run_reader_leaves(
    bin: &str,
    dir: &std::path::Path,
    args: &[&str],
    limit: u64,
) -> (String, i32, String) {
    use std::os::fd::AsRawFd;
    default_signals();
    let _one = LAUNCH.lock().unwrap_or_else(|e| e.into_inner());
    let (mut out, w) = std::io::pipe().expect("a pipe");
    // SAFETY: fcntl(2) F_SETPIPE_SZ on a pipe we own and nobody has written to; on failure
    // the pipe keeps its default size (the test is then as before, racing the reader).
    unsafe { libc::fcntl(out.as_raw_fd(), libc::F_SETPIPE_SZ, 4096) };
    let child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::from(w))
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut first = Vec::new();
    let mut b = [0u8; 1];
    while let Ok(1) = out.read(&mut b) {
        first.push(b[0]);
        if b[0] == b'\n' {
            break;
        }
    }
    drop(out); // the read end closes here
    let (code, err) = wait_child(child, limit, &format!("{bin} {args:?} | head -1"));
    (String::from_utf8_lossy(&first).into_owned(), code, err)
}

/// A small tmpfs mounted on a scratch directory (a full disk on demand), unmounted on drop.
/// None where mounting is not allowed (not root): the caller skips its test then.
pub struct SmallDisk(pub std::path::PathBuf);

impl SmallDisk {
    /// `size` as mount(8) takes it: `64k`, `2m`.
    pub fn new(name: &str, size: &str) -> Option<SmallDisk> {
        let d = scratch(name);
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&d)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallDisk(d))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
