//! Everything that is printed. Results flow in as events (`Sink`); each output format is a sink
//! in its own file: `text` (the IMB tables on stdout), `json` (`-json FILE`) and `progress`
//! (`-progress`, on stderr; `rows` for the suites without MPI); `summary` collects rows for
//! `-summary`; `suitejson` is the `-json` file of the suites without MPI.

mod json;
mod progress;
mod rewrite;
mod rows;
mod suitejson;
mod summary;
mod text;

pub use crate::grid::{grid_rule, grid_text, suite_head};
pub use json::{Json, SCHEMA_VERSION};
pub use progress::{
    long_size_line, Position, Progress, INTERVAL as PROGRESS_INTERVAL, LONG_SIZE_SECS,
};
pub use rows::RowProgress;
pub use suitejson::{close, SuiteJson};
pub use summary::{summarise, summary_text, Best, Collector, Summary, SummaryLine};
pub use text::{header_text, process_block, row_text, row_text_with, Text};

use crate::header::Header;
use crate::note::Note;
use crate::table::column::{self, Column};
use crate::vocab::Layout;
use crate::vocab::Mode;
use serde::Serialize;

/// The columns of one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    /// The table kind's columns (`table::TableKind::columns`).
    pub kind: &'static [Column],
    pub group: bool,
    pub defects: bool,
}

impl Columns {
    /// Every column of the table: `Group` under `-multi 1`, the kind's, then `defects`.
    pub fn all(&self) -> Vec<Column> {
        let mut c = Vec::new();
        if self.group {
            c.push(column::GROUP);
        }
        c.extend_from_slice(self.kind);
        if self.defects {
            c.push(column::DEFECTS);
        }
        c
    }
    /// The machine keys of `all()`, in the same order.
    pub fn keys(&self) -> Vec<&'static str> {
        self.all().iter().map(|c| c.key).collect()
    }
    /// For each float value of a row (the columns after Group, #bytes and #repetitions):
    /// whether it prints as a whole number.
    pub fn whole(&self) -> Vec<bool> {
        self.all()
            .iter()
            .filter(|c| !c.is_int())
            .map(|c| c.whole)
            .collect()
    }
    pub fn titles(&self) -> Vec<&'static str> {
        self.all().iter().map(|c| c.title).collect()
    }
    /// `#` and 13·c − 1 dashes.
    pub fn rule(&self) -> String {
        format!("#{}", "-".repeat(13 * self.all().len() - 1))
    }
}

/// The banner above a table.
#[derive(Debug, Clone)]
pub struct Banner<'a> {
    pub name: &'a str,
    /// Words after the name in the text banner (`Info::banner`: IMB-P2P's stencil grid).
    pub suffix: &'a str,
    /// Lines that replace the engine's process block (`Hooks::process_block`).
    pub process: Option<&'a [String]>,
    pub layout: &'a Layout,
    pub mode: Mode,
    pub cols: Columns,
}

/// One table row: integers first, then the float columns in table order.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub group: Option<usize>,
    pub bytes: Option<usize>,
    pub reps: usize,
    pub values: Vec<f64>,
}

/// Check-mode outcome of one benchmark run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub name: String,
    pub ok: bool,
}

/// Why a sink stopped delivering.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// Its reader went away (`| head`): the run ends quietly.
    Closed,
    /// A write failed (full disk, `/dev/full`): the run ends with this line and a non-zero exit.
    Error(String),
}

/// A receiver of results. Every method has an empty default, so a sink implements only what it
/// shows.
pub trait Sink {
    /// The sink's first failure, if any: the driver ends the run after the current step.
    fn failure(&self) -> Option<Failure> {
        None
    }
    fn header(&mut self, _h: &Header) {}
    fn list(&mut self, _names: &[&str], _multi: bool) {}
    /// A block between the benchmark list and the first table, from the suite's
    /// `Hooks::run_state` (imb-io: CPU_Exploit's calibrated speed, rank 0's).
    fn block(&mut self, _note: &Note) {}
    fn invalid(&mut self, _name: &str, _np: usize) {}
    fn banner(&mut self, _b: &Banner) {}
    /// A line inside a table, before the row it concerns (`Attention, msg size …`).
    fn attention(&mut self, _note: &Note) {}
    /// `-multi 1`: the blank line before each size's group rows.
    fn size_block(&mut self) {}
    fn row(&mut self, _r: &Row) {}
    /// One size of the current table is measured and its rows are out (called between
    /// sizes, never inside a timed loop).
    fn measured(&mut self, _bytes: Option<usize>) {}
    /// A `#` note outside any table (placed where a banner would start).
    fn note(&mut self, _note: &Note) {}
    /// After a table: `#` notes, placed after the blank line that ends the table.
    fn table_end(&mut self, _notes: &[Note], _unsuccessful: bool) {}
    /// `-summary`: each table's lowest latency and highest bandwidth, after the last table.
    fn summary(&mut self, _s: &Summary) {}
    /// The check-mode summary (None outside check mode) and the end marker.
    fn finish(&mut self, _verdicts: Option<&[Verdict]>) {}
    /// Where the results come from (`-json` only), before the header.
    fn provenance(&mut self, _p: &crate::provenance::Provenance) {}
    /// The last event of every run that got past its options, after `finish` or without it:
    /// how the run ended.
    fn closing(&mut self, _status: &crate::provenance::Status) {}
}
