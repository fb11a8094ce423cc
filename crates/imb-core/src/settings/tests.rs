use super::*;

const MPI1_TOML: &str = STANDARD.toml;

#[test]
fn embedded_files_parse() {
    let p = standard(&STANDARD);
    assert_eq!(
        (p.minmsglog, p.maxmsglog, p.msgspersample, p.msgs_nonaggr),
        (0, 22, 1000, 100)
    );
    assert_eq!((p.overall_vol, p.n_warmup, p.n_barr), (40 << 20, 2, 2));
    assert_eq!(p.target_cpu_secs, 0.01);
    assert!(p.family.is_empty());
}

pub(super) fn tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("imb-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn shipped_file_is_standard_mode() {
    let s = load(&tmp("a.toml", MPI1_TOML), &STANDARD).unwrap();
    assert!(!s.optional);
    assert_eq!(s.params, standard(&STANDARD));
}

#[test]
fn optional_block_overrides() {
    let text = MPI1_TOML.replace(
        "IMB_OPTIONAL = false",
        "IMB_OPTIONAL = true\nMAXMSGLOG = 10\nMSGSPERSAMPLE = 7",
    );
    let s = load(&tmp("b.toml", &text), &STANDARD).unwrap();
    assert!(s.optional);
    assert_eq!((s.params.maxmsglog, s.params.msgspersample), (10, 7));
    assert_eq!(s.params.n_barr, 2);
}

#[test]
fn optional_block_ignored_unless_switched_on() {
    let text = MPI1_TOML.replace("# MAXMSGLOG = 24", "MAXMSGLOG = 5");
    let s = load(&tmp("c.toml", &text), &STANDARD).unwrap();
    assert!(!s.optional);
    assert_eq!(s.params.maxmsglog, 22);
}

#[test]
fn bad_key_names_file_and_line() {
    let text = MPI1_TOML.replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true\nMAXMSG = 3");
    let f = tmp("d.toml", &text);
    let e = load(&f, &STANDARD).unwrap_err();
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
    ] {
        let text = MPI1_TOML.replace("IMB_OPTIONAL = false", repl);
        let e = load(&tmp("e.toml", &text), &STANDARD).unwrap_err();
        assert!(matches!(e, Error::Line { .. }), "{repl}: {e:?}");
        let s = e.to_string();
        assert!(s.contains("line"), "{repl}: {s}");
        let _ = key;
    }
}

#[test]
fn changed_standard_block_is_an_error() {
    let text = MPI1_TOML.replace("MAXMSGLOG = 22", "MAXMSGLOG = 20");
    let e = load(&tmp("f.toml", &text), &STANDARD)
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
        &STANDARD,
    )
    .unwrap();
    assert!(s.optional);
    assert_eq!(s.params.maxmsglog, 3);
    assert_eq!(s.params.msgspersample, standard(&STANDARD).msgspersample);
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
        let e = load(&f, &STANDARD).unwrap_err().to_string();
        assert!(
            e.contains(&format!(", line 3: {key}: ")) && e.contains("is above"),
            "{e}"
        );
    }
}

#[test]
fn hostile_settings_files_are_refused() {
    for f in ["/dev/zero", "/dev/urandom", "/tmp"] {
        let e = load(f, &STANDARD).unwrap_err().to_string();
        assert!(e.starts_with(&format!("-settings {f}: ")), "{e}");
    }
    // A byte-order mark is accepted.
    let bom = format!("\u{feff}{MPI1_TOML}");
    assert!(load(&tmp("bom.toml", &bom), &STANDARD).is_ok());
}

#[test]
fn differences_name_the_changed_keys() {
    let std = standard(&STANDARD);
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
    let s = load(&tmp("g.toml", &text), &STANDARD).unwrap();
    assert_eq!(
        s.info,
        vec![
            ("accumulate_ordering".to_string(), "none".to_string()),
            ("no_locks".to_string(), "true".to_string())
        ]
    );
    let bad = format!("{MPI1_TOML}\n[info]\nno_locks = true\n");
    let e = load(&tmp("h.toml", &bad), &STANDARD).unwrap_err();
    assert!(matches!(e, Error::Line { .. }), "{e:?}");
}

#[test]
fn missing_file() {
    let e = load("/nonexistent/x.toml", &STANDARD).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("-settings /nonexistent/x.toml: cannot read"),
        "{e}"
    );
}

/// The error of `text` read as a settings file of `kind`: it must be one line.
pub(super) fn error_of(name: &str, text: &str, kind: &Spec) -> Error {
    let e = load(&tmp(name, text), kind).unwrap_err();
    assert!(!e.to_string().contains('\n'), "more than one line: {e}");
    e
}

/// Assert `e` names `line` and contains every one of `needles`.
pub(super) fn assert_line(e: &Error, line: usize, needles: &[&str]) {
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
pub(super) fn line_starting(text: &str, start: &str) -> usize {
    text.lines().position(|l| l.starts_with(start)).unwrap() + 1
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
        let e = error_of("keys.toml", text, &STANDARD);
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
    ] {
        let e = error_of("range.toml", text, &STANDARD);
        assert_line(&e, line, &[key]);
    }
}

#[test]
fn a_standard_block_must_be_whole() {
    let text = "[optional]\nIMB_OPTIONAL = true\n[standard]\nMINMSGLOG = 0\n";
    let e = error_of("partial.toml", text, &STANDARD);
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
    let e = error_of("inline.toml", &text, &STANDARD);
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
        let e = load(f, &STANDARD).unwrap_err().to_string();
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
    let e = load(bad.to_str().unwrap(), &STANDARD).unwrap_err();
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
        let e = error_of("info.toml", &text, &STANDARD);
        assert_line(&e, line, &[needle]);
    }
}
