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
