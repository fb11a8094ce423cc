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
