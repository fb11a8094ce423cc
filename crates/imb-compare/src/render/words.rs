//! What the formats share: figures in words (2 decimals, ratios, intervals, units), the lines
//! that describe a run, a table's summary line and differences, a criterion's line, the
//! criteria's false-FAIL rate and tally.

use crate::judge::comparison::{Compared, Criteria};
use crate::judge::criteria::Outcome;
use crate::judge::versus::TableVs;
use crate::read::key::{table_title, Metric};
use crate::read::sides::Side;

/// A figure with the text tables' 2 decimals, "-" for none.
pub(crate) fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "-".to_string()
    }
}

pub(crate) fn ratio(q: Option<f64>) -> String {
    q.map_or("-".to_string(), |q| format!("{q:.3}"))
}

/// "0.981..1.032", "-" for none.
pub(crate) fn interval(iv: Option<(f64, f64)>) -> String {
    iv.map_or("-".to_string(), |(lo, hi)| format!("{lo:.3}..{hi:.3}"))
}

/// The metric's unit, for bounds and properties.
pub(crate) fn unit(m: Metric) -> &'static str {
    match m {
        Metric::Mbytes => "Mbytes/sec",
        Metric::MsgPerS => "Msg/sec",
        _ => "usec",
    }
}

/// What a run is: its launches and title, where it ran when known, a cut-short or
/// oversubscribed launch (`!!` lines).
pub(crate) fn side_lines(s: &Side, role: &str) -> Vec<String> {
    let first = s.runs.first();
    let mut v = vec![format!(
        "{role} {}: {} launch(es), {}",
        s.label,
        s.runs.len(),
        first.map_or("", |r| r.title.as_str())
    )];
    if let Some(p) = s.runs.iter().find_map(|r| r.provenance.as_deref()) {
        v.push(format!("{role} {}: {p}", s.label));
    }
    if let Some(o) = s.runs.iter().find_map(|r| r.oversubscribed.as_deref()) {
        v.push(format!("!! {}: {o}", s.label));
    }
    for (r, f) in s.runs.iter().zip(&s.files) {
        if let Some(why) = r.status.cut_short() {
            v.push(format!("!! {}: {f} was cut short: {why}", s.label));
        }
    }
    v
}

/// The line above and below a table, without any prefix.
pub(crate) fn summary_line(t: &TableVs, metric: Metric) -> String {
    let s = t.summary(metric);
    let geo = s.geo_mean.map_or("no ratio".to_string(), |g| {
        format!("geometric mean ratio {g:.3}")
    });
    let worst = s.worst.map_or(String::new(), |(b, q)| {
        let at = b.map_or("the row".to_string(), |b| format!("{b} bytes"));
        format!(", worst {at} ({q:.3})")
    });
    let flagged = t.rows.iter().filter(|r| !r.flags.is_empty()).count();
    let flagged = if flagged > 0 {
        format!(", {flagged} flagged size(s) left out")
    } else {
        String::new()
    };
    let undecided = if s.undecided > 0 {
        format!(", {} undecided (no interval)", s.undecided)
    } else {
        String::new()
    };
    format!(
        "{}: {geo}{worst}; {} worse, {} better beyond noise of {} size(s){undecided}{flagged}",
        table_title(&t.key),
        s.worse,
        s.better,
        s.sizes
    )
}

/// Every difference that defines a table's figures: the run's and the table's placement, in
/// the order of their kinds.
pub(crate) fn table_differences<'a>(
    cmp: &'a Compared,
    t: &'a TableVs,
) -> Vec<&'a crate::conditions::Difference> {
    let mut all: Vec<&crate::conditions::Difference> =
        cmp.differences.iter().chain(&t.differences).collect();
    all.sort();
    all.dedup();
    all
}

/// One criterion's line: "PASS name [run]: detail".
pub(crate) fn outcome_line(o: &Outcome) -> String {
    format!(
        "{} {} [{}]: {}",
        o.verdict.word(),
        o.criterion.name,
        o.side,
        o.detail()
    )
}

/// "chance of any false FAIL in the file 2.5 % a run, 5 bound test(s) at 0.50 % each".
pub(crate) fn rate(c: &Criteria) -> String {
    format!(
        "chance of any false FAIL in the file {:.1} % a run, {} bound test(s) at {:.2} % each",
        100.0 * c.false_fail_rate,
        c.tests,
        100.0 * c.false_fail_rate / c.tests as f64
    )
}

/// "1 of 5 criteria failed, 2 inconclusive".
pub(crate) fn tally(c: &Criteria) -> String {
    use crate::judge::criteria::Verdict;
    let n = c.outcomes.len();
    let mut s = format!("{} of {n} criteria failed", c.count(Verdict::Fail));
    let inc = c.count(Verdict::Inconclusive);
    if inc > 0 {
        s.push_str(&format!(", {inc} inconclusive"));
    }
    s
}
