//! Every line the engine prints besides the tables, as data: the `#` notes after a table or
//! between benchmarks and the `# !!` blocks of the header (doc/OUTPUT.md, "Notes"). The engine
//! builds a `Note`; the text sink prints `lines()`, which are the exact strings IMB-style
//! parsers have always seen, and the JSON sink writes the fields under a `kind` tag, with the
//! same lines beside them as `text`.

mod family;
mod sections;

pub use family::{FamilyNote, Remark};
use sections::sections_lines;
pub use sections::{SectionClass, SectionsRow};
use serde::Serialize;

/// One note. Sizes are in bytes, times in microseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    /// Check mode: a received buffer that failed the check.
    Defect {
        bytes: usize,
        world_rank: usize,
        first_wrong_byte: usize,
    },
    /// Sizes `-mem` left out, their buffers being larger than it allows.
    SkippedByMem {
        sizes: Vec<usize>,
        mem_bytes: f64,
        processes: usize,
    },
    /// Sizes the run asked for that a benchmark does not run (`Info::min_x`, `Info::max_x`).
    OutOfRange {
        benchmark: String,
        min_bytes: usize,
        max_bytes: Option<usize>,
        sizes: Vec<usize>,
    },
    /// A benchmark with no size left to run.
    NoLengths { benchmark: String },
    /// IMB's "Attention, msg size X truncated to Y" above the row.
    Truncated { from: usize, to: usize },
    /// White-box: the named section timers per activity class, and min/max/avg over the
    /// ranks per class and size.
    Sections {
        classes: Vec<SectionClass>,
        rows: Vec<SectionsRow>,
    },
    /// `-adaptive`: one size's median timing and its interval; `bytes` is None for Barrier.
    Adaptive {
        bytes: Option<usize>,
        median_us: f64,
        coverage_pct: f64,
        lo_us: f64,
        hi_us: f64,
        timings: usize,
        reps_per_timing: usize,
        unsettled: Option<Unsettled>,
    },
    /// The header's optional-mode block: where the values came from and what differs from
    /// standard mode.
    OptionalMode {
        from: String,
        parameters: Vec<Changed>,
        time_cap_s: Option<f64>,
        adaptive: Option<AdaptiveRule>,
    },
    /// The run measures in another way than the IMB 3.0 guide's (`-compat 2021`, IMB 2021's
    /// options): the method, and a line for each way it differs.
    Method {
        method: crate::method::Method,
        changes: Vec<String>,
    },
    /// The header's datatype lines, when a family sends or reduces other types than IMB
    /// 3.0's MPI_BYTE and MPI_FLOAT (imb-mpi1's `-data_type`, `-red_data_type`): printed in
    /// their place, not as a `# !!` block. Without it the lines name IMB 3.0's.
    Datatypes { data: String, reductions: String },
    /// More ranks (or threads) than CPUs on one host: the times are not results.
    Oversubscribed {
        what: String,
        count: usize,
        cpus: usize,
    },
    /// A family's own note (`Remark`), under its own `kind`.
    #[serde(untagged)]
    Family(FamilyNote),
}

impl Note {
    /// A family's note.
    pub fn of<R: Remark>(r: &R) -> Note {
        Note::Family(FamilyNote::of(r))
    }
}

/// Why an `-adaptive` size did not settle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Unsettled {
    pub half_width_pct: f64,
    pub cutoff_pct: f64,
}

/// A parameter that differs from standard mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Changed {
    pub key: String,
    pub value: String,
    pub standard: String,
}

/// `-adaptive`'s stopping rule, as the header states it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AdaptiveRule {
    pub min_timings: usize,
    pub max_timings: usize,
    pub cutoff_pct: f64,
}

/// The header's datatype lines as IMB 3.0 prints them, trailing spaces included (doc/OUTPUT.md,
/// "Datatypes"); the op is always MPI_SUM, as in IMB 2021, also where a user op stands for it.
pub fn datatype_lines(data: &str, reductions: &str) -> Vec<String> {
    vec![
        format!("MPI_Datatype                   :   {data} "),
        format!("MPI_Datatype for reductions    :   {reductions}"),
        "MPI_Op                         :   MPI_SUM  ".to_string(),
    ]
}

fn list(v: &[usize]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Note {
    /// The printed lines, without the `# ` or `# !! ` prefix the sink adds.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Note::Sections { classes, rows } => sections_lines(classes, rows),
            Note::OptionalMode {
                from,
                parameters,
                time_cap_s,
                adaptive,
            } => {
                let mut v = vec![
                    "Results from OPTIONAL mode, not standard mode:".to_string(),
                    format!("parameters set by {from}:"),
                ];
                for c in parameters {
                    v.push(format!(
                        "  {} = {} (standard {})",
                        c.key, c.value, c.standard
                    ));
                }
                if let Some(t) = time_cap_s {
                    v.push(format!(
                        "  repetitions capped by -time {t} s per message size"
                    ));
                }
                if let Some(a) = adaptive {
                    v.push(format!(
                        "  -adaptive: each size's n_sample loop is split into {} timings, and \
                         timings are added (at most {}) until the 95 % confidence interval of \
                         their median is within +-{} %; rows show each rank's median",
                        a.min_timings, a.max_timings, a.cutoff_pct
                    ));
                }
                v
            }
            Note::Family(f) => f.lines.clone(),
            Note::Datatypes { data, reductions } => datatype_lines(data, reductions),
            Note::Method { method, changes } => {
                let first = match method.compat {
                    crate::method::Compat::V2021 => {
                        "Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide \
                         says:"
                    }
                    crate::method::Compat::V30 => {
                        "Measured with IMB 2021's options, not as the IMB 3.0 guide says:"
                    }
                };
                let mut v = vec![first.to_string()];
                v.extend(changes.iter().map(|c| format!("  {c}")));
                v
            }
            _ => vec![self.line()],
        }
    }

    fn line(&self) -> String {
        match self {
            Note::Defect {
                bytes,
                world_rank,
                first_wrong_byte,
            } => format!(
                "defect: {bytes} bytes, world rank {world_rank}: first wrong element at byte \
                 {first_wrong_byte}"
            ),
            Note::SkippedByMem {
                sizes,
                mem_bytes,
                processes,
            } => format!(
                "{} message size(s) skipped: their buffers exceed -mem {:.3} GiB per process on \
                 {processes} processes: {}",
                sizes.len(),
                mem_bytes / (1u64 << 30) as f64,
                list(sizes)
            ),
            Note::OutOfRange {
                benchmark,
                min_bytes,
                max_bytes,
                sizes,
            } => {
                let range = match max_bytes {
                    None => format!("{min_bytes} bytes and up"),
                    Some(m) => format!("{min_bytes} to {m} bytes"),
                };
                format!(
                    "{benchmark} runs message sizes of {range}; not run: {}",
                    list(sizes)
                )
            }
            Note::NoLengths { benchmark } => format!(
                "{benchmark}: no message length to run (only 0 was left, and -zero_size off \
                 removed it)"
            ),
            Note::Truncated { from, to } => format!("Attention, msg size {from} truncated to {to}"),
            Note::Adaptive {
                bytes,
                median_us,
                coverage_pct,
                lo_us,
                hi_us,
                timings,
                reps_per_timing,
                unsettled,
            } => {
                let size = bytes.map(|b| format!("{b} bytes: ")).unwrap_or_default();
                let mut s = format!(
                    "adaptive: {size}median {median_us:.2} usec, {coverage_pct:.0} % interval \
                     {lo_us:.2}..{hi_us:.2}, {timings} timings of {reps_per_timing} (slowest rank)"
                );
                if let Some(u) = unsettled {
                    s.push_str(&format!(
                        ": UNSETTLED (half-width {:.1} % of the median, cut-off {} %)",
                        u.half_width_pct, u.cutoff_pct
                    ));
                }
                s
            }
            Note::Oversubscribed { what, count, cpus } => {
                crate::sysinfo::oversubscribed_line(what, *count, *cpus).unwrap_or_default()
            }
            Note::Sections { .. }
            | Note::Datatypes { .. }
            | Note::OptionalMode { .. }
            | Note::Method { .. }
            | Note::Family(_) => self.lines().join("\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_printed_strings() {
        let n = Note::Defect {
            bytes: 8,
            world_rank: 1,
            first_wrong_byte: 4,
        };
        assert_eq!(
            n.lines(),
            ["defect: 8 bytes, world rank 1: first wrong element at byte 4"]
        );
        let n = Note::Adaptive {
            bytes: None,
            median_us: 1.234,
            coverage_pct: 96.1,
            lo_us: 1.0,
            hi_us: 1.5,
            timings: 5,
            reps_per_timing: 200,
            unsettled: Some(Unsettled {
                half_width_pct: 20.0,
                cutoff_pct: 10.0,
            }),
        };
        assert_eq!(
            n.lines(),
            [
                "adaptive: median 1.23 usec, 96 % interval 1.00..1.50, 5 timings of 200 (slowest \
              rank): UNSETTLED (half-width 20.0 % of the median, cut-off 10 %)"
            ]
        );
        let n = Note::OutOfRange {
            benchmark: "Bcast_latency".into(),
            min_bytes: 1,
            max_bytes: None,
            sizes: vec![0],
        };
        assert_eq!(
            n.lines(),
            ["Bcast_latency runs message sizes of 1 bytes and up; not run: 0"]
        );
    }

    #[test]
    fn json_has_a_kind_and_fields() {
        let n = Note::Defect {
            bytes: 4,
            world_rank: 3,
            first_wrong_byte: 2,
        };
        let v = serde_json::to_value(&n).unwrap();
        assert_eq!(v["kind"], "defect");
        assert_eq!(v["world_rank"], 3);
        assert_eq!(v["first_wrong_byte"], 2);
    }

    #[derive(Serialize)]
    struct Probe {
        bytes: usize,
        who: String,
    }

    impl Remark for Probe {
        const KIND: &'static str = "probe";
        fn lines(&self) -> Vec<String> {
            vec![format!("{} bytes: {}", self.bytes, self.who), String::new()]
        }
    }

    #[test]
    fn a_family_note_prints_and_serialises_like_ours() {
        let n = Note::of(&Probe {
            bytes: 8,
            who: "rank 1".into(),
        });
        assert_eq!(n.lines(), ["8 bytes: rank 1", ""]);
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"bytes":8,"kind":"probe","who":"rank 1"}"#
        );
    }
}
