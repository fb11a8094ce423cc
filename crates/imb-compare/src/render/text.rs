//! The report as IMB-style text: `#` lines around tables of fixed-width columns, `# !!` for
//! what must not be missed (conditions that differ, oversubscribed or cut-short runs), `# ??`
//! for what the files cannot tell.

use super::markup::{self, Markup, SizeCells};
use super::words::outcome_line;
use crate::judge::comparison::Comparison;
use crate::judge::criteria::Outcome;
use std::fmt::Write;

/// IMB-style text.
pub struct Text;

impl Markup for Text {
    fn heading(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "# {text}");
    }

    fn item(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "# {text}");
    }

    fn alert(&self, s: &mut String, what: &str, rest: &str) {
        let _ = writeln!(s, "# !! {what}{rest}");
    }

    fn unchecked(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "# ?? {text}");
    }

    fn remark(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "# {text}");
    }

    fn summary(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "# {text}");
    }

    fn end_block(&self, _: &mut String) {}

    fn criteria_title(&self, file: &str, percent: &str, rate: &str) -> String {
        format!(
            "acceptance criteria of {file} ({percent} % intervals: PASS inside the bounds, FAIL \
             shown beyond a bound, INCONCLUSIVE across a bound or too few launches; {rate})"
        )
    }

    fn size_header(&self, s: &mut String, grouped: bool) {
        let _ = writeln!(
            s,
            "{}{:>13}{:>13}{:>13}{:>9}{:>16}  {:<7} flags",
            if grouped {
                format!("{:>13}", "Group")
            } else {
                String::new()
            },
            "#bytes",
            "base",
            "new",
            "ratio",
            "interval",
            "change"
        );
    }

    fn size_row(&self, s: &mut String, r: &SizeCells) {
        let line = format!(
            "{}{:>13}{:>13}{:>13}{:>9}{:>16}  {:<7} {}",
            r.group
                .as_ref()
                .map_or(String::new(), |g| format!("{g:>13}")),
            r.bytes,
            r.base,
            r.new,
            r.ratio,
            r.interval,
            r.change,
            r.flags
        );
        let _ = writeln!(s, "{}", line.trim_end());
    }

    fn outcomes(&self, s: &mut String, outcomes: &[Outcome]) {
        for o in outcomes {
            let _ = writeln!(s, "{}", outcome_line(o));
        }
    }
}

/// The whole text report.
pub fn render(c: &Comparison) -> String {
    markup::render(c, &Text)
}
