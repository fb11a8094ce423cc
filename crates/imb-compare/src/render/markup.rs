//! The report of a [`Comparison`] in a markup language, as hyperfine's `MarkupExporter` writes
//! its tables: one renderer decides what is said and in which order, and a small [`Markup`]
//! says how each piece looks ([`super::text`]: IMB-style `#` lines and fixed-width columns;
//! [`super::markdown`]: headings, lists and tables).

use super::words::{
    interval, num, rate, ratio, side_lines, summary_line, table_differences, tally,
};
use crate::judge::comparison::{Compared, Comparison, Criteria};
use crate::judge::criteria::{percent, Outcome};
use crate::judge::versus::{noise_rule, TableVs};
use crate::read::key::table_title;

/// One size's cells in a size table, in words: group (when the table has groups), #bytes,
/// base, new, ratio, interval, change, flags.
pub struct SizeCells {
    pub group: Option<String>,
    pub bytes: String,
    pub base: String,
    pub new: String,
    pub ratio: String,
    pub interval: String,
    pub change: &'static str,
    pub flags: String,
}

/// How each piece of the report looks; every method ends its lines.
pub trait Markup {
    /// A heading: the report's, a table's, the criteria's.
    fn heading(&self, s: &mut String, text: &str);
    /// A line that describes a run, or a note.
    fn item(&self, s: &mut String, text: &str);
    /// What must not be missed: `what` stressed, then `rest`.
    fn alert(&self, s: &mut String, what: &str, rest: &str);
    /// What the files cannot tell.
    fn unchecked(&self, s: &mut String, text: &str);
    /// A sentence of its own: a summary below a table, "no table", the criteria's tally.
    fn remark(&self, s: &mut String, text: &str);
    /// A table's summary line.
    fn summary(&self, s: &mut String, text: &str);
    /// The end of a list or table that a paragraph follows.
    fn end_block(&self, s: &mut String);
    /// The title of the criteria's section.
    fn criteria_title(&self, file: &str, percent: &str, rate: &str) -> String;
    /// A size table's header (`grouped`: with a group column).
    fn size_header(&self, s: &mut String, grouped: bool);
    fn size_row(&self, s: &mut String, cells: &SizeCells);
    /// The criteria's outcomes, one a line or row.
    fn outcomes(&self, s: &mut String, outcomes: &[Outcome]);
}

/// The whole report in markup `m`.
pub fn render(c: &Comparison, m: &dyn Markup) -> String {
    let mut s = String::new();
    preamble(c, m, &mut s);
    for cmp in &c.compared {
        for t in &cmp.tables {
            size_table(c, cmp, t, m, &mut s);
        }
        if cmp.tables.is_empty() {
            s.push('\n');
            m.remark(
                &mut s,
                &format!(
                    "no table of {} is also in {}",
                    cmp.new.label,
                    c.base.map_or("", |b| b.label.as_str())
                ),
            );
        }
    }
    if let Some(cr) = &c.criteria {
        criteria(c, cr, m, &mut s);
    }
    s
}

/// What was compared, and what must be known before any figure: the runs, the conditions
/// that differ, the notes and what the files do not record.
fn preamble(c: &Comparison, m: &dyn Markup, s: &mut String) {
    if let Some(base) = c.base {
        let names: Vec<&str> = c.news.iter().map(|n| n.label.as_str()).collect();
        m.heading(
            s,
            &format!(
                "imb-compare: {} against {}, metric {}, ratio new/base, {} % intervals",
                names.join(", "),
                base.label,
                c.metric.name(),
                percent(c.confidence)
            ),
        );
        for line in side_lines(base, "base") {
            m.item(s, &line);
        }
    }
    for n in &c.news {
        for line in side_lines(n, "new") {
            m.item(s, &line);
        }
    }
    // What defines the figures and differs first: it must not be missed.
    for cmp in &c.compared {
        for d in &cmp.differences {
            m.alert(
                s,
                "conditions differ",
                &format!(" ({}): {}", cmp.new.label, d.text),
            );
        }
    }
    for l in c
        .notes
        .iter()
        .chain(c.compared.iter().flat_map(|cmp| &cmp.notes))
    {
        m.item(s, &format!("note: {l}"));
    }
    for l in &c.unrecorded {
        m.unchecked(s, l);
    }
}

/// One new run's table against the baseline: its heading, the conditions that differ, the
/// sizes and the summary.
fn size_table(c: &Comparison, cmp: &Compared, t: &TableVs, m: &dyn Markup, s: &mut String) {
    let grouped = t.rows.iter().any(|r| r.group.is_some());
    s.push('\n');
    m.heading(
        s,
        &format!(
            "{}: {} (beyond noise: {})",
            table_title(&t.key),
            cmp.new.label,
            noise_rule(t.launches.0, t.launches.1, c.confidence)
        ),
    );
    for d in table_differences(cmp, t) {
        m.alert(s, "conditions differ", &format!(": {}", d.text));
    }
    if !cmp.differences.is_empty() || !t.differences.is_empty() {
        m.end_block(s);
    }
    m.size_header(s, grouped);
    for r in &t.rows {
        m.size_row(
            s,
            &SizeCells {
                group: grouped.then(|| r.group.map_or(String::new(), |g| g.to_string())),
                bytes: r.bytes.map_or("-".to_string(), |b| b.to_string()),
                base: num(r.base),
                new: num(r.new),
                ratio: ratio(r.ratio),
                interval: interval(r.interval),
                change: r.change.word(),
                flags: r.flag_words().join(", "),
            },
        );
    }
    s.push('\n');
    m.summary(s, &summary_line(t, c.metric));
}

/// The criteria's section: its title, one outcome a line or row, the tally.
fn criteria(c: &Comparison, cr: &Criteria, m: &dyn Markup, s: &mut String) {
    s.push('\n');
    m.heading(
        s,
        &m.criteria_title(&cr.file, &percent(c.confidence), &rate(cr)),
    );
    m.outcomes(s, &cr.outcomes);
    m.remark(s, &tally(cr));
}
