//! Hostile input and failing outputs (doc/ReadMe_IMB.md, "Robustness"): device nodes, FIFOs,
//! symlinks, a full disk, a full or closed stdout, non-UTF-8 arguments, absurd counts. Each
//! expects one clear error line, the documented exit status, no hang, and nothing destroyed
//! or left behind. Runs without `mpirun` use MPI's singleton start, which is what a user gets
//! from `imb-mpi1 > file`.

mod common;
use common::*;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::Stdio;

const BIN: &str = env!("CARGO_BIN_EXE_imb-mpi1");

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// The lines of `stderr` that are ours.
fn ours(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("imb-mpi1: error: "))
        .collect()
}

/// One run that must fail with exactly one error line containing `needle`, before any table:
/// as one process (rank 0 finds every input error; errors.rs proves under mpirun that all
/// ranks leave together).
fn refused(dir: &std::path::Path, args: &[&str], needle: &str) -> Out {
    let o = direct_in(dir, args, 60);
    let lines = ours(&o.stderr);
    assert_eq!(
        lines.len(),
        1,
        "{args:?}: expected one error line, stderr:\n{}",
        o.stderr
    );
    assert!(
        lines[0].contains(needle),
        "{args:?}: {:?} lacks {needle:?}",
        lines[0]
    );
    assert_ne!(o.code, Some(0), "{args:?} exited 0");
    assert!(
        !o.stdout.contains("# Benchmarking"),
        "{args:?}: a benchmark ran before the error"
    );
    assert!(!o.stderr.contains("panicked"), "{args:?}: {}", o.stderr);
    o
}

#[test]
fn json_never_writes_to_what_is_not_a_regular_file() {
    let d = scratch("json-kinds");
    let fifo = d.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for (target, kind) in [
        ("/dev/null", "a character device"),
        (fifo.to_str().unwrap(), "a FIFO"),
        (d.to_str().unwrap(), "a directory"),
    ] {
        let o = refused(
            &d,
            &["PingPong", "-msglog", "1", "-json", target],
            &format!("-json {target}: {kind}"),
        );
        assert_eq!(o.code, Some(2), "exit status for -json {target}");
    }
    // The FIFO is still a FIFO, and nothing else appeared.
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "files left in {d:?}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn json_follows_a_symlink_and_spares_its_neighbours() {
    let d = scratch("json-link");
    let real = d.join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = d.join("link.json");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&real, &link).unwrap();
    // The old temporary name (FILE.tmp) destroyed a file of that name.
    let neighbour = d.join("link.json.tmp");
    std::fs::write(&neighbour, "keep").unwrap();
    let o = mpirun_in(
        &d,
        2,
        &["PingPong", "-msglog", "1", "-json", "link.json"],
        60,
    );
    ok(&o);
    assert!(
        link.symlink_metadata().unwrap().file_type().is_symlink(),
        "the symlink was replaced"
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert_eq!(doc["complete"], true, "the link's target holds the results");
    assert_eq!(std::fs::read_to_string(&neighbour).unwrap(), "keep");
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        3,
        "a temporary file was left in {d:?}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn json_on_a_full_disk_is_an_error_and_leaves_nothing() {
    let Some(disk) = SmallDisk::new("json-full", "64k") else {
        eprintln!("skipped: cannot mount a tmpfs here (not root?)");
        return;
    };
    // Fill the disk: the check before the run cannot write its probe, so nothing is measured
    // (json_files.rs has the disk that fills during the run, exit status 3).
    let filler = disk.0.join("filler");
    let _ = std::fs::write(&filler, vec![b'x'; 1 << 20]);
    let before = std::fs::read(&filler).unwrap();
    let out = d_out(&disk.0);
    let o = mpirun_in(&disk.0, 2, &["PingPong", "-msglog", "1", "-json", &out], 60);
    let lines = ours(&o.stderr);
    assert_eq!(
        o.code,
        Some(2),
        "a -json file that cannot be written is bad input:\n{}",
        o.stderr
    );
    assert_eq!(lines.len(), 1, "one error line:\n{}", o.stderr);
    assert!(
        lines[0].contains(&format!(
            "-json {out}: cannot create files in {}: No space left on device",
            disk.0.display()
        )),
        "{}",
        lines[0]
    );
    assert!(!o.stdout.contains("# Benchmarking"));
    let names: Vec<_> = std::fs::read_dir(&disk.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["filler"], "left on the full disk: {names:?}");
    assert_eq!(
        std::fs::read(&filler).unwrap(),
        before,
        "the filler changed"
    );
}

fn d_out(dir: &std::path::Path) -> String {
    dir.join("r.json").to_string_lossy().into_owned()
}

#[test]
fn input_files_must_be_small_regular_files() {
    let d = scratch("inputs");
    let fifo = d.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let fifo = fifo.to_str().unwrap();
    for (opt, file, why) in [
        ("-msglen", "/dev/zero", "a character device"),
        ("-msglen", fifo, "a FIFO"),
        ("-input", "/dev/urandom", "a character device"),
        ("-settings", fifo, "a FIFO"),
        ("-settings", "/proc", "a directory"),
    ] {
        let o = refused(&d, &[opt, file], &format!("{opt} {file}: {why}"));
        assert_eq!(o.code, Some(2));
    }
    let big = write(&d, "big", &"1\n".repeat(3 << 20));
    refused(&d, &["-msglen", &big], "larger than the 4194304 bytes");
    // A byte-order mark is skipped; invalid UTF-8 names its line.
    let bom = write(&d, "bom", "\u{feff}4\n8\n");
    ok(&mpirun_in(
        &d,
        2,
        &["PingPong", "-msglen", &bom, "-iter", "5"],
        60,
    ));
    let bad = d.join("bad");
    std::fs::write(&bad, b"4\n\xff\n").unwrap();
    let bad = bad.to_str().unwrap();
    refused(
        &d,
        &["-msglen", bad],
        &format!("-msglen {bad}, line 2: not UTF-8"),
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn counts_beyond_their_limits_are_refused_before_running() {
    let d = scratch("counts");
    refused(&d, &["-iter", "4294967296"], "is above 2147483647");
    refused(
        &d,
        &["-iter", "10,2000000"],
        "above OVERALL_VOL's 1 TiB limit",
    );
    // Legal, but at least hours of repetitions: refused with an estimate unless -force. Under
    // mpirun at np 2: on one process a call waits for nobody, and the least time of the same
    // counts (2 ns a call, plan::least) stays below the hour.
    let o = mpirun_in(&d, 2, &["-iter", "2000000000,1000000"], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    let lines = ours(&o.stderr);
    assert_eq!(lines.len(), 1, "{}", o.stderr);
    assert!(
        lines[0].contains("this run needs at least ") && lines[0].contains("-force"),
        "{}",
        lines[0]
    );
    assert!(!o.stdout.contains("# Benchmarking"), "{}", o.stdout);
    // The largest window Uniband accepts, with the standard counts: hours of messages, refused
    // on every rank before any table, with -window_size named first among the remedies.
    let o = mpirun_in(&d, 2, &["Uniband", "-window_size", "1048576"], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    let lines = ours(&o.stderr);
    assert_eq!(lines.len(), 1, "{}", o.stderr);
    assert!(
        lines[0].starts_with("imb-mpi1: error: this run needs at least ")
            && lines[0].contains("; lower -window_size, "),
        "{}",
        lines[0]
    );
    assert!(!o.stdout.contains("# Benchmarking"), "{}", o.stdout);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn imb_2021_options_are_named() {
    let d = scratch("imb2021");
    refused(
        &d,
        &["-off_cache", "-1,64"],
        "-off_cache: invalid value \"-1,64\": -1: a negative cache size takes no line size",
    );
    refused(
        &d,
        &["-iter_policy", "sometimes"],
        "-iter_policy: invalid value \"sometimes\": expected dynamic, multiple_np, auto or off",
    );
    refused(
        &d,
        &["-aggregate_mode", "both"],
        "-aggregate_mode: imb-mpi1 has no AGGREGATE",
    );
    let o = mpirun_in(
        &d,
        2,
        &[
            "-include",
            "Barrier",
            "-exclude",
            "PingPing,Sendrecv,Exchange,Allreduce,Reduce,Reduce_scatter,Allgather,Allgatherv,\
             Alltoall,Alltoallv,Bcast",
            "-iter_policy",
            "off",
            "-msglog",
            "1",
            "-iter",
            "5",
        ],
        60,
    );
    ok(&o);
    let names: Vec<String> = tables(&o.stdout).into_iter().map(|t| t.title).collect();
    assert_eq!(names, ["PingPong", "Barrier"]);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn non_utf8_arguments_are_an_error() {
    let d = scratch("utf8");
    let args = vec![
        OsString::from("PingPong"),
        OsString::from_vec(b"-json=r\xff.json".to_vec()),
    ];
    let (code, err) = run_with_stdout(BIN, &d, &args, Stdio::null(), 60);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        ours(&err),
        ["imb-mpi1: error: -json=r\\xff.json: argument 2 is not valid UTF-8 text"]
    );
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_full_stdout_is_an_error() {
    let d = scratch("devfull");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let (code, err) = run_with_stdout(
        BIN,
        &d,
        &os(&["PingPong", "PingPing", "-iter", "5"]),
        Stdio::from(full),
        60,
    );
    assert_eq!(code, 3, "{err}");
    assert_eq!(
        ours(&err),
        ["imb-mpi1: error: cannot write to standard output: No space left on device (os error 28)"]
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let d = scratch("epipe");
    // The whole default ladder of three benchmarks: the run must end long before it finishes.
    let (first, code, err) = run_reader_leaves(
        BIN,
        &d,
        &["PingPong", "PingPing", "Sendrecv", "-iter", "5"],
        60,
    );
    assert!(first.starts_with("#---"), "{first:?}");
    assert_eq!(code, 141, "{err}");
    assert!(ours(&err).is_empty() && !err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn oversubscription_is_in_the_header() {
    let cpus = nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0))
        .map(|s| {
            (0..nix::sched::CpuSet::count())
                .filter(|&c| s.is_set(c).unwrap_or(false))
                .count()
        })
        .unwrap();
    let np = cpus + 1;
    if np > 8 {
        eprintln!("skipped: {cpus} CPUs, too many ranks to oversubscribe in a test");
        return;
    }
    let d = scratch("oversub");
    let o = mpirun_in(&d, np, &["Barrier", "-iter", "5", "-json", "r.json"], 120);
    ok(&o);
    let line = format!("# !! {np} processes share {cpus} CPU");
    let at = o
        .stdout
        .find(&line)
        .unwrap_or_else(|| panic!("no {line:?} in the header:\n{}", o.stdout));
    assert!(
        at < o.stdout.find("# List of Benchmarks").unwrap(),
        "the line is not in the header"
    );
    // The tables are unchanged, and the JSON header carries the warning.
    assert_eq!(tables(&o.stdout)[0].title, "Barrier");
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("r.json")).unwrap()).unwrap();
    // After the optional-mode block (-iter), as in the text.
    let notes = doc["header"]["notes"].as_array().unwrap();
    let note = notes.last().unwrap();
    assert_eq!(note["kind"], "oversubscribed");
    assert_eq!(note["count"], np);
    assert!(note["text"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{np} processes share")));
    std::fs::remove_dir_all(&d).unwrap();
}
