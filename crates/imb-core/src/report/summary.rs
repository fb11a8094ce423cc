//! `-summary`: after the last table, each table's lowest latency and highest bandwidth with
//! the sizes they were measured at (doc/OUTPUT.md, "Summary"). `Collector` is a sink that
//! keeps the rows; `summarise` is the pure step from one table's rows to its line; the text
//! sink prints `summary_text` as `#` comment lines, which IMB-output parsers skip, and the
//! JSON sink stores the same lines as data.

use super::{Banner, Columns, Row, Sink};
use crate::vocab::mode_name;
use serde::Serialize;

/// The columns a table's latency is read from, in order of preference: the one its
/// bandwidth comes from (`t[usec]` and `t_max[usec]` are the slowest rank's time), the
/// white-box total, the non-blocking overlapped time.
const LATENCY: &[&str] = &["t[usec]", "t_max[usec]", "total[usec]", "t_ovrl[usec]"];
const BANDWIDTH: &str = crate::table::column::MBYTES.title;

/// One extreme of a table: the value, its column's machine key and its size (None in a table
/// without sizes: Barrier, Open_Close).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Best {
    pub key: &'static str,
    pub value: f64,
    pub bytes: Option<usize>,
}

/// The summary line of one table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryLine {
    pub benchmark: String,
    /// Processes per group.
    pub processes: usize,
    pub groups: usize,
    pub mode: Option<&'static str>,
    /// The lowest latency in microseconds (None: no row).
    pub latency: Option<Best>,
    /// The highest bandwidth in Mbytes/sec (None: the table has no bandwidth column, or no
    /// row).
    pub bandwidth: Option<Best>,
}

/// The summary of a run: one line per table, in run order.
pub type Summary = Vec<SummaryLine>;

/// The lowest latency and the highest bandwidth of one table's rows. The latency is taken
/// over the non-empty messages: the 0-byte row counts only in a table with no other size.
/// Under `-multi 1` each size has one row per group; a size counts with its slowest group
/// (largest time, smallest bandwidth), as `-multi 0` reports the groups together. Ties go to
/// the smallest size listed first; values that are not finite are passed over.
pub fn summarise(cols: &Columns, rows: &[Row]) -> (Option<Best>, Option<Best>) {
    let all = cols.all();
    // Row::values starts after the integer columns.
    let ints = all.iter().take_while(|c| c.is_int()).count();
    let at = |title: &str| {
        let i = all.iter().position(|c| c.title == title)?;
        Some((i - ints, all[i].key))
    };
    let lat = LATENCY.iter().find_map(|t| at(t));
    let bw = at(BANDWIDTH);

    // Per size (consecutive rows of one size): (bytes, slowest latency, smallest bandwidth).
    let mut per_size: Vec<(Option<usize>, Option<f64>, Option<f64>)> = Vec::new();
    for r in rows {
        let l = lat.and_then(|(i, _)| r.values.get(i).copied().filter(|v| v.is_finite()));
        let b = bw.and_then(|(i, _)| r.values.get(i).copied().filter(|v| v.is_finite()));
        match per_size.last_mut() {
            Some(last) if r.group.is_some() && last.0 == r.bytes => {
                last.1 = max_opt(last.1, l);
                last.2 = min_opt(last.2, b);
            }
            _ => per_size.push((r.bytes, l, b)),
        }
    }
    // A 0-byte call may move nothing (an MPI library may return from a 0-byte Bcast or Put at
    // once), so its time is the call's bare cost, not a latency, and it would win the line
    // with a figure like 0.00. It stands only when the table has no other size (`-msglen`
    // listing only 0), as the only figure there is; a table without sizes (bytes None) keeps
    // its one row.
    let non_empty = per_size.iter().any(|s| s.0 != Some(0));
    let mut lowest: Option<Best> = None;
    let mut highest: Option<Best> = None;
    for &(bytes, l, b) in &per_size {
        let l = l.filter(|_| bytes != Some(0) || !non_empty);
        if let (Some((_, key)), Some(v)) = (lat, l) {
            if lowest.as_ref().is_none_or(|x| v < x.value) {
                lowest = Some(Best {
                    key,
                    value: v,
                    bytes,
                });
            }
        }
        if let (Some((_, key)), Some(v)) = (bw, b) {
            if highest.as_ref().is_none_or(|x| v > x.value) {
                highest = Some(Best {
                    key,
                    value: v,
                    bytes,
                });
            }
        }
    }
    (lowest, highest)
}

fn max_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

fn min_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// The printed block: a blank line, a title line, a bare `#` and a grid, every line a `#`
/// comment. It holds none of the lines parsers look for (no `# Benchmarking`, no rule, no
/// `#bytes` or `#repetitions` title), and its cells have no blanks, so it also splits on
/// whitespace.
pub fn summary_text(s: &Summary) -> String {
    let titles = [
        "benchmark",
        "processes",
        "groups",
        "mode",
        "latency[usec]",
        "from",
        "at_bytes",
        "bandwidth[MB/s]",
        "at_bytes",
    ];
    let size = |b: &Option<Best>| match b {
        Some(Best { bytes: Some(x), .. }) => x.to_string(),
        _ => "-".to_string(),
    };
    let rows: Vec<Vec<String>> = s
        .iter()
        .map(|l| {
            vec![
                l.benchmark.clone(),
                l.processes.to_string(),
                l.groups.to_string(),
                l.mode.unwrap_or("-").to_string(),
                l.latency
                    .as_ref()
                    .map_or("-".into(), |b| format!("{:.2}", b.value)),
                l.latency.as_ref().map_or("-", |b| b.key).to_string(),
                size(&l.latency),
                l.bandwidth
                    .as_ref()
                    .map_or("-".into(), |b| format!("{:.2}", b.value)),
                size(&l.bandwidth),
            ]
        })
        .collect();
    let mut out = String::from(
        "\n# Summary: the lowest latency and the highest bandwidth of each table \
         (MB = 2^20 bytes)\n#\n",
    );
    let widths: Vec<usize> = (0..titles.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([titles[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Names left-aligned, numbers right-aligned, two blanks between columns.
    let left = [0, 3, 5];
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from("#");
        for (c, (cell, &w)) in cells.zip(&widths).enumerate() {
            if left.contains(&c) {
                s.push_str(&format!("  {cell:<w$}"));
            } else {
                s.push_str(&format!("  {cell:>w$}"));
            }
        }
        let mut s = s.trim_end().to_string();
        s.push('\n');
        s
    };
    out.push_str(&line(&mut titles.iter().copied()));
    for r in &rows {
        out.push_str(&line(&mut r.iter().map(String::as_str)));
    }
    out
}

/// The sink that keeps every table's rows for the summary (rank 0, with `-summary` only).
#[derive(Default)]
pub struct Collector {
    tables: Vec<(SummaryLine, Columns, Vec<Row>)>,
}

impl Collector {
    /// The summary of every table seen so far.
    pub fn summary(&self) -> Summary {
        self.tables
            .iter()
            .map(|(line, cols, rows)| {
                let (latency, bandwidth) = summarise(cols, rows);
                SummaryLine {
                    latency,
                    bandwidth,
                    ..line.clone()
                }
            })
            .collect()
    }
}

impl Sink for Collector {
    fn banner(&mut self, b: &Banner) {
        let line = SummaryLine {
            benchmark: b.name.to_string(),
            processes: b.layout.np,
            groups: b.layout.groups.len(),
            mode: mode_name(b.mode),
            latency: None,
            bandwidth: None,
        };
        self.tables.push((line, b.cols, Vec::new()));
    }
    fn row(&mut self, r: &Row) {
        if let Some((_, _, rows)) = self.tables.last_mut() {
            rows.push(r.clone());
        }
    }
}

#[cfg(test)]
mod tests;
