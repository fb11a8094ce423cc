//! The fourth layer: a comparison's findings ([`crate::judge::comparison::Comparison`]) written
//! out, one module a format as hyperfine has them, each rendering the same value: [`text`] for
//! the terminal and [`markdown`] for a wiki page or a merge request (one renderer,
//! [`markup`], in two markups), [`csv`] and [`json`] for machines, [`junit`] for CI, and
//! [`plot`] as SVG figures; what they share in words is [`words`]. The agreement report
//! ([`agreement`]) and a trend's table ([`trend`]) are here too. Nothing here decides.

pub mod agreement;
pub mod csv;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod markup;
pub mod plot;
pub mod text;
pub mod trend;
pub mod words;

use crate::judge::comparison::Comparison;

/// Which layout goes to standard output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Csv,
}

/// The report on standard output in `format`.
pub fn render(c: &Comparison, format: Format) -> String {
    match format {
        Format::Text => text::render(c),
        Format::Markdown => markdown::render(c),
        Format::Csv => csv::render(c),
    }
}
