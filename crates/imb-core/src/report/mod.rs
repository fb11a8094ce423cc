//! Everything that is printed. Results flow in as events (`Sink`); each output format is a sink
//! in its own file: `text` (the IMB tables on stdout) and `json` (`-json FILE`).

mod grid;
mod json;
mod text;

pub use grid::{grid_rule, grid_text, suite_head};

pub use json::Json;
pub use text::{header_text, process_block, row_text, Text};

use crate::bench::{Mode, Table};
use crate::plan::Layout;
use serde::Serialize;

/// The header's facts (gathered by `sysinfo` and the driver).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    pub version: String,
    pub part: String,
    pub date: String,
    pub machine: String,
    pub system: String,
    pub release: String,
    pub uversion: String,
    pub mpi_version: (i32, i32),
    pub thread_env: String,
    /// IO prints "io portion" lines and no datatype lines.
    pub io: bool,
    /// (min, max) of the ladder, or None when `-msglen` gave the lengths.
    pub min_max: Option<(usize, usize)>,
    /// Lines explaining optional mode; empty in standard mode.
    pub optional: Vec<String>,
    /// MPI_Info hints in force (`[info]` of the settings file).
    pub info: Vec<(String, String)>,
}

/// The columns of one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    pub table: Table,
    pub group: bool,
    pub defects: bool,
}

impl Columns {
    pub fn titles(&self) -> Vec<&'static str> {
        let mut t = Vec::new();
        if self.group {
            t.push("Group");
        }
        t.extend_from_slice(match self.table {
            Table::Single => &["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"][..],
            Table::Parallel => &[
                "#bytes",
                "#repetitions",
                "t_min[usec]",
                "t_max[usec]",
                "t_avg[usec]",
                "Mbytes/sec",
            ],
            Table::Collective => &[
                "#bytes",
                "#repetitions",
                "t_min[usec]",
                "t_max[usec]",
                "t_avg[usec]",
            ],
            Table::Sync => &["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
            Table::WhiteBox => &[
                "#bytes",
                "#repetitions",
                "comm[usec]",
                "move[usec]",
                "comp[usec]",
                "total[usec]",
                "pred_Exch",
                "pred_PPong",
            ],
            Table::NonBlocking => &[
                "#bytes",
                "#repetitions",
                "t_ovrl[usec]",
                "t_pure[usec]",
                "t_CPU[usec]",
                "overlap[%]",
            ],
        });
        if self.defects {
            t.push("defects");
        }
        t
    }
    /// `#` and 13·c − 1 dashes.
    pub fn rule(&self) -> String {
        format!("#{}", "-".repeat(13 * self.titles().len() - 1))
    }
}

/// The banner above a table.
#[derive(Debug, Clone)]
pub struct Banner<'a> {
    pub name: &'a str,
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

/// A receiver of results. Every method has an empty default, so a sink implements only what it
/// shows.
pub trait Sink {
    fn header(&mut self, _h: &Header) {}
    fn list(&mut self, _names: &[&str], _multi: bool) {}
    /// IO non-blocking benchmarks are selected: CPU_Exploit's calibrated speed (rank 0's).
    fn cpu_exploit(&mut self, _mflops: f64) {}
    fn invalid(&mut self, _name: &str, _np: usize) {}
    fn banner(&mut self, _b: &Banner) {}
    /// A line inside a table, before the row it concerns (`Attention, msg size …`).
    fn attention(&mut self, _line: &str) {}
    /// `-multi 1`: the blank line before each size's group rows.
    fn size_block(&mut self) {}
    fn row(&mut self, _r: &Row) {}
    /// A `#` note outside any table (placed where a banner would start).
    fn note(&mut self, _line: &str) {}
    /// After a table: `#` notes, placed after the blank line that ends the table.
    fn table_end(&mut self, _notes: &[String], _unsuccessful: bool) {}
    /// The check-mode summary (None outside check mode) and the end marker.
    fn finish(&mut self, _verdicts: Option<&[Verdict]>) {}
}

/// The note after a table for a received buffer that failed the check.
pub fn defect_note(x: usize, world_rank: usize, pos: usize) -> String {
    format!("defect: {x} bytes, world rank {world_rank}: first wrong element at byte {pos}")
}

/// The note after a table for the sizes `-mem` left out.
pub fn mem_note(skipped: &[usize], mem_bytes: f64, np: usize) -> String {
    let list: Vec<String> = skipped.iter().map(|x| x.to_string()).collect();
    format!(
        "{} message size(s) skipped: their buffers exceed -mem {:.3} GiB per process on {np} processes: {}",
        skipped.len(),
        mem_bytes / (1u64 << 30) as f64,
        list.join(", ")
    )
}

/// The note for sizes outside a benchmark's range (`Info::min_x`, `Info::max_x`).
pub fn range_note(name: &str, min_x: usize, max_x: usize, outside: &[usize]) -> String {
    let list: Vec<String> = outside.iter().map(|x| x.to_string()).collect();
    let range = if max_x == usize::MAX {
        format!("{min_x} bytes and up")
    } else {
        format!("{min_x} to {max_x} bytes")
    };
    format!(
        "{name} runs message sizes of {range}; not run: {}",
        list.join(", ")
    )
}

/// The note for a benchmark that has no message length left to run.
pub fn no_lengths_note(name: &str) -> String {
    format!("{name}: no message length to run (only 0 was left, and -zero_size off removed it)")
}
