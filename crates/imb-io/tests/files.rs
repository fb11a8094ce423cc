//! imb-io's files under a real mpirun: nothing is left behind after success, an error, a
//! signal to mpirun or a file-size limit; files we did not create are left alone, also those
//! of a run in the same directory; bad -dir and bad info hints end every rank with one clear
//! line.

mod common;
use common::*;

fn first_line(o: &Out) -> &str {
    o.stderr
        .lines()
        .find(|l| l.starts_with("imb-io: "))
        .unwrap_or_default()
}

/// Files under IMB's names (another program's, or another run's) are neither refused nor
/// touched: each step's files carry a token of their own.
#[test]
fn files_of_others_are_left_alone() {
    let d = scratch("foreign");
    let theirs = ["IMB_out", "IMB_out_1", "IMB_out_g0_3"];
    for name in theirs {
        std::fs::write(d.join(name), "precious").unwrap();
    }
    for extra in [&[][..], &["-overwrite"][..]] {
        let mut args = vec!["S_Write_Indv", "P_Read_Indv", "-msglog", "1", "-check"];
        args.extend_from_slice(extra);
        let o = mpirun_in(&d, 2, &args, 60);
        ok(&o);
        for name in theirs {
            assert_eq!(
                std::fs::read_to_string(d.join(name)).unwrap(),
                "precious",
                "{name} {extra:?}"
            );
        }
        assert_eq!(io_files(&d), theirs, "{extra:?}");
    }
}

/// `mpirun -np 2 imb-io ARGS` in `dir` in a session of its own, outside the test kit's one
/// launch at a time. Open MPI's session directories go under `dir` too: two mpiruns that
/// both create the first `/tmp/ompi.HOST.UID` race in orte's mkdir ("File exists", orte_init
/// fails), which a fresh machine's first launches met.
struct Beside {
    child: std::process::Child,
    out: std::path::PathBuf,
    err: std::path::PathBuf,
}

impl Beside {
    fn start(dir: &std::path::Path, args: &[&str]) -> Beside {
        let (out, err) = (dir.join("beside.out"), dir.join("beside.err"));
        let session = dir.join("beside.ompi");
        std::fs::create_dir_all(&session).unwrap();
        let mut cmd = std::process::Command::new("setsid");
        cmd.arg("mpirun");
        if open_mpi() {
            cmd.arg("--oversubscribe");
        }
        let child = cmd
            .args(["-np", "2", BIN])
            .args(args)
            .current_dir(dir)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("OMPI_MCA_orte_tmpdir_base", &session)
            .stdin(std::process::Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        Beside { child, out, err }
    }

    /// Its output, once it has ended; killed (its whole session) after `limit` seconds of
    /// the machine's time (imb_testkit::watchdog), a watchdog only.
    fn wait(mut self, limit: u64) -> Out {
        let start = std::time::Instant::now();
        let mut dog = imb_testkit::watchdog::Watchdog::new(std::time::Duration::from_secs(limit));
        let status = loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                break Some(st);
            }
            if dog.expired() {
                // SAFETY: kill(2) of the session setsid made for our own child.
                unsafe {
                    libc::kill(-(self.child.id() as i32), libc::SIGKILL);
                }
                let _ = self.child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let o = Out {
            code: status.and_then(|s| s.code()),
            stdout: std::fs::read_to_string(&self.out).unwrap(),
            stderr: std::fs::read_to_string(&self.err).unwrap(),
            secs: start.elapsed().as_secs_f64(),
        };
        assert!(status.is_some(), "hung: {}\n{}", o.stdout, o.stderr);
        o
    }
}

/// Two runs started in one directory at once: each uses files of its own, so both check
/// clean, and neither leaves a file or removes the other's. Several tries, since the runs'
/// steps overlap differently each time.
#[test]
fn two_runs_in_one_directory_at_once() {
    let d = scratch("two-runs");
    let lens = write(&d, "lens", "0\n1\n4096\n65536\n");
    let args = [
        "-check",
        "-msglen",
        lens.as_str(),
        "P_Write_Shared",
        "C_Read_Indv",
        "P_Read_Shared",
        "S_IWrite_Indv",
    ];
    for attempt in 0..3 {
        // The test kit runs one mpirun at a time, so the second run starts beside it.
        let other = Beside::start(&d, &args);
        let runs = [mpirun_in(&d, 2, &args, 240), other.wait(240)];
        for o in &runs {
            ok(o);
            assert!(
                o.stdout.contains("!!!!  ALL BENCHMARKS SUCCESSFUL !!!!"),
                "attempt {attempt}: {}\n{}",
                o.stdout,
                o.stderr
            );
            for t in tables(&o.stdout) {
                assert!(
                    t.column("defects").iter().all(|v| v == "0.00"),
                    "attempt {attempt}, {}: {}",
                    t.title,
                    o.stdout
                );
            }
        }
        assert_clean(&d, "two runs");
    }
}

#[test]
fn dir_option() {
    let d = scratch("dir");
    let sub = d.join("out");
    std::fs::create_dir_all(&sub).unwrap();
    let s = sub.to_string_lossy().into_owned();
    let o = mpirun_in(&d, 2, &["P_IWrite_Expl", "-msglog", "1", "-dir", &s], 60);
    ok(&o);
    assert_clean(&sub, "-dir");

    let file = write(&d, "plain", "x");
    let o = mpirun_in(&d, 2, &["-dir", &file], 60);
    assert_eq!(o.code, Some(2));
    assert_eq!(
        first_line(&o),
        format!("imb-io: error: -dir {file}: not a directory")
    );
    // A directory so deep that Open MPI's MPI-IO would abort on the file names (a buffer
    // overflow past about 240 bytes): refused up front, every rank leaves with status 2.
    let deep = d.join("y".repeat(240usize.saturating_sub(d.as_os_str().len()).max(1)));
    std::fs::create_dir_all(&deep).unwrap();
    let deep = deep.to_string_lossy().into_owned();
    let o = mpirun_in(&d, 2, &["S_Write_Indv", "-msglog", "1", "-dir", &deep], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        first_line(&o).starts_with(&format!(
            "imb-io: error: -dir {deep}: the file paths imb-io makes there reach "
        )),
        "{}",
        o.stderr
    );
    assert_clean(std::path::Path::new(&deep), "-dir deep");
    let o = mpirun_in(&d, 2, &["-dir", "/no/such/dir"], 60);
    assert_eq!(o.code, Some(2));
    assert!(
        first_line(&o).starts_with("imb-io: error: -dir /no/such/dir: cannot use it: "),
        "{}",
        o.stderr
    );
    // A directory where even root cannot create files: the creation fails on every rank that
    // prepares a file, and the run ends everywhere with the system's reason.
    let o = mpirun_in(
        &d,
        2,
        &["P_Write_Priv", "-msglog", "1", "-dir", "/proc"],
        60,
    );
    assert_eq!(o.code, Some(3), "{}", o.stderr);
    assert!(
        first_line(&o).starts_with("imb-io: error: P_Write_Priv: cannot create /proc/IMB_out."),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("# Benchmarking"));
    let o = mpirun_in(&d, 2, &["-dir", "x"], 60);
    assert!(
        o.code == Some(2) && first_line(&o).contains("-dir x"),
        "{}",
        o.stderr
    );
}

#[test]
fn signals_to_mpirun_leave_no_files_and_no_ranks() {
    for (sig, name) in [(libc::SIGINT, "int"), (libc::SIGTERM, "term")] {
        let d = scratch(&format!("sig-{name}"));
        let seen = || !io_files(&d).is_empty();
        // The default run takes many seconds; the signal comes as soon as a file exists.
        let o = mpirun_with(
            BIN,
            &d,
            2,
            &[],
            120,
            Launch {
                signal_when: Some((sig, &seen)),
                ..Launch::default()
            },
        );
        assert!(
            !o.stdout.contains("# All processes entering MPI_Finalize"),
            "{name}: the run was not interrupted"
        );
        // MPICH's mpiexec (hydra) can exit 0 after forwarding SIGINT; Open MPI's does not.
        if open_mpi() {
            assert_ne!(o.code, Some(0), "{name}");
        }
        assert_clean(&d, name);
        assert_no_processes(name);
    }
}

#[test]
fn file_size_limit_is_a_clear_error() {
    // RLIMIT_FSIZE of 8 MiB on the ranks only (prlimit, util-linux; mpirun's own shared-memory
    // files need more, and MPICH's UCX maps 4 MiB segments in the ranks): preparing a 16 MiB
    // file fails with EFBIG (imb-io ignores SIGXFSZ, which would otherwise kill the rank
    // without a word).
    let d = scratch("fsize");
    for bench in ["S_Write_Indv", "P_Read_Shared"] {
        let o = imb_testkit::mpirun_in("prlimit", &d, 2, &["--fsize=8388608", BIN, bench], 60);
        assert_eq!(o.code, Some(3), "{bench}: {}\n{}", o.stdout, o.stderr);
        let l = first_line(&o);
        assert!(
            l.starts_with(&format!("imb-io: error: {bench}: MPI_File_")) && l.contains(" failed: "),
            "{bench}: {}",
            o.stderr
        );
        assert_clean(&d, bench);
        assert_no_processes(bench);
    }
}

#[test]
fn bad_info_hints() {
    let d = scratch("hints");
    let std = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../settings/settings_io.toml"
    ))
    .unwrap();
    // A key this MPI cannot hold: refused before anything runs.
    let long = "k".repeat(300);
    let f = write(&d, "long.toml", &format!("{std}\n[info]\n{long} = \"1\"\n"));
    let o = mpirun_in(&d, 2, &["-settings", &f], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        first_line(&o).starts_with(&format!("imb-io: error: -settings {f}")),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("# Benchmarking"));
    // Hints MPI-IO accepts at open but cannot work with (Open MPI's OMPIO fails the view;
    // MPICH's ROMIO ignores a bad cb_nodes, so this part is Open MPI's): one line naming the
    // hints, every rank ends, no file left.
    if open_mpi() {
        let f = write(
            &d,
            "value.toml",
            &format!("{std}\n[info]\ncb_nodes = \"-3\"\n"),
        );
        let o = mpirun_in(
            &d,
            2,
            &["P_Write_Indv", "-settings", &f, "-msglog", "1"],
            60,
        );
        assert_ne!(o.code, Some(0), "{}", o.stdout);
        assert!(
            o.stderr.contains(
                "imb-io: error: MPI_File_set_view with the [info] hints cb_nodes = \"-3\" failed: "
            ),
            "{}",
            o.stderr
        );
        assert_clean(&d, "hints");
    }
    // A harmless hint is shown in the header and used.
    let f = write(
        &d,
        "ok.toml",
        &format!("{std}\n[info]\nstriping_factor = \"1\"\n"),
    );
    let o = mpirun_in(
        &d,
        2,
        &["C_Read_Indv", "-settings", &f, "-msglog", "1", "-check"],
        60,
    );
    ok(&o);
    assert!(o
        .stdout
        .contains("# Got 1 Info-keys:\n\n# striping_factor = \"1\"\n"));
    assert_clean(&d, "ok hint");
}

#[test]
fn a_full_disk_is_one_clear_error_before_timing() {
    // 2 MiB cannot hold the 16 MiB the standard IO settings write: every family stops at
    // preparation (the room check for writes, the checked fill for reads), exit 3, one line,
    // no file left. Without the checks OMPIO printed write errors and the tables showed
    // bandwidths of writes that never happened.
    let Some(disk) = SmallDisk::new("full", "2m") else {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    };
    let dir = disk.0.to_string_lossy().into_owned();
    // The collective write under mpirun (every rank leaves), the read fill as one process.
    for (np, bench) in [(2, "C_Write_Indv"), (1, "P_Read_Shared")] {
        let args = [bench, "-msglog", "20", "-dir", &dir];
        let o = if np == 1 {
            imb_testkit::direct_in(BIN, &disk.0, &args, 60)
        } else {
            mpirun_in(&disk.0, np, &args, 60)
        };
        assert_eq!(o.code, Some(3), "{bench}: exit status\n{}", o.stderr);
        let l = first_line(&o);
        assert!(
            l.starts_with(&format!("imb-io: error: {bench}: ")),
            "{bench}: no one-line error naming the benchmark: {}",
            o.stderr
        );
        assert!(
            l.contains("bytes free") || l.contains("is the file system full"),
            "{bench}: the error does not say the disk is full: {l}"
        );
        assert!(!o.stdout.contains("#repetitions"), "{bench}: a table ran");
        assert_clean(&disk.0, bench);
    }
}

#[test]
fn the_disk_is_checked_before_the_first_table() {
    // Open_Close fits any disk, C_Write_Indv's 16 MiB do not fit 2 MiB: the run is refused
    // before Open_Close runs, instead of after it (and after hours of other benchmarks).
    let Some(disk) = SmallDisk::new("early", "2m") else {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    };
    let dir = disk.0.to_string_lossy().into_owned();
    // A write under mpirun, and a read (its file is written when it is prepared) alone.
    for (np, bench) in [(2, "C_Write_Indv"), (1, "P_Read_Shared")] {
        let args = ["Open_Close", bench, "-msglog", "20", "-dir", &dir];
        let o = if np == 1 {
            imb_testkit::direct_in(BIN, &disk.0, &args, 60)
        } else {
            mpirun_in(&disk.0, np, &args, 60)
        };
        assert_eq!(o.code, Some(3), "{bench}: exit status\n{}", o.stderr);
        let l = first_line(&o);
        assert!(
            l.starts_with(&format!("imb-io: error: {bench}: "))
                && l.contains("the benchmark writes up to 16777216 bytes, but ")
                && l.ends_with(" bytes free"),
            "{l}"
        );
        assert!(!o.stdout.contains("# Benchmarking"), "{bench}: a table ran");
        assert_clean(&disk.0, bench);
    }
}

#[test]
fn files_of_simultaneous_groups_are_added_up() {
    // 24 MiB holds one 16 MiB file but not the two that -multi 0 writes at once with two
    // groups of one: each creator alone would have passed a check of its own file.
    let Some(disk) = SmallDisk::new("multi", "24m") else {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    };
    let dir = disk.0.to_string_lossy().into_owned();
    let args = [
        "C_Write_Indv",
        "-msglog",
        "20",
        "-npmin",
        "1",
        "-multi",
        "0",
        "-dir",
        &dir,
    ];
    let o = mpirun_in(&disk.0, 2, &args, 60);
    assert_eq!(o.code, Some(3), "exit status\n{}", o.stderr);
    let l = first_line(&o);
    assert!(
        l.starts_with("imb-io: error: C_Write_Indv: ") && l.contains(" into 2 files, but "),
        "{l}"
    );
    assert!(!o.stdout.contains("#repetitions"), "a table ran");
    assert_clean(&disk.0, "multi 0");
}

#[test]
fn filename_must_be_a_plain_short_name() {
    let d = scratch("filename");
    let std = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../settings/settings_io.toml"
    ))
    .unwrap();
    let long = "n".repeat(201);
    for (name, value, why) in [
        ("dot", ".", "must be a plain file name"),
        ("dotdot", "..", "must be a plain file name"),
        ("slash", "a/b", "must be a plain file name"),
        ("nul", "a\\u0000b", "must be a plain file name"),
        ("long", long.as_str(), "201 bytes: at most 200"),
    ] {
        let text = std.replace(
            "IMB_OPTIONAL = false",
            &format!("IMB_OPTIONAL = true\nFILENAME = \"{value}\""),
        );
        let f = write(&d, &format!("{name}.toml"), &text);
        // One process: the settings are read by rank 0 alone.
        let o = imb_testkit::direct_in(BIN, &d, &["S_Write_Indv", "-settings", &f], 60);
        assert_eq!(o.code, Some(2), "{name}: exit status\n{}", o.stderr);
        let ours: Vec<&str> = o
            .stderr
            .lines()
            .filter(|l| l.starts_with("imb-io: error: "))
            .collect();
        assert_eq!(ours.len(), 1, "{name}: one error line:\n{}", o.stderr);
        assert!(
            ours[0].starts_with(&format!("imb-io: error: -settings {f}, line "))
                && ours[0].contains(why),
            "{name}: {}",
            ours[0]
        );
        assert!(o.stdout.is_empty(), "{name}: printed before the error");
    }
    // The longest name allowed works, shared-pointer files and Multi groups included.
    let text = std.replace(
        "IMB_OPTIONAL = false",
        &format!("IMB_OPTIONAL = true\nFILENAME = \"{}\"", "n".repeat(200)),
    );
    let f = write(&d, "200.toml", &text);
    let o = mpirun_in(
        &d,
        3,
        &[
            "P_Write_Shared",
            "C_IWrite_Shared",
            "-settings",
            &f,
            "-msglog",
            "1",
            "-multi",
            "0",
        ],
        60,
    );
    ok(&o);
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("nnn"))
        .collect();
    assert!(left.is_empty(), "files left: {left:?}");
}

#[test]
fn a_nul_in_a_hint_is_an_input_error() {
    let d = scratch("nulhint");
    let std = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../settings/settings_io.toml"
    ))
    .unwrap();
    let f = write(
        &d,
        "nul.toml",
        &format!("{std}\n[info]\nstriping_unit = \"1\\u00002\"\n"),
    );
    let o = mpirun_in(&d, 2, &["S_Write_Indv", "-settings", &f], 60);
    assert_eq!(o.code, Some(2), "exit status\n{}", o.stderr);
    let ours: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("imb-io: error: "))
        .collect();
    assert_eq!(ours.len(), 1, "one line, printed once:\n{}", o.stderr);
    assert!(ours[0].contains("NUL"), "{}", ours[0]);
    assert!(
        o.stdout.is_empty(),
        "the header was printed before the error"
    );
    assert_clean(&d, "nul hint");
}
