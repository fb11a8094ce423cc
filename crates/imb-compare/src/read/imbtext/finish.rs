//! The run once every line is read: its conditions and status settled, its tables checked.

use super::imb::{decimal_megabytes, has_closing_line};
use super::{key, key_words, Key, Reader};
use crate::error::Error;
use crate::read::check;
use crate::read::run::{Run, Status};
use std::collections::HashMap;

impl Reader<'_> {
    /// The run, its tables checked, its conditions and status settled.
    pub(super) fn finish(mut self) -> Result<Run, Error> {
        self.close_table();
        let title = self.run.title.clone();
        self.settle_conditions(&title);
        self.run.status = self.status(&title);
        self.keep_tables(&title)?;
        if self.run.tables.is_empty() {
            return Err(Error::File {
                file: self.name.to_string(),
                msg: "no IMB or OSU table in it".to_string(),
            });
        }
        Ok(self.run)
    }

    fn status(&self, title: &str) -> Status {
        if self.finished {
            Status::Complete
        } else if self.cut {
            Status::CutShort("its last row is cut off".to_string())
        } else if has_closing_line(title) {
            Status::CutShort("no closing line (# All processes entering MPI_Finalize)".to_string())
        } else {
            Status::Unknown
        }
    }

    /// Every table with a row or a flag, checked, its Mbytes/sec in megabytes of 2^20 bytes.
    fn keep_tables(&mut self, title: &str) -> Result<(), Error> {
        // IMB 2021's, and imb-rs's under -compat 2021 (its method block says so).
        let megabytes = decimal_megabytes(title)
            || self
                .optional
                .iter()
                .any(|l| crate::read::run::decimal_megabyte_line(l));
        // One launch prints a benchmark's table once per key, unless it was named twice
        // (`imb-mpi1 PingPong PingPong`): then its rows join the first's, as a size measured
        // twice does (doc/ACCEPTANCE.md, "Repeated sizes"). Only where the file is one
        // launch's for sure: a dated header, printed once (OSU and IMB-MT 2021 print none).
        let joins = self.date_line.is_some() && !self.osu;
        let mut seen: HashMap<Key, usize> = HashMap::new();
        for mut open in std::mem::take(&mut self.done) {
            if open.table.rows.is_empty() && open.table.flags.is_empty() {
                continue;
            }
            check::table(self.name, &open.table, &open.at, &open.titles)?;
            check::flag_defects(&mut open.table);
            if megabytes {
                open.table.to_binary_megabytes();
            }
            match seen.get(&key(&open.table)) {
                None => {
                    seen.insert(key(&open.table), self.run.tables.len());
                    self.run.tables.push(open.table);
                }
                Some(&k) if joins && self.run.tables[k].columns == open.table.columns => {
                    check::join(&mut self.run.tables[k], open.table);
                }
                Some(&k) => {
                    return Err(Error::Line {
                        file: self.name.to_string(),
                        line: open.table.line,
                        msg: format!(
                            "a second table of {} (the first's header at line {}): two \
                             launches in one file, or a benchmark named twice? keep each \
                             launch in a file of its own and name each benchmark once",
                            key_words(&open.table),
                            self.run.tables[k].line,
                        ),
                    })
                }
            }
        }
        self.run.tables.iter_mut().for_each(check::merge_repeats);
        Ok(())
    }
}
