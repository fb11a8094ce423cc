//! A suite's own keys and other suites' keys through the one reader, with a file of the tests'
//! own: LABEL, a text every `[standard]` block of `LABELLED` holds.

use super::tests::{assert_line, error_of, line_starting, tmp};
use super::*;

const MPI1_TOML: &str = STANDARD.toml;

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
    for (kind, std_text) in [(&STANDARD, MPI1_TOML), (&LABELLED, LABELLED.toml)] {
        let mut keys = STANDARD_KEYS.to_vec();
        if !kind.keys.is_empty() {
            keys.push("LABEL");
        }
        for key in keys {
            let bad = if key == "LABEL" { "7" } else { "\"many\"" };
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
    let e = error_of("type-switch.toml", &text, &STANDARD);
    assert_line(
        &e,
        line_starting(&text, "IMB_OPTIONAL"),
        &["IMB_OPTIONAL: invalid type: string \"yes\", expected a boolean"],
    );
    // The brief's example, in a file of only an [optional] block.
    let e = error_of(
        "many.toml",
        "[optional]\nIMB_OPTIONAL = true\nMSGSPERSAMPLE = \"many\"\n",
        &STANDARD,
    );
    assert!(
        e.to_string().ends_with(
            "many.toml, line 3: MSGSPERSAMPLE: invalid type: string \"many\", expected a whole \
             number of at least 0"
        ),
        "{e}"
    );
}

/// A suite's own key, of the tests' own: LABEL, a text every `[standard]` block holds, with a
/// range; and the file that has it, whose key the plain file refuses.
static LABELLED: Spec = Spec {
    file: "settings/labelled.toml",
    toml: "[standard]\nMINMSGLOG = 0\nMAXMSGLOG = 22\nMSGSPERSAMPLE = 1000\nMSGS_NONAGGR = 100\n\
           OVERALL_VOL = 41943040\nN_WARMUP = 2\nN_BARR = 2\nTARGET_CPU_SECS = 0.01\n\
           LABEL = \"x\"\n\n[optional]\nIMB_OPTIONAL = false\n",
    keys: &[Key {
        name: "LABEL",
        ty: Type::Text,
        standard: InStandard::Required {
            else_file: ("settings.toml", "the plain ones"),
        },
        optional: true,
        check: |v| match v {
            Value::Text(t) if t.contains('/') => Err(format!("{t:?}: no slash")),
            _ => Ok(()),
        },
    }],
    foreign: &[],
};

static PLAIN: Spec = Spec {
    foreign: &[Foreign {
        name: "LABEL",
        ty: Type::Text,
        file: "labelled.toml",
        exe: "imb-label",
    }],
    ..STANDARD
};

#[test]
fn a_suites_own_key_is_read_checked_and_compared() {
    let p = standard(&LABELLED);
    assert_eq!(p.family.get("LABEL"), Some(&Value::Text("x".into())));
    let text = LABELLED
        .toml
        .replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true\nLABEL = \"y\"");
    let s = load(&tmp("label.toml", &text), &LABELLED).unwrap();
    assert_eq!(s.origins.of("LABEL"), Origin::SettingsFile);
    assert_eq!(
        differences(&s.params, &p),
        [("LABEL", "y".to_string(), "x".to_string())]
    );
    let text = LABELLED.toml.replace("LABEL = \"x\"", "LABEL = \"z\"");
    let e = error_of("label-std.toml", &text, &LABELLED);
    assert_line(
        &e,
        line_starting(&text, "LABEL"),
        &["[standard] LABEL = z differs from the standard value x"],
    );
    let e = error_of(
        "range-label.toml",
        "[optional]\nIMB_OPTIONAL = true\n\nLABEL = \"a/b\"\n",
        &LABELLED,
    );
    assert_line(&e, 4, &["LABEL: \"a/b\": no slash"]);
    // Without the file's own key it is the plain file.
    let e = load(&tmp("mpi.toml", MPI1_TOML), &LABELLED)
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with(
            "this looks like settings.toml (the settings of the plain ones); this executable \
             takes settings/labelled.toml"
        ),
        "{e}"
    );
}

#[test]
fn the_other_suites_file_says_which_file_to_use() {
    let e = load(&tmp("lab.toml", LABELLED.toml), &PLAIN)
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with(
            "this looks like labelled.toml (the settings of imb-label); this executable takes \
             settings/settings.toml"
        ),
        "{e}"
    );
    let text = MPI1_TOML.replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true\nLABEL = \"q\"");
    let e = error_of("lab-opt.toml", &text, &PLAIN);
    assert_line(
        &e,
        line_starting(&text, "LABEL"),
        &["LABEL: is an imb-label setting (labelled.toml)"],
    );
    // Unknown to the file that does not know it.
    let e = error_of("lab-std.toml", LABELLED.toml, &STANDARD);
    assert_line(&e, 10, &["unknown field `LABEL`"]);
}
