use super::*;

#[test]
fn embedded_files_parse() {
    let p = standard(Kind::Mpi1);
    assert_eq!(
        (p.minmsglog, p.maxmsglog, p.msgspersample, p.msgs_nonaggr),
        (0, 22, 1000, 100)
    );
    assert_eq!((p.overall_vol, p.n_warmup, p.n_barr), (40 << 20, 2, 2));
    assert_eq!(p.target_cpu_secs, 0.01);
    let io = standard(Kind::Io);
    assert_eq!(
        (
            io.minmsglog,
            io.maxmsglog,
            io.msgspersample,
            io.msgs_nonaggr
        ),
        (0, 24, 50, 10)
    );
    assert_eq!((io.overall_vol, io.target_cpu_secs), (16 << 20, 0.1));
    assert_eq!(io.filename.as_deref(), Some("IMB_out"));
}

fn tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("imb-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn shipped_file_is_standard_mode() {
    let s = load(&tmp("a.toml", MPI1_TOML), Kind::Mpi1).unwrap();
    assert!(!s.optional);
    assert_eq!(s.params, standard(Kind::Mpi1));
}

#[test]
fn optional_block_overrides() {
    let text = MPI1_TOML.replace(
        "IMB_OPTIONAL = false",
        "IMB_OPTIONAL = true\nMAXMSGLOG = 10\nMSGSPERSAMPLE = 7",
    );
    let s = load(&tmp("b.toml", &text), Kind::Mpi1).unwrap();
    assert!(s.optional);
    assert_eq!((s.params.maxmsglog, s.params.msgspersample), (10, 7));
    assert_eq!(s.params.n_barr, 2);
}

#[test]
fn optional_block_ignored_unless_switched_on() {
    let text = MPI1_TOML.replace("# MAXMSGLOG = 24", "MAXMSGLOG = 5");
    let s = load(&tmp("c.toml", &text), Kind::Mpi1).unwrap();
    assert!(!s.optional);
    assert_eq!(s.params.maxmsglog, 22);
}

#[test]
fn bad_key_names_file_and_line() {
    let text = MPI1_TOML.replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true\nMAXMSG = 3");
    let f = tmp("d.toml", &text);
    let e = load(&f, Kind::Mpi1).unwrap_err();
    let line = text.lines().position(|l| l == "MAXMSG = 3").unwrap() + 1;
    match &e {
        Error::Line { line: l, msg, .. } => {
            assert_eq!(*l, line);
            assert!(msg.contains("MAXMSG"), "{msg}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_values_are_errors() {
    for (repl, key) in [
        ("IMB_OPTIONAL = true\nMAXMSGLOG = 40", "MAXMSGLOG"),
        ("IMB_OPTIONAL = true\nMINMSGLOG = 23", "MINMSGLOG"),
        ("IMB_OPTIONAL = true\nMSGSPERSAMPLE = 0", "MSGSPERSAMPLE"),
        (
            "IMB_OPTIONAL = true\nTARGET_CPU_SECS = -1.0",
            "TARGET_CPU_SECS",
        ),
        ("IMB_OPTIONAL = true\nN_BARR = -1", "N_BARR"),
        (
            "IMB_OPTIONAL = true\nMSGSPERSAMPLE = \"x\"",
            "MSGSPERSAMPLE",
        ),
        ("IMB_OPTIONAL = true\nFILENAME = \"a\"", "FILENAME"),
    ] {
        let text = MPI1_TOML.replace("IMB_OPTIONAL = false", repl);
        let e = load(&tmp("e.toml", &text), Kind::Mpi1).unwrap_err();
        assert!(matches!(e, Error::Line { .. }), "{repl}: {e:?}");
        let s = e.to_string();
        assert!(s.contains("line"), "{repl}: {s}");
        let _ = key;
    }
}

#[test]
fn changed_standard_block_is_an_error() {
    let text = MPI1_TOML.replace("MAXMSGLOG = 22", "MAXMSGLOG = 20");
    let e = load(&tmp("f.toml", &text), Kind::Mpi1)
        .unwrap_err()
        .to_string();
    let line = MPI1_TOML
        .lines()
        .position(|l| l.starts_with("MAXMSGLOG"))
        .unwrap()
        + 1;
    assert!(
        e.contains(&format!(
            ", line {line}: [standard] MAXMSGLOG = 20 differs from the standard value 22"
        )),
        "{e}"
    );
}

#[test]
fn a_file_with_only_an_optional_block_works() {
    let s = load(
        &tmp(
            "opt.toml",
            "[optional]\nIMB_OPTIONAL = true\nMAXMSGLOG = 3\n",
        ),
        Kind::Mpi1,
    )
    .unwrap();
    assert!(s.optional);
    assert_eq!(s.params.maxmsglog, 3);
    assert_eq!(s.params.msgspersample, standard(Kind::Mpi1).msgspersample);
    let io = load(
        &tmp("optio.toml", "[optional]\nIMB_OPTIONAL = true\n"),
        Kind::Io,
    )
    .unwrap();
    assert_eq!(io.params, standard(Kind::Io));
}

#[test]
fn the_other_suites_file_says_which_file_to_use() {
    let e = load(&tmp("io.toml", IO_TOML), Kind::Mpi1)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("looks like settings_io.toml") && e.contains("settings/settings.toml"),
        "{e}"
    );
    let e = load(&tmp("mpi.toml", MPI1_TOML), Kind::Io)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("looks like settings.toml") && e.contains("settings/settings_io.toml"),
        "{e}"
    );
}

#[test]
fn counts_have_limits() {
    for (text, key) in [
        (
            "IMB_OPTIONAL = true\nMSGSPERSAMPLE = 4294967296",
            "MSGSPERSAMPLE",
        ),
        ("IMB_OPTIONAL = true\nN_BARR = 4294967296", "N_BARR"),
        ("IMB_OPTIONAL = true\nN_WARMUP = 4294967296", "N_WARMUP"),
        (
            "IMB_OPTIONAL = true\nOVERALL_VOL = 2199023255552",
            "OVERALL_VOL",
        ),
    ] {
        let f = tmp("lim.toml", &format!("[optional]\n{text}\n"));
        let e = load(&f, Kind::Mpi1).unwrap_err().to_string();
        assert!(
            e.contains(&format!(", line 3: {key}: ")) && e.contains("is above"),
            "{e}"
        );
    }
}

#[test]
fn hostile_settings_files_are_refused() {
    for f in ["/dev/zero", "/dev/urandom", "/tmp"] {
        let e = load(f, Kind::Mpi1).unwrap_err().to_string();
        assert!(e.starts_with(&format!("-settings {f}: ")), "{e}");
    }
    // A byte-order mark is accepted.
    let bom = format!("\u{feff}{MPI1_TOML}");
    assert!(load(&tmp("bom.toml", &bom), Kind::Mpi1).is_ok());
}

#[test]
fn differences_name_the_changed_keys() {
    let std = standard(Kind::Mpi1);
    assert!(differences(&std, &std).is_empty());
    let mut p = std.clone();
    p.maxmsglog = 10;
    p.overall_vol = 1;
    assert_eq!(
        differences(&p, &std),
        vec![
            ("MAXMSGLOG", "10".to_string(), "22".to_string()),
            ("OVERALL_VOL", "1".to_string(), "41943040".to_string())
        ]
    );
}

#[test]
fn info_hints() {
    let text =
        format!("{MPI1_TOML}\n[info]\nno_locks = \"true\"\naccumulate_ordering = \"none\"\n");
    let s = load(&tmp("g.toml", &text), Kind::Mpi1).unwrap();
    assert_eq!(
        s.info,
        vec![
            ("accumulate_ordering".to_string(), "none".to_string()),
            ("no_locks".to_string(), "true".to_string())
        ]
    );
    let bad = format!("{MPI1_TOML}\n[info]\nno_locks = true\n");
    let e = load(&tmp("h.toml", &bad), Kind::Mpi1).unwrap_err();
    assert!(matches!(e, Error::Line { .. }), "{e:?}");
}

#[test]
fn missing_file() {
    let e = load("/nonexistent/x.toml", Kind::Mpi1).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("-settings /nonexistent/x.toml: cannot read"),
        "{e}"
    );
}

/// The error of `text` read as a settings file of `kind`: it must be one line.
fn error_of(name: &str, text: &str, kind: Kind) -> Error {
    let e = load(&tmp(name, text), kind).unwrap_err();
    assert!(!e.to_string().contains('\n'), "more than one line: {e}");
    e
}

/// Assert `e` names `line` and contains every one of `needles`.
fn assert_line(e: &Error, line: usize, needles: &[&str]) {
    match e {
        Error::Line { line: l, msg, .. } => {
            assert_eq!(*l, line, "{e}");
            for n in needles {
                assert!(msg.contains(n), "{e} lacks {n:?}");
            }
        }
        other => panic!("no line in {other}"),
    }
}

/// The line (from 1) of the first line of `text` that starts with `start`.
fn line_starting(text: &str, start: &str) -> usize {
    text.lines().position(|l| l.starts_with(start)).unwrap() + 1
}

const STANDARD_KEYS: [&str; 8] = [
    "MINMSGLOG",
    "MAXMSGLOG",
    "MSGSPERSAMPLE",
    "MSGS_NONAGGR",
    "OVERALL_VOL",
    "N_WARMUP",
    "N_BARR",
    "TARGET_CPU_SECS",
];

#[test]
fn a_wrong_type_names_its_line_for_every_key_of_either_block() {
    for (kind, std_text) in [(Kind::Mpi1, MPI1_TOML), (Kind::Io, IO_TOML)] {
        let mut keys = STANDARD_KEYS.to_vec();
        if kind == Kind::Io {
            keys.push("FILENAME");
        }
        for key in keys {
            let bad = if key == "FILENAME" { "7" } else { "\"many\"" };
            // In [standard]: the value replaced where it stands.
            let text: String = std_text
                .lines()
                .map(|l| {
                    if l.starts_with(&format!("{key} ")) {
                        format!("{key} = {bad}")
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            let e = error_of("type-std.toml", &text, kind);
            assert_line(&e, line_starting(&text, key), &[key, "invalid type"]);
            // In [optional], switched on.
            let text = std_text.replace(
                "IMB_OPTIONAL = false",
                &format!("IMB_OPTIONAL = true\n{key} = {bad}"),
            );
            let e = error_of("type-opt.toml", &text, kind);
            assert_line(&e, line_starting(&text, "IMB_OPTIONAL") + 1, &[key]);
        }
    }
    let text = MPI1_TOML.replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = \"yes\"");
    let e = error_of("type-switch.toml", &text, Kind::Mpi1);
    assert_line(
        &e,
        line_starting(&text, "IMB_OPTIONAL"),
        &["IMB_OPTIONAL: invalid type: string \"yes\", expected a boolean"],
    );
    // The brief's example, in a file of only an [optional] block.
    let e = error_of(
        "many.toml",
        "[optional]\nIMB_OPTIONAL = true\nMSGSPERSAMPLE = \"many\"\n",
        Kind::Mpi1,
    );
    assert!(
        e.to_string().ends_with(
            "many.toml, line 3: MSGSPERSAMPLE: invalid type: string \"many\", expected a whole \
             number of at least 0"
        ),
        "{e}"
    );
}

#[test]
fn unknown_and_duplicate_keys_name_their_line() {
    for (text, line, needle) in [
        (
            "[standard]\nMINMSGLOG = 0\nMAXMSG = 3\n",
            3,
            "unknown field `MAXMSG`",
        ),
        (
            "[optional]\nIMB_OPTIONAL = true\nWINDOW_SIZE = 3\n",
            3,
            "unknown field `WINDOW_SIZE`",
        ),
        ("[optional]\n\n[opt]\nX = 1\n", 3, "unknown field `opt`"),
        (
            "[standard]\nIMB_OPTIONAL = true\n",
            2,
            "unknown field `IMB_OPTIONAL`",
        ),
        (
            "[optional]\nN_BARR = 1\nN_BARR = 2\n",
            3,
            "duplicate key `N_BARR`",
        ),
        ("[optional]\n[optional]\n", 2, "duplicate key `optional`"),
        ("[optional]\nN_BARR = \n", 2, "N_BARR: invalid string"),
    ] {
        let e = error_of("keys.toml", text, Kind::Mpi1);
        assert_line(&e, line, &[needle]);
    }
}

#[test]
fn values_out_of_range_name_their_own_line() {
    // The optional block first, and the key quoted or dotted: the line comes from where the
    // value stands, not from a search of the text.
    for (text, line, key) in [
        (
            "[optional]\nIMB_OPTIONAL = true\n\"MAXMSGLOG\" = 40\n\n[standard]\nMINMSGLOG = 0\n\
             MAXMSGLOG = 22\nMSGSPERSAMPLE = 1000\nMSGS_NONAGGR = 100\nOVERALL_VOL = 41943040\n\
             N_WARMUP = 2\nN_BARR = 2\nTARGET_CPU_SECS = 0.01\n",
            3,
            "MAXMSGLOG: 40 is above 30",
        ),
        (
            "optional.IMB_OPTIONAL = true\n\noptional.N_WARMUP = 4294967296000\n",
            3,
            "N_WARMUP: 4294967296000 is above 2147483647",
        ),
        (
            "[optional]\nIMB_OPTIONAL = true\nMINMSGLOG = 9\nMAXMSGLOG = 4\n",
            3,
            "MINMSGLOG: 9 is above MAXMSGLOG 4",
        ),
        (
            "[optional]\nIMB_OPTIONAL = true\nN_BARR = -1\n",
            3,
            "N_BARR: invalid value: integer `-1`, expected a whole number of at least 0",
        ),
        (
            "[optional]\nIMB_OPTIONAL = true\nOVERALL_VOL = 99999999999999999999999\n",
            3,
            "OVERALL_VOL: ",
        ),
        (
            "[optional]\nIMB_OPTIONAL = true\nTARGET_CPU_SECS = nan\n",
            3,
            "TARGET_CPU_SECS: must be a positive number",
        ),
        (
            "[optional]\nIMB_OPTIONAL = true\nFILENAME = \"x\"\n",
            3,
            "FILENAME: is an imb-io setting",
        ),
    ] {
        let e = error_of("range.toml", text, Kind::Mpi1);
        assert_line(&e, line, &[key]);
    }
    let e = error_of(
        "range-io.toml",
        "[optional]\nIMB_OPTIONAL = true\n\nFILENAME = \"a/b\"\n",
        Kind::Io,
    );
    assert_line(&e, 4, &["FILENAME: \"a/b\": must be a plain file name"]);
}

#[test]
fn a_standard_block_must_be_whole() {
    let text = "[optional]\nIMB_OPTIONAL = true\n[standard]\nMINMSGLOG = 0\n";
    let e = error_of("partial.toml", text, Kind::Mpi1);
    assert_line(&e, 3, &["[standard]: MAXMSGLOG is missing"]);
    // A changed value in an inline table names its line too.
    let text = MPI1_TOML
        .split("\n[optional]")
        .next()
        .unwrap()
        .replace("[standard]", "")
        .lines()
        .filter(|l| l.contains('=') && !l.starts_with('#'))
        .map(|l| {
            l.split('#')
                .next()
                .unwrap()
                .trim()
                .replace("N_BARR = 2", "N_BARR = 3")
        })
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!("\nstandard = {{ {text} }}\n");
    let e = error_of("inline.toml", &text, Kind::Mpi1);
    assert_line(
        &e,
        2,
        &["[standard] N_BARR = 3 differs from the standard value 2"],
    );
}

#[test]
fn hostile_settings_files_are_one_line_naming_the_file() {
    let d = std::env::temp_dir().join(format!("imb-settings-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let fifo = d.join("fifo.toml");
    let _ = std::fs::remove_file(&fifo);
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let fifo = fifo.to_str().unwrap().to_string();
    let dir = d.to_str().unwrap().to_string();
    for (f, why) in [
        (fifo.as_str(), "a FIFO"),
        (dir.as_str(), "a directory"),
        ("/dev/zero", "a character device"),
    ] {
        let e = load(f, Kind::Mpi1).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("-settings {f}: {why}: only a regular file is read"),
            "{f}"
        );
    }
    let bad = d.join("bad.toml");
    std::fs::write(
        &bad,
        b"[optional]\nIMB_OPTIONAL = true\nN_BARR = \"\xff\"\n",
    )
    .unwrap();
    let e = load(bad.to_str().unwrap(), Kind::Mpi1).unwrap_err();
    assert_line(&e, 3, &["not UTF-8"]);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn info_errors_name_their_line() {
    let long = "k".repeat(300);
    for (text, line, needle) in [
        (
            format!("[info]\na = \"1\"\n{long} = \"1\"\n"),
            3,
            "keys must be 1..255",
        ),
        (
            "[info]\n\"\" = \"1\"\n".to_string(),
            2,
            "keys must be 1..255",
        ),
        (
            "[info]\na = \"1\"\nb = \"x\\u0000y\"\n".to_string(),
            3,
            "a NUL character",
        ),
        (
            "[info]\na = 1\n".to_string(),
            2,
            "a: invalid type: integer `1`, expected a string",
        ),
    ] {
        let e = error_of("info.toml", &text, Kind::Mpi1);
        assert_line(&e, line, &[needle]);
    }
}
