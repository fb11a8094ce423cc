//! A trend ([`crate::judge::trend`]) as a text table: one row a stored run, its median, lowest
//! and highest launch, CV and mark, and a closing line counting the change points and naming
//! the runs without the figure.

use crate::judge::stats::median;
use crate::judge::trend::{Mark, Point, Trend};

impl Trend {
    /// The trend as a text table.
    pub fn text(&self) -> String {
        let q = &self.query;
        let pct = crate::judge::criteria::percent(q.confidence);
        let system = self
            .points
            .first()
            .map(|p| p.run.system.as_str())
            .unwrap_or("-");
        let mut out = format!(
            "# trend of {}, {} on system {system}: the median over each run's launches, the \
             lowest and highest launch, the CV between launches\n",
            self.title(),
            self.column
        );
        out.push_str(&format!(
            "# change point: a run whose {pct} % interval of the ratio to the runs since the \
             last change point lies beyond their run-to-run range (doc/ACCEPTANCE.md, \"Trends\")\n"
        ));
        let mut rows: Vec<Vec<String>> = vec![[
            "run", "date", "label", "launches", "median", "lowest", "highest", "CV", "change",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()];
        for p in &self.points {
            let v = &p.values;
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let cv = crate::judge::stats::cv(v);
            let change = self.change(p);
            rows.push(vec![
                p.run.id.to_string(),
                p.run.date().get(..10).unwrap_or(p.run.date()).to_string(),
                p.run.label.clone().unwrap_or_else(|| "-".into()),
                v.len().to_string(),
                format!("{:.2}", median(v)),
                format!("{lo:.2}"),
                format!("{hi:.2}"),
                if cv.is_finite() {
                    format!("{:.1}%", 100.0 * cv)
                } else {
                    "-".into()
                },
                change,
            ]);
        }
        out.push_str(&grid(rows));
        let changes = self
            .points
            .iter()
            .filter(|p| matches!(p.mark, Mark::Change { .. }))
            .count();
        out.push_str(&format!(
            "# {} run(s), {changes} change point(s)",
            self.points.len()
        ));
        if !self.without.is_empty() {
            out.push_str(&format!(
                "; {} run(s) without this figure: {}",
                self.without.len(),
                self.without
                    .iter()
                    .map(|(id, why)| format!("{id} ({why})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out.push('\n');
        out
    }

    /// A point's mark in words: first, a change (worse or better, by how much), a new series
    /// (with why), left out (with why), undecided, or nothing.
    fn change(&self, p: &Point) -> String {
        match p.mark {
            Mark::First => "first".to_string(),
            Mark::Same => String::new(),
            Mark::Undecided => "undecided (too few launches)".to_string(),
            Mark::Conditions => format!(
                "conditions differ, a new series: {}",
                p.why.as_deref().unwrap_or("")
            ),
            Mark::Excluded => format!("left out: {}", p.why.as_deref().unwrap_or("")),
            Mark::Change {
                up,
                ratio,
                interval,
            } => format!(
                "CHANGE {} x{ratio:.3} [{:.3}, {:.3}]",
                if up == self.higher_is_worse() {
                    "worse"
                } else {
                    "better"
                },
                interval.0,
                interval.1
            ),
        }
    }
}

/// The rows as aligned columns, numbers right-aligned and words left, one line each.
fn grid(rows: Vec<Vec<String>>) -> String {
    let mut out = String::new();
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = " ".repeat(widths[c] - cell.chars().count());
            // Numbers right-aligned, words left.
            if c == 0 || (3..8).contains(&c) {
                line.push_str(&format!("{pad}{cell}  "));
            } else {
                line.push_str(&format!("{cell}{pad}  "));
            }
        }
        out.push_str(&imb_core::error::plain(line.trim_end()));
        out.push('\n');
    }
    out
}
