use super::*;

fn run(s: &str) -> Result<Options, String> {
    let args: Vec<String> = s.split_whitespace().map(String::from).collect();
    parse(&args).map(|a| match a {
        Action::Run(o) => *o,
        _ => panic!("not a run"),
    })
}

#[test]
fn defaults_and_options() {
    let o = run("").unwrap();
    assert_eq!((o.cutoff_pct, o.min_reps, o.max_reps), (5.0, 5, 100));
    assert_eq!(o.binds, [Bind::None, Bind::Same, Bind::Different]);
    assert_eq!(o.threads, [2, 4]);
    assert_eq!(o.benchmarks.len(), BENCHMARKS.len());
    let o = run("mutex_pingpong -cutoff 2 -bind SAME -threads 1-3 --max_reps=7 -correct").unwrap();
    assert_eq!(BENCHMARKS[o.benchmarks[0]].name, "Mutex_PingPong");
    assert_eq!((o.cutoff_pct, o.max_reps, o.correct), (2.0, 7, true));
    assert_eq!(o.binds, [Bind::Same]);
    assert_eq!(o.threads, [1, 2, 3]);
}

#[test]
fn errors_name_the_culprit() {
    for (cmd, want) in [
        (
            "Nope",
            "Nope: unknown benchmark; valid names: Thread_Create",
        ),
        ("-cutoff x", "-cutoff x: expected a percentage"),
        ("-cutoff -1", "-cutoff -1: must be a percentage >= 0"),
        ("-cutoff inf", "-cutoff inf: must be a percentage >= 0"),
        (
            "-bind both",
            "-bind both: unknown value \"both\" (valid: same, different, none, all,",
        ),
        ("-threads 0", "-threads 0: 0 is outside 1..1024"),
        ("-threads 1025", "-threads 1025: 1025 is outside 1..1024"),
        (
            "-threads 1-99999999999999999999999",
            "-threads 1-99999999999999999999999: 99999999999999999999999 is outside 1..1024",
        ),
        (
            "-threads a",
            "-threads a: expected numbers like 4, 1,2,4 or 1-4",
        ),
        ("-threads 4-2", "-threads 4-2: range 4-2 goes downwards"),
        ("-cpus 1024", "-cpus 1024: 1024 is outside 0..1023"),
        (
            "-min_reps -3",
            "-min_reps -3: expected a whole number (2..1000000)",
        ),
        ("-min_reps 1", "-min_reps 1: must be 2..1000000"),
        ("-min_reps 1000001", "-min_reps 1000001: must be 2..1000000"),
        (
            "-max_reps 99999999999999999999",
            "-max_reps 99999999999999999999: must be 2..1000000",
        ),
        (
            "-min_reps 10 -max_reps 5",
            "-max_reps 5: must be at least -min_reps (10)",
        ),
        ("-foo", "-foo: unknown option"),
        ("-cutoff", "-cutoff: needs a value"),
        ("-settings /no/such", "-settings /no/such: cannot read it"),
        (
            "-settings /dev/zero",
            "-settings /dev/zero: a character device",
        ),
        ("-settings /tmp", "-settings /tmp: a directory"),
    ] {
        let e = run(cmd).err().unwrap_or_default();
        assert!(e.starts_with(want), "{cmd}: wanted {want:?}, got {e:?}");
        assert!(!e.contains('\n'), "{cmd}: not one line: {e}");
    }
}

fn settings_error(name: &str, text: &str) -> String {
    let f = std::env::temp_dir().join(format!(
        "imb-threads-set-{}-{name}.toml",
        std::process::id()
    ));
    std::fs::write(&f, text).unwrap();
    let e = run(&format!("-settings {}", f.display()))
        .err()
        .unwrap_or_default()
        .replace(&f.display().to_string(), "F");
    std::fs::remove_file(&f).unwrap();
    e
}

#[test]
fn settings_file_errors_have_lines() {
    let with = |key: &str, value: &str| {
        DEFAULTS
            .lines()
            .map(|l| {
                if l.starts_with(key) {
                    format!("{key} = {value}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let line = |key: &str| DEFAULTS.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    for (key, value, want) in [
        (
            "CUTOFF_PCT",
            "\"x\"",
            "CUTOFF_PCT: invalid type: string \"x\", expected a number",
        ),
        (
            "CUTOFF_PCT",
            "-1.0",
            "CUTOFF_PCT = -1: must be a percentage >= 0",
        ),
        (
            "CUTOFF_PCT",
            "nan",
            "CUTOFF_PCT = NaN: must be a percentage >= 0",
        ),
        ("MIN_REPS", "1", "MIN_REPS = 1: must be 2..1000000"),
        (
            "MIN_REPS",
            "-5",
            "MIN_REPS: invalid value: integer `-5`, expected a whole number of at least 0",
        ),
        (
            "MAX_REPS",
            "3000000",
            "MAX_REPS = 3000000: must be 2..1000000",
        ),
        (
            "MAX_REPS",
            "3",
            "MAX_REPS = 3: must be at least MIN_REPS (5)",
        ),
        (
            "BIND",
            "\"sideways\"",
            "BIND = \"sideways\": unknown value \"sideways\" (valid: ",
        ),
        ("THREADS", "\"0\"", "THREADS = \"0\": 0 is outside 1..1024"),
        (
            "THREADS",
            "\"1-5000\"",
            "THREADS = \"1-5000\": 5000 is outside 1..1024",
        ),
    ] {
        let e = settings_error(key, &with(key, value));
        let want = format!("-settings F, line {}: {want}", line(key));
        assert!(
            e.starts_with(&want),
            "{key} = {value}: wanted {want:?}, got {e:?}"
        );
    }
    // A quoted key and an unknown key are found on their lines too.
    let e = settings_error(
        "quoted",
        &with("MIN_REPS", "1").replace("MIN_REPS =", "\"MIN_REPS\" ="),
    );
    let want = format!("-settings F, line {}: MIN_REPS = 1: ", line("MIN_REPS"));
    assert!(
        e.starts_with(&want),
        "quoted key: wanted {want:?}, got {e:?}"
    );
    let e = settings_error("unknown", &format!("{DEFAULTS}FOO = 1\n"));
    let want = format!(
        "-settings F, line {}: unknown field `FOO`",
        DEFAULTS.lines().count() + 1
    );
    assert!(e.starts_with(&want), "wanted {want:?}, got {e:?}");
    assert!(
        defaults(DEFAULTS, "x").is_ok(),
        "the built-in settings parse"
    );
}

fn policy(min_reps: usize) -> imb_harness::adaptive::Policy {
    imb_harness::adaptive::Policy {
        min_reps,
        max_reps: min_reps.max(100),
        ..imb_harness::adaptive::Policy::new(&imb_harness::adaptive::Clock {
            resolution: 1e-9,
            read_cost: 2e-8,
        })
    }
}

#[test]
fn rows_and_threads_are_known_before_the_run() {
    let two = [0, 1];
    let p = policy(5);
    // Single-thread benchmarks never have more than one thread, whatever -threads says.
    let o = run("Mutex_LockUnlock RWLock -threads 2,64").unwrap();
    assert_eq!(
        most_threads(&o, &two, &p),
        1,
        "solo benchmarks run one thread"
    );
    assert_eq!(
        least_secs(&o, &two, &p).0,
        3,
        "Mutex_LockUnlock 1 row + RWLock 2 rows"
    );
    // Cond_Broadcast runs its waiters and the main thread.
    let o = run("Cond_Broadcast -threads 4 -bind none").unwrap();
    assert_eq!(most_threads(&o, &two, &p), 5, "4 waiters + the broadcaster");
    // -bind different rows that these CPUs cannot place are notes, not rows.
    let o = run("Barrier -threads 2,3 -bind different").unwrap();
    assert_eq!(least_secs(&o, &two, &p).0, 1, "only 2 threads fit 2 CPUs");
    assert_eq!(most_threads(&o, &two, &p), 2);
    let o = run("Time_Slice Cond_Wakeup").unwrap();
    assert_eq!(
        least_secs(&o, &two, &p).0,
        3,
        "Time_Slice: same only; Cond_Wakeup: different and none"
    );
    // The least time: rows x (min_reps + the tuning timing) x each row's shortest timing.
    let o = run("Thread_Create Yield -bind none").unwrap();
    let (rows, secs) = least_secs(&o, &two, &p);
    assert_eq!(rows, 3);
    let want = 6.0 * (2.0 * crate::suite::CREATE_MIN_TIMING + crate::suite::PAIRED_MIN_TIMING);
    assert!(
        (secs - want).abs() < 1e-9,
        "least {secs} s, wanted {want} s"
    );
}

#[test]
fn long_runs_and_duplicate_cpus_are_refused_up_front() {
    let two = [0, 1];
    let o = run("Thread_Create -min_reps 100000 -max_reps 100000").unwrap();
    let e = check_run(&o, &two, &policy(100_000)).unwrap_err();
    assert_eq!(
        e,
        "this run needs at least 2 h 47 min on any machine (2 rows of 100000 timings and one to \
         tune each, every timing at least the harness's minimum: 100 usec, 10 ms with client \
         threads, 50 ms for Thread_Create); lower -min_reps, -threads or the -bind scenarios, \
         or pass -force to run it anyway"
    );
    // 2 x 36000 timings of 50 ms are just the hour; the tuning timing of each row passes it.
    let o = run("Thread_Create -min_reps 36000 -max_reps 36000").unwrap();
    assert!(check_run(&o, &two, &policy(36_000)).is_err());
    let o = run("Thread_Create -min_reps 35999 -max_reps 35999").unwrap();
    assert_eq!(check_run(&o, &two, &policy(35_999)), Ok(()));
    let o = run("Thread_Create -min_reps 100000 -max_reps 100000 -force").unwrap();
    assert_eq!(
        check_run(&o, &two, &policy(100_000)),
        Ok(()),
        "-force runs it"
    );
    let o = run("Yield -cpus 1,0,1").unwrap();
    assert_eq!(
        check_run(&o, &two, &policy(5)).unwrap_err(),
        "-cpus 1,0,1: CPU 1 is listed twice; -bind different needs distinct CPUs (list each \
         once, or use -bind same or none)"
    );
    let o = run("Yield -cpus 1,0,1 -bind same,none").unwrap();
    assert_eq!(
        check_run(&o, &two, &policy(5)),
        Ok(()),
        "duplicates are fine without different"
    );
}

/// A TOML or type error in the settings file is one line with its line number, Rust's type
/// names in words (as the MPI executables' settings errors).
#[test]
fn settings_errors_are_one_line_with_their_line() {
    let twice = "[defaults]\nMIN_REPS = 5\n[defaults]\nMAX_REPS = 10\n";
    let e = defaults(twice, "t.toml").unwrap_err();
    assert!(e.starts_with("-settings t.toml, line 3: "), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let typed = "[defaults]\nMIN_REPS = \"many\"\n";
    let e = defaults(typed, "t.toml").unwrap_err();
    assert!(e.starts_with("-settings t.toml, line 2: "), "{e}");
    assert!(e.contains("expected a whole number of at least 0"), "{e}");
    assert!(!e.contains("usize"), "{e}");
}

/// Every row of `OPTS` is in THREADS.md's table of options and every option there is a row.
#[test]
fn the_doc_lists_every_option() {
    let doc = include_str!("../../../../doc/THREADS.md");
    let section = doc
        .split("## Options")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let mut documented: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .filter_map(|code| code.strip_prefix('-'))
        .map(|code| code.split([' ', '\\']).next().unwrap())
        .collect();
    documented.sort();
    let mut rows: Vec<&str> = OPTS
        .iter()
        .filter(|o| o.takes != Takes::Names)
        .map(|o| o.name)
        .collect();
    rows.sort();
    assert_eq!(documented, rows);
}
