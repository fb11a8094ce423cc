//! Unit tests of the command line: parsing, every error message, help and files.

use super::*;
use crate::settings::STANDARD;

const NAMES: &[&str] = &["PingPong", "PingPing", "Sendrecv", "Allreduce", "Barrier"];
fn spec() -> Spec<'static> {
    Spec {
        exe: "imb-mpi1",
        names: NAMES,
        defaults: NAMES.len(),
        defaults_2021: &[],
        settings: &STANDARD,
        npmin: 2,
        aggregate: true,
        family: &Family::NONE,
    }
}
fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}
fn run(s: &str, np: usize) -> Options {
    match parse(&spec(), &args(s), np).unwrap() {
        Action::Run(o) => *o,
        a => panic!("{a:?}"),
    }
}
fn err(s: &str, np: usize) -> String {
    parse(&spec(), &args(s), np).unwrap_err().to_string()
}

#[test]
fn adaptive_defaults_and_budget() {
    let a = |s: &str| run(s, 2).adaptive.unwrap();
    let d = a("-adaptive");
    assert_eq!((d.cutoff_pct, d.min_reps, d.max_reps), (10.0, 5, 10));
    assert_eq!(a("-adaptive -min_reps 3").max_reps, 6);
    assert_eq!(a("-adaptive -min_reps 700").max_reps, 1000);
    assert_eq!(a("-adaptive -min_reps 1000").max_reps, 1000);
    assert!(err("-adaptive -min_reps 1001", 2).starts_with("-min_reps: 1001: at most 1000"));
    assert!(err("-adaptive -max_reps 1001", 2).starts_with("-max_reps: 1001: at most 1000"));
    assert!(run("", 2).adaptive.is_none());
}

#[test]
fn imb_2021_list_options_and_unsupported_ones() {
    let r = run("PingPong -include Barrier,sendrecv", 2);
    assert_eq!(r.benchmarks, [0, 4, 2]);
    let r = run("-exclude PingPing -exclude Barrier", 2);
    assert_eq!(r.benchmarks, [0, 2, 3]);
    assert!(err("-include Nope", 2).starts_with("-include: Nope: unknown benchmark"));
    assert_eq!(
        err("PingPong -exclude pingpong", 2),
        "-exclude: leaves no benchmark to run"
    );
}

/// `-include "$LIST"` with an empty variable must not run the default list in its place.
#[test]
fn an_include_or_exclude_naming_no_benchmark_is_refused() {
    for opt in ["-include", "-exclude"] {
        for v in ["", ",", " , "] {
            let a = [opt.to_string(), v.to_string()];
            let e = parse(&spec(), &a, 2).unwrap_err().to_string();
            assert_eq!(
                e,
                format!("{opt}: invalid value {v:?}: names no benchmark (a comma-separated list of names)"),
                "{opt} {v:?}"
            );
        }
    }
}

#[test]
fn imb_2021_method_options() {
    use crate::method::*;
    assert_eq!(run("", 2).method, Method::IMB30);
    let m = run("-compat 2021", 2).method;
    assert_eq!(m.compat, Compat::V2021);
    assert_eq!(m.timing, Timing::PerCall { sync: true });
    assert_eq!(m.iter_policy, IterPolicy::Dynamic);
    let m = run(
        "-compat 2021 -sync off -root_shift on -imb_barrier on -warm_up off -msg_pause on \
         -iter_policy MULTIPLE_NP -mem_alloc_type cpu",
        2,
    )
    .method;
    assert_eq!(m.timing, Timing::PerCall { sync: false });
    assert!(m.root_shift == Some(true) && m.imb_barrier && m.msg_pause);
    assert_eq!(m.warm_up, WarmUp::Off);
    assert_eq!(m.iter_policy, IterPolicy::MultipleNp);
    for p in ["off", "dynamic", "auto", "multiple_np"] {
        run(&format!("-iter_policy {p}"), 2);
    }
    assert!(err("-iter_policy sometimes", 2)
        .starts_with("-iter_policy: invalid value \"sometimes\": expected dynamic"));
    assert!(err("-compat 2018", 2).contains("expected 3.0 or 2021"));
    assert!(err("-sync maybe", 2).contains("expected on or off"));
    assert!(err("-mem_alloc_type device", 2).contains("GPU memory"));
    match run("-msgsize 0,100,1024", 2).lengths {
        Lengths::List { values } => assert_eq!(values, vec![0, 100, 1024]),
        l => panic!("{l:?}"),
    }
    assert!(err("-msgsize 1,x", 2).starts_with("-msgsize: invalid value"));
    assert_eq!(
        run("-off_cache 16,128", 2).method.off_cache,
        Some(OffCache {
            cache_bytes: 16 << 20,
            line_bytes: 128
        })
    );
    assert_eq!(run("-off_cache 0", 2).method.off_cache, None);
    assert!(err("-off_cache -1,64", 2).starts_with("-off_cache: invalid value"));
    // Options IMB 2021 has and imb-rs does not: refused with the reason.
    for (o, why) in [("-dump a.yaml", "-json"), ("-load a.yaml", "-settings")] {
        let e = err(o, 2);
        let name = o.split(' ').next().unwrap();
        assert!(
            e.starts_with(&format!(
                "{name}: an IMB 2021 option imb-rs does not have: "
            )) && e.contains(why),
            "{e}"
        );
    }
}

#[test]
fn help_lists_only_accepted_options() {
    let mpi1 = Spec {
        aggregate: false,
        ..spec()
    };
    let h = help(&mpi1);
    assert!(!h.contains("-aggregate_mode"));
    assert!(h.contains("-include") && h.contains("-force") && h.contains("settings/settings.toml"));
    // The engine refuses it where it is not listed: a family that forgot to (imb-p2p did)
    // no longer runs as if it had been applied.
    assert!(parse(&mpi1, &args("-aggregate_mode both"), 2)
        .unwrap_err()
        .to_string()
        .starts_with("-aggregate_mode: imb-mpi1 has no AGGREGATE"));
    assert!(help(&spec()).contains("-aggregate_mode"));
}

#[test]
fn non_utf8_arguments_are_named() {
    use std::os::unix::ffi::OsStringExt;
    let a = vec![
        std::ffi::OsString::from("PingPong"),
        std::ffi::OsString::from_vec(b"-json=a\xffb".to_vec()),
    ];
    let (v, e) = utf8_args(a.into_iter());
    assert_eq!(v.len(), 2);
    assert_eq!(
        e.unwrap().to_string(),
        "-json=a\\xffb: argument 2 is not valid UTF-8 text"
    );
    // An option's value: the option is named.
    let a = vec![
        std::ffi::OsString::from("-npmin"),
        std::ffi::OsString::from_vec(b"\xff3".to_vec()),
    ];
    assert_eq!(
        utf8_args(a.into_iter()).1.unwrap().to_string(),
        "\\xff3: argument 2, after -npmin, is not valid UTF-8 text"
    );
}

#[test]
fn hostile_files_are_refused_before_the_run() {
    for (o, f) in [
        ("-json", "/dev/null"),
        ("-json", "/tmp"),
        ("-msglen", "/dev/zero"),
        ("-input", "/dev/urandom"),
        ("-settings", "/dev/zero"),
    ] {
        let e = err(&format!("{o} {f}"), 2);
        assert!(e.starts_with(&format!("{o} {f}: ")), "{e}");
    }
    let e = err("-iter 4294967296", 2);
    assert!(e.contains("is above 2147483647"), "{e}");
}

#[test]
fn defaults() {
    let o = run("", 2);
    assert_eq!(o.benchmarks, vec![0, 1, 2, 3, 4]);
    assert_eq!((o.npmin, o.multi, o.map), (2, None, None));
    assert_eq!(o.lengths, Lengths::Ladder);
    assert_eq!(o.params, settings::standard(&STANDARD));
    assert!(o.zero_size && !o.check);
    assert_eq!(o.thread_level, ThreadLevel::Single);
}

#[test]
fn names_any_case_and_order_options_interleaved() {
    let o = run("allreduce -npmin 3 PINGPONG -multi 1 pingpong -map 2x2", 4);
    assert_eq!(o.benchmarks, vec![3, 0, 0]);
    assert_eq!(o.npmin, 3);
    assert_eq!(o.multi, Some(Multi::PerGroup));
    assert_eq!(o.map, Some(Map { p: 2, q: 2 }));
    // a repeated option keeps its last value
    assert_eq!(run("-npmin 3 -npmin 4", 4).npmin, 4);
    assert_eq!(run("--npmin=5", 8).npmin, 5);
}

#[test]
fn help_and_list() {
    assert!(matches!(
        parse(&spec(), &args("-h"), 2),
        Ok(Action::Help(_))
    ));
    assert!(matches!(
        parse(&spec(), &args("PingPong -help"), 2),
        Ok(Action::Help(_))
    ));
    match parse(&spec(), &args("-list"), 2).unwrap() {
        Action::List(s) => assert!(s.contains("# Sendrecv\n")),
        a => panic!("{a:?}"),
    }
    let h = help(&spec());
    assert!(h.starts_with(
        "\nCalling sequence:\n\n\nimb-mpi1    [-h{elp}]\n            [-npmin  <NPmin>]\n"
    ));
    assert!(h.ends_with("Allreduce\nBarrier\n"));
}

#[test]
fn additions() {
    let o = run(
        "-msglog 3:10 -iter 50,4,7 -time 0.5 -mem 2 -zero_size off -check -thread_level multiple",
        2,
    );
    assert_eq!((o.params.minmsglog, o.params.maxmsglog), (3, 10));
    assert_eq!(
        (
            o.params.msgspersample,
            o.params.overall_vol,
            o.params.msgs_nonaggr
        ),
        (50, 4 << 20, 7)
    );
    assert_eq!(o.time, Some(0.5));
    assert_eq!(o.mem, Some(2.0 * (1u64 << 30) as f64));
    assert!(!o.zero_size && o.check);
    assert_eq!(o.thread_level, ThreadLevel::Multiple);
    assert_eq!(run("-msglog 5", 2).params.maxmsglog, 5);
    assert_eq!(run("-iter 20", 2).params.overall_vol, 40 << 20);
    use crate::bench::Mode;
    let a = run("-aggregate_mode non_aggregate", 2).aggregate_mode;
    assert!(a.runs(Mode::NonAggregate) && a.runs(Mode::Plain) && !a.runs(Mode::Aggregate));
    assert_eq!(
        run("-aggregate_mode multi", 2).aggregate_mode,
        AggregateMode::Both
    );
    assert_eq!(run("", 2).aggregate_mode, AggregateMode::Both);
}

#[test]
fn bad_values_name_the_option() {
    for (cmd, needle) in [
        ("-npmin", "-npmin: needs a value"),
        ("-npmin 0", "-npmin: invalid value \"0\""),
        ("-npmin abc", "-npmin: invalid value \"abc\""),
        ("-npmin -1", "-npmin: invalid value \"-1\""),
        ("-multi 2", "-multi: invalid value \"2\""),
        ("-map 2", "-map: invalid value \"2\""),
        ("-map 2x", "-map: invalid value \"2x\""),
        ("-map 2,2", "-map: invalid value \"2,2\""),
        ("-map 0x4", "-map: invalid value \"0x4\""),
        ("-msglog 5:3", "-msglog: invalid value \"5:3\""),
        ("-msglog 40", "-msglog: invalid value \"40\""),
        ("-iter 0", "-iter: invalid value \"0\""),
        ("-time -1", "-time: invalid value \"-1\""),
        ("-mem x", "-mem: invalid value \"x\""),
        ("-zero_size maybe", "-zero_size: invalid value \"maybe\""),
        (
            "-thread_level lots",
            "-thread_level: invalid value \"lots\"",
        ),
        (
            "-aggregate_mode some",
            "-aggregate_mode: invalid value \"some\"",
        ),
        ("-foo", "-foo: unknown option"),
        ("-NPMIN 2", "-NPMIN: unknown option"),
        ("-check=1", "-check: takes no value"),
        ("-dir /tmp", "-dir: unknown option"),
    ] {
        let e = err(cmd, 4);
        assert!(e.starts_with(needle), "{cmd}: {e}");
        assert!(!e.contains('\n'), "{cmd}: {e}");
    }
}

#[test]
fn map_must_fit_the_job() {
    assert!(err("-map 2x3", 4).starts_with("-map: 2x3 has 6 places but the job has 4"));
    assert!(err("-map 2x2", 6).contains("P·Q must equal"));
    assert_eq!(run("-map 2X3", 6).map, Some(Map { p: 2, q: 3 }));
    assert_eq!(run("-map 1x4", 4).map, Some(Map { p: 1, q: 4 }));
    // P·Q beyond usize: an error, not an overflow (a panic, or in a release build a product
    // that wraps round to the process count and is taken).
    for (map, np) in [
        ("9223372036854775808x2", 2),
        ("9223372036854775809x2", 2),
        ("4294967296x4294967296", 4),
    ] {
        let e = err(&format!("-map {map}"), np);
        assert!(
            e.starts_with(&format!("-map: {map} has more places")),
            "{e}"
        );
    }
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let e = err("PingPong foo", 2);
    assert_eq!(
        e,
        "foo: unknown benchmark; valid names: PingPong, PingPing, Sendrecv, Allreduce, Barrier"
    );
    assert!(err("all", 2).contains("give no name"));
}

fn tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("imb-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn input_files_insert_names_in_place() {
    let f = tmp("sel", "#\n# selection\nbarrier extra words\n\nSENDRECV\n");
    let o = run(&format!("PingPong -input {f} Allreduce"), 2);
    assert_eq!(o.benchmarks, vec![0, 4, 2, 3]);
    let bad = tmp("bad", "PingPong\nnope\n");
    assert_eq!(
        err(&format!("-input {bad}"), 2),
        format!("-input {bad}, line 2: \"nope\": unknown benchmark; valid names: PingPong, PingPing, Sendrecv, Allreduce, Barrier")
    );
    assert!(err("-input /nonexistent/sel", 2).starts_with("-input /nonexistent/sel: cannot read"));
    // A name with an escape sequence is shown escaped: the error stays one plain line
    // (fuzz/regressions/input).
    let esc = tmp("esc", "\u{1b}[31mPingPong\n");
    assert!(err(&format!("-input {esc}"), 2).starts_with(&format!(
        "-input {esc}, line 1: \"\\u{{1b}}[31mPingPong\": unknown"
    )));
    // a file with only comments selects the default list
    let empty = tmp("empty", "# nothing\n");
    assert_eq!(run(&format!("-input {empty}"), 2).benchmarks.len(), 5);
}

#[test]
fn msglen_file_is_read() {
    let f = tmp("len", "0\n100\n1k\n");
    match run(&format!("-msglen {f}"), 2).lengths {
        Lengths::File { values, .. } => assert_eq!(values, vec![0, 100, 1024]),
        l => panic!("{l:?}"),
    }
    let bad = tmp("badlen", "0\nx\n");
    assert!(err(&format!("-msglen {bad}"), 2).starts_with(&format!("-msglen {bad}, line 2:")));
}

#[test]
fn thread_level_prescan() {
    assert_eq!(
        prescan_thread_level(&args("a -thread_level multiple")),
        Some(ThreadLevel::Multiple)
    );
    assert_eq!(prescan_thread_level(&args("-thread_level")), None);
    assert_eq!(prescan_thread_level(&args("-thread_level x")), None);
}

#[test]
fn reading_argv_touches_no_file() {
    // Files named on the command line are only read by resolve.
    let raw::Command::Run(r) = read(
        &args(
            "-input /nonexistent/list -msglen /nonexistent/lens -settings /nonexistent/s.toml \
             -map 3x5 PingPong",
        ),
        &Family::NONE,
        true,
    )
    .unwrap() else {
        panic!("not a run")
    };
    assert_eq!(
        r.shared.names,
        vec![
            raw::Named::Input("/nonexistent/list".into()),
            raw::Named::Name("PingPong".into())
        ]
    );
    assert_eq!(r.map, Some(Map { p: 3, q: 5 }));
    assert!(err("-input /nonexistent/list", 2).starts_with("-input /nonexistent/list"));
    assert!(err("-map 3x5", 2).starts_with("-map: 3x5 has 15 places"));
    assert_eq!(
        read(&args("-list -bogus_name"), &Family::NONE, true).ok(),
        None
    );
    assert_eq!(
        read(&args("-list PingPong"), &Family::NONE, true).unwrap(),
        raw::Command::List(crate::method::Compat::V30)
    );
    assert_eq!(
        read(&args("-list -compat 2021"), &Family::NONE, true).unwrap(),
        raw::Command::List(crate::method::Compat::V2021)
    );
}

#[test]
fn the_merge_records_where_each_value_came_from() {
    use settings::Origin::*;
    let f = tmp(
        "origins.toml",
        "[optional]\nIMB_OPTIONAL = true\nMSGSPERSAMPLE = 50\nMAXMSGLOG = 10\n",
    );
    let o = run(&format!("-settings {f} -iter 20"), 2);
    assert_eq!(o.params.msgspersample, 20);
    assert_eq!(o.params.maxmsglog, 10);
    assert_eq!(o.origins.of("MSGSPERSAMPLE"), CommandLine);
    assert_eq!(o.origins.of("MAXMSGLOG"), SettingsFile);
    assert_eq!(o.origins.of("MINMSGLOG"), Standard);
    assert_eq!(o.origins.of("OVERALL_VOL"), Standard);
    let o = run("-msglog 2:4 -iter 5,1,3", 2);
    for key in [
        "MINMSGLOG",
        "MAXMSGLOG",
        "MSGSPERSAMPLE",
        "OVERALL_VOL",
        "MSGS_NONAGGR",
    ] {
        assert_eq!(o.origins.of(key), CommandLine, "{key}");
    }
    assert!(!run("", 2).origins.any(CommandLine));
}

#[test]
fn summary_and_progress() {
    let o = run("", 2);
    assert!(!o.summary);
    assert_eq!(o.progress, ProgressMode::Auto);
    let o = run("-summary -progress ON PingPong", 2);
    assert!(o.summary);
    assert_eq!(o.progress, ProgressMode::On);
    assert_eq!(run("-progress=off", 2).progress, ProgressMode::Off);
    assert_eq!(run("-progress 0", 2).progress, ProgressMode::Off);
    assert_eq!(run("-progress auto", 2).progress, ProgressMode::Auto);
    let e = err("-progress sometimes", 2);
    assert!(
        e.starts_with("-progress") && e.contains("on, off or auto"),
        "{e}"
    );
    assert!(err("-progress", 2).starts_with("-progress: needs a value"));
    assert!(err("-summary=yes", 2).starts_with("-summary: takes no value"));
    let h = help(&spec());
    assert!(
        h.contains("[-summary] [-progress on|off|auto]\n")
            && h.contains("- -progress on|off|auto:")
    );
}

#[test]
fn number_lists_are_bounded() {
    let num = |x: &str| value::whole(x, 1, 1024);
    let full = ["1-1024"; 4].join(",");
    assert_eq!(
        value::number_list(&full, num).unwrap().len(),
        value::MAX_LIST
    );
    // One more number, or a range written over and over (fuzz/regressions/threads_cli), is
    // refused before it is expanded.
    for s in [format!("{full},1"), vec!["1-1024"; 20_000].join(",")] {
        assert_eq!(
            value::number_list(&s, num).unwrap_err(),
            format!("more than {} numbers", value::MAX_LIST)
        );
    }
}
