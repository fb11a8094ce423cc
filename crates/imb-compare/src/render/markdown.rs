//! The report as Markdown, for a wiki page or a merge request: a heading per table, its
//! differences of conditions as a list, the sizes as a table, the criteria as a table.

use super::markup::{self, Markup, SizeCells};
use crate::judge::comparison::Comparison;
use crate::judge::criteria::Outcome;
use std::fmt::Write;

/// A table cell: `|` would end it.
fn cell(x: &str) -> String {
    x.replace('|', "\\|")
}

/// Markdown.
pub struct Markdown;

impl Markup for Markdown {
    fn heading(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "## {text}\n");
    }

    fn item(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "- {text}");
    }

    fn alert(&self, s: &mut String, what: &str, rest: &str) {
        let _ = writeln!(s, "- **{what}**{rest}");
    }

    fn unchecked(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "- not checked: {text}");
    }

    fn remark(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "{text}");
    }

    fn summary(&self, s: &mut String, text: &str) {
        let _ = writeln!(s, "*{text}*");
    }

    fn end_block(&self, s: &mut String) {
        s.push('\n');
    }

    fn criteria_title(&self, file: &str, percent: &str, rate: &str) -> String {
        format!("Acceptance criteria of {file} ({percent} % intervals; {rate})")
    }

    fn size_header(&self, s: &mut String, grouped: bool) {
        let _ = writeln!(
            s,
            "|{} bytes | base | new | ratio | interval | change | flags |\n|{}---:|---:|---:|---:|---:|---|---|",
            if grouped { " group |" } else { "" },
            if grouped { "---:|" } else { "" }
        );
    }

    fn size_row(&self, s: &mut String, r: &SizeCells) {
        let _ = writeln!(
            s,
            "|{} {} | {} | {} | {} | {} | {} | {} |",
            r.group
                .as_ref()
                .map_or(String::new(), |g| format!(" {g} |")),
            r.bytes,
            r.base,
            r.new,
            r.ratio,
            r.interval,
            r.change,
            r.flags
        );
    }

    fn outcomes(&self, s: &mut String, outcomes: &[Outcome]) {
        s.push_str("| verdict | criterion | run | detail |\n|---|---|---|---|\n");
        for o in outcomes {
            let _ = writeln!(
                s,
                "| **{}** | {} | {} | {} |",
                o.verdict.word(),
                cell(&o.criterion.name),
                cell(&o.side),
                cell(&o.detail())
            );
        }
        self.end_block(s);
    }
}

/// The whole Markdown report.
pub fn render(c: &Comparison) -> String {
    markup::render(c, &Markdown)
}
