//! Snapshot tests of the text layout: every element existing IMB-output parsers depend on
//! (doc/OUTPUT.md, "Compatibility with IMB parsers").

use super::*;
use crate::plan::{layout, Map};
use crate::report::Columns;
use crate::table::{self, TableKind};

/// The families' kinds as the tables show them (their reductions are tested in their
/// crates).
const NONBLOCKING: TableKind = TableKind {
    name: "non-blocking",
    columns: table::NONBLOCKING_OVERLAP,
    ..table::COLLECTIVE
};
const WHITEBOX: TableKind = TableKind {
    name: "white-box",
    columns: crate::whitebox::COLUMNS,
    ..table::COLLECTIVE
};

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
        hidden: false,
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

fn cols(kind: &'static TableKind) -> Columns {
    Columns {
        kind: kind.columns,
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

/// A family's datatypes replace IMB 3.0's in the datatype lines, with the same spacing, and
/// print nowhere else; the optional-mode block after them is unchanged.
#[test]
fn header_datatypes_in_their_lines() {
    let std = render(|t| t.header(&header()));
    let mut h = header();
    let optional = Note::OptionalMode {
        from: "the command line".into(),
        parameters: vec![crate::note::Changed {
            key: "DATA_TYPE".into(),
            value: "int".into(),
            standard: "byte".into(),
        }],
        time_cap_s: None,
        adaptive: None,
    };
    h.notes = vec![
        Note::Datatypes {
            data: "MPI_INT".into(),
            reductions: "MPI_DOUBLE".into(),
        },
        optional.clone(),
    ];
    let got = render(|t| t.header(&h));
    let want = std.replace(
        "# MPI_Datatype                   :   MPI_BYTE \n\
         # MPI_Datatype for reductions    :   MPI_FLOAT\n",
        "# MPI_Datatype                   :   MPI_INT \n\
         # MPI_Datatype for reductions    :   MPI_DOUBLE\n",
    ) + &optional
        .lines()
        .iter()
        .map(|l| format!("# !! {l}\n"))
        .collect::<String>()
        + "#\n";
    assert_ne!(got, std);
    assert_eq!(got, want);
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
        parameters: vec![crate::note::Changed {
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
            suffix: "",
            process: None,
            layout: &l,
            mode: Mode::Plain,
            cols: cols(&table::SINGLE),
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
        t.block(&Note::of(&CpuSpeed(808.114)));
        t.banner(&Banner {
            name: "S_IWrite_Indv",
            suffix: "",
            process: None,
            layout: &l,
            mode: Mode::Aggregate,
            cols: cols(&NONBLOCKING),
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
            suffix: "",
            process: None,
            layout: &l2,
            mode: Mode::Plain,
            cols: cols(&table::PARALLEL),
        });
        t.row(&Row {
            group: None,
            bytes: Some(0),
            reps: 1000,
            values: vec![2.85, 2.86, 2.855, 0.0],
        });
        t.banner(&Banner {
            name: "Allreduce",
            suffix: "",
            process: None,
            layout: &l4,
            mode: Mode::Plain,
            cols: cols(&table::COLLECTIVE),
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
        kind: table::SINGLE.columns,
        group: true,
        defects: false,
    };
    let s = Columns {
        kind: table::SYNC.columns,
        group: true,
        defects: false,
    };
    let l4 = layout(4, 4, None, true);
    insta::assert_snapshot!(render(|t| {
        t.banner(&Banner {
            name: "PingPong",
            suffix: "",
            process: None,
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
            suffix: "",
            process: None,
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

/// A family's block as imb-io prints its CPU_Exploit speed (imb-io's `cpu::Speed`).
#[derive(serde::Serialize)]
struct CpuSpeed(f64);

impl crate::note::Remark for CpuSpeed {
    const KIND: &'static str = "cpu_exploit";
    fn lines(&self) -> Vec<String> {
        vec![
            "For nonblocking benchmarks:".to_string(),
            String::new(),
            "Function CPU_Exploit obtains an undisturbed".to_string(),
            format!("performance of {:7.2} MFlops", self.0),
        ]
    }
}

/// A family's note as the Sphinx latencies print theirs (imb-mpi1's `latency_notes`).
#[derive(serde::Serialize)]
struct Slowest(usize, usize, f64);

impl crate::note::Remark for Slowest {
    const KIND: &'static str = "slowest";
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "{} bytes: last receiver: rank {} ({:.2} usec)",
            self.0, self.1, self.2
        )]
    }
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
        Note::of(&Slowest(4, 1, 4.39)),
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
            suffix: "",
            process: None,
            layout: &l,
            mode: Mode::Plain,
            cols: cols(&WHITEBOX),
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
        kind: table::COLLECTIVE.columns,
        group: false,
        defects: true,
    };
    insta::assert_snapshot!(render(|t| {
        t.invalid("PingPong", 1);
        t.banner(&Banner {
            name: "Sendrecv",
            suffix: "",
            process: None,
            layout: &l,
            mode: Mode::Plain,
            cols: cols(&table::PARALLEL),
        });
        t.banner(&Banner {
            name: "Unidir_Put",
            suffix: "",
            process: None,
            layout: &p,
            mode: Mode::NonAggregate,
            cols: cols(&table::SINGLE),
        });
        t.banner(&Banner {
            name: "Reduce",
            suffix: "",
            process: None,
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

#[test]
fn a_banner_suffix_follows_the_name() {
    let l = layout(6, 6, None, false);
    let out = render(|t| {
        t.banner(&Banner {
            name: "Stencil2D",
            suffix: " (3 x 2)",
            process: None,
            layout: &l,
            mode: Mode::Plain,
            cols: cols(&table::PARALLEL),
        });
        t.finish(None);
    });
    assert!(
        out.contains("\n# Benchmarking Stencil2D (3 x 2) \n# #processes = 6 \n"),
        "{out}"
    );
}

#[test]
fn a_familys_process_lines_and_a_hidden_header() {
    let l = layout(3, 2, None, false);
    let lines = [
        "#processes = 2 (threads: 4)".to_string(),
        "window_size = 64".to_string(),
    ];
    let out = render(|t| {
        t.header(&Header {
            hidden: true,
            ..header()
        });
        t.banner(&Banner {
            name: "UniBandMT",
            suffix: "",
            process: Some(&lines),
            layout: &l,
            mode: Mode::Plain,
            cols: cols(&table::PARALLEL),
        });
        t.finish(None);
    });
    assert!(!out.contains("imb-rs") && !out.contains("# Date"), "{out}");
    assert!(
        out.contains(
            "# Benchmarking UniBandMT \n# #processes = 2 (threads: 4)\n# window_size = 64\n#--"
        ),
        "{out}"
    );
    assert!(!out.contains("additional process"), "{out}");
}
