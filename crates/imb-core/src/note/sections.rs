//! What `Note::Sections` carries and prints: the section timers of a white-box benchmark
//! (doc/METHODOLOGY.md, "White-box benchmarking (Jacobi2D)") per activity class and size.
//! `whitebox` measures and builds the note; the report only needs these values.

use serde::Serialize;

/// A white-box activity class and the section timers it sums.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionClass {
    pub class: String,
    pub sections: Vec<String>,
}

/// One size's section times: (min, max, avg) over the ranks per class, usec per repetition.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SectionsRow {
    pub bytes: usize,
    pub classes: [(f64, f64, f64); 3],
}

/// The printed lines of `Note::Sections`.
pub fn sections_lines(classes: &[SectionClass], rows: &[SectionsRow]) -> Vec<String> {
    let titles = ["#bytes", "communication", "data movement", "computation"];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut v = vec![r.bytes.to_string()];
            v.extend(
                r.classes
                    .iter()
                    .map(|(lo, hi, avg)| format!("{lo:.2}/{hi:.2}/{avg:.2}")),
            );
            v
        })
        .collect();
    let named: Vec<String> = classes
        .iter()
        .map(|c| format!("{} ({})", c.class, c.sections.join(", ")))
        .collect();
    let mut out = vec![
        "section timers of the full kernel (timers on), usec per repetition, \
         min/max/avg over the ranks:"
            .to_string(),
        format!("sections: {}", named.join("; ")),
    ];
    out.extend(
        crate::grid::grid_text(&titles, &cells)
            .lines()
            .map(|l| l.to_string()),
    );
    out
}
