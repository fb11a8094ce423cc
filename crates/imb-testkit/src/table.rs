//! The tables of an executable's output, parsed as a test reads them, and the checks every
//! successful run passes.

use crate::Out;

/// One printed table.
#[derive(Debug, Clone)]
pub struct Table {
    /// `Multi-PingPong`, `Allreduce`, …
    pub title: String,
    /// Lines between the title and the closing rule (process block).
    pub procs: Vec<String>,
    /// The column-title line.
    pub header: String,
    /// Rule length (dashes + 1).
    pub rule: usize,
    /// Data rows, split on whitespace.
    pub rows: Vec<Vec<String>>,
    pub mode: Option<String>,
}

impl Table {
    pub fn column(&self, title: &str) -> Vec<String> {
        let i = self
            .header
            .split_whitespace()
            .position(|t| t == title)
            .unwrap_or_else(|| panic!("no column {title} in {:?}", self.header));
        self.rows.iter().map(|r| r[i].clone()).collect()
    }
    pub fn ints(&self, title: &str) -> Vec<usize> {
        self.column(title)
            .iter()
            .map(|v| v.parse().unwrap())
            .collect()
    }
}

/// Every table of an output, in order.
pub fn tables(out: &str) -> Vec<Table> {
    let lines: Vec<&str> = out.lines().collect();
    let mut v = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(t) = lines[i].strip_prefix("# Benchmarking ") {
            let rule = lines[i - 1].len();
            let mut j = i + 1;
            let mut procs = Vec::new();
            while !lines[j].starts_with("#--") {
                procs.push(lines[j].to_string());
                j += 1;
            }
            j += 1;
            let mut mode = None;
            if lines[j] == "#" {
                mode = Some(lines[j + 1].to_string());
                j += 3;
            }
            let header = lines[j].to_string();
            j += 1;
            let mut rows = Vec::new();
            while j < lines.len() && !lines[j].starts_with('#') {
                if lines[j].is_empty() {
                    // -multi 1 puts a blank line before each size; two in a row, or a blank
                    // followed by a non-row, end the table.
                    if j + 1 < lines.len() && lines[j + 1].starts_with("        ") {
                        j += 1;
                        continue;
                    }
                    break;
                }
                if !lines[j].starts_with("Attention") {
                    rows.push(lines[j].split_whitespace().map(String::from).collect());
                }
                j += 1;
            }
            v.push(Table {
                title: t.trim_end().to_string(),
                procs,
                header,
                rule,
                rows,
                mode,
            });
            i = j;
        } else {
            i += 1;
        }
    }
    v
}

/// A table without its timings: its title, the lines under it, its column titles and each
/// row's first field.
pub type GridShape = (String, Vec<String>, Vec<String>, Vec<String>);

/// The structure of the tables of imb-threads and imb-omp, without their timings.
pub fn grid_shape(out: &str) -> Vec<GridShape> {
    tables(out)
        .into_iter()
        .map(|t| {
            let titles = t.header.split_whitespace().map(String::from).collect();
            let first = t.rows.iter().map(|r| r[0].clone()).collect();
            (t.title, t.procs, titles, first)
        })
        .collect()
}

/// The `-progress` lines of `exe` in a run's stderr (its error lines left out).
pub fn progress_lines<'a>(exe: &str, err: &'a str) -> Vec<&'a str> {
    let at = format!("{exe}: ");
    err.lines()
        .filter(|l| l.starts_with(&at) && !l.starts_with(&format!("{at}error")))
        .collect()
}

/// Assert a run succeeded and ended properly.
pub fn ok(o: &Out) {
    assert_eq!(
        o.code,
        Some(0),
        "stdout:\n{}\nstderr:\n{}",
        o.stdout,
        o.stderr
    );
    assert!(
        o.stdout
            .ends_with("\n\n# All processes entering MPI_Finalize\n\n"),
        "no end marker:\n{}",
        o.stdout
    );
}

/// A `-check` run that passed: `ok`, the success line, and in every table a defects column of
/// zeros, but in those titled in `unchecked`, which must have no defects column. The tables.
pub fn checked_clean(o: &Out, unchecked: &[&str]) -> Vec<Table> {
    ok(o);
    assert!(
        o.stdout
            .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"),
        "{}",
        o.stdout
    );
    let t = tables(&o.stdout);
    for t in &t {
        if unchecked.contains(&t.title.as_str()) {
            assert!(!t.header.contains("defects"), "{}", t.title);
            continue;
        }
        let d = t.column("defects");
        assert!(
            !d.is_empty() && d.iter().all(|d| d == "0.00"),
            "{} {:?}: {d:?}",
            t.title,
            t.mode
        );
    }
    t
}
