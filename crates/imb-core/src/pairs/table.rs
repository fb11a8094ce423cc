//! The overhead examples' printed table: a `#` header of right- or left-aligned columns, then
//! one row per case from the case's keys (bytes, mode, reps) and its `Summary`. Each example
//! names its columns, so the tables keep the units and wording that doc/METHODOLOGY.md quotes.

use super::Summary;
use crate::kernel::Comm;
use mpi::traits::*;
use std::fmt::Display;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Key,
    Ours(usize),
    Raw(usize),
    Ratio(usize),
    Iqr,
    Target,
    Extra(usize),
}

#[derive(Debug, Clone)]
struct Col {
    label: String,
    width: usize,
    sep: &'static str,
    left: bool,
    cell: Cell,
}

/// Columns in order; built with the methods below, each adding one or two.
#[derive(Debug, Clone, Default)]
pub struct Table {
    cols: Vec<Col>,
}

impl Table {
    pub fn new() -> Table {
        Table::default()
    }

    /// Keys bytes and reps: the point-to-point and collective examples'.
    pub fn sizes() -> Table {
        Table::new().key("bytes", 13).key("reps", 5)
    }

    /// Keys bytes, mode and reps: the one-sided examples'.
    pub fn modes() -> Table {
        Table::new()
            .key("bytes", 11)
            .key_left("mode", 13, "  ")
            .key("reps", 5)
    }

    /// The usual values: both medians in µs, the median ratio, its IQR and the target.
    pub fn in_usec(self) -> Table {
        self.sides("usec", 12, 4)
            .ratio("ratio(median)", 15, 4)
            .iqr()
            .target()
    }

    fn push(mut self, label: String, width: usize, sep: &'static str, cell: Cell) -> Table {
        let sep = if self.cols.is_empty() { "" } else { sep };
        let left = matches!(cell, Cell::Iqr | Cell::Target);
        self.cols.push(Col {
            label,
            width,
            sep,
            left,
            cell,
        });
        self
    }

    /// A right-aligned key column (bytes, reps), filled from a row's keys in order.
    pub fn key(self, label: &str, width: usize) -> Table {
        self.push(label.into(), width, " ", Cell::Key)
    }

    /// A left-aligned key column after `sep` (the one-sided examples' mode).
    pub fn key_left(mut self, label: &str, width: usize, sep: &'static str) -> Table {
        self = self.push(label.into(), width, sep, Cell::Key);
        if let Some(c) = self.cols.last_mut() {
            c.left = true;
        }
        self
    }

    /// `ours[unit]` and `raw[unit]`: the sides' medians with `prec` decimals.
    pub fn sides(self, unit: &str, width: usize, prec: usize) -> Table {
        self.push(format!("ours[{unit}]"), width, " ", Cell::Ours(prec))
            .push(format!("raw[{unit}]"), width, " ", Cell::Raw(prec))
    }

    /// The median paired ratio.
    pub fn ratio(self, label: &str, width: usize, prec: usize) -> Table {
        self.push(label.into(), width, " ", Cell::Ratio(prec))
    }

    /// The ratio's quartiles, `q1..q3`.
    pub fn iqr(self) -> Table {
        self.push("ratio IQR".into(), 12, "   ", Cell::Iqr)
    }

    /// The target and its verdict.
    pub fn target(self) -> Table {
        self.push("target".into(), 0, "   ", Cell::Target)
    }

    /// A figure of the example's own, from a row's extras in order, with `prec` decimals.
    pub fn extra(self, label: &str, width: usize, prec: usize) -> Table {
        self.push(label.into(), width, " ", Cell::Extra(prec))
    }

    fn line(&self, cells: impl Iterator<Item = String>) -> String {
        let mut out = String::new();
        for (c, text) in self.cols.iter().zip(cells) {
            let w = c.width;
            out += c.sep;
            out += &if c.left {
                format!("{text:<w$}")
            } else {
                format!("{text:>w$}")
            };
        }
        out.trim_end().to_string()
    }

    /// The column header, `#` in its first place.
    pub fn header(&self) -> String {
        let h = self.line(self.cols.iter().map(|c| c.label.clone()));
        match h.char_indices().nth(1) {
            Some((i, _)) => format!("#{}", &h[i..]),
            None => "#".into(),
        }
    }

    /// One case's row: `keys` fill the key columns, `extra` the example's own.
    pub fn row(&self, keys: &[&dyn Display], s: &Summary, extra: &[f64]) -> String {
        let (mut keys, mut extra) = (keys.iter(), extra.iter());
        let cells = self.cols.iter().map(|c| match c.cell {
            Cell::Key => keys.next().map_or(String::new(), |k| k.to_string()),
            Cell::Ours(p) => format!("{:.p$}", s.ours),
            Cell::Raw(p) => format!("{:.p$}", s.raw),
            Cell::Ratio(p) => format!("{:.p$}", s.ratio),
            Cell::Iqr => format!("{:.3}..{:.3}", s.q1, s.q3),
            Cell::Target => s.verdict(),
            Cell::Extra(p) => extra.next().map_or(String::new(), |v| format!("{v:.p$}")),
        });
        self.line(cells)
    }

    /// On rank 0 of `comm`: the `intro` lines, each after `# `, then the header.
    pub fn print_header(&self, comm: &Comm, intro: &[String]) {
        if comm.rank() == 0 {
            for l in intro {
                println!("# {l}");
            }
            println!("{}", self.header());
        }
    }

    /// On rank 0 of `comm`: one case's row (see `row`).
    pub fn print_row(&self, comm: &Comm, keys: &[&dyn Display], s: &Summary, extra: &[f64]) {
        if comm.rank() == 0 {
            println!("{}", self.row(keys, s, extra));
        }
    }
}
