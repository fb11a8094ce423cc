//! imb-compare against hostile input: every usage error one line and status 2, empty paths,
//! outputs that cannot be written (a full disk), and input files that are not what they seem
//! (FIFOs, devices, directories, symlink loops, bytes that are not UTF-8, files over the cap).
//! Nothing here judges a timing; a reader that would hang is stopped by a watchdog.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::fixture;

/// A scratch directory, removed however the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("imb-compare-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// imb-compare with `args` in `cwd`, killed after a minute of the machine's time
/// (imb_testkit::watchdog): a hang fails the test instead of the suite.
fn run_in(cwd: &Path, args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    run_within(cwd, args, 60)
}

/// [`run_in`] with a watchdog of `limit` seconds of the machine's time.
fn run_within(cwd: &Path, args: &[&std::ffi::OsStr], limit: u64) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_imb-compare"));
    cmd.args(args).current_dir(cwd).stdin(Stdio::null());
    let o = imb_testkit::output_within(cmd, limit, &format!("imb-compare {args:?}"));
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
    let mut left: Vec<String> = std::fs::read_dir(&*d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["index.html", "ok.toml"]);
    assert_eq!(
        std::fs::read_to_string(d.join("index.html")).unwrap(),
        "mine\n"
    );
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
}

/// Input files that are not what they seem, as a references file, as a run and as a side of
/// `agreement`: each a one-line error naming the file, status 2, never a hang.
#[test]
fn hostile_input_files_are_one_line_errors() {
    let d = scratch("inputs");
    let f = fixture("imb-rs-mpi1.txt");
    let fifo = d.join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let dir = d.join("dir");
    std::fs::create_dir(&dir).unwrap();
    let looped = d.join("loop");
    std::os::unix::fs::symlink("loop", &looped).unwrap();
    let bytes = d.join("bytes");
    std::fs::write(&bytes, b"# Benchmarking PingPong \n\xff\xfe\n").unwrap();
    let cap = imb_core::safefile::INPUT_CAP as usize;
    let line = d.join("line");
    let mut long = b"# ".to_vec();
    long.resize(10 << 20, b'x');
    long.push(b'\n');
    std::fs::write(&line, &long).unwrap();
    let over = d.join("over");
    std::fs::write(&over, vec![b'#'; cap + 1]).unwrap();
    let cases: [(&Path, &str); 8] = [
        (&fifo, "a FIFO"),
        (Path::new("/dev/zero"), "a character device"),
        (&dir, ""),
        (&looped, "symbolic links"),
        (&bytes, "line 2: not UTF-8"),
        (&line, "larger than"),
        (&over, "larger than"),
        (Path::new("/nonexistent/run"), "No such file"),
    ];
    for (p, want) in cases {
        let p = s(p);
        for args in [
            vec!["--references", p, &f, &f],
            vec![p, &f],
            vec![&f, p],
            vec!["agreement", &f, p],
        ] {
            let r = run(&args);
            let err = r.2.clone();
            assert_one_line_2(&args, r);
            assert!(err.contains(p), "{args:?}: {err}");
            assert!(err.contains(want), "{args:?}: {err}");
        }
    }
}

/// In a run's directory only regular files are launches: a FIFO, a symlink loop and a
/// subdirectory beside them are passed over, never opened.
#[test]
fn a_run_directory_passes_over_what_is_not_a_file() {
    let d = scratch("rundir");
    let run_dir = d.join("run");
    std::fs::create_dir(&run_dir).unwrap();
    std::fs::copy(fixture("imb-rs-mpi1.txt"), run_dir.join("1.txt")).unwrap();
    nix::unistd::mkfifo(&run_dir.join("2.txt"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::os::unix::fs::symlink("3.txt", run_dir.join("3.txt")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", run_dir.join("4.txt")).unwrap();
    std::fs::create_dir(run_dir.join("5.txt")).unwrap();
    let (code, out, err) = run(&[s(&run_dir), s(&run_dir)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("# base run: 1 launch(es)"), "{out}");
}

/// A run at the input cap made of tens of thousands of small tables is compared with another,
/// every table of it. (Each table's placement was looked up by a scan of the launch,
/// quadratic in the tables: minutes for such a file. The test asserts only the result.)
#[test]
fn a_run_of_many_tables_at_the_input_cap() {
    let d = scratch("tables");
    let table = |p: usize| {
        format!("# Benchmarking Barrier\n# #processes = {p}\n#repetitions t[usec]\n1 0.27\n")
    };
    let mut text = String::new();
    let mut p = 2;
    while text.len() + table(p).len() <= imb_core::safefile::INPUT_CAP as usize {
        text.push_str(&table(p));
        p += 1;
    }
    let runs: Vec<String> = (0..2)
        .map(|k| {
            let f = d.join(format!("{k}.txt"));
            std::fs::write(&f, &text).unwrap();
            s(&f).to_string()
        })
        .collect();
    let args: Vec<&str> = runs.iter().map(String::as_str).collect();
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(&format!(
            "# Barrier, {} processes: 1.txt (beyond noise",
            p - 1
        )),
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
}

/// Output targets: a directory is refused (status 3); an existing symlink is followed and its
/// target replaced, the link kept, as every output file of imb-rs (doc/ACCEPTANCE.md, section
/// 4); a dangling one is refused. A plot directory is ours only through a regular index.html
/// (a FIFO or /dev/zero there is never read), and a symlink planted in it is never followed.
#[test]
fn output_targets_that_are_not_files() {
    let d = scratch("outputs");
    let (a, b) = (fixture("imb-3.0.txt"), fixture("imb-2021.txt"));
    let dir = d.join("dir");
    std::fs::create_dir(&dir).unwrap();
    let toml = d.join("r.toml");
    std::fs::write(
        &toml,
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\nupper = 0.5\n",
    )
    .unwrap();
    for opt in ["--json", "--junit"] {
        let (code, out, err) = run(&[opt, s(&dir), "--references", s(&toml), &a, &b]);
        assert_eq!((code, out.as_str()), (Some(3), ""), "{opt}: {err}");
        let want = format!("{opt} {}: a directory: only a regular file", s(&dir));
        assert!(err.contains(&want), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Through a symlink: the target is replaced, the link stays.
    let target = d.join("target.json");
    std::fs::write(&target, "old").unwrap();
    let link = d.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (code, _, err) = run(&["--json", s(&link), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("\"schema\": \"imb-compare\""));
    let dangling = d.join("dangling.json");
    std::os::unix::fs::symlink(d.join("nowhere/x.json"), &dangling).unwrap();
    let (code, _, err) = run(&["--json", s(&dangling), &a, &b]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("a symlink whose target cannot be used"),
        "{err}"
    );
    // An index.html that is a FIFO or /dev/zero: not ours, and not read.
    for (name, make) in [
        (
            "fifo",
            &(|p: &Path| nix::unistd::mkfifo(p, nix::sys::stat::Mode::S_IRWXU).unwrap())
                as &dyn Fn(&Path),
        ),
        ("zero", &|p: &Path| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap()
        }),
    ] {
        let plots = d.join(name);
        std::fs::create_dir(&plots).unwrap();
        make(&plots.join("index.html"));
        let (code, out, err) = run(&["--plot", s(&plots), &a, &b]);
        assert_eq!((code, out.as_str()), (Some(3), ""), "{name}: {err}");
        assert!(
            err.contains("files not written by imb-compare --plot"),
            "{err}"
        );
    }
    // Ours however long our index.html grew (one entry a table: a run of thousands of
    // tables writes more than an input file may hold); only its head carries the marker.
    let big = d.join("big");
    let (code, _, err) = run(&["--plot", s(&big), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    let mut index = std::fs::read_to_string(big.join("index.html")).unwrap();
    let entry = "<p class=\"summary\">a table</p>\n";
    index.push_str(&entry.repeat(imb_core::safefile::INPUT_CAP as usize / entry.len() + 1));
    std::fs::write(big.join("index.html"), index).unwrap();
    let (code, _, err) = run(&["--plot", s(&big), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    // A symlink planted among our plots is refused, its target untouched.
    let plots = d.join("plots");
    let (code, _, err) = run(&["--plot", s(&plots), &a, &b]);
    assert_eq!(code, Some(0), "{err}");
    let victim = d.join("victim");
    std::fs::write(&victim, "theirs").unwrap();
    std::fs::remove_file(plots.join("PingPong-np2.svg")).unwrap();
    std::os::unix::fs::symlink(&victim, plots.join("PingPong-np2.svg")).unwrap();
    let (code, _, err) = run(&["--plot", s(&plots), &a, &b]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("PingPong-np2.svg: a symlink"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "theirs");
}

/// Texts at the input cap that are one table of rows: each size once, every row the same size,
/// and rows each with a flag note: two launches a side, each read and compared whole. (The
/// check for a size twice in a table compared every row with every row before it: 100,000
/// rows took 10 s, and each of these files half a minute to a minute. The watchdog is not a
/// judged time: the comparison takes 2 to 8 s on a 2-core machine at load 11.)
#[test]
fn a_table_of_rows_at_the_input_cap() {
    let d = scratch("rows");
    let cap = imb_core::safefile::INPUT_CAP as usize;
    let head =
        "# Benchmarking PingPong\n# #processes = 2\n#bytes #repetitions t[usec] Mbytes/sec\n";
    let fill = |row: &dyn Fn(usize) -> String, notes: &dyn Fn(usize) -> String| {
        let (mut text, mut after) = (head.to_string(), String::new());
        let mut k = 0;
        while text.len() + after.len() + row(k).len() + notes(k).len() < cap {
            text.push_str(&row(k));
            after.push_str(&notes(k));
            k += 1;
        }
        text + &after
    };
    // Each launch's figures its own, so no two files are one launch.
    let runs = |t: u32| {
        let distinct = fill(&|k| format!("{k} 1 {t} 1\n"), &|_| String::new());
        let same = fill(&|k| format!("8 1 {}{t} 1\n", k % 7 + 1), &|_| String::new());
        let flagged = fill(&|k| format!("{k} 1 {t} 1\n"), &|k| {
            format!("# {k} bytes: UNRELIABLE: rank 1: corrected latency not above 0\n")
        });
        [("distinct", distinct), ("same", same), ("flagged", flagged)]
    };
    let launches: Vec<_> = (1..=4).map(runs).collect();
    for (k, name) in ["distinct", "same", "flagged"].into_iter().enumerate() {
        let mut sides = Vec::new();
        for (side, pair) in [("base", [0, 1]), ("new", [2, 3])] {
            let dir = d.join(format!("{name}-{side}"));
            std::fs::create_dir(&dir).unwrap();
            for (n, l) in pair.into_iter().enumerate() {
                let text = &launches[l][k].1;
                assert!(text.len() <= cap && text.len() > cap - 200, "{name}");
                std::fs::write(dir.join(format!("{}.txt", n + 1)), text).unwrap();
            }
            sides.push(dir);
        }
        let args = [s(&sides[0]), s(&sides[1])].map(std::ffi::OsStr::new);
        let (code, out, err) = run_within(&d, &args, 90);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(out.contains("# PingPong, 2 processes"), "{name}: {err}");
    }
}

/// SIGINT, SIGTERM or SIGKILL at moments spread over a comparison that writes `--json` and
/// `--junit` over older files: each file is whole afterwards, the old one or the new one, and
/// no temporary file of ours outlives the next run in that directory (SIGINT and SIGTERM wait
/// for a write in progress and leave none; a SIGKILL's is removed by the next write there,
/// doc/OUTPUT.md, "Temporary files"). Nothing here judges a time: the moments only spread the
/// signals over reading, comparing and writing.
#[test]
fn a_signal_at_any_moment_leaves_whole_outputs() {
    use nix::sys::signal::{kill, Signal};
    let d = scratch("signals");
    // Inputs that take a moment to compare: two runs of many sizes.
    let head =
        "# Benchmarking PingPong\n# #processes = 2\n#bytes #repetitions t[usec] Mbytes/sec\n";
    let mut files = Vec::new();
    for (side, t) in [("base", "0.5"), ("new", "0.6")] {
        let rows: String = (0..60_000).map(|k| format!("{k} 1 {t} 1\n")).collect();
        let f = d.join(format!("{side}.txt"));
        std::fs::write(&f, format!("{head}{rows}")).unwrap();
        files.push(s(&f).to_string());
    }
    let refs = d.join("refs.toml");
    std::fs::write(&refs, "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\nupper = 1.0\n").unwrap();
    let (json, junit) = (d.join("out.json"), d.join("out.xml"));
    let args = [
        "--json",
        s(&json),
        "--junit",
        s(&junit),
        "--references",
        s(&refs),
        &files[0],
        &files[1],
    ];
    let whole = |what: &str| {
        let j = std::fs::read_to_string(&json).unwrap();
        assert!(
            j == "old" || serde_json::from_str::<serde_json::Value>(&j).is_ok(),
            "{what}: out.json half-written ({} bytes)",
            j.len()
        );
        let x = std::fs::read_to_string(&junit).unwrap();
        assert!(
            x == "old" || x.trim_end().ends_with("</testsuites>"),
            "{what}: out.xml half-written ({} bytes)",
            x.len()
        );
    };
    let ours = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    };
    for (k, sig) in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGKILL]
        .into_iter()
        .cycle()
        .take(18)
        .enumerate()
    {
        std::fs::write(&json, "old").unwrap();
        std::fs::write(&junit, "old").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
            .args(args)
            .current_dir(&*d)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Moments from the start to past the end of a run on an idle machine.
        std::thread::sleep(std::time::Duration::from_millis(40 * k as u64));
        let _ = kill(nix::unistd::Pid::from_raw(child.id() as i32), sig);
        let status = child.wait().unwrap();
        let what = format!("{sig} after {} ms ({status})", 40 * k);
        whole(&what);
        if sig != Signal::SIGKILL {
            assert_eq!(ours(&d), Vec::<String>::new(), "{what}");
        }
    }
    // The next run in that directory leaves no temporary file of a killed one.
    let (code, _, err) = run(&args);
    // PASS, FAIL or INCONCLUSIVE (one launch a side): a verdict, not an error.
    assert!(matches!(code, Some(0 | 1 | 4)), "{code:?} {err}");
    whole("after the last run");
    assert_eq!(ours(&d), Vec::<String>::new());
}
