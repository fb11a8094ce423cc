//! The report of `imb-compare BASE NEW…` and of its acceptance criteria, as IMB-style text
//! (`#` lines around a table of fixed-width columns), Markdown or CSV.

use crate::agree::Metric;
use crate::refs::Outcome;
use crate::report::table_title;
use crate::sides::Side;
use crate::versus::{noise_rule, TableVs};
use std::fmt::Write;

/// Which of the three layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Csv,
}

/// One new side's comparison with the base.
pub struct Compared<'a> {
    pub new: &'a Side,
    pub tables: Vec<TableVs>,
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "-".to_string()
    }
}

fn ratio(q: Option<f64>) -> String {
    q.map_or("-".to_string(), |q| format!("{q:.3}"))
}

/// What a side is: its launches, title, and where it ran when known; `# !!` when it ran
/// oversubscribed.
fn side_lines(s: &Side, role: &str) -> Vec<String> {
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
    v
}

fn summary_line(t: &TableVs, metric: Metric) -> String {
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
    format!(
        "{}: {geo}{worst}; {} worse, {} better beyond noise of {} size(s){flagged}",
        table_title(&t.key),
        s.worse,
        s.better,
        s.sizes
    )
}

const CSV_HEAD: &str =
    "base,new,benchmark,processes,groups,mode,group,bytes,metric,base_value,new_value,ratio,change,flags";

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt(x: Option<u64>) -> String {
    x.map_or(String::new(), |x| x.to_string())
}

/// The comparison of every new side with `base`.
pub fn comparison(
    base: &Side,
    all: &[Compared],
    metric: Metric,
    noise: f64,
    format: Format,
) -> String {
    let mut s = String::new();
    if format == Format::Csv {
        s.push_str(CSV_HEAD);
        s.push('\n');
        for c in all {
            for t in &c.tables {
                for r in &t.rows {
                    let f = [
                        base.label.clone(),
                        c.new.label.clone(),
                        t.key.benchmark.clone(),
                        t.key.processes.to_string(),
                        t.key.groups.to_string(),
                        t.key.mode.clone(),
                        opt(r.group),
                        opt(r.bytes),
                        metric.key().to_string(),
                        format!("{}", r.base),
                        format!("{}", r.new),
                        r.ratio.map_or(String::new(), |q| format!("{q}")),
                        r.change.word().to_string(),
                        r.flags.join(" "),
                    ];
                    let f: Vec<String> = f.iter().map(|x| csv_field(x)).collect();
                    s.push_str(&f.join(","));
                    s.push('\n');
                }
            }
        }
        return s;
    }
    let md = format == Format::Markdown;
    let (h, p) = if md { ("## ", "") } else { ("# ", "# ") };
    let _ = writeln!(
        s,
        "{h}imb-compare: {} against {}, metric {}, ratio new/base",
        all.iter()
            .map(|c| c.new.label.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        base.label,
        metric.name()
    );
    if md {
        s.push('\n');
    }
    for line in side_lines(base, "base").into_iter().chain(
        all.iter()
            .flat_map(|c| side_lines(c.new, "new").into_iter()),
    ) {
        let _ = writeln!(s, "{}{line}", if md { "- " } else { p });
    }
    for c in all {
        for t in &c.tables {
            let grouped = t.rows.iter().any(|r| r.group.is_some());
            let _ = writeln!(
                s,
                "\n{h}{}: {} (beyond noise: {})",
                table_title(&t.key),
                c.new.label,
                noise_rule(t.launches.1, t.launches.0, noise)
            );
            if md {
                s.push('\n');
                let _ = writeln!(
                    s,
                    "|{} bytes | base | new | ratio | change | flags |\n|{}---:|---:|---:|---:|---|---|",
                    if grouped { " group |" } else { "" },
                    if grouped { "---:|" } else { "" }
                );
            } else {
                let _ = writeln!(
                    s,
                    "{}{:>13}{:>13}{:>13}{:>9}  {:<7} flags",
                    if grouped {
                        format!("{:>13}", "Group")
                    } else {
                        String::new()
                    },
                    "#bytes",
                    "base",
                    "new",
                    "ratio",
                    "change"
                );
            }
            for r in &t.rows {
                let bytes = r.bytes.map_or("-".to_string(), |b| b.to_string());
                let flags = r.flags.join(", ");
                if md {
                    let _ = writeln!(
                        s,
                        "|{} {bytes} | {} | {} | {} | {} | {flags} |",
                        if grouped {
                            format!(" {} |", opt(r.group))
                        } else {
                            String::new()
                        },
                        num(r.base),
                        num(r.new),
                        ratio(r.ratio),
                        r.change.word()
                    );
                } else {
                    let line = format!(
                        "{}{bytes:>13}{:>13}{:>13}{:>9}  {:<7} {flags}",
                        if grouped {
                            format!("{:>13}", opt(r.group))
                        } else {
                            String::new()
                        },
                        num(r.base),
                        num(r.new),
                        ratio(r.ratio),
                        r.change.word()
                    );
                    let _ = writeln!(s, "{}", line.trim_end());
                }
            }
            let sum = summary_line(t, metric);
            if md {
                let _ = writeln!(s, "\n*{sum}*");
            } else {
                let _ = writeln!(s, "\n# {sum}");
            }
        }
        if c.tables.is_empty() {
            let _ = writeln!(
                s,
                "\n{p}no table of {} is also in {}",
                c.new.label, base.label
            );
        }
    }
    s
}

/// Every criterion's verdict, and the count of failures.
pub fn outcomes(file: &str, all: &[Outcome], format: Format) -> String {
    let mut s = String::new();
    let failed = all.iter().filter(|o| !o.pass).count();
    let verdict = |o: &Outcome| if o.pass { "PASS" } else { "FAIL" };
    match format {
        Format::Csv => {
            s.push_str("criterion,run,verdict,sizes,detail\n");
            for o in all {
                let f = [
                    o.criterion.clone(),
                    o.side.clone(),
                    verdict(o).to_string(),
                    o.checked.to_string(),
                    o.detail.clone(),
                ];
                let f: Vec<String> = f.iter().map(|x| csv_field(x)).collect();
                let _ = writeln!(s, "{}", f.join(","));
            }
        }
        Format::Markdown => {
            let _ = writeln!(s, "\n## Acceptance criteria of {file}\n");
            s.push_str("| verdict | criterion | run | detail |\n|---|---|---|---|\n");
            for o in all {
                let cell = |x: &str| x.replace('|', "\\|");
                let _ = writeln!(
                    s,
                    "| **{}** | {} | {} | {} |",
                    verdict(o),
                    cell(&o.criterion),
                    cell(&o.side),
                    cell(&o.detail)
                );
            }
            let _ = writeln!(s, "\n{failed} of {} criteria failed", all.len());
        }
        Format::Text => {
            let _ = writeln!(s, "\n# acceptance criteria of {file}");
            for o in all {
                let _ = writeln!(
                    s,
                    "{} {} [{}]: {}",
                    verdict(o),
                    o.criterion,
                    o.side,
                    o.detail
                );
            }
            let _ = writeln!(s, "# {failed} of {} criteria failed", all.len());
        }
    }
    s
}
