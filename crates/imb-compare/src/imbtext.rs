//! Reading IMB-format text output back into tables: ours, IMB 3.0's and IMB 2021's (the layouts
//! of doc/OUTPUT.md), and OSU 7.x's, so results kept as text by existing workflows can be
//! compared without re-running anything.
//!
//! The reader is lenient about lines it does not know (mpirun's warnings interleave with the
//! tables when stderr is kept) and strict about the rows it takes: a line shaped like a row
//! must be one (every word a number, as many as the header has columns), and every figure
//! passes [`crate::check`]. A file cut off in the middle of its last row (a launch killed while
//! printing) loses that row and is marked cut short; IMB 2021's `time-out.` and `out-of-mem.`
//! rows are kept as flags with no figure. The header gives the launch's conditions
//! ([`crate::conditions`]) and its date (which tells launches apart).

use crate::check::{self, At};
use crate::conditions;
use crate::error::Error;
use crate::run::{Conditions, Flag, Identity, Run, Status, Table};

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

/// IMB 2021 (title "Intel(R) MPI Benchmarks 2021.…") counts a megabyte as 10^6 bytes, IMB 3.0
/// and imb-rs as 2^20 (doc/METHODOLOGY.md, "From per-rank times to a row"): its Mbytes/sec are
/// converted on reading so that ratios compare like with like.
fn decimal_megabytes(title: &str) -> bool {
    title
        .split_once("MPI Benchmarks ")
        .and_then(|(_, v)| v.get(..4)?.parse::<u32>().ok())
        .is_some_and(|year| year >= 2021)
}

/// The program and its version from a banner title: "imb-rs 0.1.0", "IMB 3.0", "IMB 2021.11",
/// "IMB 2019 Update 6"; `None` for a title we do not know.
pub(crate) fn program(title: &str) -> Option<String> {
    let name = title.split(',').next().unwrap_or("").trim();
    if let Some(v) = name.strip_prefix("imb-rs ") {
        return Some(format!("imb-rs {}", v.trim()));
    }
    if let Some((_, v)) = name.split_once("Benchmark Suite V") {
        return Some(format!("IMB {}", v.trim()));
    }
    if let Some((_, v)) = name.split_once("MPI Benchmarks ") {
        return Some(format!("IMB {}", v.trim()));
    }
    None
}

/// IMB 2018 and later, and imb-rs, end a complete run with `# All processes entering
/// MPI_Finalize`; IMB 3.x prints no closing line.
fn has_closing_line(title: &str) -> bool {
    title.starts_with("imb-rs") || title.contains("MPI Benchmarks ")
}

/// The key of one printed column title.
pub(crate) fn column_key(title: &str) -> String {
    let t = title.trim().trim_start_matches('#');
    let t = t.strip_suffix("[usec]").unwrap_or(t);
    match t {
        "Mbytes/sec" => "mbytes".to_string(),
        "Msg/sec" => "msgs".to_string(),
        "Group" => "group".to_string(),
        other => other.to_string(),
    }
}

/// An OSU column title (several words, separated from the next by two or more spaces).
fn osu_column_key(title: &str, latency_is_t: bool) -> String {
    let t = title.trim();
    if t == "Size" {
        return "bytes".to_string();
    }
    if t == "Iterations" {
        return "repetitions".to_string();
    }
    if t.starts_with("Min Latency") {
        return "t_min".to_string();
    }
    if t.starts_with("Max Latency") {
        return "t_max".to_string();
    }
    if t.contains("Latency") {
        // osu_latency's one-way latency is IMB PingPong's t; a collective's average over
        // ranks is IMB's t_avg.
        return if latency_is_t { "t" } else { "t_avg" }.to_string();
    }
    if t.starts_with("Bandwidth") || t.starts_with("MB/s") {
        return "mbytes".to_string();
    }
    t.to_lowercase().replace(' ', "_")
}

/// The IMB benchmark an OSU test measures, from its title line ("# OSU MPI Allreduce Latency
/// Test v7.4" → Allreduce; plain "Latency Test" is PingPong's pattern).
fn osu_benchmark(title: &str) -> String {
    let rest = title.trim_start_matches('#').trim();
    let rest = rest.strip_prefix("OSU MPI").unwrap_or(rest).trim();
    let rest = format!(" {rest}");
    let name = rest.split(" Latency Test").next().unwrap_or(&rest).trim();
    let name = name.split(" Test").next().unwrap_or(name).trim();
    match name {
        "" => "PingPong".to_string(),
        "Broadcast" => "Bcast".to_string(),
        n if n.starts_with("All-to-All") || n.starts_with("Alltoall") => "Alltoall".to_string(),
        n => n.to_string(),
    }
}

/// "OSU 7.4" from an OSU test's title line ("… Test v7.4").
fn osu_program(title: &str) -> String {
    match title
        .split_whitespace()
        .last()
        .and_then(|w| w.strip_prefix('v'))
    {
        Some(v) if v.starts_with(|c: char| c.is_ascii_digit()) => format!("OSU {v}"),
        _ => "OSU".to_string(),
    }
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

/// The value after "LABEL:" on a header line.
fn after_colon(line: &str) -> &str {
    line.split_once(':').map_or("", |(_, v)| v.trim())
}

/// IMB 2021 prints an empty "MPI Thread Environment"; its level is then the one its command
/// line asked for (`-thread_level`), MPI_THREAD_SINGLE by default.
fn level_from_command(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    let asked = words
        .iter()
        .position(|w| *w == "-thread_level")
        .and_then(|k| words.get(k + 1))
        .copied()
        .unwrap_or("single");
    format!("MPI_THREAD_{}", asked.to_uppercase())
}

/// "36 ns before, 170 ns after" (a "?" where the probe could not run gives None).
fn core_to_core(v: &str) -> Option<(f64, f64)> {
    let (before, after) = v.split_once(',')?;
    let ns = |s: &str| s.split_whitespace().next()?.parse::<f64>().ok();
    Some((ns(before)?, ns(after)?))
}

/// A banner seen, its header not yet.
struct Pending {
    benchmark: String,
    processes: Option<usize>,
    groups: usize,
    mode: Option<String>,
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
    cut: bool,
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
            cut: false,
        }
    }

    /// A line while a table is open; false when the line ends the table.
    fn table_line(&mut self, no: usize, line: &str, last_partial: bool) -> Result<bool, Error> {
        let name = self.name;
        let error = |line: usize, msg: String| Error::Line {
            file: name.to_string(),
            line,
            msg,
        };
        let Some(open) = self.current.as_mut() else {
            return Ok(false);
        };
        let width = open.table.columns.len();
        let grouped = open.table.column("group").is_some();
        let kind = row_line(line, width, grouped);
        if last_partial && kind != RowLine::NotARow {
            // The launch was killed while printing this row: it is no figure.
            self.cut = true;
            return Ok(true);
        }
        match kind {
            RowLine::Row(v) if v.len() == width => {
                open.table.rows.push(v);
                open.at.push(At::Line(no));
                Ok(true)
            }
            RowLine::Row(v) => Err(error(
                no,
                format!(
                    "a row of {} values under a header of {width} columns (line {})",
                    v.len(),
                    open.table.line
                ),
            )),
            RowLine::NoFigure(size, flag) => {
                if size < 0.0 || size.fract() != 0.0 {
                    return Err(error(
                        no,
                        format!("size {size}: a size is a whole number not below 0"),
                    ));
                }
                open.table.flags.push((Some(size as u64), flag));
                Ok(true)
            }
            RowLine::BadWord(w) => Err(error(
                no,
                format!(
                    "{w:?} where a row has a number (a row of {width} columns, header line {})",
                    open.table.line
                ),
            )),
            // Under -multi 1 a blank line precedes each size's group rows (doc/OUTPUT.md).
            RowLine::NotARow if line.trim().is_empty() && grouped => Ok(true),
            RowLine::NotARow => Ok(false),
        }
    }

    fn close_table(&mut self) {
        if let Some(open) = self.current.take() {
            self.done.push(open);
        }
    }

    /// A header or note line (no table open).
    fn other_line(&mut self, no: usize, trimmed: &str) {
        if self.in_optional && !trimmed.starts_with("# !!") {
            self.in_optional = false;
        }
        if self.want_command && trimmed.starts_with('#') && trimmed.len() > 1 {
            self.command = Some(trimmed.trim_start_matches('#').trim().to_string());
            self.want_command = false;
            return;
        }
        if self.run.title.is_empty()
            && (trimmed.contains("MPI Benchmark") || trimmed.starts_with("#    imb-rs"))
        {
            self.run.title = trimmed
                .trim_start_matches('#')
                .trim()
                .trim_end_matches('-')
                .trim()
                .to_string();
            return;
        }
        if trimmed.starts_with("# OSU MPI") {
            self.osu = true;
            self.run.title = "OSU".to_string();
            self.run.conditions.program = Some(osu_program(trimmed));
            self.pending = Some(Pending {
                benchmark: osu_benchmark(trimmed),
                processes: None,
                groups: 1,
                mode: None,
            });
            return;
        }
        if trimmed.starts_with("# MPI Thread Environment") {
            let v = after_colon(trimmed);
            if v.is_empty() {
                self.env_empty = true;
            } else {
                self.run.conditions.thread_level = Some(v.to_string());
            }
            return;
        }
        if trimmed.starts_with("# Date ") && self.run.identity.date.is_none() {
            self.run.identity.date = Some(after_colon(trimmed).to_string());
            return;
        }
        if trimmed.starts_with("# MPI Version ") {
            self.run.conditions.mpi_standard = Some(after_colon(trimmed).to_string());
            return;
        }
        if trimmed.starts_with("# Calling sequence was") {
            self.want_command = true;
            return;
        }
        if let Some(v) = trimmed.strip_prefix("# launch wall time:") {
            self.run.wall_secs = v.split_whitespace().next().and_then(|w| w.parse().ok());
            return;
        }
        if let Some(v) = trimmed.strip_prefix("# core-to-core latency:") {
            self.run.core_to_core = core_to_core(v);
            return;
        }
        if trimmed.starts_with("# !!") && trimmed.contains("(oversubscribed)") {
            self.run.oversubscribed = Some(trimmed.trim_start_matches("# !!").trim().to_string());
            return;
        }
        if trimmed.starts_with("# !!") && (self.in_optional || trimmed.contains("OPTIONAL")) {
            self.in_optional = true;
            self.optional
                .push(trimmed.trim_start_matches("# !!").to_string());
            return;
        }
        if let Some(flag) = note_flag(trimmed).filter(|_| trimmed.starts_with("# ")) {
            if let Some(t) = self.done.last_mut() {
                t.table.flags.push(flag);
            }
            return;
        }
        if trimmed.starts_with("# All processes entering MPI_Finalize") {
            self.finished = true;
            return;
        }
        if let Some(name) = trimmed.strip_prefix("# Benchmarking ") {
            self.pending = Some(Pending {
                benchmark: name.trim().to_string(),
                processes: None,
                groups: 1,
                mode: None,
            });
            return;
        }
        self.banner_line(no, trimmed);
    }

    /// A line between a banner and its table's header.
    fn banner_line(&mut self, no: usize, trimmed: &str) {
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        if let Some(v) = trimmed.strip_prefix("# #processes = ") {
            p.processes = v.split_whitespace().next().and_then(|n| n.parse().ok());
            return;
        }
        if let Some(v) = trimmed.strip_prefix("# ( ") {
            // "( G groups of P processes each running simultaneous )"
            let w: Vec<&str> = v.split_whitespace().collect();
            if w.len() > 3 && w[1] == "groups" && w[2] == "of" {
                p.groups = w[0].parse().unwrap_or(1);
                p.processes = w[3].parse().ok();
            }
            return;
        }
        if let Some(v) = trimmed.strip_prefix("#    MODE:") {
            p.mode = Some(v.trim().to_string());
            return;
        }
        let titles: Option<Vec<String>> = if self.osu {
            trimmed
                .strip_prefix('#')
                .filter(|h| h.contains("Size") || h.contains("Latency"))
                .map(|h| {
                    h.split("  ")
                        .map(str::trim)
                        .filter(|c| !c.is_empty())
                        .map(String::from)
                        .collect()
                })
        } else if trimmed.contains("#repetitions") && !trimmed.starts_with("# ") {
            Some(trimmed.split_whitespace().map(String::from).collect())
        } else {
            None
        };
        let Some(titles) = titles else {
            return;
        };
        let latency_is_t = p.benchmark == "PingPong";
        let columns = titles
            .iter()
            .map(|c| {
                if self.osu {
                    osu_column_key(c, latency_is_t)
                } else {
                    column_key(c)
                }
            })
            .collect();
        self.current = Some(Open {
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
        });
        // A mode block (imb-ext, imb-io) repeats the header under the same banner; OSU prints
        // one table a title.
        if self.osu {
            self.pending = None;
        }
    }

    /// The run, its tables checked, its conditions and status settled.
    fn finish(mut self) -> Result<Run, Error> {
        self.close_table();
        let title = self.run.title.clone();
        let c = &mut self.run.conditions;
        if c.program.is_none() {
            c.program = program(&title);
        }
        if c.thread_level.is_none() && self.env_empty {
            c.thread_level = Some(level_from_command(self.command.as_deref().unwrap_or("")));
        }
        c.parameters = if title.starts_with("imb-rs") {
            Some(conditions::optional_parameters(
                self.optional.iter().map(String::as_str),
            ))
        } else if let Some(cmd) = &self.command {
            Some(conditions::imb2021_options(cmd))
        } else if title.contains("Benchmark Suite V") && self.optional.is_empty() {
            // IMB 3.0 runs in standard mode unless built with -DIMB_OPTIONAL, which says so
            // (without the values).
            Some(Default::default())
        } else {
            None
        };
        self.run.status = if self.finished {
            Status::Complete
        } else if self.cut {
            Status::CutShort("its last row is cut off".to_string())
        } else if has_closing_line(&title) {
            Status::CutShort("no closing line (# All processes entering MPI_Finalize)".to_string())
        } else {
            Status::Unknown
        };
        let megabytes = decimal_megabytes(&title);
        for mut open in self.done {
            if open.table.rows.is_empty() && open.table.flags.is_empty() {
                continue;
            }
            check::table(self.name, &open.table, &open.at, &open.titles)?;
            check::flag_defects(&mut open.table);
            if megabytes {
                if let Some(c) = open.table.column("mbytes") {
                    for r in &mut open.table.rows {
                        r[c] *= 1e6 / f64::from(1u32 << 20);
                    }
                }
            }
            self.run.tables.push(open.table);
        }
        if self.run.tables.is_empty() {
            return Err(Error::File {
                file: self.name.to_string(),
                msg: "no IMB or OSU table in it".to_string(),
            });
        }
        Ok(self.run)
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
        r.other_line(no, line.trim());
    }
    r.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Status;

    const IMB30: &str = "\
#---------------------------------------------------
#    Intel (R) MPI Benchmark Suite V3.0, MPI-1 part    
#---------------------------------------------------
# MPI Version           : 3.1
# MPI Thread Environment: MPI_THREAD_MULTIPLE

#---------------------------------------------------
# Benchmarking PingPong 
# #processes = 2 
# ( 2 additional processes waiting in MPI_Barrier)
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.27         0.00
            1         1000         0.26         3.61

#----------------------------------------------------------------
# Benchmarking Multi-Allreduce 
# ( 2 groups of 2 processes each running simultaneous ) 
# Group  0:     0    1
# 
# Group  1:     2    3
# 
#----------------------------------------------------------------
        Group       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            0            0         1000         0.01         0.01         0.01
            1            0         1000         0.02         0.02         0.02

#---------------------------------------------------
# Benchmarking Barrier 
# #processes = 4 
#---------------------------------------------------
 #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
         1000         0.58         0.61         0.60
";

    #[test]
    fn imb30_tables_and_thread_level() {
        let r = parse("a.txt", IMB30).unwrap();
        assert_eq!(r.title, "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part");
        assert_eq!(r.thread_level(), Some("MPI_THREAD_MULTIPLE"));
        assert_eq!(r.status, Status::Unknown);
        assert_eq!(r.tables.len(), 3);
        let pp = &r.tables[0];
        assert_eq!(
            (pp.benchmark.as_str(), pp.processes, pp.groups),
            ("PingPong", Some(2), 1)
        );
        assert_eq!(pp.columns, ["bytes", "repetitions", "t", "mbytes"]);
        assert_eq!(pp.rows[1], [1.0, 1000.0, 0.26, 3.61]);
        let multi = &r.tables[1];
        assert_eq!((multi.processes, multi.groups), (Some(2), 2));
        assert_eq!(multi.columns[0], "group");
        assert_eq!(multi.rows.len(), 2);
        let barrier = &r.tables[2];
        assert_eq!(barrier.columns, ["repetitions", "t_min", "t_max", "t_avg"]);
        assert_eq!(barrier.processes, Some(4));
    }

    #[test]
    fn imb2021_empty_thread_level_comes_from_the_command() {
        let text = "\
#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part
# MPI Thread Environment: 


# Calling sequence was: 

# ./IMB-MPI1 PingPong -thread_level multiple

# Benchmarking PingPong 
# #processes = 2 
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.12         0.00


# All processes entering MPI_Finalize
";
        let r = parse("b", text).unwrap();
        assert_eq!(r.thread_level(), Some("MPI_THREAD_MULTIPLE"));
        assert_eq!(r.status, Status::Complete);
        assert_eq!(r.core_to_core, None);
        let probed = format!("{text}# core-to-core latency: 36 ns before, 170 ns after\n");
        assert_eq!(
            parse("b", &probed).unwrap().core_to_core,
            Some((36.0, 170.0))
        );
        let timed = format!("{text}# launch wall time: 1.29 s\n");
        assert_eq!(parse("b", &timed).unwrap().wall_secs, Some(1.29));
        let failed = format!("{text}# core-to-core latency: ? ns before, 170 ns after\n");
        assert_eq!(parse("b", &failed).unwrap().core_to_core, None);
        let plain = text.replace(" -thread_level multiple", "");
        let r = parse("b", &plain).unwrap();
        assert_eq!(r.thread_level(), Some("MPI_THREAD_SINGLE"));
    }

    #[test]
    fn modes_and_interleaved_warnings() {
        let text = "\
#    imb-rs 0.1.0, MPI-2 part    
# Benchmarking Unidir_Put 
# #processes = 2 
#---------------------------------------------------
#
#    MODE: AGGREGATE 
#
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.50         0.00
[vm:1234] some mpirun warning
#    MODE: NON-AGGREGATE 
#
       #bytes #repetitions      t[usec]   Mbytes/sec
            0          100         0.90         0.00
";
        let r = parse("c", text).unwrap();
        assert_eq!(r.title, "imb-rs 0.1.0, MPI-2 part");
        assert_eq!(r.thread_level(), None);
        let modes: Vec<_> = r.tables.iter().map(|t| t.mode.clone().unwrap()).collect();
        assert_eq!(modes, ["AGGREGATE", "NON-AGGREGATE"]);
    }

    #[test]
    fn osu_tables() {
        let text = "\
# OSU MPI Latency Test v7.4
# Datatype: MPI_CHAR.
# Size       Avg Latency(us)
1                       0.22
2                       0.23

# OSU MPI Allreduce Latency Test v7.4
# Datatype: MPI_INT.
# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations
4                       0.40              0.38              0.42        1000

# OSU MPI Barrier Latency Test v7.4
# Avg Latency(us)
             0.51
";
        let r = parse("osu", text).unwrap();
        assert_eq!(r.title, "OSU");
        let names: Vec<_> = r.tables.iter().map(|t| t.benchmark.as_str()).collect();
        assert_eq!(names, ["PingPong", "Allreduce", "Barrier"]);
        assert_eq!(r.tables[0].columns, ["bytes", "t"]);
        assert_eq!(
            r.tables[1].columns,
            ["bytes", "t_avg", "t_min", "t_max", "repetitions"]
        );
        assert_eq!(r.tables[2].columns, ["t_avg"]);
        assert_eq!(r.tables[2].rows, [[0.51]]);
        assert!(r.tables.iter().all(|t| t.processes.is_none()));
        assert_eq!(
            osu_benchmark("# OSU MPI Broadcast Latency Test v7.4"),
            "Bcast"
        );
        assert_eq!(
            osu_benchmark("# OSU MPI All-to-All Personalized Exchange Latency Test v7.4"),
            "Alltoall"
        );
    }

    #[test]
    fn a_short_row_is_an_error_with_its_line() {
        let text = "\
# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.27
";
        let e = parse("x.txt", text).unwrap_err().to_string();
        assert_eq!(
            e,
            "x.txt, line 4: a row of 3 values under a header of 4 columns (line 3)"
        );
    }

    #[test]
    fn flags_oversubscription_and_decimal_megabytes() {
        assert_eq!(
            note_flag("# adaptive: 16 bytes: median 1.74 usec, 98 % interval 1.70..1.77, 10 timings of 10 (slowest rank): UNSETTLED (half-width 1.9 % of the median, cut-off 1 %)"),
            Some((Some(16), Flag::Unsettled))
        );
        assert_eq!(note_flag("# adaptive: 8 bytes: median 1.71 usec"), None);
        assert_eq!(
            note_flag("adaptive: median 0.5 usec: UNSETTLED (half-width 12.0 %)"),
            Some((None, Flag::Unsettled))
        );
        assert_eq!(
            note_flag("# 8 bytes: UNRELIABLE: rank 2: corrected time -0.12 usec <= 0"),
            Some((Some(8), Flag::Unreliable))
        );
        assert_eq!(
            note_flag("# 8 bytes: last receiver: rank 1 (4.39 usec)"),
            None
        );
        let text = "\
#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part
# !! 3 processes share 2 CPUs on one host (oversubscribed): times measure the scheduler
# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            1         1000         0.16         6.25

# 1 bytes: UNRELIABLE: rank 1: corrected time -0.1 usec <= 0
";
        let r = parse("d", text).unwrap();
        assert_eq!(
            r.oversubscribed.as_deref(),
            Some("3 processes share 2 CPUs on one host (oversubscribed): times measure the scheduler")
        );
        assert!((r.tables[0].rows[0][3] - 6.25e6 / 1048576.0).abs() < 1e-9);
        assert_eq!(r.tables[0].flags, [(Some(1), Flag::Unreliable)]);
        assert!(!decimal_megabytes(
            "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part"
        ));
        assert!(!decimal_megabytes(
            "Intel(R) MPI Benchmarks 2019 Update 6, MPI-1 part"
        ));
        assert!(decimal_megabytes(
            "Intel(R) MPI Benchmarks 2021.11, MPI-1 part"
        ));
    }

    #[test]
    fn conditions_and_status_from_the_header() {
        let r = parse("a.txt", IMB30).unwrap();
        let c = &r.conditions;
        assert_eq!(c.program.as_deref(), Some("IMB 3.0"));
        assert_eq!(c.mpi_standard.as_deref(), Some("3.1"));
        assert_eq!(c.parameters.as_ref().map(|p| p.len()), Some(0));
        assert_eq!((c.layout.clone(), c.mpi_library.clone()), (None, None));
        assert_eq!(r.status, Status::Unknown);
        let ours = "\
#    imb-rs 0.1.0, MPI-1 part
# Date                  : Wed Nov 25 05:21:10 2026
# MPI Version           : 3.1
# MPI Thread Environment: MPI_THREAD_SINGLE
#
# !! Results from OPTIONAL mode, not standard mode:
# !! parameters set by the command line:
# !!   MAXMSGLOG = 4 (standard 22)
# !!   MSGSPERSAMPLE = 50 (standard 1000)
#
# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            0           50         0.50         0.00
            1           50         0.36         2.67
";
        let r = parse("o.txt", ours).unwrap();
        assert_eq!(r.identity.date.as_deref(), Some("Wed Nov 25 05:21:10 2026"));
        let p = r.conditions.parameters.as_ref().unwrap();
        assert_eq!(p.keys().collect::<Vec<_>>(), ["MSGSPERSAMPLE"]);
        assert_eq!(
            r.status,
            Status::CutShort("no closing line (# All processes entering MPI_Finalize)".into())
        );
        // Cut in the middle of the last row: that row is no figure.
        let cut = &ours[..ours.len() - 8];
        let r = parse("c.txt", cut).unwrap();
        assert_eq!(r.tables[0].rows.len(), 1);
        assert_eq!(r.status, Status::CutShort("its last row is cut off".into()));
        // A word where a number belongs, in a row-shaped line, is an error naming it.
        let bad = ours.replace("0.36", "n/a.");
        let e = parse("b.txt", &bad).unwrap_err().to_string();
        assert_eq!(
            e,
            "b.txt, line 15: \"n/a.\" where a row has a number (a row of 4 columns, header line 13)"
        );
        assert_eq!(
            program("Intel(R) MPI Benchmarks 2019 Update 6, MPI-1 part").as_deref(),
            Some("IMB 2019 Update 6")
        );
        assert_eq!(osu_program("# OSU MPI Latency Test v7.4"), "OSU 7.4");
    }

    #[test]
    fn time_out_rows_are_flags_without_figures() {
        let text = "\
#    Intel(R) MPI Benchmarks 2021.11, MPI-IO part
# Benchmarking S_IWrite_Indv 
# #processes = 1 
#    MODE: AGGREGATE 
       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]
        32768         1000     10011.25        22.32      9877.96         0.00
        65536 time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\"


# All processes entering MPI_Finalize
";
        let r = parse("t.txt", text).unwrap();
        assert_eq!(r.tables[0].rows.len(), 1);
        assert_eq!(r.tables[0].flags, [(Some(65536), Flag::TimeOut)]);
        assert_eq!(r.status, Status::Complete);
        assert_eq!(
            row_line("   1024 out-of-mem.; needed X=   0.001 GB", 4, false),
            RowLine::NoFigure(1024.0, Flag::OutOfMemory)
        );
        assert_eq!(
            row_line("2 total processes killed", 4, false),
            RowLine::NotARow
        );
    }

    #[test]
    fn group_rows_after_blank_lines() {
        let text = "\
# Benchmarking PingPong 
# #processes = 2 
        Group       #bytes #repetitions      t[usec]   Mbytes/sec

            0            0           50         0.33         0.00

            0            1           50         0.35         2.75

#----------------------------------------------------------------
# Benchmarking Barrier 
        Group #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]

            0           50         0.40         0.41         0.40
";
        let r = parse("m", text).unwrap();
        assert_eq!(r.tables.len(), 2);
        assert_eq!(r.tables[0].rows.len(), 2);
        assert_eq!(r.tables[1].rows, [[0.0, 50.0, 0.40, 0.41, 0.40]]);
    }

    #[test]
    fn no_table_is_an_error() {
        let e = parse("empty.txt", "hello\n").unwrap_err().to_string();
        assert_eq!(e, "empty.txt: no IMB or OSU table in it");
    }
}
