//! The IMB text layout, byte for byte (doc/OUTPUT.md, including "Compatibility with IMB parsers").
//! It flushes after every write, so a crash keeps what was already measured.

use super::{Banner, Failure, Header, Note, Row, Sink, Summary, Verdict};
use crate::vocab::Layout;
use crate::vocab::Mode;
use std::io::Write;

/// The IMB text layout on any writer (stdout in a run, a Vec in tests).
pub struct Text<W: Write> {
    out: W,
    /// The first write failure; later output is dropped. A closed stdout (`| head`) must not
    /// kill a rank in the middle of a collective: the driver ends the run at the next step.
    failed: Option<std::io::Error>,
    /// The current table's whole-number columns (`Columns::whole`), set by its banner.
    whole: Vec<bool>,
}

impl<W: Write> Text<W> {
    pub fn new(out: W) -> Self {
        Text {
            out,
            failed: None,
            whole: Vec::new(),
        }
    }
    pub fn into_inner(self) -> W {
        self.out
    }
    fn put(&mut self, s: &str) {
        if self.failed.is_some() {
            return;
        }
        if let Err(e) = self
            .out
            .write_all(s.as_bytes())
            .and_then(|_| self.out.flush())
        {
            self.failed = Some(e);
        }
    }
}

/// Rank numbers as 3.0 prints them: " %4d" each, 16 to a line.
fn rank_row(prefix: &str, ranks: &[usize]) -> String {
    let mut s = String::new();
    for (k, chunk) in ranks.chunks(16).enumerate() {
        s.push_str(if k == 0 { prefix } else { "# " });
        for r in chunk {
            s.push_str(&format!(" {r:>4}"));
        }
        s.push('\n');
    }
    s.push_str("# \n");
    s
}

/// The process block of a banner (doc/OUTPUT.md, "Process block").
pub fn process_block(l: &Layout) -> String {
    let mut s = String::new();
    if l.multi {
        s.push_str(&format!(
            "# ( {} groups of {} processes each running simultaneous ) \n",
            l.groups.len(),
            l.np
        ));
        for (g, m) in l.groups.iter().enumerate() {
            s.push_str(&rank_row(&format!("# Group  {g}: "), m));
        }
    } else if let Some(rows) = &l.rows {
        s.push_str(&format!(
            "# #processes = {}; rank order (rowwise): \n",
            l.np
        ));
        for r in rows {
            s.push_str(&rank_row("# ", r));
        }
    } else {
        s.push_str(&format!("# #processes = {} \n", l.np));
    }
    match l.idle {
        0 => {}
        1 => s.push_str("# ( 1 additional process waiting in MPI_Barrier)\n"),
        k => s.push_str(&format!(
            "# ( {k} additional processes waiting in MPI_Barrier)\n"
        )),
    }
    s
}

/// The header text (doc/OUTPUT.md, "Header"; IMB 3.0's with this project's title).
pub fn header_text(h: &Header) -> String {
    let rule = format!("#{}", "-".repeat(51));
    // 3.0 pads the part name to 14 columns ("MPI-1 part    ", "MPI-IO part   ").
    let title = format!("#    imb-rs {}, {:<14}", h.version, h.part);
    let mut s = format!(
        "{rule}\n{title}\n{rule}\n\
# Date                  : {}\n\
# Machine               : {}\n\
# System                : {}\n\
# Release               : {}\n\
# Version               : {}\n\
# MPI Version           : {}.{}\n\
# MPI Thread Environment: {}\n\n#\n",
        h.date,
        h.machine,
        h.system,
        h.release,
        h.uversion,
        h.mpi_version.0,
        h.mpi_version.1,
        h.thread_env
    );
    let what = if h.io { "io portion" } else { "message length" };
    match h.min_max {
        Some((lo, hi)) => s.push_str(&format!(
            "# Minimum {what} in bytes:   {lo}\n# Maximum {what} in bytes:   {hi}\n"
        )),
        None => s.push_str("# Message lengths were user defined\n"),
    }
    s.push_str("#\n");
    if !h.info.is_empty() {
        // 3.0 prints the user's info keys between the first two bare `#` lines.
        s.push_str(&format!("# Got {} Info-keys:\n\n", h.info.len()));
        for (k, v) in &h.info {
            s.push_str(&format!("# {k} = \"{v}\"\n"));
        }
    }

    if h.io {
        s.push_str("#\n");
    } else {
        let lines = h
            .notes
            .iter()
            .find(|n| matches!(n, Note::Datatypes { .. }))
            .map(Note::lines)
            .unwrap_or_else(|| crate::note::datatype_lines("MPI_BYTE", "MPI_FLOAT"));
        for l in lines {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str("#\n");
    }
    s.push_str("#\n");
    for n in h
        .notes
        .iter()
        .filter(|n| !matches!(n, Note::Datatypes { .. }))
    {
        for l in n.lines() {
            s.push_str(&format!("# !! {l}\n"));
        }
        s.push_str("#\n");
    }
    s
}

/// Format one row: integers `%13d`, floats `%13.2f`, nothing after the last value.
pub fn row_text(r: &Row) -> String {
    row_text_with(r, &[])
}

/// `row_text`, with the values marked in `whole` as `%13.0f` (IMB's `Msg/sec`).
pub fn row_text_with(r: &Row, whole: &[bool]) -> String {
    let mut s = String::new();
    if let Some(g) = r.group {
        s.push_str(&format!("{g:>13}"));
    }
    if let Some(b) = r.bytes {
        s.push_str(&format!("{b:>13}"));
    }
    s.push_str(&format!("{:>13}", r.reps));
    for (k, v) in r.values.iter().enumerate() {
        if whole.get(k).copied().unwrap_or(false) {
            s.push_str(&format!("{v:>13.0}"));
        } else {
            s.push_str(&format!("{v:>13.2}"));
        }
    }
    s.push('\n');
    s
}

impl<W: Write> Sink for Text<W> {
    fn failure(&self) -> Option<Failure> {
        self.failed.as_ref().map(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                Failure::Closed
            } else {
                Failure::Error(format!("cannot write to standard output: {e}"))
            }
        })
    }
    fn header(&mut self, h: &Header) {
        if h.hidden {
            return;
        }
        let t = header_text(h);
        self.put(&t);
    }
    fn list(&mut self, names: &[&str], multi: bool) {
        let mut s = String::from("\n# List of Benchmarks to run:\n\n");
        for n in names {
            s.push_str(&format!("# {}{n}\n", if multi { "(Multi-)" } else { "" }));
        }
        self.put(&s);
    }
    fn block(&mut self, note: &Note) {
        let mut s = String::from("\n");
        for l in note.lines() {
            if l.is_empty() {
                s.push('\n');
            } else {
                s.push_str(&format!("\n# {l}"));
            }
        }
        s.push('\n');
        self.put(&s);
    }
    fn invalid(&mut self, name: &str, np: usize) {
        let s = if np == 1 {
            format!("\n# !! Benchmark {name} invalid for 1 process   !! \n\n")
        } else {
            format!("\n# !! Benchmark {name} invalid for {np} processes !! \n\n")
        };
        self.put(&s);
    }
    fn banner(&mut self, b: &Banner) {
        let rule = b.cols.rule();
        let multi = if b.layout.multi { "Multi-" } else { "" };
        let mut s = format!("\n{rule}\n# Benchmarking {multi}{}{} \n", b.name, b.suffix);
        match b.process {
            Some(lines) => lines.iter().for_each(|l| s.push_str(&format!("# {l}\n"))),
            None => s.push_str(&process_block(b.layout)),
        }
        s.push_str(&rule);
        s.push('\n');
        match b.mode {
            Mode::Plain => {}
            Mode::Aggregate => s.push_str("#\n#    MODE: AGGREGATE \n#\n"),
            Mode::NonAggregate => s.push_str("#\n#    MODE: NON-AGGREGATE \n#\n"),
        }
        self.whole = b.cols.whole();
        let titles: String = b.cols.titles().iter().map(|t| format!("{t:>13}")).collect();
        s.push_str(&titles);
        s.push('\n');
        self.put(&s);
    }
    fn note(&mut self, note: &Note) {
        let mut s = String::from("\n");
        for l in note.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        self.put(&s);
    }
    fn attention(&mut self, note: &Note) {
        for l in note.lines() {
            self.put(&format!("{l}\n"));
        }
    }
    fn size_block(&mut self) {
        self.put("\n");
    }
    fn row(&mut self, r: &Row) {
        let t = row_text_with(r, &self.whole);
        self.put(&t);
    }
    fn table_end(&mut self, notes: &[Note], unsuccessful: bool) {
        let mut s = String::new();
        if !notes.is_empty() {
            s.push('\n');
            for l in notes.iter().flat_map(|n| n.lines()) {
                s.push_str(&format!("# {l}\n"));
            }
        }
        if unsuccessful {
            s.push_str("\n\n!!! Benchmark unsuccessful !!!\n\n");
        }
        self.put(&s);
    }
    fn summary(&mut self, s: &Summary) {
        let t = super::summary_text(s);
        self.put(&t);
    }
    fn finish(&mut self, verdicts: Option<&[Verdict]>) {
        let mut s = String::new();
        if let Some(v) = verdicts {
            let failed = v.iter().filter(|v| !v.ok).count();
            if failed == 0 {
                s.push_str("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n\n");
            } else {
                let word = if failed == 1 {
                    "BENCHMARK"
                } else {
                    "BENCHMARKS"
                };
                s.push_str(&format!("\n\n!!!!  {failed}  {word} FAILED     !!!! \n\n"));
                for x in v {
                    if x.ok {
                        s.push_str(&format!("{}    : Successful\n", x.name));
                    } else {
                        s.push_str(&format!("{}    : FAILED !! \n", x.name));
                    }
                }
            }
        }
        s.push_str("\n\n# All processes entering MPI_Finalize\n\n");
        self.put(&s);
    }
}

#[cfg(test)]
mod tests;
