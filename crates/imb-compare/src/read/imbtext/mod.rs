//! Reading IMB-format text output back into tables: ours, IMB 3.0's and IMB 2021's (the layouts
//! of doc/OUTPUT.md; IMB 2021's IMB-P2P, IMB-MT and IMB-MPI4 and our executables of those
//! suites too), and OSU 7.x's, so results kept as text by existing workflows can be compared
//! without re-running anything.
//!
//! The reader is lenient about lines it does not know (mpirun's warnings interleave with the
//! tables when stderr is kept, even inside a table) and strict about what keys a table and
//! the rows it takes: every line of a banner's process block must be one it knows, and agree
//! with the rest (`banner.rs`), a line shaped like a row must be one (every word a number, as
//! many as the header has columns) under a table's column titles, two tables of one launch
//! may not share a key (benchmark, processes, groups, mode), and every figure passes
//! [`crate::read::check`]. Anything it cannot place is an input error naming the line: read
//! loosely, tables would merge. A file cut off in the middle of its last row (a launch killed
//! while printing) loses that row and is marked cut short; IMB 2021's `time-out.` and
//! `out-of-mem.` rows are kept as flags with no figure. The header gives the launch's
//! conditions ([`crate::conditions`]) and its date (which tells launches apart).

mod banner;
mod finish;
mod imb;
mod osu;
mod table;
#[cfg(test)]
mod tests;

use crate::error::Error;
use crate::read::check::At;
use crate::read::run::{Conditions, Flag, Identity, Run, Status, Table};

/// The flag a note line after a table sets, with its size: `adaptive: 8 bytes: … UNSETTLED (…)`,
/// `adaptive: median …: UNSETTLED` (a sizeless table), `8 bytes: UNRELIABLE: rank 2: …`,
/// `defect: 8 bytes, world rank 1: …`. Text output and schema 1 `-json` notes hold these lines
/// (without `# ` in the JSON).
pub(crate) fn note_flag(note: &str) -> Option<(Option<u64>, Flag)> {
    let note = note.trim().trim_start_matches('#').trim();
    let size = |s: &str| -> Option<u64> { s.split_once(" bytes")?.0.trim().parse().ok() };
    if let Some(rest) = note.strip_prefix("adaptive:") {
        return rest
            .contains("UNSETTLED")
            .then(|| (size(rest), Flag::Unsettled));
    }
    if let Some(rest) = note.strip_prefix("defect:") {
        return Some((size(rest), Flag::Defect));
    }
    let (head, tail) = note.split_once(" bytes: ")?;
    tail.starts_with("UNRELIABLE")
        .then(|| {
            head.trim()
                .parse()
                .ok()
                .map(|b| (Some(b), Flag::Unreliable))
        })
        .flatten()
}

/// The key of one printed column title.
pub(crate) fn column_key(title: &str) -> String {
    let t = title.trim().trim_start_matches('#');
    let t = t.strip_suffix("[usec]").unwrap_or(t);
    match t {
        "Mbytes/sec" => "mbytes".to_string(),
        "Msg/sec" => "msg_per_s".to_string(),
        "Group" => "group".to_string(),
        other => other.to_string(),
    }
}

/// The key a comparison matches tables by: benchmark, processes, groups, mode.
pub(crate) type Key = (String, Option<usize>, usize, Option<String>);

/// A table's key.
pub(crate) fn key(t: &Table) -> Key {
    (t.benchmark.clone(), t.processes, t.groups, t.mode.clone())
}

/// A table's key in words, for messages: "Allreduce, 2 processes", "Multi-PingPong, 2 groups
/// of 2 processes", "Unidir_Put, 2 processes, AGGREGATE".
pub(crate) fn key_words(t: &Table) -> String {
    let mut s = t.benchmark.clone();
    match (t.processes, t.groups) {
        (Some(n), 1) => s.push_str(&format!(", {n} processes")),
        (Some(n), g) => s.push_str(&format!(", {g} groups of {n} processes")),
        (None, _) => {}
    }
    if let Some(m) = &t.mode {
        s.push_str(&format!(", {m}"));
    }
    s
}

/// What a line under a table's header is.
#[derive(Debug, PartialEq)]
enum RowLine {
    Row(Vec<f64>),
    /// IMB 2021's `262144 time-out.; Time limit …`: a size and no figure.
    NoFigure(f64, Flag),
    /// Shaped like a row (its first word a number, as many words as columns, most of them
    /// numbers) but a word that is no number.
    BadWord(String),
    NotARow,
}

fn row_line(line: &str, width: usize, grouped: bool) -> RowLine {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(Ok(_)) = words.first().map(|w| w.parse::<f64>()) else {
        return RowLine::NotARow;
    };
    let numbers: Vec<f64> = words.iter().map_while(|w| w.parse().ok()).collect();
    if numbers.len() == words.len() {
        return RowLine::Row(numbers);
    }
    let next = words[numbers.len()];
    let flag = [
        ("time-out", Flag::TimeOut),
        ("out-of-mem", Flag::OutOfMemory),
        ("int-overflow", Flag::IntOverflow),
    ]
    .into_iter()
    .find(|(w, _)| next.starts_with(w));
    if let Some((_, f)) = flag {
        let size = if grouped && numbers.len() > 1 {
            numbers[1]
        } else {
            numbers[0]
        };
        return RowLine::NoFigure(size, f);
    }
    // A row with a word where a figure belongs (most words numbers, the right count), not a
    // stray line that starts with a count ("2 total processes killed").
    let numeric = words.iter().filter(|w| w.parse::<f64>().is_ok()).count();
    if words.len() == width && 2 * numeric > width {
        let bad = words
            .iter()
            .find(|w| w.parse::<f64>().is_err())
            .unwrap_or(&next);
        return RowLine::BadWord(bad.to_string());
    }
    RowLine::NotARow
}

/// A banner seen, its header not yet.
struct Pending {
    benchmark: String,
    /// The line of `# Benchmarking`, for messages.
    line: usize,
    processes: Option<usize>,
    groups: usize,
    mode: Option<String>,
    /// The MT suite's threads per process (`# #processes = 2 (threads: 4)`).
    threads: Option<usize>,
    /// The world ranks the process block lists (doc/OUTPUT.md, "Process block").
    ranks: Ranks,
}

/// The rank lists of a process block: none, a `-map` grid's rows, or the groups' members.
#[derive(Default)]
enum Ranks {
    #[default]
    None,
    /// `# #processes = N; rank order (rowwise):` then the grid's rows: how many ranks listed.
    Rowwise(usize),
    /// `# ( G groups of N processes … )` then `# Group  g: …`: how many ranks each group lists.
    Groups(Vec<usize>),
}

/// A table being read: the table, each row's line, the column titles as printed.
struct Open {
    table: Table,
    at: Vec<At>,
    titles: Vec<String>,
}

/// The reader's state over one file.
struct Reader<'a> {
    name: &'a str,
    run: Run,
    pending: Option<Pending>,
    current: Option<Open>,
    done: Vec<Open>,
    env_empty: bool,
    command: Option<String>,
    want_command: bool,
    osu: bool,
    /// The `# !!` lines of an optional-mode block.
    optional: Vec<String>,
    in_optional: bool,
    finished: bool,
    /// The line of the header's `# Date`, which a launch prints once.
    date_line: Option<usize>,
    cut: bool,
    /// The threads per process of every MT table read.
    threads: std::collections::BTreeSet<usize>,
}

impl<'a> Reader<'a> {
    fn new(name: &'a str) -> Reader<'a> {
        Reader {
            name,
            run: Run {
                title: String::new(),
                tables: Vec::new(),
                status: Status::Unknown,
                core_to_core: None,
                wall_secs: None,
                oversubscribed: None,
                provenance: None,
                conditions: Conditions::default(),
                identity: Identity::default(),
            },
            pending: None,
            current: None,
            done: Vec::new(),
            env_empty: false,
            command: None,
            want_command: false,
            osu: false,
            optional: Vec::new(),
            in_optional: false,
            finished: false,
            date_line: None,
            cut: false,
            threads: Default::default(),
        }
    }

    /// A header or note line (no table open). The readers are asked in this order, the first
    /// that knows the line taking it.
    fn other_line(&mut self, no: usize, trimmed: &str) -> Result<(), Error> {
        if self.in_optional && !trimmed.starts_with("# !!") {
            self.in_optional = false;
        }
        self.one_launch(no, trimmed)?;
        let taken = self.command_line(trimmed)
            || self.title_line(trimmed)
            || self.osu_title(no, trimmed)
            || self.header_field(trimmed);
        let taken = taken || self.launch_line(trimmed).map_err(|msg| self.at(no, msg))?;
        let taken = taken
            || self.warning_line(trimmed)
            || self.note_line(trimmed)
            || self.closing_line(trimmed)
            || self.banner(no, trimmed);
        if taken {
            return Ok(());
        }
        self.banner_line(no, trimmed)
            .map_err(|msg| self.at(no, msg))
    }

    /// A second launch's header, or a table after the closing line: two launches in one file
    /// (`cat 1.txt 2.txt`), whose tables must not be read as one launch's.
    fn one_launch(&mut self, no: usize, trimmed: &str) -> Result<(), Error> {
        let second = if trimmed.starts_with("# Date ") {
            self.date_line.replace(no).map(|first| {
                format!("a second launch's header (its Date; the first at line {first})")
            })
        } else if self.finished && trimmed.starts_with("# Benchmarking ") {
            Some(
                "a table after the launch's closing line (# All processes entering MPI_Finalize)"
                    .to_string(),
            )
        } else {
            None
        };
        match second {
            Some(what) => Err(self.at(
                no,
                format!("{what}: two launches in one file; keep each launch in a file of its own"),
            )),
            None => Ok(()),
        }
    }

    /// An input error on line `no` of this file.
    fn at(&self, line: usize, msg: String) -> Error {
        Error::Line {
            file: self.name.to_string(),
            line,
            msg,
        }
    }
}

impl Pending {
    /// A banner on line `line` naming `benchmark`; its process count, groups and mode may
    /// follow.
    fn new(benchmark: String, line: usize) -> Pending {
        Pending {
            benchmark,
            line,
            processes: None,
            groups: 1,
            mode: None,
            threads: None,
            ranks: Ranks::None,
        }
    }
}

/// Parse one launch's output. `name` is the file's name, for messages.
pub fn parse(name: &str, text: &str) -> Result<Run, Error> {
    let mut r = Reader::new(name);
    let lines: Vec<&str> = text.lines().collect();
    let partial_end = !text.is_empty() && !text.ends_with('\n');
    for (k, raw) in lines.iter().enumerate() {
        let no = k + 1;
        let line = raw.trim_end();
        let last_partial = partial_end && k + 1 == lines.len();
        if r.table_line(no, line, last_partial)? {
            continue;
        }
        r.close_table();
        match r.other_line(no, line.trim()) {
            // A launch killed while printing a banner's line leaves half a line: cut short,
            // not wrong.
            Err(_) if last_partial => r.cut = true,
            other => other?,
        }
    }
    r.finish()
}
