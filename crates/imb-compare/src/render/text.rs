//! The report as IMB-style text: `#` lines around tables of fixed-width columns, `# !!` for
//! what must not be missed (conditions that differ, oversubscribed or cut-short runs), `# ??`
//! for what the files cannot tell.

use super::{
    interval, num, outcome_line, ratio, side_lines, summary_line, table_differences, tally,
};
use crate::judge::comparison::Comparison;
use crate::judge::versus::noise_rule;
use crate::read::key::table_title;
use std::fmt::Write;

/// The whole text report.
pub fn render(c: &Comparison) -> String {
    let mut s = String::new();
    if let Some(base) = c.base {
        let names: Vec<&str> = c.news.iter().map(|n| n.label.as_str()).collect();
        let _ = writeln!(
            s,
            "# imb-compare: {} against {}, metric {}, ratio new/base, {} % intervals",
            names.join(", "),
            base.label,
            c.metric.name(),
            crate::judge::criteria::percent(c.confidence)
        );
        for line in side_lines(base, "base") {
            let _ = writeln!(s, "# {line}");
        }
    }
    for n in &c.news {
        for line in side_lines(n, "new") {
            let _ = writeln!(s, "# {line}");
        }
    }
    // What defines the figures and differs first: it must not be missed.
    for cmp in &c.compared {
        for d in &cmp.differences {
            let _ = writeln!(s, "# !! conditions differ ({}): {}", cmp.new.label, d.text);
        }
    }
    for l in &c.notes {
        let _ = writeln!(s, "# note: {l}");
    }
    for cmp in &c.compared {
        for l in &cmp.notes {
            let _ = writeln!(s, "# note: {l}");
        }
    }
    for l in &c.unrecorded {
        let _ = writeln!(s, "# ?? {l}");
    }
    for cmp in &c.compared {
        for t in &cmp.tables {
            let grouped = t.rows.iter().any(|r| r.group.is_some());
            let _ = writeln!(
                s,
                "\n# {}: {} (beyond noise: {})",
                table_title(&t.key),
                cmp.new.label,
                noise_rule(t.launches.0, t.launches.1, c.confidence)
            );
            for d in table_differences(cmp, t) {
                let _ = writeln!(s, "# !! conditions differ: {}", d.text);
            }
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
            for r in &t.rows {
                let line = format!(
                    "{}{:>13}{:>13}{:>13}{:>9}{:>16}  {:<7} {}",
                    if grouped {
                        format!("{:>13}", r.group.map_or(String::new(), |g| g.to_string()))
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
                let _ = writeln!(s, "{}", line.trim_end());
            }
            let _ = writeln!(s, "\n# {}", summary_line(t, c.metric));
        }
        if cmp.tables.is_empty() {
            let _ = writeln!(
                s,
                "\n# no table of {} is also in {}",
                cmp.new.label,
                c.base.map_or("", |b| b.label.as_str())
            );
        }
    }
    if let Some(cr) = &c.criteria {
        let _ = writeln!(
            s,
            "\n# acceptance criteria of {} ({} % intervals: PASS inside the bounds, FAIL \
             shown beyond a bound, INCONCLUSIVE across a bound or too few launches; {})",
            cr.file,
            crate::judge::criteria::percent(c.confidence),
            super::rate(cr)
        );
        for o in &cr.outcomes {
            let _ = writeln!(s, "{}", outcome_line(o));
        }
        let _ = writeln!(s, "# {}", tally(cr));
    }
    s
}
