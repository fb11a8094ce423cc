//! The acceptance criteria as a JUnit XML report (`--junit FILE`), the form CI systems
//! (GitLab, Jenkins, GitHub's test reporters) read: one `<testsuite>` per new run, one
//! `<testcase>` per criterion with its figures as `<properties>`, a `<failure>` (FAIL) or an
//! `<error type="inconclusive">` (INCONCLUSIVE) naming why.

use super::words::unit;
use crate::judge::criteria::{Outcome, Reference, Verdict};
use std::fmt::Write;

/// `s` as XML attribute or element text: markup characters escaped, and control characters
/// that XML 1.0 cannot hold at all replaced.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\t' | '\n' | '\r' => o.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}

/// A criterion's figures as JUnit `<properties>`: what CI dashboards can chart and scripts can
/// read without parsing the message.
fn properties(o: &Outcome) -> Vec<(&'static str, String)> {
    let k = &o.criterion;
    let num = |x: Option<f64>| {
        x.filter(|v| v.is_finite())
            .map_or(String::new(), |v| format!("{v}"))
    };
    let mut p = vec![
        ("verdict", o.verdict.key().to_string()),
        ("metric", k.metric.key().to_string()),
        ("statistic", k.statistic.key()),
        ("unit", unit(k.metric).to_string()),
        (
            "reference",
            match k.reference {
                Reference::Value(v) => format!("{v}"),
                Reference::Baseline => "baseline".to_string(),
            },
        ),
        ("lower", num(k.lower)),
        ("upper", num(k.upper)),
        ("confidence", format!("{}", o.confidence)),
        ("launches_new", o.launches.0.to_string()),
        ("launches_base", o.launches.1.to_string()),
        ("sizes", o.judged().count().to_string()),
    ];
    if let Some(b) = &o.blocked {
        p.push(("reason", b.code.to_string()));
    }
    if let Some(w) = o.worst() {
        p.extend([
            (
                "worst_bytes",
                w.bytes.map_or(String::new(), |b| b.to_string()),
            ),
            ("value", num(w.value)),
            ("reference_value", num(w.reference)),
            ("ratio", num(w.ratio)),
            ("interval_low", num(w.interval.map(|i| i.0))),
            ("interval_high", num(w.interval.map(|i| i.1))),
            ("margin", num(w.margin)),
        ]);
    }
    p
}

/// The whole document: a `<failure>` for FAIL, an `<error type="inconclusive">` for
/// INCONCLUSIVE (not a pass, and not a measured failure either: rerun), nothing for PASS.
pub fn document(file: &str, all: &[Outcome]) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let count = |v: Verdict, of: &[&Outcome]| of.iter().filter(|o| o.verdict == v).count();
    let every: Vec<&Outcome> = all.iter().collect();
    let _ = writeln!(
        s,
        "<testsuites name=\"imb-compare\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
        all.len(),
        count(Verdict::Fail, &every),
        count(Verdict::Inconclusive, &every)
    );
    let mut runs: Vec<&str> = Vec::new();
    for o in all {
        if !runs.contains(&o.side.as_str()) {
            runs.push(&o.side);
        }
    }
    for run in runs {
        let mine: Vec<&Outcome> = all.iter().filter(|o| o.side == run).collect();
        let _ = writeln!(
            s,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">",
            escape(&format!("{file}: {run}")),
            mine.len(),
            count(Verdict::Fail, &mine),
            count(Verdict::Inconclusive, &mine)
        );
        for o in mine {
            let _ = writeln!(
                s,
                "    <testcase classname=\"{}\" name=\"{}\">",
                escape(&format!("imb-compare.{run}")),
                escape(&o.criterion.name)
            );
            s.push_str("      <properties>\n");
            for (name, value) in properties(o) {
                let _ = writeln!(
                    s,
                    "        <property name=\"{name}\" value=\"{}\"/>",
                    escape(&value)
                );
            }
            s.push_str("      </properties>\n");
            let detail = escape(&o.detail());
            let _ = match o.verdict {
                Verdict::Pass => writeln!(s, "      <system-out>{detail}</system-out>"),
                Verdict::Fail => writeln!(
                    s,
                    "      <failure message=\"{detail}\" type=\"criterion\">{detail}</failure>"
                ),
                Verdict::Inconclusive => writeln!(
                    s,
                    "      <error message=\"{detail}\" type=\"inconclusive\">{detail}</error>"
                ),
            };
            s.push_str("    </testcase>\n");
        }
        s.push_str("  </testsuite>\n");
    }
    s.push_str("</testsuites>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::criteria::{evaluate, parse, Acceptance};
    use crate::read::sides::fixture_side as side;

    #[test]
    fn verdicts_properties_and_escapes() {
        let l = |x: &'static [f64]| ("x", x);
        let base = side(
            "b",
            &[l(&[1.0]), l(&[1.01]), l(&[0.99]), l(&[1.02]), l(&[1.0])],
        );
        let mut new = side(
            "n",
            &[l(&[2.0]), l(&[2.02]), l(&[1.98]), l(&[2.04]), l(&[2.0])],
        );
        new.label = "new <1>".into();
        let one = side("n1", &[l(&[1.0])]);
        let mut crits = parse(
            "acc.toml",
            "[[criterion]]\nname = \"bad\"\nbenchmark = \"*\"\nmetric = \"t\"\n\
             reference = \"baseline\"\nupper = 0.1\n",
        )
        .unwrap();
        // A references file refuses a control character in a name; the escape still holds.
        crits[0].name = "bad 'one' & \u{1}".into();
        let acc = Acceptance::text_runs();
        let fail = evaluate(&crits[0], Some(&base), &new, &acc, 0.95, 1);
        let pass = evaluate(&crits[0], Some(&base), &base, &acc, 0.95, 1);
        let inconclusive = evaluate(&crits[0], Some(&base), &one, &acc, 0.95, 1);
        let doc = document("acc.toml", &[fail, pass, inconclusive]);
        let x = roxmltree::Document::parse(&doc).unwrap();
        let root = x.root_element();
        assert_eq!(
            (
                root.attribute("tests"),
                root.attribute("failures"),
                root.attribute("errors")
            ),
            (Some("3"), Some("1"), Some("1"))
        );
        let cases: Vec<_> = x
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases[0].attribute("name"), Some("bad 'one' & \u{fffd}"));
        assert_eq!(cases[0].attribute("classname"), Some("imb-compare.new <1>"));
        let kinds: Vec<&str> = cases
            .iter()
            .map(|c| {
                c.children()
                    .filter(|n| n.is_element() && !n.has_tag_name("properties"))
                    .map(|n| n.tag_name().name())
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(kinds, ["failure", "system-out", "error"]);
        let prop = |case: usize, name: &str| {
            cases[case]
                .descendants()
                .find(|n| n.has_tag_name("property") && n.attribute("name") == Some(name))
                .and_then(|n| n.attribute("value"))
                .map(str::to_string)
        };
        assert_eq!(prop(0, "verdict").as_deref(), Some("fail"));
        assert_eq!(prop(0, "unit").as_deref(), Some("usec"));
        assert_eq!(prop(0, "upper").as_deref(), Some("0.1"));
        assert_eq!(prop(0, "reference").as_deref(), Some("baseline"));
        let ratio: f64 = prop(0, "ratio").unwrap().parse().unwrap();
        assert!((ratio - 2.0).abs() < 1e-9, "{ratio}");
        let margin: f64 = prop(0, "margin").unwrap().parse().unwrap();
        assert!(margin < -0.8, "{margin}");
        assert_eq!(prop(2, "verdict").as_deref(), Some("inconclusive"));
        assert_eq!(prop(2, "interval_low").as_deref(), Some(""));
    }
}
