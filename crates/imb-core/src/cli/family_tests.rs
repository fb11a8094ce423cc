//! A family's options through the engine, with a family of the tests' own: `-burst N` sets
//! BURST, a key of its settings file that only the command line sets; `-far D` is an option
//! whose meaning the family resolves; `-near` is another executable's, refused.

use super::raw::Raw;
use super::table::{Opt, Takes};
use super::*;
use crate::settings::{InStandard, Key, Origin, Type, STANDARD};
use crate::values::{Slot, Value};

const BURST: Slot<usize> = Slot::new("BURST");
const FAR: Slot<String> = Slot::new("far");

static BURSTS: settings::Spec = settings::Spec {
    keys: &[Key {
        name: "BURST",
        ty: Type::Count,
        standard: InStandard::Default(|| Value::Count(4)),
        optional: false,
        check: settings::any_value,
    }],
    ..STANDARD
};

type Why = std::result::Result<(), String>;

fn far(f: &FamilyIn) -> Result<Values> {
    let mut v = Values::default();
    let far = FAR.get(f.raw).unwrap_or_else(|| "home".into());
    if far == "moon" && f.np > 1 {
        return Err(Error::arg(
            "-far",
            format!("the moon takes one process, not {}", f.np),
        ));
    }
    FAR.set(&mut v, far);
    Ok(v)
}

static FAMILY: Family = Family {
    rows: &[
        Opt::row(
            "burst",
            Takes::Value,
            |r: &mut Raw, v| -> Why {
                BURST.set(&mut r.family, value::positive_int(v)?);
                Ok(())
            },
            (10, 1, "[-burst <n>]"),
            "- -burst N: messages per burst.\n",
        ),
        Opt::row(
            "far",
            Takes::Value,
            |r: &mut Raw, v| -> Why {
                FAR.set(&mut r.family, v.to_string());
                Ok(())
            },
            (10, 2, "[-far <where>]"),
            "",
        ),
    ],
    refused: &[
        Refused {
            name: "near",
            takes: Takes::Flag,
            why: "{exe} goes far",
        },
        Refused {
            name: "warm_up",
            takes: Takes::Value,
            why: "{exe} is always warm",
        },
    ],
    resolve: far,
    // Far messages spread out: the buffers hold three times their bytes.
    span: |_, v| {
        if FAR.get(v).as_deref() == Some("moon") {
            3
        } else {
            1
        }
    },
    ..Family::NONE
};

fn spec() -> Spec<'static> {
    Spec {
        exe: "imb-far",
        names: &["PingPong"],
        defaults: 1,
        defaults_2021: &[],
        settings: &BURSTS,
        npmin: 2,
        aggregate: false,
        family: &FAMILY,
    }
}

fn parse_on(s: &str, np: usize) -> Result<Action> {
    let args: Vec<String> = s.split_whitespace().map(String::from).collect();
    parse(&spec(), &args, np)
}

fn run(s: &str, np: usize) -> Options {
    match parse_on(s, np).unwrap() {
        Action::Run(o) => *o,
        a => panic!("{a:?}"),
    }
}

#[test]
fn a_familys_rows_are_listed_after_aggregate_mode() {
    let Action::Help(h) = parse_on("-h", 2).unwrap() else {
        panic!("help")
    };
    assert!(
        h.contains("[-list]\n            [-burst <n>] [-far <where>]\n            [-adaptive"),
        "{h}"
    );
    let settings = h.find("- -settings F:").unwrap();
    let burst = h.find("- -burst N:").unwrap();
    let adaptive = h.find("- -adaptive:").unwrap();
    assert!(settings < burst && burst < adaptive, "{h}");
    assert!(!h.contains("-near"), "{h}");
}

#[test]
fn a_row_that_sets_a_key_of_the_settings_file_is_its_command_line_origin() {
    let o = run("", 2);
    assert_eq!(BURST.get(&o.params.family), Some(4));
    assert_eq!(o.origins.of("BURST"), Origin::Standard);
    let o = run("-burst 9", 2);
    assert_eq!(BURST.get(&o.params.family), Some(9));
    assert_eq!(o.origins.of("BURST"), Origin::CommandLine);
    let std = settings::standard(&BURSTS);
    assert_eq!(
        settings::differences(&o.params, &std),
        [("BURST", "9".to_string(), "4".to_string())]
    );
    let e = parse_on("-burst 0", 2).unwrap_err().to_string();
    assert_eq!(
        e,
        "-burst: invalid value \"0\": expected a positive integer"
    );
}

#[test]
fn the_family_resolves_its_options_and_refuses_others() {
    assert_eq!(FAR.get(&run("", 2).family).as_deref(), Some("home"));
    let o = run("-far moon", 1);
    assert_eq!(FAR.get(&o.family).as_deref(), Some("moon"));
    assert!(o.given.iter().any(|g| g == "far"));
    let e = parse_on("-far moon", 2).unwrap_err().to_string();
    assert_eq!(e, "-far: the moon takes one process, not 2");
    let e = parse_on("PingPong -near", 2).unwrap_err().to_string();
    assert_eq!(e, "-near: imb-far goes far");
    assert!(parse_on("-near=1", 2).is_err());
    // Refused before what the settings and the family's resolution say.
    let e = parse_on("-settings /nonexistent -far moon -near", 2).unwrap_err();
    assert_eq!(e.to_string(), "-near: imb-far goes far");
}

/// An engine option the family refuses is refused whatever its value (not "invalid value"),
/// and `-aggregate_mode` is refused on an executable without AGGREGATE tables even when its
/// family does not list it among its refusals.
#[test]
fn refused_whatever_the_value_and_aggregate_mode_without_aggregate_tables() {
    for v in ["on", "maybe", ""] {
        let e = parse_on(&format!("-warm_up={v}"), 2).unwrap_err();
        assert_eq!(e.to_string(), "-warm_up: imb-far is always warm", "{v}");
    }
    for v in ["both", "aggregate", "x"] {
        let e = parse_on(&format!("-aggregate_mode {v}"), 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "-aggregate_mode: imb-far has no AGGREGATE/NON-AGGREGATE tables",
            "{v}"
        );
    }
    // Where the executable has them, the option is taken.
    let args = vec!["-aggregate_mode".to_string(), "aggregate".to_string()];
    let with = Spec {
        aggregate: true,
        ..spec()
    };
    assert!(matches!(parse(&with, &args, 2), Ok(Action::Run(_))));
}

/// `Family::span` reads the resolved options into `Options::span`, which the plan sizes the
/// buffers with (`plan::Sizes`).
#[test]
fn the_familys_span_is_the_runs() {
    assert_eq!(run("", 1).span, 1);
    assert_eq!(run("-far moon", 1).span, 3);
}

/// A family that reads `-msglog` its own way (as imb-p2p does) and whose MPI calls come from
/// several threads.
static OWN_MSGLOG: Family = Family {
    rows: &[Opt::row(
        "msglog",
        Takes::Value,
        |r: &mut Raw, v| -> Why {
            FAR.set(&mut r.family, format!("log {v}"));
            Ok(())
        },
        (6, 0, "[-msglog <own>]"),
        "- -msglog OWN: the family's own reading.\n",
    )],
    resolve: far,
    thread_level: ThreadLevel::Multiple,
    // Lengths from the family's options: bursts of the thread level's name length.
    lengths: |f, v| {
        FAR.get(v)
            .filter(|far| far.starts_with("log"))
            .map(|_| vec![f.np, format!("{:?}", f.thread_level).len()])
    },
    ..Family::NONE
};

fn own_msglog(s: &str) -> Result<Action> {
    let args: Vec<String> = s.split_whitespace().map(String::from).collect();
    parse(
        &Spec {
            family: &OWN_MSGLOG,
            ..spec()
        },
        &args,
        2,
    )
}

#[test]
fn a_family_row_replaces_the_engine_row_of_its_name() {
    let Ok(Action::Run(o)) = own_msglog("-msglog 3:5") else {
        panic!("run")
    };
    assert_eq!(FAR.get(&o.family), Some("log 3:5".into()));
    // The engine's meaning is gone: MINMSGLOG and MAXMSGLOG stay the settings'.
    assert_eq!(o.origins.of("MAXMSGLOG"), Origin::Standard);
    let Ok(Action::Help(h)) = own_msglog("-h") else {
        panic!("help")
    };
    assert_eq!(h.matches("-msglog").count(), 2, "{h}");
    assert!(
        h.contains("[-msglog <own>]") && h.contains("- -msglog OWN:"),
        "{h}"
    );
    assert!(!h.contains("[-msglog [<min>:]<max>]"), "{h}");
}

#[test]
fn a_familys_lengths_unless_the_command_line_gives_them() {
    let lens = |s: &str| match own_msglog(s) {
        Ok(Action::Run(o)) => o.lengths,
        a => panic!("{a:?}"),
    };
    // "Multiple": 8 letters; 2 processes.
    assert_eq!(lens("-msglog 1"), Lengths::List { values: vec![2, 8] });
    assert_eq!(
        lens("-msglog 1 -thread_level single"),
        Lengths::List { values: vec![2, 6] }
    );
    assert_eq!(lens(""), Lengths::Ladder);
    assert_eq!(
        lens("-msglog 1 -msgsize 5,6"),
        Lengths::List { values: vec![5, 6] }
    );
}

#[test]
fn a_familys_thread_level_is_the_default() {
    let Ok(Action::Run(o)) = own_msglog("") else {
        panic!("run")
    };
    assert_eq!(o.thread_level, ThreadLevel::Multiple);
    let Ok(Action::Run(o)) = own_msglog("-thread_level funneled") else {
        panic!("run")
    };
    assert_eq!(o.thread_level, ThreadLevel::Funneled);
    let Ok(Action::Help(h)) = own_msglog("-h") else {
        panic!("help")
    };
    assert!(h.contains("MPI_Init_thread (default multiple)"), "{h}");
    assert_eq!(run("", 2).thread_level, ThreadLevel::Single);
}
