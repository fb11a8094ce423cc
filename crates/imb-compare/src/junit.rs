//! The acceptance criteria as a JUnit XML report (`--junit FILE`), the form CI systems
//! (GitLab, Jenkins, GitHub's test reporters) read: one `<testsuite>` per new run, one
//! `<testcase>` per criterion, a `<failure>` naming why.

use crate::refs::Outcome;
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

/// The whole document.
pub fn document(file: &str, all: &[Outcome]) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failures = all.iter().filter(|o| !o.pass).count();
    let _ = writeln!(
        s,
        "<testsuites name=\"imb-compare\" tests=\"{}\" failures=\"{failures}\">",
        all.len()
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
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
            escape(&format!("{file}: {run}")),
            mine.len(),
            mine.iter().filter(|o| !o.pass).count()
        );
        for o in mine {
            let _ = write!(
                s,
                "    <testcase classname=\"{}\" name=\"{}\"",
                escape(&format!("imb-compare.{run}")),
                escape(&o.criterion)
            );
            if o.pass {
                let _ = writeln!(
                    s,
                    ">\n      <system-out>{}</system-out>\n    </testcase>",
                    escape(&o.detail)
                );
            } else {
                let _ = writeln!(
                    s,
                    ">\n      <failure message=\"{}\" type=\"criterion\">{}</failure>\n    </testcase>",
                    escape(&o.detail),
                    escape(&o.detail)
                );
            }
        }
        s.push_str("  </testsuite>\n");
    }
    s.push_str("</testsuites>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_and_escaped() {
        let o = |c: &str, pass| Outcome {
            criterion: c.into(),
            side: "new <1>".into(),
            pass,
            detail: "a & b < \"c\" \u{1}".into(),
            checked: 1,
        };
        let doc = document("acc.toml", &[o("ok", true), o("bad 'one'", false)]);
        let x = roxmltree::Document::parse(&doc).unwrap();
        let cases: Vec<_> = x
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].attribute("name"), Some("bad 'one'"));
        assert_eq!(cases[1].attribute("classname"), Some("imb-compare.new <1>"));
        let f = cases[1].first_element_child().unwrap();
        assert_eq!(f.tag_name().name(), "failure");
        assert_eq!(f.text(), Some("a & b < \"c\" \u{fffd}"));
        assert_eq!(x.root_element().attribute("failures"), Some("1"));
    }
}
