//! The `-json` file under a real mpirun (doc/OUTPUT.md, "JSON" and "Temporary files";
//! doc/ReadMe_IMB.md, "-json FILE"): signals during its rewrites leave no temporary file and a
//! valid document; a target that is where stdout goes, or a directory that takes no file, is
//! refused before the run; a disk that fills during the run ends it with exit status 3.

mod common;
use common::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_imb-mpi1");

/// Many small tables: a rewrite of the file after each.
const MANY: &[&str] = &[
    "PingPong",
    "PingPing",
    "Sendrecv",
    "Exchange",
    "Allreduce",
    "Reduce",
    "Reduce_scatter",
    "Allgather",
    "Allgatherv",
    "Alltoall",
    "Alltoallv",
    "Bcast",
    "Barrier",
    "-npmin",
    "1",
    "-msglog",
    "0:2",
    "-iter",
    "10",
    "-json",
    "r.json",
];

/// The lines of `stderr` that are ours.
fn ours(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("imb-mpi1: error: "))
        .collect()
}

/// Our temporary files in `d`.
fn temporaries(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".imb-rs-") && n.ends_with(".tmp"))
        .collect()
}

/// A small pseudo-random sequence (no test dependency for it): the moments of the signals.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Watch `d` closely until the `nth` temporary file of ours appears (a rewrite is in
/// progress): true then, false when `limit` passes first.
fn nth_temporary(d: &Path, nth: u64, limit: Duration) -> bool {
    let t0 = Instant::now();
    let (mut seen, mut was) = (0, false);
    while t0.elapsed() < limit {
        let now = std::fs::read_dir(d).is_ok_and(|r| {
            r.flatten()
                .any(|e| e.file_name().to_string_lossy().contains(".imb-rs-"))
        });
        if now && !was {
            seen += 1;
            if seen == nth {
                return true;
            }
        }
        was = now;
        std::thread::yield_now();
    }
    false
}

/// The process id of world rank 0 of a run of BIN (Open MPI and MPICH name the rank in its
/// environment).
fn rank_0() -> Option<i32> {
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: i32 = e.file_name().to_str()?.parse().ok()?;
        let exe = std::fs::read_link(e.path().join("exe")).ok()?;
        if exe != Path::new(BIN) {
            return None;
        }
        let env = std::fs::read(e.path().join("environ")).ok()?;
        env.split(|&b| b == 0)
            .any(|v| v == b"OMPI_COMM_WORLD_RANK=0" || v == b"PMI_RANK=0")
            .then_some(pid)
    })
}

#[test]
fn signals_during_json_rewrites_leave_no_temporary_file() {
    let d = scratch("json-signals");
    let seed = std::process::id() as u64;
    let mut rng = Lcg(seed);
    for run in 0..21 {
        let sig = if run % 2 == 0 {
            nix::sys::signal::Signal::SIGTERM
        } else {
            nix::sys::signal::Signal::SIGINT
        };
        for f in std::fs::read_dir(&d).unwrap() {
            std::fs::remove_file(f.unwrap().path()).unwrap();
        }
        let t0 = Instant::now();
        let delay = Duration::from_millis(100 + rng.below(1500));
        let nth = 1 + rng.below(4);
        // Three ways, in turn: to mpirun at a random moment; to mpirun while a rewrite is in
        // progress (mpirun forwards it to the ranks); to rank 0 itself while it rewrites (as
        // a batch system or a user's kill may).
        let at_random = || t0.elapsed() >= delay;
        let during_a_write = || nth_temporary(&d, nth, Duration::from_secs(20));
        let sent = std::cell::Cell::new(false);
        let to_rank_0 = || {
            if sent.get() {
                return false;
            }
            sent.set(true);
            if nth_temporary(&d, nth, Duration::from_secs(20)) {
                if let Some(pid) = rank_0() {
                    let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), sig);
                    return false;
                }
            }
            true
        };
        let when: &dyn Fn() -> bool = match run % 3 {
            0 => &at_random,
            1 => &during_a_write,
            _ => &to_rank_0,
        };
        let o = mpirun_with(
            BIN,
            &d,
            2,
            MANY,
            120,
            Launch {
                signal_when: Some((sig as i32, when)),
                ..Launch::default()
            },
        );
        let what = format!("run {run} (seed {seed}, {sig}): {}", o.stderr);
        assert_eq!(temporaries(&d), Vec::<String>::new(), "{what}");
        assert!(!o.stderr.contains("panicked"), "{what}");
        let f = d.join("r.json");
        if !f.exists() {
            // The signal came before the first write.
            continue;
        }
        // Valid JSON whatever the moment; a killed process cannot record its end, so the
        // status is "running" (doc/OUTPUT.md, "status"), or "complete" when the signal came
        // after the run.
        let doc = imb_testkit::json::read_json(&f);
        let state = doc["provenance"]["status"]["state"].as_str().unwrap_or("");
        match state {
            "running" => assert_eq!(doc["complete"], false, "{what}"),
            "complete" => assert_eq!(doc["complete"], true, "{what}"),
            other => panic!("{what}: status {other:?}"),
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// `-json` naming the file stdout goes to (a singleton start, stdout redirected to a file): one
/// line naming -json, exit status 2, and the file untouched (nothing was measured).
#[test]
fn json_to_the_standard_output_is_refused() {
    let d = scratch("json-stdout");
    let out = d.join("out.txt");
    let out_s = out.to_str().unwrap().to_string();
    for target in ["/dev/stdout", "/proc/self/fd/1", "out.txt", out_s.as_str()] {
        let f = std::fs::File::create(&out).unwrap();
        let args: Vec<std::ffi::OsString> = ["PingPong", "-msglog", "1", "-json", target]
            .iter()
            .map(Into::into)
            .collect();
        let (code, err) = run_with_stdout(BIN, &d, &args, Stdio::from(f), 60);
        assert_eq!(code, 2, "-json {target}: {err}");
        assert_eq!(
            ours(&err),
            [format!(
                "imb-mpi1: error: -json {target}: this is where the standard output of this \
                 program goes; writing it would replace that output (give -json a file of its own)"
            )],
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "", "-json {target}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "-json {target}");
    }
    // Under mpirun the ranks write to mpirun, and mpirun to the file: the same refusal, naming
    // mpirun, and every rank leaves with status 2.
    let f = std::fs::File::create(&out).unwrap();
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    if open_mpi() {
        args.push("--oversubscribe".into());
    }
    for a in ["-np", "2", BIN, "PingPong", "-json", "out.txt"] {
        args.push(a.into());
    }
    let (code, err) = run_with_stdout("mpirun", &d, &args, Stdio::from(f), 60);
    assert_ne!(code, 0, "{err}");
    let lines = ours(&err);
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0]
            .starts_with("imb-mpi1: error: -json out.txt: this is where the standard output of ")
            && lines[0].contains(", which started this program) goes"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        !text.contains("# Benchmarking") && !text.contains('{'),
        "{text}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// One run as a singleton that must be refused before any table with exactly one line
/// containing every one of `needles` and exit status 2.
fn refused_up_front(dir: &Path, args: &[&str], needles: &[&str]) {
    let o = direct_in(dir, args, 60);
    let lines = ours(&o.stderr);
    assert_eq!(lines.len(), 1, "{args:?}: {}", o.stderr);
    for needle in needles {
        assert!(lines[0].contains(needle), "{args:?}: {:?}", lines[0]);
    }
    assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
    assert!(!o.stdout.contains("# Benchmarking"), "{args:?}");
}

#[test]
fn a_directory_that_takes_no_file_is_refused_before_the_run() {
    let d = scratch("json-nodir");
    // procfs refuses new files even to root, whom access(2) lets write anywhere.
    refused_up_front(
        &d,
        &["PingPong", "-json", "/proc/x.json"],
        &["-json /proc/x.json: cannot create files in /proc: "],
    );
    // Every rank leaves together with the same status.
    let o = mpirun_in(&d, 2, &["PingPong", "-json", "/proc/x.json"], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_eq!(ours(&o.stderr).len(), 1, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    std::fs::remove_dir_all(&d).unwrap();
    let Some(disk) = SmallDisk::new("json-ro", "64k") else {
        eprintln!("skipped the read-only mount: cannot mount a tmpfs here (not root?)");
        return;
    };
    let remounted = std::process::Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&disk.0)
        .status()
        .is_ok_and(|s| s.success());
    assert!(remounted, "remount read-only");
    let out = disk.0.join("r.json").to_string_lossy().into_owned();
    refused_up_front(
        &disk.0,
        &["PingPong", "-json", &out],
        &[
            &format!("-json {out}: cannot create files in {}: ", disk.0.display()),
            "Read-only file system",
        ],
    );
}

#[test]
fn a_disk_that_fills_during_the_run_ends_it_with_exit_3() {
    // 48 KiB: the first rewrites fit (the old file and the new one side by side), later ones,
    // with more tables, do not.
    let Some(disk) = SmallDisk::new("json-fills", "48k") else {
        eprintln!("skipped: cannot mount a tmpfs here (not root?)");
        return;
    };
    let o = mpirun_in(
        &disk.0,
        2,
        &[
            "PingPong",
            "PingPing",
            "Sendrecv",
            "Exchange",
            "Allreduce",
            "Reduce",
            "Bcast",
            "Barrier",
            "-msglog",
            "0:12",
            "-iter",
            "5",
            "-json",
            "r.json",
        ],
        120,
    );
    assert_eq!(o.code, Some(3), "{}", o.stderr);
    assert_eq!(
        ours(&o.stderr),
        ["imb-mpi1: error: -json r.json: cannot write it: No space left on device (os error 28)"],
        "{}",
        o.stderr
    );
    // The tables still reached stdout, and no temporary file is left on the full disk.
    assert_eq!(tables(&o.stdout).len(), 8, "{}", o.stdout);
    assert!(o.stdout.contains("# All processes entering MPI_Finalize"));
    assert_eq!(temporaries(&disk.0), Vec::<String>::new());
    if disk.0.join("r.json").exists() {
        let doc = imb_testkit::json::read_json(disk.0.join("r.json"));
        assert_eq!(doc["complete"], false);
    }
}
