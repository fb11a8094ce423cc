//! One launch's results as the readers ([`crate::read::imbtext`], [`crate::read::jsondoc`]) leave them:
//! its tables, whether it ran to its end, the conditions that define its figures
//! ([`crate::conditions`]) and what identifies the launch, so that the text and the `-json`
//! file of one launch count once ([`crate::read::sides`]).

use std::collections::BTreeMap;

/// One launch's output, as far as a comparison needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The banner's title, e.g. "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part"; "OSU" for OSU.
    pub title: String,
    pub tables: Vec<Table>,
    /// Whether the launch ran to its end.
    pub status: Status,
    /// Core-to-core latency in ns before and after the launch, from the line scripts/bench-vs-imb
    /// appends (`# core-to-core latency: 36 ns before, 170 ns after`).
    pub core_to_core: Option<(f64, f64)>,
    /// The launch's wall time in seconds (`# launch wall time: 1.29 s`, also from the script).
    pub wall_secs: Option<f64>,
    /// The header's oversubscription line (doc/OUTPUT.md, "Oversubscription"), without `# !! `;
    /// for a `-json` file whose header has none, the reader's own when the ranks on one machine
    /// outnumber its CPUs (the header counts per MPI node).
    pub oversubscribed: Option<String>,
    /// Where the run ran, when a `-json` file's provenance says: MPI library, hosts.
    pub provenance: Option<String>,
    /// What defines the launch's figures, as far as its file says.
    pub conditions: Conditions,
    /// What tells this launch from another.
    pub identity: Identity,
}

impl Run {
    /// The thread level the program ran under, when the output says or implies it.
    pub fn thread_level(&self) -> Option<&str> {
        self.conditions.thread_level.as_deref()
    }
}

/// Whether a launch ran to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Its closing line (`# All processes entering MPI_Finalize`) or its `-json` status says so.
    Complete,
    /// The format has no closing line (IMB 3.0, OSU): a cut can only show as a partial row.
    Unknown,
    /// It stopped early; the reason in words ("no closing line", "status interrupted: …").
    CutShort(String),
}

impl Status {
    pub fn cut_short(&self) -> Option<&str> {
        match self {
            Status::CutShort(why) => Some(why),
            _ => None,
        }
    }
}

/// A row the program itself marked as not a trustworthy figure, or a size it printed in place
/// of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Flag {
    /// `-adaptive`'s interval stayed wider than the cut-off.
    Unsettled,
    /// A Sphinx latency whose correction left a time not above zero.
    Unreliable,
    /// `-check` found wrong data at this size: the MPI library delivered the wrong bytes.
    Defect,
    /// IMB 2021 printed `time-out.` in place of the row: no figure.
    TimeOut,
    /// IMB 2021 printed `out-of-mem.` in place of the row: no figure.
    OutOfMemory,
    /// IMB 2021 printed `int-overflow` in place of the row: no figure.
    IntOverflow,
}

impl Flag {
    pub fn name(self) -> &'static str {
        match self {
            Flag::Unsettled => "UNSETTLED",
            Flag::Unreliable => "UNRELIABLE",
            Flag::Defect => "DEFECT",
            Flag::TimeOut => "TIME-OUT",
            Flag::OutOfMemory => "OUT-OF-MEMORY",
            Flag::IntOverflow => "INT-OVERFLOW",
        }
    }

    /// Rows printed in place of a measurement have no figure at all.
    pub fn has_figure(self) -> bool {
        matches!(self, Flag::Unsettled | Flag::Unreliable | Flag::Defect)
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
    /// The line of the table's header, for messages (0 in a `-json` file).
    pub line: usize,
    /// Flagged sizes (`None`: the table's only, sizeless row) from the notes after the table,
    /// and sizes printed in place of a row.
    pub flags: Vec<(Option<u64>, Flag)>,
    /// Where the table's ranks ran, when the file says (a `-json` file with provenance):
    /// "2 ranks on 1 host", "1+1 ranks on 2 hosts", ….
    pub placement: Option<String>,
}

/// Whether a line of a header's method block says the run's megabyte is 10^6 bytes (imb-rs's
/// `-compat 2021`, text and `-json` alike).
pub fn decimal_megabyte_line(line: &str) -> bool {
    line.trim() == imb_core::method::DECIMAL_MEGABYTE
}

impl Table {
    /// Mbytes/sec counted in megabytes of 10^6 bytes (IMB 2021's) restated in 2^20 bytes, the
    /// unit every run is compared in.
    pub fn to_binary_megabytes(&mut self) {
        if let Some(c) = self.column("mbytes") {
            for r in &mut self.rows {
                r[c] *= 1e6 / f64::from(1u32 << 20);
            }
        }
    }

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

/// What defines a launch's figures, each `None` where its file does not say.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conditions {
    /// "imb-rs 0.1.0", "IMB 3.0", "IMB 2021.11", "OSU 7.4".
    pub program: Option<String>,
    /// The granted MPI thread level, `MPI_THREAD_…`.
    pub thread_level: Option<String>,
    /// The threads each process ran the benchmarks on (the MT suite's banners, `(threads:
    /// T)`), "2"; "1 / 2" when the tables of one launch differ. `None` outside the MT suite.
    pub threads: Option<String>,
    /// The MPI library (the first line of `MPI_Get_library_version`).
    pub mpi_library: Option<String>,
    /// The MPI standard version the library reports, "3.1".
    pub mpi_standard: Option<String>,
    /// The parameters that differ from standard mode and change a size's figure (not the
    /// ones that only choose sizes or benchmarks), by name; `None` when the file cannot say.
    pub parameters: Option<BTreeMap<String, String>>,
    /// How the job's ranks sat on its hosts: "2 ranks on 1 host", "1+1 ranks on 2 hosts". A
    /// host is a machine: host names that a schema 4 file gives one identity count once.
    pub layout: Option<String>,
    /// How the ranks were bound to CPUs, as a policy and never as CPU numbers: "each rank on 1
    /// CPU", "unbound", "mixed: …" (doc/ACCEPTANCE.md, "Comparable runs"). `None` where the
    /// file has no rank's CPU set (text, `-json` before schema 3).
    pub binding: Option<String>,
    /// The hosts' names, in order of their lowest rank.
    pub hosts: Option<Vec<String>>,
    /// What describes where the run ran without defining its figures (doc/ACCEPTANCE.md,
    /// "Comparable runs"), by what it is ("kernel", "CPU model", "frequency governor", …): each
    /// host's values, distinct, joined by " / ".
    pub facts: BTreeMap<String, String>,
    /// The MPI control variables the run set, but its launcher's, by name with their values;
    /// `None` where the file does not record them (before schema 4, MPI_T not available).
    pub control_variables: Option<BTreeMap<String, String>>,
}

/// What tells one launch from another.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Identity {
    /// The header's `Date` line (asctime of the start), the same in the text and the `-json`
    /// of one launch.
    pub date: Option<String>,
    /// A `-json` file's provenance: the start (ISO 8601, ms) and the command line.
    pub start: Option<String>,
    pub argv: Option<String>,
    /// Read from a `-json` file (full precision), not from text.
    pub json: bool,
    /// The SHA-256 of the file's text as read (as the results store keys a file): two files
    /// with one text are one launch, in every format, dated or not (OSU and IMB-MT print no
    /// date).
    pub content: Option<String>,
    /// The 1-minute load average of rank 0's host at the launch's start and, once it ended, at
    /// its end (a `-json` file's provenance): a launch under load is slower at small sizes.
    pub load: Option<(f64, Option<f64>)>,
}
