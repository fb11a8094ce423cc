//! The report as Markdown, for a wiki page or a merge request: a heading per table, its
//! differences of conditions as a list, the sizes as a table, the criteria as a table.

use super::{interval, num, ratio, side_lines, summary_line, table_differences, tally};
use crate::judge::comparison::Comparison;
use crate::judge::versus::noise_rule;
use crate::read::key::table_title;
use std::fmt::Write;

/// A table cell: `|` would end it.
fn cell(x: &str) -> String {
    x.replace('|', "\\|")
}

/// The whole Markdown report.
pub fn render(c: &Comparison) -> String {
    let mut s = String::new();
    if let Some(base) = c.base {
        let names: Vec<&str> = c.news.iter().map(|n| n.label.as_str()).collect();
        let _ = writeln!(
            s,
            "## imb-compare: {} against {}, metric {}, ratio new/base, {} % intervals\n",
            names.join(", "),
            base.label,
            c.metric.name(),
            crate::judge::criteria::percent(c.confidence)
        );
        for line in side_lines(base, "base") {
            let _ = writeln!(s, "- {line}");
        }
    }
    for n in &c.news {
        for line in side_lines(n, "new") {
            let _ = writeln!(s, "- {line}");
        }
    }
    // What defines the figures and differs first: it must not be missed.
    for cmp in &c.compared {
        for d in &cmp.differences {
            let _ = writeln!(s, "- **conditions differ** ({}): {}", cmp.new.label, d.text);
        }
    }
    for l in c
        .notes
        .iter()
        .chain(c.compared.iter().flat_map(|cmp| &cmp.notes))
    {
        let _ = writeln!(s, "- note: {l}");
    }
    for l in &c.unrecorded {
        let _ = writeln!(s, "- not checked: {l}");
    }
    for cmp in &c.compared {
        for t in &cmp.tables {
            let grouped = t.rows.iter().any(|r| r.group.is_some());
            let _ = writeln!(
                s,
                "\n## {}: {} (beyond noise: {})\n",
                table_title(&t.key),
                cmp.new.label,
                noise_rule(t.launches.0, t.launches.1, c.confidence)
            );
            for d in table_differences(cmp, t) {
                let _ = writeln!(s, "- **conditions differ**: {}", d.text);
            }
            if !cmp.differences.is_empty() || !t.differences.is_empty() {
                s.push('\n');
            }
            let _ = writeln!(
                s,
                "|{} bytes | base | new | ratio | interval | change | flags |\n|{}---:|---:|---:|---:|---:|---|---|",
                if grouped { " group |" } else { "" },
                if grouped { "---:|" } else { "" }
            );
            for r in &t.rows {
                let _ = writeln!(
                    s,
                    "|{} {} | {} | {} | {} | {} | {} | {} |",
                    if grouped {
                        format!(" {} |", r.group.map_or(String::new(), |g| g.to_string()))
                    } else {
                        String::new()
                    },
                    r.bytes.map_or("-".to_string(), |b| b.to_string()),
                    num(r.base),
                    num(r.new),
                    ratio(r.ratio),
                    interval(r.interval),
                    r.change.word(),
                    r.flag_words().join(", ")
                );
            }
            let _ = writeln!(s, "\n*{}*", summary_line(t, c.metric));
        }
        if cmp.tables.is_empty() {
            let _ = writeln!(
                s,
                "\nno table of {} is also in {}",
                cmp.new.label,
                c.base.map_or("", |b| b.label.as_str())
            );
        }
    }
    if let Some(cr) = &c.criteria {
        let _ = writeln!(
            s,
            "\n## Acceptance criteria of {} ({} % intervals; {})\n",
            cr.file,
            crate::judge::criteria::percent(c.confidence),
            super::rate(cr)
        );
        s.push_str("| verdict | criterion | run | detail |\n|---|---|---|---|\n");
        for o in &cr.outcomes {
            let _ = writeln!(
                s,
                "| **{}** | {} | {} | {} |",
                o.verdict.word(),
                cell(&o.criterion.name),
                cell(&o.side),
                cell(&o.detail())
            );
        }
        let _ = writeln!(s, "\n{}", tally(cr));
    }
    s
}
