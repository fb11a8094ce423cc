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

use std::os::unix::fs::symlink;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("imb-safefile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

#[test]
fn reads_regular_files_and_skips_a_bom() {
    let d = dir("bom");
    let f = d.join("a");
    std::fs::write(&f, b"\xEF\xBB\xBF1\n2\n").unwrap();
    assert_eq!(read_text("-msglen", &s(&f)).unwrap(), "1\n2\n");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn refuses_devices_fifos_directories_and_huge_files() {
    let e = read_text("-msglen", "/dev/zero").unwrap_err().to_string();
    assert!(
        e.contains("-msglen /dev/zero") && e.contains("character device"),
        "{e}"
    );
    let e = read_text("-input", "/tmp").unwrap_err().to_string();
    assert!(e.contains("a directory"), "{e}");
    let d = dir("fifo");
    let fifo = d.join("p");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let e = read_text("-settings", &s(&fifo)).unwrap_err().to_string();
    assert!(e.contains("a FIFO"), "{e}");
    let big = d.join("big");
    std::fs::write(&big, vec![b'1'; 100]).unwrap();
    let e = read_text_capped("-msglen", &s(&big), 10)
        .unwrap_err()
        .to_string();
    assert!(e.contains("larger than the 10 bytes"), "{e}");
    let e = read_text("-msglen", &s(&d.join("missing")))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot read it"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn invalid_utf8_names_the_line() {
    let d = dir("utf8");
    let f = d.join("a");
    std::fs::write(&f, b"1\n2\n\xff\n").unwrap();
    let e = read_text("-msglen", &s(&f)).unwrap_err().to_string();
    assert!(e.contains("line 3") && e.contains("UTF-8"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn output_refuses_what_is_not_a_regular_file() {
    for p in ["/dev/null", "/dev/full", "/tmp"] {
        let e = OutFile::check("-json", p).unwrap_err().to_string();
        assert!(e.starts_with(&format!("-json {p}: ")), "{e}");
    }
    let d = dir("outfifo");
    let fifo = d.join("p");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let e = OutFile::check("-json", &s(&fifo)).unwrap_err().to_string();
    assert!(e.contains("a FIFO"), "{e}");
    let e = OutFile::check("-json", &s(&d.join("no/such/x")))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot use"), "{e}");
    let dangling = d.join("dangling");
    symlink(d.join("nowhere/x"), &dangling).unwrap();
    assert!(OutFile::check("-json", &s(&dangling)).is_err());
    assert!(
        dangling.symlink_metadata().is_ok(),
        "the link is left alone"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn output_follows_a_symlink_and_keeps_it() {
    let d = dir("outlink");
    let real = d.join("real.json");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = d.join("link.json");
    symlink(&real, &link).unwrap();
    let o = OutFile::check("-json", &s(&link)).unwrap();
    o.write(b"new").unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    let mode = std::fs::metadata(&real).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // Only the two names remain: no temporary file.
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn output_never_replaces_a_neighbour() {
    // The old scheme wrote FILE.tmp, which destroyed a user's file of that name.
    let d = dir("outnb");
    let target = d.join("r.json");
    let neighbour = d.join("r.json.tmp");
    std::fs::write(&neighbour, "keep me").unwrap();
    let o = OutFile::check("-json", &s(&target)).unwrap();
    o.write(b"{}").unwrap();
    o.write(b"{}\n").unwrap();
    assert_eq!(std::fs::read_to_string(&neighbour).unwrap(), "keep me");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "{}\n");
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_failed_write_leaves_no_temporary_file() {
    // A target swapped for a directory after the check: the write fails, nothing is left.
    let d = dir("outfail");
    let target = d.join("r.json");
    let o = OutFile::check("-json", &s(&target)).unwrap();
    std::fs::create_dir(&target).unwrap();
    assert!(o.write(b"{}").is_err());
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn non_utf8_paths_are_shown_escaped() {
    use std::os::unix::ffi::OsStrExt;
    let p = OsStr::from_bytes(b"a\xffb");
    assert_eq!(shown(p), "a\\xffb");
}

#[test]
fn output_refuses_a_directory_that_takes_no_file() {
    // Root may write anywhere by permission; procfs still refuses new files.
    let e = OutFile::check("-json", "/proc/x.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("-json /proc/x.json: cannot create files in /proc: "),
        "{e}"
    );
}

#[test]
fn the_check_leaves_nothing_and_removes_dead_processes_temporaries() {
    let d = dir("outprobe");
    let target = d.join("r.json");
    // Left by a process that no longer exists (no pid reaches i32::MAX on Linux).
    let host = nix::sys::utsname::uname().unwrap();
    let host: String = host
        .nodename()
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stale = d.join(format!(".r.json.imb-rs-{host}-{}-0.tmp", i32::MAX));
    std::fs::write(&stale, "partial").unwrap();
    OutFile::check("-json", &s(&target)).unwrap();
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "the check left a file, or kept the stale one"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// The environment variable that makes one of the ignored tests below a helper process.
const CHILD: &str = "IMB_SAFEFILE_TEST_CHILD";

/// This test binary running the ignored test `name` with `CHILD=arg`, stdout to `stdout`.
fn child(name: &str, arg: &Path, stdout: std::process::Stdio) -> Helper {
    Helper(
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                name,
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, arg)
            .stdin(std::process::Stdio::null())
            .stdout(stdout)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    )
}

/// A helper process, killed if a failed assertion leaves it running.
struct Helper(std::process::Child);

impl Drop for Helper {
    fn drop(&mut self) {
        if self.0.try_wait().is_ok_and(|s| s.is_none()) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// Helper process: check `-json` against this process's stdout and stderr, by their names
/// and by the file's own name, and print what each check said on stderr.
#[test]
#[ignore = "a helper process of output_refuses_the_standard_output"]
fn child_checks_its_stdout() {
    let Some(file) = std::env::var_os(CHILD) else {
        return;
    };
    for p in [
        "/dev/stdout",
        "/proc/self/fd/1",
        "/dev/stderr",
        file.to_str().unwrap(),
    ] {
        match OutFile::check("-json", p) {
            Ok(_) => eprintln!("accepted {p}"),
            Err(e) => eprintln!("{e}"),
        }
    }
}

#[test]
fn output_refuses_the_standard_output() {
    let d = dir("outstdout");
    let out = d.join("out.txt");
    let f = std::fs::File::create(&out).unwrap();
    let mut c = child("safefile::tests::child_checks_its_stdout", &out, f.into());
    let mut err = String::new();
    c.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(c.0.wait().unwrap().success(), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("-json ")).collect();
    let stdout = "this is where the standard output of this program goes; writing it would \
                  replace that output (give -json a file of its own)";
    assert_eq!(
        lines,
        [
            format!("-json /dev/stdout: {stdout}"),
            format!("-json /proc/self/fd/1: {stdout}"),
            // stderr is a pipe here, refused as any FIFO.
            "-json /dev/stderr: a FIFO: only a regular file is written".to_string(),
            format!("-json {}: {stdout}", out.display()),
        ],
        "{err}"
    );
    // The test harness's own lines went to stdout, untouched.
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("child_checks_its_stdout"), "{text}");
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
    std::fs::remove_dir_all(&d).unwrap();
}

/// The bytes each write of the helper below puts in the file: large, so a write lasts long
/// enough to be caught by a signal.
const BIG: usize = 16 << 20;

/// Helper process: rewrite `CHILD/r.json` for ever, alternating two contents of BIG bytes.
/// With `CHILD/ignore-int` present, SIGINT is ignored first (as `nohup` or a background job
/// of a script leave it). Its signal dispositions are set here, whatever it inherited: a
/// `scripts/test` started as a background job of a script inherits an ignored SIGINT, and the
/// helper then never ended on the test's SIGINT (the test hung until something else sent
/// SIGTERM: "ended by SIGTERM" where SIGINT was sent).
#[test]
#[ignore = "a helper process of a_signal_during_a_write_leaves_no_temporary_file"]
fn child_rewrites_for_ever() {
    let Some(d) = std::env::var_os(CHILD) else {
        return;
    };
    let d = PathBuf::from(d);
    let int = if d.join("ignore-int").exists() {
        libc::SIG_IGN
    } else {
        libc::SIG_DFL
    };
    // SAFETY: setting a signal to its default action or to ignored installs no handler code;
    // no write (which installs safefile's handler over a default action) has started yet.
    unsafe {
        libc::signal(libc::SIGINT, int);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
        libc::signal(libc::SIGHUP, libc::SIG_DFL);
    }
    let o = OutFile::check("-json", &s(&d.join("r.json"))).unwrap();
    let (a, b) = (vec![b'a'; BIG], vec![b'b'; BIG]);
    for i in 0.. {
        o.write(if i % 2 == 0 { &a } else { &b }).unwrap();
    }
}

/// Our temporary files in `d`.
fn temporaries(d: &Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains(".imb-rs-"))
        .collect()
}

/// Start the helper in `d`, send `sig` as soon as a temporary file exists, and return how the
/// helper ended.
fn signal_during_a_write(d: &Path, sig: libc::c_int) -> std::process::ExitStatus {
    let mut c = child(
        "safefile::tests::child_rewrites_for_ever",
        d,
        std::process::Stdio::null(),
    );
    // A rewrite, not the check's probe: the file exists already. No time limit (a loaded
    // machine may take long to get the helper there); the poll yields so as not to take the
    // helper's CPU.
    while !d.join("r.json").exists() || temporaries(d).is_empty() {
        assert!(c.0.try_wait().unwrap().is_none(), "the helper ended early");
        std::thread::yield_now();
    }
    // SAFETY: kill(2) of our own child, which we have not waited for yet.
    unsafe { libc::kill(c.0.id() as i32, sig) };
    c.0.wait().unwrap()
}

#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let d = dir("outsignal");
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        for _ in 0..3 {
            let st = signal_during_a_write(&d, sig);
            assert_eq!(st.signal(), Some(sig), "the signal's own end: {st:?}");
            assert_eq!(temporaries(&d), Vec::<std::ffi::OsString>::new());
            // The file is one whole content, old or new.
            let r = std::fs::read(d.join("r.json")).unwrap();
            assert_eq!(r.len(), BIG);
            assert!(r.iter().all(|&x| x == r[0]));
        }
    }
    // An ignored SIGINT stays ignored: the helper writes on until SIGTERM.
    std::fs::write(d.join("ignore-int"), "").unwrap();
    let mut c = child(
        "safefile::tests::child_rewrites_for_ever",
        &d,
        std::process::Stdio::null(),
    );
    while !d.join("r.json").exists() || temporaries(&d).is_empty() {
        assert!(c.0.try_wait().unwrap().is_none(), "the helper ended early");
        std::thread::yield_now();
    }
    // SAFETY: kill(2) of our own child, which we have not waited for yet.
    unsafe { libc::kill(c.0.id() as i32, libc::SIGINT) };
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(c.0.try_wait().unwrap().is_none(), "SIGINT ended the helper");
    // SAFETY: as above; the helper still runs.
    unsafe { libc::kill(c.0.id() as i32, libc::SIGTERM) };
    assert_eq!(c.0.wait().unwrap().signal(), Some(libc::SIGTERM));
    assert_eq!(temporaries(&d), Vec::<std::ffi::OsString>::new());
    std::fs::remove_dir_all(&d).unwrap();
}
