use super::*;
use crate::agree::fixture_side as side;

const GOOD: &str = r#"
[[criterion]]
name = "small Allreduce"
benchmark = "Allreduce"
processes = 2
bytes = [4, 8]
metric = "t"
reference = "baseline"
upper = 0.10

[[criterion]]
benchmark = "*"
metric = "t_avg"
reference = 2
lower = -0.5
"#;

#[test]
fn a_good_file() {
    let c = parse("acc.toml", GOOD).unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].name, "small Allreduce");
    assert_eq!(c[0].bytes, Some((4, 8)));
    assert_eq!(c[0].reference, Reference::Baseline);
    assert_eq!((c[0].lower, c[0].upper, c[0].line), (None, Some(0.10), 2));
    assert_eq!(c[1].name, "* t_avg");
    assert_eq!(c[1].reference, Reference::Value(2.0));
    assert_eq!(c[1].line, 11);
}

#[test]
fn bad_files_name_their_line() {
    let cases = [
        (
            GOOD.replace("metric = \"t\"", "metric = \"speed\""),
            7,
            "metric",
        ),
        (
            GOOD.replace("upper = 0.10", "upper = -0.1"),
            9,
            "upper: a fraction",
        ),
        (
            GOOD.replace("lower = -0.5", "lower = 0.5"),
            15,
            "lower: a fraction",
        ),
        (
            GOOD.replace("bytes = [4, 8]", "bytes = [8, 4]"),
            6,
            "bytes:",
        ),
        (
            GOOD.replace("reference = 2", "reference = \"base\""),
            14,
            "reference:",
        ),
        (
            GOOD.replace("processes = 2", "procs = 2"),
            5,
            "unknown field `procs`",
        ),
        (GOOD.replace("upper = 0.10", "upper = "), 9, ""),
        (
            GOOD.replace("upper = 0.10", ""),
            7,
            "neither lower nor upper",
        ),
    ];
    for (text, line, want) in cases {
        let e = parse("acc.toml", &text).unwrap_err().to_string();
        assert!(e.starts_with(&format!("acc.toml, line {line}: ")), "{e}");
        assert!(e.contains(want), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    let e = parse("e.toml", "# nothing\n").unwrap_err().to_string();
    assert_eq!(e, "e.toml: no [[criterion]] in it");
}

fn crit(reference: Reference, lower: Option<f64>, upper: Option<f64>) -> Criterion {
    Criterion {
        name: "c".into(),
        benchmark: "Allreduce".into(),
        processes: None,
        mode: None,
        bytes: Some((4, 8)),
        metric: Metric::T,
        reference,
        lower,
        upper,
        line: 1,
    }
}

#[test]
fn criteria_pass_and_fail() {
    let base = side("base", &[("x", &[1.0, 2.0, 9.0])]);
    let new = side("new", &[("x", &[1.05, 3.0, 1.0])]);
    let l = Lenience::default();
    let c = crit(Reference::Baseline, None, Some(0.1));
    let o = evaluate(&c, Some(&base), &new, l);
    assert!(!o.pass);
    assert_eq!(o.checked, 2);
    assert_eq!(
        o.detail,
        "1 of 2 size(s) fail unbounded..+10.0 % of the baseline: 8 bytes np=2: 3.00 against 2.00 (+50.0 %)"
    );
    let o = evaluate(&c, Some(&base), &base, l);
    assert!(o.pass, "{}", o.detail);
    let c = crit(Reference::Value(2.0), Some(-0.5), Some(0.5));
    assert!(evaluate(&c, None, &new, l).pass);
    // The baseline is needed and missing; nothing matches.
    let c = crit(Reference::Baseline, None, Some(0.1));
    assert!(evaluate(&c, None, &new, l).detail.contains("no BASE"));
    let mut c = crit(Reference::Value(1.0), None, Some(0.1));
    c.benchmark = "Bcast".into();
    let o = evaluate(&c, None, &new, l);
    assert_eq!(
        (o.pass, o.detail.as_str()),
        (false, "no row of new matches the criterion")
    );
}

#[test]
fn flags_and_oversubscription_fail_unless_accepted() {
    let base = side("base", &[("x", &[1.0, 2.0])]);
    let mut new = side("new", &[("x", &[1.0, 2.0])]);
    new.runs[0].tables[0].flags.push((Some(8), Flag::Unsettled));
    let c = crit(Reference::Baseline, Some(-0.1), Some(0.1));
    let o = evaluate(&c, Some(&base), &new, Lenience::default());
    assert!(!o.pass);
    assert!(
        o.detail
            .contains("8 bytes np=2: UNSETTLED (new), not a result"),
        "{}",
        o.detail
    );
    let lenient = Lenience {
        flagged: true,
        oversubscribed: false,
    };
    assert!(evaluate(&c, Some(&base), &new, lenient).pass);
    let mut over = base.clone();
    over.runs[0].oversubscribed = Some("3 processes share 2 CPUs".into());
    let o = evaluate(&c, Some(&over), &base, Lenience::default());
    assert!(!o.pass);
    assert!(
        o.detail.starts_with("base ran oversubscribed (3 processes"),
        "{}",
        o.detail
    );
    let lenient = Lenience {
        flagged: false,
        oversubscribed: true,
    };
    assert!(evaluate(&c, Some(&over), &base, lenient).pass);
}
