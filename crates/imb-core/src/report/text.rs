//! The IMB text layout, byte for byte (doc/OUTPUT.md, including "Compatibility with IMB parsers").
//! It flushes after every write, so a crash keeps what was already measured.

use super::{Banner, Failure, Header, Note, Row, Sink, Verdict};
use crate::bench::Mode;
use crate::plan::Layout;
use std::io::Write;

/// The IMB text layout on any writer (stdout in a run, a Vec in tests).
pub struct Text<W: Write> {
    out: W,
    /// The first write failure; later output is dropped. A closed stdout (`| head`) must not
    /// kill a rank in the middle of a collective: the driver ends the run at the next step.
    failed: Option<std::io::Error>,
}

impl<W: Write> Text<W> {
    pub fn new(out: W) -> Self {
        Text { out, failed: None }
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
        s.push_str(
            "# MPI_Datatype                   :   MPI_BYTE \n\
# MPI_Datatype for reductions    :   MPI_FLOAT\n\
# MPI_Op                         :   MPI_SUM  \n\
#\n",
        );
    }
    s.push_str("#\n");
    for n in &h.notes {
        for l in n.lines() {
            s.push_str(&format!("# !! {l}\n"));
        }
        s.push_str("#\n");
    }
    s
}

/// Format one row: integers `%13d`, floats `%13.2f`, nothing after the last value.
pub fn row_text(r: &Row) -> String {
    let mut s = String::new();
    if let Some(g) = r.group {
        s.push_str(&format!("{g:>13}"));
    }
    if let Some(b) = r.bytes {
        s.push_str(&format!("{b:>13}"));
    }
    s.push_str(&format!("{:>13}", r.reps));
    for v in &r.values {
        s.push_str(&format!("{v:>13.2}"));
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
    fn cpu_exploit(&mut self, mflops: f64) {
        self.put(&format!(
            "\n\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an undisturbed\n\
# performance of {mflops:7.2} MFlops\n"
        ));
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
        let mut s = format!("\n{rule}\n# Benchmarking {multi}{} \n", b.name);
        s.push_str(&process_block(b.layout));
        s.push_str(&rule);
        s.push('\n');
        match b.mode {
            Mode::Plain => {}
            Mode::Aggregate => s.push_str("#\n#    MODE: AGGREGATE \n#\n"),
            Mode::NonAggregate => s.push_str("#\n#    MODE: NON-AGGREGATE \n#\n"),
        }
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
        let t = row_text(r);
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
mod tests {
    use super::*;
    use crate::bench::Table;
    use crate::plan::{layout, Map};
    use crate::report::Columns;

    fn header() -> Header {
        Header {
            version: "0.1.0".into(),
            part: "MPI-1 part".into(),
            date: "Sat Nov 21 10:18:33 2026".into(),
            machine: "x86_64".into(),
            system: "Linux".into(),
            release: "6.1.0".into(),
            uversion: "#1 SMP".into(),
            mpi_version: (3, 1),
            thread_env: "MPI_THREAD_SINGLE".into(),
            io: false,
            min_max: Some((0, 4194304)),
            info: vec![],
            notes: vec![],
        }
    }

    fn render(f: impl FnOnce(&mut Text<Vec<u8>>)) -> String {
        let mut t = Text::new(Vec::new());
        f(&mut t);
        String::from_utf8(t.into_inner()).unwrap()
    }

    fn cols(table: Table) -> Columns {
        Columns {
            table,
            group: false,
            defects: false,
        }
    }

    #[test]
    fn header_layout() {
        insta::assert_snapshot!(render(|t| {
            t.header(&header());
            t.list(&["PingPong", "Allreduce"], false);
        }));
    }

    #[test]
    fn header_io_user_lengths_optional() {
        let mut h = header();
        h.io = true;
        h.part = "MPI-IO part".into();
        h.min_max = None;
        h.info = vec![("striping_factor".into(), "4".into())];
        h.notes = vec![Note::OptionalMode {
            from: "the [optional] block of s.toml".into(),
            parameters: vec![crate::report::Changed {
                key: "MAXMSGLOG".into(),
                value: "10".into(),
                standard: "22".into(),
            }],
            time_cap_s: None,
            adaptive: None,
        }];
        insta::assert_snapshot!(render(|t| t.header(&h)));
    }

    #[test]
    fn header_oversubscribed_after_optional() {
        let mut h = header();
        h.notes = vec![
            Note::OptionalMode {
                from: "the command line".into(),
                parameters: vec![],
                time_cap_s: Some(0.5),
                adaptive: None,
            },
            Note::Oversubscribed {
                what: "processes".into(),
                count: 4,
                cpus: 2,
            },
        ];
        insta::assert_snapshot!(render(|t| {
            t.header(&h);
            t.list(&["PingPong"], false);
        }));
    }

    #[test]
    fn title_keeps_3_0_layout() {
        let s = header_text(&header());
        let title = s.lines().nth(1).unwrap();
        assert_eq!(title, "#    imb-rs 0.1.0, MPI-1 part    ");
        assert_eq!(s.lines().next().unwrap().len(), 52);
    }

    #[test]
    fn pingpong_table() {
        let l = layout(2, 2, None, false);
        insta::assert_snapshot!(render(|t| {
            t.banner(&Banner {
                name: "PingPong",
                layout: &l,
                mode: Mode::Plain,
                cols: cols(Table::Single),
            });
            t.row(&Row {
                group: None,
                bytes: Some(0),
                reps: 1000,
                values: vec![0.14, 0.0],
            });
            t.row(&Row {
                group: None,
                bytes: Some(4194304),
                reps: 10,
                values: vec![331.78, 12641.934],
            });
            t.finish(None);
        }));
    }

    #[test]
    fn io_nonblocking_block_and_table() {
        // doc/OUTPUT.md, "imb-io tables": the CPU_Exploit block after the list (%7.2f) and the
        // non-blocking column set (77 dashes, six columns), with the S_ single-process banner.
        let l = layout(2, 1, None, false);
        insta::assert_snapshot!(render(|t| {
            t.list(&["S_IWrite_Indv"], false);
            t.cpu_exploit(808.114);
            t.banner(&Banner {
                name: "S_IWrite_Indv",
                layout: &l,
                mode: Mode::Aggregate,
                cols: cols(Table::NonBlocking),
            });
            t.row(&Row {
                group: None,
                bytes: Some(16777216),
                reps: 1,
                values: vec![19944.99, 10325.91, 11028.14, 13.65],
            });
        }));
    }

    #[test]
    fn multi_merged_with_map_and_single_group_rows() {
        let l2 = layout(4, 2, Some(Map { p: 2, q: 2 }), true);
        let l4 = layout(4, 4, Some(Map { p: 2, q: 2 }), true);
        insta::assert_snapshot!(render(|t| {
            t.list(&["PingPing", "Allreduce"], true);
            t.banner(&Banner {
                name: "PingPing",
                layout: &l2,
                mode: Mode::Plain,
                cols: cols(Table::Parallel),
            });
            t.row(&Row {
                group: None,
                bytes: Some(0),
                reps: 1000,
                values: vec![2.85, 2.86, 2.855, 0.0],
            });
            t.banner(&Banner {
                name: "Allreduce",
                layout: &l4,
                mode: Mode::Plain,
                cols: cols(Table::Collective),
            });
            t.row(&Row {
                group: None,
                bytes: Some(4),
                reps: 1000,
                values: vec![2.11, 6.66, 5.03],
            });
        }));
    }

    #[test]
    fn multi_per_group_and_sync() {
        let l = layout(4, 2, None, true);
        let c = Columns {
            table: Table::Single,
            group: true,
            defects: false,
        };
        let s = Columns {
            table: Table::Sync,
            group: true,
            defects: false,
        };
        let l4 = layout(4, 4, None, true);
        insta::assert_snapshot!(render(|t| {
            t.banner(&Banner {
                name: "PingPong",
                layout: &l,
                mode: Mode::Plain,
                cols: c,
            });
            for x in [0usize, 1] {
                t.size_block();
                for g in 0..2 {
                    t.row(&Row {
                        group: Some(g),
                        bytes: Some(x),
                        reps: 1000,
                        values: vec![1.74, 0.0],
                    });
                }
            }
            t.banner(&Banner {
                name: "Barrier",
                layout: &l4,
                mode: Mode::Plain,
                cols: s,
            });
            t.size_block();
            t.row(&Row {
                group: Some(0),
                bytes: None,
                reps: 1000,
                values: vec![13.71, 13.71, 13.71],
            });
            t.finish(None);
        }));
    }

    #[test]
    fn whitebox_table_sections_and_latency_notes() {
        let l = layout(4, 4, None, false);
        let rows = [crate::whitebox::SectionsRow {
            bytes: 512,
            classes: [
                (17.99, 18.05, 18.02),
                (0.14, 0.15, 0.14),
                (1.72, 1.77, 1.74),
            ],
        }];
        let sections = [
            crate::whitebox::Section {
                name: "halo",
                class: crate::whitebox::Activity::Communication,
            },
            crate::whitebox::Section {
                name: "update",
                class: crate::whitebox::Activity::Computation,
            },
        ];
        let notes = [
            crate::whitebox::sections_note(&sections, &rows).unwrap(),
            Note::Slowest {
                bytes: 4,
                label: "last receiver".into(),
                rank: 1,
                group: None,
                t_us: 4.39,
            },
        ];
        insta::assert_snapshot!(render(|t| {
            t.note(&Note::OutOfRange {
                benchmark: "Jacobi2D".into(),
                min_bytes: 8,
                max_bytes: Some(16384),
                sizes: vec![0, 32768],
            });
            t.banner(&Banner {
                name: "Jacobi2D",
                layout: &l,
                mode: Mode::Plain,
                cols: cols(Table::WhiteBox),
            });
            t.row(&Row {
                group: None,
                bytes: Some(512),
                reps: 1000,
                values: vec![14.83, 0.48, 11.72, 27.04, 1294.11, 14.68],
            });
            t.table_end(&notes, false);
        }));
    }

    #[test]
    fn idle_ranks_invalid_modes_attention_and_check() {
        let l = layout(14, 8, Some(Map { p: 2, q: 7 }), false);
        let p = layout(3, 2, None, false);
        let c = Columns {
            table: Table::Collective,
            group: false,
            defects: true,
        };
        insta::assert_snapshot!(render(|t| {
            t.invalid("PingPong", 1);
            t.banner(&Banner {
                name: "Sendrecv",
                layout: &l,
                mode: Mode::Plain,
                cols: cols(Table::Parallel),
            });
            t.banner(&Banner {
                name: "Unidir_Put",
                layout: &p,
                mode: Mode::NonAggregate,
                cols: cols(Table::Single),
            });
            t.banner(&Banner {
                name: "Reduce",
                layout: &p,
                mode: Mode::Plain,
                cols: c,
            });
            t.attention(&Note::Truncated {
                from: 8000000,
                to: 4194304,
            });
            t.row(&Row {
                group: None,
                bytes: Some(4194304),
                reps: 10,
                values: vec![1.0, 2.0, 1.5, 0.0],
            });
            t.table_end(
                &[
                    Note::Defect {
                        bytes: 4194304,
                        world_rank: 1,
                        first_wrong_byte: 0,
                    },
                    Note::SkippedByMem {
                        sizes: vec![8388608],
                        mem_bytes: 4.0 * (1u64 << 30) as f64,
                        processes: 2,
                    },
                ],
                true,
            );
            t.note(&Note::NoLengths {
                benchmark: "Allreduce".into(),
            });
            t.finish(Some(&[
                Verdict {
                    name: "Reduce".into(),
                    ok: false,
                },
                Verdict {
                    name: "Bcast".into(),
                    ok: true,
                },
            ]));
        }));
    }

    #[test]
    fn all_successful() {
        insta::assert_snapshot!(render(|t| t.finish(Some(&[Verdict {
            name: "Bcast".into(),
            ok: true
        }]))));
    }

    #[test]
    fn long_rank_rows_wrap_at_16() {
        let l = layout(40, 20, None, true);
        let s = process_block(&l);
        let lines: Vec<_> = s.lines().collect();
        // 3.0: 16 ranks a line, continuation lines start with "# ", then a "# " line
        let first: String = (0..16).map(|r| format!(" {r:>4}")).collect();
        assert_eq!(lines[1], format!("# Group  0: {first}"));
        let rest: String = (16..20).map(|r| format!(" {r:>4}")).collect();
        assert_eq!(lines[2], format!("# {rest}"));
        assert_eq!(lines[3], "# ");
    }

    #[test]
    fn rows_have_no_trailing_space_nor_exponent() {
        let r = row_text(&Row {
            group: None,
            bytes: Some(1),
            reps: 1,
            values: vec![1e12, 0.005],
        });
        assert!(!r.trim_end_matches('\n').ends_with(' '));
        assert!(!r.contains('e'));
        assert!(r.starts_with("            1"));
    }
}
