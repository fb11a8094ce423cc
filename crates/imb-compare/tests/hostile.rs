//! imb-compare against hostile input: every usage error one line and status 2, empty paths,
//! outputs that cannot be written (a full disk), and input files that are not what they seem
//! (FIFOs, devices, directories, symlink loops, bytes that are not UTF-8, files over the cap).
//! Nothing here judges a timing; a reader that would hang is stopped by a watchdog.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("imb-compare-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// imb-compare with `args` in `cwd`, stopped after a minute: a hang fails the test instead
/// of the suite (the limit is a watchdog, not a judged time).
fn run_in(cwd: &Path, args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("imb-compare {args:?} did not end within a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    run_in(&std::env::temp_dir(), &args)
}

/// A usage error or bad input: status 2, nothing on stdout, one line `imb-compare: …`.
fn assert_one_line_2(args: &[&str], (code, out, err): (Option<i32>, String, String)) {
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("imb-compare: "), "{args:?}: {err}");
}

#[test]
fn an_empty_path_is_a_usage_error_and_nothing_is_written() {
    let d = scratch("empty");
    std::fs::write(d.join("index.html"), "mine\n").unwrap();
    let (a, b) = (fixture("imb-3.0.txt"), fixture("imb-2021.txt"));
    let toml = d.join("ok.toml");
    std::fs::write(
        &toml,
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\nupper = 0.5\n",
    )
    .unwrap();
    let t = s(&toml);
    let cases: [(&[&str], &str); 8] = [
        (&["--plot", "", &a, &b], "--plot"),
        (&["--plot=", &a, &b], "--plot"),
        (&["--json", "", &a, &b], "--json"),
        (&["--junit", "", "--references", t, &a, &b], "--junit"),
        (&["--references", "", &a, &b], "--references"),
        (&["", &b], "RUN"),
        (&[&a, ""], "RUN"),
        (&["agreement", &a, ""], "SIDE"),
    ];
    for (args, names) in cases {
        let args_os: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        let r = run_in(&d, &args_os);
        let err = r.2.clone();
        assert_one_line_2(args, r);
        assert!(err.contains(names), "{args:?}: {err}");
        assert!(err.contains("empty"), "{args:?}: {err}");
    }
    // The current directory is untouched: no plot, no index.html replaced.
    let mut left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["index.html", "ok.toml"]);
    assert_eq!(
        std::fs::read_to_string(d.join("index.html")).unwrap(),
        "mine\n"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn every_usage_error_is_one_line() {
    let f = fixture("imb-rs-mpi1.txt");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--confidence", "-1", &f, &f], "--confidence"),
        (
            vec!["--confidence", "1.5", &f, &f],
            "a fraction from 0.5 to 0.999",
        ),
        (vec!["--bogus", &f, &f], "--bogus"),
        (vec!["agreement", "--bogus", &f, &f], "--bogus"),
        (vec!["--metric", "speed", &f, &f], "use t, t_avg"),
        (vec!["--junit", "j.xml", &f, &f], "--references"),
        (vec!["--csv", "--markdown", &f, &f], "--markdown"),
        (vec!["--accept-difference", "colour", &f, &f], "colour"),
        (vec!["agreement", &f], "SIDE"),
        (vec![], "RUN"),
        (vec!["--plot"], "--plot"),
    ];
    for (args, names) in cases {
        let r = run(&args);
        let err = r.2.clone();
        assert_one_line_2(&args, r);
        assert!(err.contains(names), "{args:?}: {err}");
    }
    // An argument that is not UTF-8 is named, escaped.
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"\xffrun");
    let (code, out, err) = run_in(&std::env::temp_dir(), &[bad, std::ffi::OsStr::new("x")]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("imb-compare: "), "{err}");
    assert!(err.contains("\\xffrun") && err.contains("UTF-8"), "{err}");
    // Help and version are unchanged: stdout, status 0, several lines.
    for args in [&["--help"][..], &["-h"], &["agreement", "--help"]] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.contains("Usage: imb-compare"), "{args:?}: {out}");
        assert!(out.lines().count() > 5 && err.is_empty(), "{args:?}: {out}");
    }
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, format!("imb-compare {}\n", env!("CARGO_PKG_VERSION")));
}

/// Fill the file system of `dir` so that `room` bytes stay free: the plots of the fixtures
/// (Allreduce's SVG about 6 KiB, PingPong's about 16 KiB) then fit only in part.
fn fill(dir: &Path, name: &str, room: u64) -> PathBuf {
    let v = nix::sys::statvfs::statvfs(dir).unwrap();
    let free = v.blocks_available() as u64 * v.fragment_size() as u64;
    let filler = dir.join(name);
    std::fs::write(&filler, vec![b'x'; free.saturating_sub(room) as usize]).unwrap();
    filler
}

/// Every entry under `dir`, as paths relative to it, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            if p.is_dir() && !p.is_symlink() {
                todo.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_full_disk_leaves_no_plot_directory_behind() {
    let Some(disk) = imb_testkit::SmallDisk::new("imb-compare-full", "64k") else {
        println!("skipped: cannot mount a small tmpfs here (not root?)");
        return;
    };
    let root = disk.0.clone();
    let (a, b) = (fixture("imb-rs-mpi1.json"), fixture("imb-rs-mpi1.txt"));
    // Ours from an earlier run, written while there was room.
    let old = root.join("old");
    let (code, _, err) = run(&["--plot", s(&old), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    let old_index = std::fs::read_to_string(old.join("index.html")).unwrap();
    let empty = root.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let filler = fill(&root, "filler", 12 << 10);
    let before = tree(&root);
    let new = root.join("a/b/plots");
    for dir in [&new, &empty, &old] {
        let (code, out, err) = run(&["--plot", s(dir), &a, &b]);
        assert_eq!((code, out.as_str()), (Some(3), ""), "{dir:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{dir:?}: {err}");
        assert!(err.starts_with("imb-compare: "), "{dir:?}: {err}");
        // Nothing this run made is left: not a plot, not a temporary file, not the directory
        // (nor its parents) it created; an earlier run's index.html stays.
        assert_eq!(tree(&root), before, "{dir:?}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(old.join("index.html")).unwrap(),
        old_index
    );
    // An output that fails after the plot directory was made (the disk now full) takes it
    // away too.
    let full = fill(&root, "full", 0);
    let before = tree(&root);
    let elsewhere = scratch("full-json");
    let plots = elsewhere.join("plots");
    let json = root.join("out.json");
    let (code, _, err) = run(&["--json", s(&json), "--plot", s(&plots), &a, &b]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.starts_with(&format!("imb-compare: --json {}", s(&json))),
        "{err}"
    );
    assert!(!plots.exists(), "{err}");
    assert_eq!(tree(&root), before);
    std::fs::remove_file(&full).unwrap();
    // With room again, each directory takes the plots: none is refused as someone else's.
    std::fs::remove_file(&filler).unwrap();
    // (Two sets of plots fit on the disk: each new one is removed after its check.)
    for dir in [&new, &empty, &old] {
        let (code, _, err) = run(&["--plot", s(dir), &a, &b]);
        assert_eq!(code, Some(0), "{dir:?}: {err}");
        assert!(dir.join("PingPong-np2.svg").exists(), "{dir:?}");
        if dir != &old {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&elsewhere);
}
