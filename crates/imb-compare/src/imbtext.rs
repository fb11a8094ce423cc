//! Reading IMB-format text output back into tables: ours, IMB 3.0's and IMB 2021's (the layouts
//! of doc/OUTPUT.md), and OSU 7.x's, so results kept as text by existing workflows can be
//! compared without re-running anything.
//!
//! The reader is lenient about lines it does not know (mpirun's warnings interleave with the
//! tables when stderr is kept) and strict about the rows it takes: a numeric line whose width
//! differs from its header is an error naming the line, never a silently shifted column.

use crate::error::Error;

/// One launch's output, as far as a comparison needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The banner's title, e.g. "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part"; "OSU" for OSU.
    pub title: String,
    /// The MPI thread level the program ran under, when the output says or implies it.
    pub thread_level: Option<String>,
    pub tables: Vec<Table>,
    /// "# All processes entering MPI_Finalize" was seen: the launch ran to its end.
    pub finished: bool,
    /// Core-to-core latency in ns before and after the launch, from the line scripts/bench-vs-imb
    /// appends (`# core-to-core latency: 36 ns before, 170 ns after`).
    pub core_to_core: Option<(f64, f64)>,
    /// The launch's wall time in seconds (`# launch wall time: 1.29 s`, also from the script).
    pub wall_secs: Option<f64>,
    /// The header's oversubscription line (doc/OUTPUT.md, "Oversubscription"), without `# !! `.
    pub oversubscribed: Option<String>,
    /// Where the run ran, when a `-json` file's provenance says: MPI library, hosts.
    pub provenance: Option<String>,
}

/// A row the program itself marked as not a trustworthy figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flag {
    /// `-adaptive`'s interval stayed wider than the cut-off.
    Unsettled,
    /// A Sphinx latency whose correction left a time not above zero.
    Unreliable,
}

impl Flag {
    pub fn name(self) -> &'static str {
        match self {
            Flag::Unsettled => "UNSETTLED",
            Flag::Unreliable => "UNRELIABLE",
        }
    }
}

/// One table: one benchmark at one process count (and mode).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// As printed after "# Benchmarking" ("Multi-PingPong" stays distinct from "PingPong").
    pub benchmark: String,
    /// Processes per group; `None` when the output does not say (OSU runs on the whole world).
    pub processes: Option<usize>,
    /// Simultaneous groups (Multi- tables), else 1.
    pub groups: usize,
    /// "AGGREGATE" / "NON-AGGREGATE" (imb-ext, imb-io), else `None`.
    pub mode: Option<String>,
    /// Column keys: `bytes`, `repetitions`, `t`, `t_min`, `t_max`, `t_avg`, `mbytes`, `group`,
    /// `defects`, ... (the printed title without `#` and `[usec]`).
    pub columns: Vec<String>,
    pub rows: Vec<Vec<f64>>,
    /// The line of the table's header, for messages.
    pub line: usize,
    /// Flagged sizes (`None`: the table's only, sizeless row) from the notes after the table.
    pub flags: Vec<(Option<u64>, Flag)>,
}

impl Table {
    /// The index of column `key`.
    pub fn column(&self, key: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == key)
    }

    /// The flags of the row of `bytes`.
    pub fn flags_at(&self, bytes: Option<u64>) -> impl Iterator<Item = Flag> + '_ {
        self.flags
            .iter()
            .filter(move |(b, _)| *b == bytes)
            .map(|(_, f)| *f)
    }
}

/// The flag a note line after a table sets, with its size: `adaptive: 8 bytes: … UNSETTLED (…)`,
/// `adaptive: median …: UNSETTLED` (a sizeless table), `8 bytes: UNRELIABLE: rank 2: …`. Text
/// output and schema 1 `-json` notes hold these lines (without `# ` in the JSON).
pub(crate) fn note_flag(note: &str) -> Option<(Option<u64>, Flag)> {
    let note = note.trim().trim_start_matches('#').trim();
    let size = |s: &str| -> Option<u64> { s.split_once(" bytes:")?.0.trim().parse().ok() };
    if let Some(rest) = note.strip_prefix("adaptive:") {
        return rest
            .contains("UNSETTLED")
            .then(|| (size(rest), Flag::Unsettled));
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

/// Numbers of a data row, or `None` when the line is not one.
fn numbers(line: &str) -> Option<Vec<f64>> {
    let t = line.trim();
    let first = t.chars().next()?;
    if !(first.is_ascii_digit() || first == '-' || first == '.') {
        return None;
    }
    t.split_whitespace()
        .map(|w| w.parse::<f64>().ok())
        .collect()
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

struct Pending {
    benchmark: String,
    processes: Option<usize>,
    groups: usize,
    mode: Option<String>,
}

/// Parse one launch's output. `name` is the file's name, for messages.
pub fn parse(name: &str, text: &str) -> Result<Run, Error> {
    let mut run = Run {
        title: String::new(),
        thread_level: None,
        tables: Vec::new(),
        finished: false,
        core_to_core: None,
        wall_secs: None,
        oversubscribed: None,
        provenance: None,
    };
    let mut pending: Option<Pending> = None;
    let mut current: Option<Table> = None;
    let mut env_empty = false;
    let mut command: Option<String> = None;
    let mut want_command = false;
    let mut osu = false;
    let lines: Vec<&str> = text.lines().collect();
    for (k, raw) in lines.iter().enumerate() {
        let no = k + 1;
        let line = raw.trim_end();
        let trimmed = line.trim();

        if let Some(t) = current.as_mut() {
            if let Some(v) = numbers(line) {
                if v.len() != t.columns.len() {
                    return Err(Error::Line {
                        file: name.to_string(),
                        line: no,
                        msg: format!(
                            "a row of {} values under a header of {} columns (line {})",
                            v.len(),
                            t.columns.len(),
                            t.line
                        ),
                    });
                }
                t.rows.push(v);
                continue;
            }
            // Under -multi 1 a blank line precedes each size's group rows (doc/OUTPUT.md).
            if trimmed.is_empty() && t.column("group").is_some() {
                continue;
            }
            run.tables.extend(current.take());
        }

        if want_command && trimmed.starts_with('#') && trimmed.len() > 1 {
            command = Some(trimmed.trim_start_matches('#').trim().to_string());
            want_command = false;
            continue;
        }
        if run.title.is_empty()
            && (trimmed.contains("MPI Benchmark") || trimmed.starts_with("#    imb-rs"))
        {
            run.title = trimmed
                .trim_start_matches('#')
                .trim()
                .trim_end_matches('-')
                .trim()
                .to_string();
            continue;
        }
        if trimmed.starts_with("# OSU MPI") {
            osu = true;
            run.title = "OSU".to_string();
            pending = Some(Pending {
                benchmark: osu_benchmark(trimmed),
                processes: None,
                groups: 1,
                mode: None,
            });
            continue;
        }
        if trimmed.starts_with("# MPI Thread Environment") {
            let v = after_colon(trimmed);
            if v.is_empty() {
                env_empty = true;
            } else {
                run.thread_level = Some(v.to_string());
            }
            continue;
        }
        if trimmed.starts_with("# Calling sequence was") {
            want_command = true;
            continue;
        }
        if let Some(v) = trimmed.strip_prefix("# launch wall time:") {
            run.wall_secs = v.split_whitespace().next().and_then(|w| w.parse().ok());
            continue;
        }
        if let Some(v) = trimmed.strip_prefix("# core-to-core latency:") {
            run.core_to_core = core_to_core(v);
            continue;
        }
        if trimmed.starts_with("# !!") && trimmed.contains("(oversubscribed)") {
            run.oversubscribed = Some(trimmed.trim_start_matches("# !!").trim().to_string());
            continue;
        }
        if let Some(flag) = note_flag(trimmed).filter(|_| trimmed.starts_with("# ")) {
            if let Some(t) = run.tables.last_mut() {
                t.flags.push(flag);
            }
            continue;
        }
        if trimmed.starts_with("# All processes entering MPI_Finalize") {
            run.finished = true;
            continue;
        }
        if let Some(name) = trimmed.strip_prefix("# Benchmarking ") {
            pending = Some(Pending {
                benchmark: name.trim().to_string(),
                processes: None,
                groups: 1,
                mode: None,
            });
            continue;
        }
        if let Some(p) = pending.as_mut() {
            if let Some(v) = trimmed.strip_prefix("# #processes = ") {
                p.processes = v.split_whitespace().next().and_then(|n| n.parse().ok());
                continue;
            }
            if let Some(v) = trimmed.strip_prefix("# ( ") {
                // "( G groups of P processes each running simultaneous )"
                let w: Vec<&str> = v.split_whitespace().collect();
                if w.len() > 3 && w[1] == "groups" && w[2] == "of" {
                    p.groups = w[0].parse().unwrap_or(1);
                    p.processes = w[3].parse().ok();
                }
                continue;
            }
            if let Some(v) = trimmed.strip_prefix("#    MODE:") {
                p.mode = Some(v.trim().to_string());
                continue;
            }
            let header = if osu {
                trimmed
                    .strip_prefix('#')
                    .filter(|h| h.contains("Size") || h.contains("Latency"))
                    .map(|h| {
                        let latency_is_t = p.benchmark == "PingPong";
                        h.split("  ")
                            .filter(|c| !c.trim().is_empty())
                            .map(|c| osu_column_key(c, latency_is_t))
                            .collect::<Vec<_>>()
                    })
            } else if trimmed.contains("#repetitions") && !trimmed.starts_with("# ") {
                Some(trimmed.split_whitespace().map(column_key).collect())
            } else {
                None
            };
            if let Some(columns) = header {
                current = Some(Table {
                    benchmark: p.benchmark.clone(),
                    processes: p.processes,
                    groups: p.groups,
                    mode: p.mode.clone(),
                    columns,
                    rows: Vec::new(),
                    line: no,
                    flags: Vec::new(),
                });
                // A mode block (imb-ext, imb-io) repeats the header under the same banner.
                if osu {
                    pending = None;
                }
                continue;
            }
        }
    }
    run.tables.extend(current.take());
    if run.thread_level.is_none() && env_empty {
        run.thread_level = Some(level_from_command(command.as_deref().unwrap_or("")));
    }
    run.tables.retain(|t| !t.rows.is_empty());
    if decimal_megabytes(&run.title) {
        for t in &mut run.tables {
            if let Some(c) = t.column("mbytes") {
                for r in &mut t.rows {
                    r[c] *= 1e6 / f64::from(1u32 << 20);
                }
            }
        }
    }
    if run.tables.is_empty() {
        return Err(Error::File {
            file: name.to_string(),
            msg: "no IMB or OSU table in it".to_string(),
        });
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(r.thread_level.as_deref(), Some("MPI_THREAD_MULTIPLE"));
        assert!(!r.finished);
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
        assert_eq!(r.thread_level.as_deref(), Some("MPI_THREAD_MULTIPLE"));
        assert!(r.finished);
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
        assert_eq!(r.thread_level.as_deref(), Some("MPI_THREAD_SINGLE"));
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
        assert_eq!(r.thread_level, None);
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
