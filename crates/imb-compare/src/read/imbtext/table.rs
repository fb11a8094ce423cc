//! A table from its header to its last row: opened under a banner, fed the lines that are its
//! rows, closed by the first line that is not.

use super::{imb, osu, row_line, Open, Pending, Reader, RowLine};
use crate::error::Error;
use crate::read::check::At;
use crate::read::run::Table;

impl Reader<'_> {
    /// A line while a table is open; false when the line ends the table.
    pub(super) fn table_line(
        &mut self,
        no: usize,
        line: &str,
        last_partial: bool,
    ) -> Result<bool, Error> {
        let Some(open) = self.current.as_mut() else {
            return Ok(false);
        };
        let kind = row_line(line, open.table.columns.len(), open.grouped());
        if last_partial && kind != RowLine::NotARow {
            // The launch was killed while printing this row: it is no figure.
            self.cut = true;
            return Ok(true);
        }
        open.take(no, line, kind).map_err(|msg| Error::Line {
            file: self.name.to_string(),
            line: no,
            msg,
        })
    }

    pub(super) fn close_table(&mut self) {
        if let Some(open) = self.current.take() {
            self.done.push(open);
        }
    }

    /// A line between a banner and its table's header: a detail of the banner, or the header
    /// in the file's layout, which opens the table; the reason when the line cannot be placed.
    pub(super) fn banner_line(&mut self, no: usize, trimmed: &str) -> Result<(), String> {
        let Some(p) = self.pending.as_mut() else {
            return self.outside_tables(trimmed);
        };
        let header = if self.osu {
            // OSU's lines between a title and its header (the datatype) key nothing.
            osu::table_header(trimmed, &p.benchmark)
        } else if p.detail(trimmed)? {
            return Ok(());
        } else {
            imb::table_header(trimmed)
        };
        // Anything else (a launcher's message on the same stream) is no part of the output.
        let Some((titles, columns)) = header else {
            return Ok(());
        };
        if !self.osu {
            p.complete()?;
        }
        self.threads.extend(p.threads);
        self.current = Some(Open::new(p, no, titles, columns));
        // Every table has a banner of its own (imb-ext's and imb-io's modes too).
        self.pending = None;
        Ok(())
    }

    /// A line with no banner or table open: column titles or a row there belong to no table
    /// the reader could key.
    fn outside_tables(&self, trimmed: &str) -> Result<(), String> {
        if !self.osu && imb::table_header(trimmed).is_some() {
            return Err("column titles with no # Benchmarking banner before them".to_string());
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        if words.len() > 1 && words.iter().all(|w| w.parse::<f64>().is_ok()) {
            return Err("a row outside any table (no column titles above it)".to_string());
        }
        Ok(())
    }
}

impl Open {
    /// The table a header opens under its banner, on line `no`.
    fn new(p: &Pending, no: usize, titles: Vec<String>, columns: Vec<String>) -> Open {
        Open {
            table: Table {
                benchmark: p.benchmark.clone(),
                processes: p.processes,
                groups: p.groups,
                mode: p.mode.clone(),
                columns,
                rows: Vec::new(),
                line: no,
                flags: Vec::new(),
                placement: None,
            },
            at: Vec::new(),
            titles,
        }
    }

    /// Under -multi 1 the first column is the group, and the size the second.
    fn grouped(&self) -> bool {
        self.table.column("group").is_some()
    }

    /// Line `no` read as `kind`: true when the table takes it, false when it ends the table,
    /// the message when it is a row the table cannot take.
    fn take(&mut self, no: usize, line: &str, kind: RowLine) -> Result<bool, String> {
        let width = self.table.columns.len();
        match kind {
            RowLine::Row(v) if v.len() == width => {
                if self.grouped() && v[0] >= self.table.groups as f64 {
                    return Err(format!(
                        "group {} in a table of {} group(s) (header line {})",
                        v[0], self.table.groups, self.table.line
                    ));
                }
                self.table.rows.push(v);
                self.at.push(At::Line(no));
                Ok(true)
            }
            RowLine::Row(v) => Err(format!(
                "a row of {} values under a header of {width} columns (line {})",
                v.len(),
                self.table.line
            )),
            RowLine::NoFigure(size, flag) => {
                if let Some(why) = crate::read::check::bad_size(size) {
                    return Err(format!("size {}: {why}", crate::read::check::shown(size)));
                }
                self.table.flags.push((Some(size as u64), flag));
                Ok(true)
            }
            RowLine::BadWord(w) => Err(format!(
                "{w:?} where a row has a number (a row of {width} columns, header line {})",
                self.table.line
            )),
            // Under -multi 1 a blank line precedes each size's group rows (doc/OUTPUT.md).
            RowLine::NotARow if line.trim().is_empty() => Ok(self.grouped()),
            RowLine::NotARow if line.trim_start().starts_with('#') => Ok(false),
            // `Attention, msg size … truncated to …` before its row, or a launcher's message
            // on the same stream: the table goes on.
            RowLine::NotARow => Ok(true),
        }
    }
}
