use super::*;
use crate::read::key::Metric;
use crate::read::run::Flag;
use crate::read::sides::fixture_side as side;

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
        // A ratio is never below 0: a lower bound at -1 or below could never fail.
        (
            GOOD.replace("lower = -0.5", "lower = -2"),
            15,
            "lower: a fraction of the reference, 0 or below and above -1",
        ),
        (
            GOOD.replace("upper = 0.10", "upper = 1e308"),
            9,
            "upper: a fraction of the reference, 0 or above, at most 1000000",
        ),
        (
            GOOD.replace("benchmark = \"*\"", "name = \"small Allreduce\"\nbenchmark = \"*\""),
            12,
            "name \"small Allreduce\" is the criterion's of line 2 too",
        ),
        (
            format!("{GOOD}\n[[criterion]]\nbenchmark = \"*\"\nmetric = \"t_avg\"\nreference = 1\nupper = 1\n"),
            17,
            "name \"* t_avg\" is the criterion's of line 11 too",
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
        statistic: Statistic::Median,
        reference,
        lower,
        upper,
        line: 1,
    }
}

const LVL: &str = "MPI_THREAD_SINGLE";

/// Launches of an Allreduce at 4 and 8 bytes: size 4 takes `a[k]`, size 8 twice that.
fn launches(label: &str, a: &[f64]) -> crate::read::sides::Side {
    let rows: Vec<[f64; 2]> = a.iter().map(|&x| [x, 2.0 * x]).collect();
    let l: Vec<(&str, &[f64])> = rows.iter().map(|r| (LVL, &r[..])).collect();
    side(label, &l)
}

fn eval(
    c: &Criterion,
    base: Option<&crate::read::sides::Side>,
    new: &crate::read::sides::Side,
) -> Outcome {
    evaluate(c, base, new, &Acceptance::text_runs(), 0.95, 1)
}

const BASE5: [f64; 5] = [0.96, 0.98, 1.0, 1.02, 1.04];

#[test]
fn verdict_rule_on_constructed_launch_sets() {
    let base = launches("base", &BASE5);
    let c = crit(Reference::Baseline, None, Some(0.1));
    // 50 % slower in every launch: the interval lies beyond +10 %.
    let slow: Vec<f64> = BASE5.iter().map(|x| x * 1.5).collect();
    let o = eval(&c, Some(&base), &launches("slow", &slow));
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
    assert!(
        o.detail().starts_with(
            "2 of 2 size(s) outside unbounded..+10.0 % of the baseline (95 % intervals of the \
             median, 5 and 5 launches): 4 bytes np=2: ratio 1.500 ("
        ),
        "{}",
        o.detail()
    );
    let w = o.worst().unwrap();
    assert!(w.margin.unwrap() < -0.3, "{w:?}");
    // The same machine again (the launches in another order): inside, with its margin.
    let mut again = BASE5;
    again.reverse();
    let o = eval(&c, Some(&base), &launches("again", &again));
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
    let w = o.worst().unwrap();
    let (lo, hi) = w.interval.unwrap();
    assert!(lo < 1.0 && hi > 1.0 && hi < 1.1, "{w:?}");
    assert!((w.margin.unwrap() - (1.1 - hi)).abs() < 1e-12);
    assert!(o.detail().contains("; worst "), "{}", o.detail());
    // 8 % slower with as much spread as the baseline: the interval straddles +10 %.
    let near: Vec<f64> = [1.0, 1.04, 1.08, 1.12, 1.16].to_vec();
    let o = eval(&c, Some(&base), &launches("near", &near));
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
    assert!(
        o.detail().ends_with("; rerun with more launches"),
        "{}",
        o.detail()
    );
    assert_eq!(o.sizes[0].reason.as_ref().unwrap().code, "straddles");
    // One launch a side decides nothing, even 15 times slower.
    let o = eval(&c, Some(&launches("b1", &[1.0])), &launches("n1", &[15.0]));
    assert_eq!(o.verdict, Verdict::Inconclusive);
    assert!(
        o.detail().contains(
            "no 95 % interval from 1 and 1 launches (4 a side needed) at 2 size(s): 4 bytes np=2: \
             ratio 15.000;"
        ),
        "{}",
        o.detail()
    );
    // One rule for every launch count: the same machine with 4, 5 and 10 launches a side.
    for k in [4, 5, 10] {
        let a: Vec<f64> = (0..k).map(|i| 1.0 + 0.01 * (i % 5) as f64).collect();
        let mut b = a.clone();
        b.rotate_left(2);
        let o = eval(&c, Some(&launches("a", &a)), &launches("b", &b));
        assert_eq!(o.verdict, Verdict::Pass, "{k}: {}", o.detail());
    }
}

#[test]
fn fixed_references_and_statistics() {
    // The median of 6 launches against a number: its interval is the extremes (96.9 %).
    let six = launches("six", &[0.9, 0.92, 0.94, 0.96, 0.98, 1.0]);
    let mut c = crit(Reference::Value(1.0), None, Some(0.05));
    c.bytes = Some((4, 4));
    let o = eval(&c, None, &six);
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
    c.upper = Some(0.0);
    c.lower = Some(-0.05);
    // 0.90..1.00 straddles the lower bound 0.95.
    assert_eq!(eval(&c, None, &six).verdict, Verdict::Inconclusive);
    // Five launches cannot bound a median at 95 %.
    let five = launches("five", &[0.9, 0.92, 0.94, 0.96, 0.98]);
    c.lower = None;
    c.upper = Some(0.05);
    assert_eq!(eval(&c, None, &five).verdict, Verdict::Inconclusive);
    // min: the best launch, exact; one launch decides.
    c.statistic = Statistic::Min;
    let one = launches("one", &[1.2]);
    let o = eval(&c, None, &one);
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
    assert!(
        o.detail().contains("the min over 1 launch(es), exact"),
        "{}",
        o.detail()
    );
    assert_eq!(eval(&c, None, &five).verdict, Verdict::Pass);
    assert_eq!(Statistic::parse("p90"), Ok(Statistic::Quantile(0.9)));
    assert!(Statistic::parse("p100").is_err() && Statistic::parse("mean").is_err());
    // p90 against the baseline: two quantile intervals at sqrt(0.95) each; the upper order
    // statistic of a p90 exists only from 42 launches.
    c.statistic = Statistic::Quantile(0.9);
    c.reference = Reference::Baseline;
    let many: Vec<f64> = (0..60).map(|i| 1.0 + 0.001 * f64::from(i)).collect();
    let o = eval(&c, Some(&launches("a", &many)), &launches("b", &many));
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
}

#[test]
fn nothing_matches_and_no_baseline() {
    let new = launches("new", &BASE5);
    let c = crit(Reference::Baseline, None, Some(0.1));
    let o = eval(&c, None, &new);
    assert_eq!(o.verdict, Verdict::Fail);
    assert!(o.detail().contains("no BASE"), "{}", o.detail());
    let mut c = crit(Reference::Value(1.0), None, Some(0.1));
    c.benchmark = "Bcast".into();
    let o = eval(&c, None, &new);
    assert_eq!(
        (o.verdict, o.detail().as_str()),
        (Verdict::Fail, "no row of new matches the criterion")
    );
    assert_eq!(o.blocked.unwrap().code, "no-rows");
}

#[test]
fn flags_time_outs_oversubscription_and_cuts() {
    let base = launches("base", &BASE5);
    let mut new = launches("new", &BASE5);
    new.runs[0].tables[0].flags.push((Some(8), Flag::Unsettled));
    let c = crit(Reference::Baseline, Some(-0.1), Some(0.1));
    let o = eval(&c, Some(&base), &new);
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
    assert!(
        o.detail()
            .contains("8 bytes np=2: UNSETTLED (new), not a measurement"),
        "{}",
        o.detail()
    );
    let flagged = Acceptance {
        flagged: true,
        ..Acceptance::text_runs()
    };
    assert_eq!(
        evaluate(&c, Some(&base), &new, &flagged, 0.95, 1).verdict,
        Verdict::Pass
    );
    // A size printed as a time-out has no figure: inconclusive, or left out on purpose.
    let mut timed_out = launches("new", &BASE5);
    for r in &mut timed_out.runs {
        r.tables[0].rows.truncate(1);
        r.tables[0].flags.push((Some(8), Flag::TimeOut));
    }
    let o = eval(&c, Some(&base), &timed_out);
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
    assert!(
        o.detail()
            .contains("8 bytes np=2: TIME-OUT (new), no figure"),
        "{}",
        o.detail()
    );
    let o = evaluate(&c, Some(&base), &timed_out, &flagged, 0.95, 1);
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
    assert!(
        o.detail().ends_with("; 1 size(s) left out"),
        "{}",
        o.detail()
    );
    // Oversubscribed: a fail unless accepted.
    let mut over = base.clone();
    over.runs[0].oversubscribed = Some("3 processes share 2 CPUs".into());
    let o = eval(&c, Some(&over), &base);
    assert_eq!(o.verdict, Verdict::Fail);
    assert!(
        o.detail()
            .starts_with("base ran oversubscribed (3 processes"),
        "{}",
        o.detail()
    );
    let lenient = Acceptance {
        oversubscribed: true,
        ..Acceptance::text_runs()
    };
    assert_eq!(
        evaluate(&c, Some(&over), &base, &lenient, 0.95, 1).verdict,
        Verdict::Pass
    );
    // A launch cut short: inconclusive unless accepted.
    let mut cut = base.clone();
    cut.runs[2].status = crate::read::run::Status::CutShort("status interrupted: x".into());
    let o = eval(&c, Some(&base), &cut);
    assert_eq!(o.verdict, Verdict::Inconclusive);
    assert_eq!(o.blocked.as_ref().unwrap().code, "cut-short");
    let lenient = Acceptance {
        incomplete: true,
        ..Acceptance::text_runs()
    };
    assert_eq!(
        evaluate(&c, Some(&base), &cut, &lenient, 0.95, 1).verdict,
        Verdict::Pass
    );
}

#[test]
fn conditions_that_differ_fail_unless_accepted_by_name() {
    let base = launches("base", &BASE5);
    let mut new = launches("new", &BASE5);
    for r in &mut new.runs {
        r.conditions.thread_level = Some("MPI_THREAD_MULTIPLE".into());
    }
    let c = crit(Reference::Baseline, None, Some(0.1));
    let o = eval(&c, Some(&base), &new);
    assert_eq!(o.verdict, Verdict::Fail);
    assert_eq!(
        o.detail(),
        "conditions differ: thread level: MPI_THREAD_SINGLE (base) vs MPI_THREAD_MULTIPLE (new) \
         (not comparable; --accept-difference thread-level judges them anyway)"
    );
    let accept = Acceptance {
        differences: [crate::conditions::Kind::ThreadLevel].into_iter().collect(),
        ..Acceptance::text_runs()
    };
    let o = evaluate(&c, Some(&base), &new, &accept, 0.95, 1);
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
    assert_eq!(o.accepted.len(), 1);
    // A fixed reference judges one run: only its own launches must agree among themselves.
    let mut mixed = launches("mixed", &BASE5);
    mixed.runs[1].conditions.thread_level = Some("MPI_THREAD_MULTIPLE".into());
    let c = crit(Reference::Value(1.0), None, Some(0.5));
    let o = eval(&c, None, &mixed);
    assert_eq!(o.verdict, Verdict::Fail);
    assert!(
        o.detail()
            .starts_with("conditions differ: thread level: the launches of new differ: "),
        "{}",
        o.detail()
    );
}

/// Noise over 20 sizes, the same machine twice: a size may look beyond the bound on its own
/// interval; with the 20 sizes taken together nothing fails (the permutation of whole
/// launches, crate::judge::family).
#[test]
fn noise_over_many_sizes_fails_nothing() {
    let mut state: u64 = 7;
    let mut noise = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        1.0 + (state % 1000) as f64 / 1000.0
    };
    let mut draw =
        || -> Vec<Vec<f64>> { (0..5).map(|_| (0..20).map(|_| noise()).collect()).collect() };
    let (n, b) = (draw(), draw());
    let l = |v: &Vec<Vec<f64>>| -> Vec<(&'static str, Vec<f64>)> {
        v.iter().map(|r| (LVL, r.clone())).collect()
    };
    let (ln, lb) = (l(&n), l(&b));
    let as_side = |label: &str, v: &[(&'static str, Vec<f64>)]| {
        let refs: Vec<(&str, &[f64])> = v.iter().map(|(a, r)| (*a, &r[..])).collect();
        side(label, &refs)
    };
    let (new, base) = (as_side("new", &ln), as_side("base", &lb));
    let mut c = crit(Reference::Baseline, None, Some(0.0));
    c.bytes = None;
    let o = eval(&c, Some(&base), &new);
    assert_ne!(o.verdict, Verdict::Fail, "{}", o.detail());
    assert_eq!(o.sizes.len(), 20);
    let alone: Vec<&SizeCheck> = o
        .sizes
        .iter()
        .filter(|s| s.interval.is_some_and(|(lo, _)| lo > 1.0))
        .collect();
    assert!(
        !alone.is_empty(),
        "the noise is expected to put one size beyond 1 on its own"
    );
    for s in alone {
        assert_eq!(s.reason.as_ref().unwrap().code, "beyond-alone", "{s:?}");
    }
    // Against a number, the sizes taken together by Bonferroni: 6 launches put the median's
    // interval at the extremes (96.9 %), which is not enough for a FAIL across 2 sizes
    // (97.5 % each).
    let six = launches("six", &[2.0, 2.1, 2.2, 2.3, 2.4, 2.5]);
    let c = crit(Reference::Value(1.0), None, Some(0.1));
    let o = eval(&c, None, &six);
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
    assert_eq!(o.sizes[0].reason.as_ref().unwrap().code, "beyond-alone");
    let eight = launches("eight", &[2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7]);
    assert_eq!(eval(&c, None, &eight).verdict, Verdict::Fail);
}

/// A references file of many criteria, as large as an input file may be: every line read in
/// one pass. (Each criterion's line was counted from the start of the text, which took minutes
/// on such a file; the test judges only the result.)
#[test]
fn a_file_of_many_criteria_at_the_input_cap() {
    // Each its own size range, so each its own name.
    let one = |k: usize| {
        format!(
            "[[criterion]]\nbenchmark = \"PingPong\"\nbytes = [0, {k}]\nmetric = \"t\"\n\
             reference = \"baseline\"\nupper = 0.25\n\n"
        )
    };
    let mut text = String::new();
    let mut n = 0;
    while text.len() + one(n).len() <= imb_core::safefile::INPUT_CAP as usize - 200 {
        text.push_str(&one(n));
        n += 1;
    }
    let c = parse("big.toml", &text).unwrap();
    assert_eq!(c.len(), n);
    assert_eq!(c[n - 1].line, 7 * (n - 1) + 1);
    // An error at the end names its line.
    let bad = format!(
        "{text}[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"speed\"\nreference = 1\nupper = 0.1\n"
    );
    assert!(bad.len() as u64 <= imb_core::safefile::INPUT_CAP);
    let e = parse("big.toml", &bad).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("big.toml, line {}: metric", 7 * n + 3)),
        "{e}"
    );
}

/// Launches with a little noise (±2 %), seeded: `n` of them, each `scale` times a figure near 1.
fn noisy(n: usize, scale: f64, seed: u64) -> Vec<f64> {
    let mut state = seed.max(1);
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            scale * (0.98 + (state % 4001) as f64 / 100_000.0)
        })
        .collect()
}

/// Issue 38's first probe: 7 % slower against a +20 % bound is inside it, and must never FAIL
/// however many launches show it; 30 % slower must FAIL. The null hypothesis is the bound.
#[test]
fn a_fail_is_shown_beyond_the_bound() {
    let c = crit(Reference::Baseline, None, Some(0.20));
    for n in [5, 6, 10, 20, 40] {
        let base = launches("base", &noisy(n, 1.0, 3));
        let o = eval(&c, Some(&base), &launches("new", &noisy(n, 1.07, 5)));
        assert_eq!(o.verdict, Verdict::Pass, "{n}: {}", o.detail());
        let o = eval(&c, Some(&base), &launches("new", &noisy(n, 1.30, 5)));
        assert_eq!(o.verdict, Verdict::Fail, "{n}: {}", o.detail());
    }
}

/// Whatever the figures, a failed size's printed interval lies wholly beyond a bound: the line
/// can never contradict itself (also at a confidence as low as 0.5).
#[test]
fn a_failed_size_never_shows_an_interval_inside() {
    for seed in 1..200u64 {
        let scale = 0.9 + (seed % 7) as f64 * 0.05;
        let base = launches("base", &noisy(6, 1.0, seed));
        let new = launches("new", &noisy(6, scale, seed * 31 + 7));
        for confidence in [0.5, 0.95] {
            let c = crit(Reference::Baseline, Some(-0.05), Some(0.05));
            let o = evaluate(
                &c,
                Some(&base),
                &new,
                &Acceptance::text_runs(),
                confidence,
                1,
            );
            for s in o.sizes.iter().filter(|s| s.verdict == Some(Verdict::Fail)) {
                let (lo, hi) = s.interval.unwrap();
                assert!(lo > 1.05 || hi < 0.95, "{seed}: {}", o.detail());
            }
        }
    }
}

/// The file's error rate is split among its bound tests: a min or max against a number is
/// exact and costs nothing; more tests need more launches before a FAIL can be shown.
#[test]
fn one_error_rate_for_the_whole_file() {
    let mut list = vec![
        crit(Reference::Baseline, Some(-0.1), Some(0.1)),
        crit(Reference::Baseline, None, Some(0.1)),
    ];
    let mut exact = crit(Reference::Value(2.0), Some(-0.1), None);
    exact.statistic = Statistic::Max;
    list.push(exact);
    assert_eq!(tests_in(&list), 3);
    assert_eq!(tests_in(&[]), 1);
    assert!((false_fail_rate(0.95) - 0.025).abs() < 1e-12);
    // As a report prints it: not 0.025000000000000022.
    assert_eq!(false_fail_rate(0.95).to_string(), "0.025");
    // 5 against 5, every launch far beyond: alone 1 split in 252 is as extreme (0.4 %), under
    // 2.5 %; split among 7 tests (0.36 % each) it is not enough, 6 against 6 (1 in 924) is.
    let c = crit(Reference::Baseline, None, Some(0.1));
    let slow = |n| launches("slow", &noisy(n, 3.0, 9));
    let base = |n| launches("base", &noisy(n, 1.0, 2));
    let at = |n, tests| {
        evaluate(
            &c,
            Some(&base(n)),
            &slow(n),
            &Acceptance::text_runs(),
            0.95,
            tests,
        )
        .verdict
    };
    assert_eq!(at(5, 1), Verdict::Fail);
    assert_eq!(at(5, 7), Verdict::Inconclusive);
    assert_eq!(at(6, 7), Verdict::Fail);
    let o = evaluate(
        &c,
        Some(&base(5)),
        &slow(5),
        &Acceptance::text_runs(),
        0.95,
        7,
    );
    assert!(
        o.detail().contains("each bound tested at 0.36 %"),
        "{}",
        o.detail()
    );
}

/// A time of 0 (or a bandwidth of 0 where bytes moved) is not a measurement: it decides
/// nothing, in either run, unless the program flagged its row.
#[test]
fn a_zero_decides_nothing() {
    let base = launches("base", &BASE5);
    let c = crit(Reference::Baseline, None, Some(0.2));
    let mut zero = BASE5;
    zero[2] = 0.0;
    for (b, n) in [
        (&base, &launches("new", &zero)),
        (&launches("b", &zero), &base),
    ] {
        let o = eval(&c, Some(b), n);
        assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
        assert!(
            o.detail().contains("a time of 0 in launch 3 of 5"),
            "{}",
            o.detail()
        );
    }
    let o = eval(
        &crit(Reference::Value(1.0), None, Some(0.2)),
        None,
        &launches("n", &zero),
    );
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
}

/// min and max against the baseline: one extreme launch a side has no honest interval, so the
/// file is refused with the reason; against a number they stay exact.
#[test]
fn an_extreme_against_the_baseline_is_refused() {
    for st in ["min", "max"] {
        let text = GOOD.replace(
            "reference = \"baseline\"",
            &format!("reference = \"baseline\"\nstatistic = \"{st}\""),
        );
        let e = parse("acc.toml", &text).unwrap_err().to_string();
        assert!(e.starts_with("acc.toml, line 9: statistic "), "{e}");
        assert!(e.contains("use \"median\" or a percentile"), "{e}");
        assert_eq!(e.lines().count(), 1);
        let number = GOOD.replace(
            "reference = 2",
            &format!("reference = 2\nstatistic = \"{st}\""),
        );
        assert!(parse("acc.toml", &number).is_ok());
    }
}

/// The pool of 40 real launches (tests/fixtures/pool-2core-vm.tsv): per launch, PingPong's
/// times from 0 to 1024 bytes, then Barrier's.
fn pool() -> Vec<Vec<f64>> {
    let text = include_str!("../../../tests/fixtures/pool-2core-vm.tsv");
    let mut launches: Vec<Vec<f64>> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let k: usize = f[0].parse().unwrap();
        if launches.len() < k {
            launches.push(Vec::new());
        }
        launches[k - 1].push(f[3].parse().unwrap());
    }
    assert_eq!(launches.len(), 40);
    launches
}

/// Resampled from real launches, with a known truth: the chance of a false FAIL stays at the
/// stated rate (2.5 % a file), both for identical runs at ±5 % and for a run exactly at a +5 %
/// bound, the hardest case the rate is stated for. Two-level noise included (the pool holds
/// launches 20 to 40 times slower than the rest at small sizes).
#[test]
fn false_fails_on_resampled_real_launches_stay_at_the_stated_rate() {
    let pool = pool();
    let mut state: u64 = 0x5EED;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut c = crit(Reference::Baseline, Some(-0.05), Some(0.05));
    c.bytes = None;
    let tries = 300;
    for per_side in [5, 6] {
        for scale in [1.0, 1.05] {
            let mut fails = 0;
            for _ in 0..tries {
                let mut order: Vec<usize> = (0..pool.len()).collect();
                for i in 0..2 * per_side {
                    let j = i + next(pool.len() - i);
                    order.swap(i, j);
                }
                let pick = |from: usize, k: f64| -> Vec<(&str, Vec<f64>)> {
                    order[from..from + per_side]
                        .iter()
                        .map(|&l| (LVL, pool[l].iter().map(|x| x * k).collect()))
                        .collect()
                };
                let (b, n) = (pick(0, 1.0), pick(per_side, scale));
                let as_side = |label, v: &[(&str, Vec<f64>)]| {
                    let l: Vec<(&str, &[f64])> = v.iter().map(|(a, x)| (*a, &x[..])).collect();
                    side(label, &l)
                };
                let o = evaluate(
                    &c,
                    Some(&as_side("base", &b)),
                    &as_side("new", &n),
                    &Acceptance::text_runs(),
                    0.95,
                    2,
                );
                fails += usize::from(o.verdict == Verdict::Fail);
            }
            // 2.5 % of 300 is 7.5; 17 is beyond the 99.9th percentile of that binomial.
            assert!(
                fails <= 17,
                "{per_side} a side, x{scale}: {fails} of {tries}"
            );
        }
    }
}

/// Unknown is not equal: a run that does not record a condition (IMB 3.0 text: no MPI library,
/// no placement) cannot pass or fail against a baseline until that is accepted by name.
#[test]
fn an_unrecorded_condition_is_inconclusive_unless_accepted() {
    let base = launches("base", &BASE5);
    let slow: Vec<f64> = BASE5.iter().map(|x| x * 3.0).collect();
    let c = crit(Reference::Baseline, None, Some(0.1));
    let o = evaluate(
        &c,
        Some(&base),
        &launches("slow", &slow),
        &Acceptance::default(),
        0.95,
        1,
    );
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
    assert_eq!(o.blocked.as_ref().unwrap().code, "unrecorded");
    assert!(
        o.detail().starts_with(
            "MPI library not recorded by slow, base; placement and ranks per host not recorded \
             by slow, base; binding not recorded by slow, base: unknown is not equal"
        ),
        "{}",
        o.detail()
    );
    assert!(o
        .detail()
        .ends_with("--accept-unrecorded mpi,placement,binding judges them anyway)"));
    let o = evaluate(
        &c,
        Some(&base),
        &launches("slow", &slow),
        &Acceptance::text_runs(),
        0.95,
        1,
    );
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
    // Against a number nothing is compared: nothing unknown to be equal.
    let o = eval(
        &crit(Reference::Value(1.0), None, Some(0.1)),
        None,
        &launches("s", &slow),
    );
    assert_ne!(o.blocked.as_ref().map(|r| r.code), Some("unrecorded"));
}

/// A size the baseline measured and the new run did not fails the criterion that covers it,
/// named; outside the criterion's sizes it is nobody's business.
#[test]
fn a_baseline_size_missing_from_new_fails() {
    let base = launches("base", &BASE5);
    // The new launches print only the 4-byte row.
    let rows: Vec<[f64; 1]> = BASE5.iter().map(|&x| [x]).collect();
    let l: Vec<(&str, &[f64])> = rows.iter().map(|r| (LVL, &r[..])).collect();
    let new = side("short", &l);
    let c = crit(Reference::Baseline, None, Some(0.5));
    let o = eval(&c, Some(&base), &new);
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
    assert!(
        o.detail()
            .contains("8 bytes np=2: in the baseline, not measured by short"),
        "{}",
        o.detail()
    );
    let mut only4 = c.clone();
    only4.bytes = Some((4, 4));
    assert_ne!(eval(&only4, Some(&base), &new).verdict, Verdict::Fail);
}

/// One criterion with every key, each on its own line (line 2 to 11), for the tests that
/// replace one key's value.
const EVERY_KEY: &str = "[[criterion]]
name = \"n\"
benchmark = \"PingPong\"
processes = 2
mode = \"AGGREGATE\"
bytes = [0, 8]
metric = \"t\"
statistic = \"median\"
reference = 1
lower = -0.1
upper = 0.1
";

/// `EVERY_KEY` with `key`'s value replaced by `value`, and the line of that key.
fn with_key(key: &str, value: &str) -> (String, usize) {
    let mut line = 0;
    let text: Vec<String> = EVERY_KEY
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if l.starts_with(&format!("{key} = ")) {
                line = i + 1;
                format!("{key} = {value}")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(line > 0, "{key}");
    (text.join("\n") + "\n", line)
}

fn refused(text: &str) -> String {
    let e = parse("acc.toml", text).unwrap_err().to_string();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
    e
}

/// Every key with a value of every wrong type (and numbers past what TOML holds): one line
/// naming the file, the key's line and the key, never a bare serde message.
#[test]
fn every_key_of_a_wrong_type_is_named() {
    assert!(parse("acc.toml", EVERY_KEY).is_ok());
    let strings = ["name", "benchmark", "mode", "metric", "statistic"];
    let numbers = ["processes", "reference", "lower", "upper"];
    let wrong = [
        "\"s\"",
        "1",
        "-1",
        "1.5",
        "true",
        "[1, 2]",
        "{ a = 1 }",
        "1979-05-27",
        "07:32:00",
        "nan",
        "-inf",
        "[]",
        "18446744073709551615",
        "9223372036854775808",
    ];
    for key in strings.iter().chain(&numbers).chain(&["bytes"]) {
        for value in wrong {
            let fits = match *key {
                // The values these keys take.
                "name" | "benchmark" => value == "\"s\"",
                "processes" => value == "1",
                "reference" => matches!(value, "1" | "1.5"),
                "upper" => matches!(value, "1" | "1.5"),
                "bytes" => value == "[1, 2]",
                _ => false,
            };
            let (text, line) = with_key(key, value);
            if fits {
                assert!(parse("acc.toml", &text).is_ok(), "{key} = {value}");
                continue;
            }
            let e = refused(&text);
            let named = [format!("{key}: "), format!("{key} \"")]
                .iter()
                .any(|k| e.starts_with(&format!("acc.toml, line {line}: {k}")));
            assert!(named, "{key} = {value}: {e}");
        }
    }
    // Inside an array over lines: the key is named, at its line.
    let e = refused(&EVERY_KEY.replace("bytes = [0, 8]", "bytes = [\n  0,\n  \"a\"]"));
    assert!(e.starts_with("acc.toml, line 6: bytes: "), "{e}");
    let e = refused(&EVERY_KEY.replace("bytes = [0, 8]", "bytes = [\n  0,\n  1e999]"));
    assert!(e.starts_with("acc.toml, line 8: bytes: "), "{e}");
    for (bad, want) in [
        ("criterion = 1\n", "acc.toml, line 1: criterion: "),
        ("criterion = [1]\n", "acc.toml, line 1: criterion: "),
        (
            "[criterion]\nbenchmark = \"x\"\n",
            "acc.toml, line 1: criterion: ",
        ),
        ("[[criterion]]\n", "acc.toml, line 1: benchmark: missing"),
        // Dotted keys make tables where a value belongs.
        (
            "[[criterion]]\nbenchmark.x = 1\n",
            "acc.toml, line 2: benchmark.x: ",
        ),
        ("[criterion.x]\na = 1\n", "acc.toml, line 1: criterion.x: "),
        ("[[criterion]\n", "acc.toml, line 1: criterion: "),
        (
            "[[criterion]]\nupper = 0.1.2\n",
            "acc.toml, line 2: upper: ",
        ),
        (
            "[[criterion]]\nbenchmark = \"x\"\nreference = 1\nupper = 1\n",
            "acc.toml, line 1: metric: missing",
        ),
    ] {
        let e = refused(bad);
        assert!(e.starts_with(want), "{bad:?}: {e}");
    }
}

/// A criterion's name, benchmark and mode are printed on one line of the report, which a
/// newline breaks, an escape sequence drives the terminal from and a direction override turns
/// backwards: refused, as are blank ones, a mode no table has and a process count of 0, which
/// could only match nothing.
#[test]
fn names_benchmarks_and_modes_are_one_plain_line() {
    for (key, value, want) in [
        ("name", "\"\"", "name: "),
        ("name", "\"  \"", "name: "),
        ("name", "\"a\\nb\"", "name: "),
        ("name", "\"a\\u001b[31m\"", "name: "),
        ("name", "\"a\\u007f\"", "name: "),
        // Right-to-left override: the rest of the report's line would read backwards.
        ("name", "\"lat\\u202eycnet\"", "name: "),
        ("benchmark", "\"Ping\\u2067Pong\"", "benchmark: "),
        ("benchmark", "\"\"", "benchmark: "),
        ("benchmark", "\"Ping\\u0000Pong\"", "benchmark: "),
        ("benchmark", "\"PingPong\\r\"", "benchmark: "),
        ("mode", "\"\"", "mode: "),
        (
            "mode",
            "\"aggregate\"",
            "mode: \"aggregate\": AGGREGATE or NON-AGGREGATE",
        ),
        ("processes", "0", "processes: "),
    ] {
        let (text, line) = with_key(key, value);
        let e = refused(&text);
        assert!(
            e.starts_with(&format!("acc.toml, line {line}: {want}")),
            "{key} = {value}: {e}"
        );
    }
    for (key, value) in [
        ("name", "\"tab\\tinside, é and ∞\""),
        ("mode", "\"NON-AGGREGATE\""),
        ("benchmark", "\"*\""),
    ] {
        assert!(
            parse("acc.toml", &with_key(key, value).0).is_ok(),
            "{key} = {value}"
        );
    }
}

/// References far outside any figure a benchmark prints (1e-300 µs, 1e308 Mbytes/sec) are
/// refused: their ratios ran to hundreds of digits in every output. -0 is 0.
#[test]
fn references_and_bounds_at_their_limits() {
    for value in [
        "1e-300",
        "5e-324",
        "1e-7",
        "1e308",
        "1.7976931348623157e308",
        "9223372036854775807",
        "1000000000001",
        "-0.0",
        "0",
    ] {
        let (text, line) = with_key("reference", value);
        let e = refused(&text);
        assert!(
            e.starts_with(&format!("acc.toml, line {line}: reference: ")),
            "{value}: {e}"
        );
    }
    for (value, want) in [("1e-6", 1e-6), ("1e12", 1e12), ("1000000000000", 1e12)] {
        let c = parse("acc.toml", &with_key("reference", value).0).unwrap();
        assert_eq!(c[0].reference, Reference::Value(want), "{value}");
    }
    for (key, value) in [
        ("lower", "-1"),
        ("lower", "-1.0000001"),
        ("lower", "1e-300"),
        ("upper", "-1e-300"),
        ("upper", "1000000.0001"),
    ] {
        let (text, line) = with_key(key, value);
        let e = refused(&text);
        assert!(
            e.starts_with(&format!("acc.toml, line {line}: {key}: ")),
            "{key} = {value}: {e}"
        );
    }
    let c = parse("acc.toml", &with_key("lower", "-0.9999999").0).unwrap();
    assert_eq!(c[0].lower, Some(-0.9999999));
    let c = parse("acc.toml", &with_key("upper", "1000000").0).unwrap();
    assert_eq!(c[0].upper, Some(1e6));
    // -0 is 0 on either side, and is printed so.
    let text = with_key("upper", "-0.0")
        .0
        .replace("lower = -0.1", "lower = -0.0");
    let c = parse("acc.toml", &text).unwrap();
    let (lo, hi) = (c[0].lower.unwrap(), c[0].upper.unwrap());
    assert!(lo == 0.0 && lo.is_sign_positive() && hi.is_sign_positive());
    // Known answers at those bounds: a min exactly at the reference is inside 0..0; one just
    // above is beyond.
    let mut c = crit(Reference::Value(1.0), Some(lo), Some(hi));
    c.statistic = Statistic::Min;
    c.bytes = Some((4, 4));
    let o = eval(&c, None, &launches("at", &[1.0, 1.5]));
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
    assert!(
        o.detail().contains("inside +0.0 %..+0.0 % of 1"),
        "{}",
        o.detail()
    );
    let o = eval(&c, None, &launches("above", &[1.0001, 1.5]));
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
    // The smallest and largest references: a 2 µs figure is two million times the first,
    // beyond the largest upper bound; 1 µs is a trillionth of the second.
    c.reference = Reference::Value(1e-6);
    c.upper = Some(1e6);
    let o = eval(&c, None, &launches("n", &[2.0]));
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
    assert!(o.detail().contains("ratio 2000000.000"), "{}", o.detail());
    let o = eval(&c, None, &launches("n", &[0.5]));
    assert_eq!(o.verdict, Verdict::Pass, "{}", o.detail());
    c.reference = Reference::Value(1e12);
    c.lower = Some(-0.9999999);
    c.upper = Some(0.0);
    let o = eval(&c, None, &launches("n", &[1.0]));
    assert_eq!(o.verdict, Verdict::Fail, "{}", o.detail());
}

/// A percentile is written one way, `p` and 1 to 99 without sign or leading zero, so that
/// the report, JSON and JUnit name it as the file does.
#[test]
fn statistics_are_spelled_one_way() {
    for ok in ["p1", "p9", "p50", "p99", "median", "min", "max"] {
        let st = Statistic::parse(ok).unwrap();
        assert_eq!(st.key(), ok);
    }
    for bad in [
        "p+5", "p05", "p0", "p100", "p-1", "p 5", "p5 ", "p٣", "P50", "p", "p1e1", "p50.0",
    ] {
        assert!(Statistic::parse(bad).is_err(), "{bad}");
        let (text, line) = with_key("statistic", &format!("{bad:?}"));
        let e = refused(&text);
        assert!(
            e.starts_with(&format!("acc.toml, line {line}: statistic ")),
            "{bad}: {e}"
        );
    }
}

/// Known answers at the limits of the confidence (0.5 and 0.999, what `--confidence` takes)
/// and of the percentiles (p1, p99) on constructed launches.
#[test]
fn confidences_and_percentiles_at_their_limits() {
    // 20 launches from 1.00 to 1.19 against the number 1: their p1 and p99 are 1.00 and 1.19.
    let a: Vec<f64> = (0..20).map(|i| 1.0 + 0.01 * f64::from(i)).collect();
    let new = launches("new", &a);
    let mut c = crit(Reference::Value(1.0), None, Some(0.5));
    c.bytes = Some((4, 4));
    for conf in [0.5, 0.95, 0.999] {
        c.statistic = Statistic::Median;
        let o = evaluate(&c, None, &new, &Acceptance::text_runs(), conf, 1);
        assert_eq!(o.verdict, Verdict::Pass, "{conf}: {}", o.detail());
        // 20 launches bound no p1 or p99 at any of these: never a verdict from a guess.
        for p in [0.01, 0.99] {
            c.statistic = Statistic::Quantile(p);
            let o = evaluate(&c, None, &new, &Acceptance::text_runs(), conf, 1);
            assert_eq!(
                o.verdict,
                Verdict::Inconclusive,
                "{conf} {p}: {}",
                o.detail()
            );
        }
    }
    // Every launch 3 times the reference: beyond +50 % at every confidence, and no interval
    // for p99 from 20 launches still decides nothing.
    let slow: Vec<f64> = a.iter().map(|x| 3.0 * x).collect();
    let slow = launches("slow", &slow);
    c.statistic = Statistic::Median;
    // The confidence is printed as given: 99.9 %, never rounded to a "100 %" no interval has.
    for (conf, words) in [(0.5, "50 % intervals"), (0.999, "99.9 % intervals")] {
        let o = evaluate(&c, None, &slow, &Acceptance::text_runs(), conf, 1);
        assert_eq!(o.verdict, Verdict::Fail, "{conf}: {}", o.detail());
        assert!(o.detail().contains(words), "{}", o.detail());
    }
    let o = evaluate(
        &c,
        None,
        &launches("one", &[3.0]),
        &Acceptance::text_runs(),
        0.999,
        1,
    );
    assert!(
        o.detail().contains("no 99.9 % interval from 1 launch(es)"),
        "{}",
        o.detail()
    );
    assert_eq!(percent(0.95), "95");
    assert_eq!(percent(0.975), "97.5");
    assert_eq!(percent(0.9999999), "99.99999");
    // A file of a million bound tests splits 0.05 % into parts that still decide a ratio of 3.
    let o = evaluate(&c, None, &slow, &Acceptance::text_runs(), 0.999, 1_000_000);
    assert_eq!(o.verdict, Verdict::Inconclusive, "{}", o.detail());
}

/// Two criteria that check the same thing under two names count twice in the file's error
/// rate and print the same verdict twice: refused, naming the first.
#[test]
fn duplicate_criteria_are_refused() {
    let two = format!("{EVERY_KEY}\n{}", EVERY_KEY.replace("\"n\"", "\"m\""));
    let e = refused(&two);
    assert!(
        e.starts_with("acc.toml, line 13: the criterion of line 1 checks the same"),
        "{e}"
    );
    // Any key that differs makes it another criterion.
    for (from, to) in [
        ("upper = 0.1", "upper = 0.2"),
        ("bytes = [0, 8]", "bytes = [0, 16]"),
        ("metric = \"t\"", "metric = \"t_avg\""),
        ("mode = \"AGGREGATE\"", "mode = \"NON-AGGREGATE\""),
    ] {
        let other = format!(
            "{EVERY_KEY}\n{}",
            EVERY_KEY.replace("\"n\"", "\"m\"").replace(from, to)
        );
        assert!(parse("acc.toml", &other).is_ok(), "{to}");
    }
}
