//! The summary from rows (pure), and its text layout guarded by a snapshot: existing IMB
//! parsers must pass over the block (doc/OUTPUT.md, "Compatibility with IMB parsers").

use super::*;
use crate::plan::layout;
use crate::report::{Text, Verdict};
use crate::table;
use crate::table::column::{self, Column};
use crate::vocab::Mode;

fn cols(kind: &'static [Column], group: bool) -> Columns {
    Columns {
        kind,
        group,
        defects: false,
    }
}

fn row(group: Option<usize>, bytes: Option<usize>, values: &[f64]) -> Row {
    Row {
        group,
        bytes,
        reps: 1000,
        values: values.to_vec(),
    }
}

#[test]
fn single_transfer_lowest_time_and_highest_bandwidth() {
    let rows = [
        row(None, Some(0), &[0.20, 0.0]),
        row(None, Some(1), &[0.15, 6.0]),
        row(None, Some(2), &[0.15, 12.0]),
        row(None, Some(1024), &[0.40, 2455.0]),
        row(None, Some(4096), &[1.80, 2100.0]),
    ];
    let (lat, bw) = summarise(&cols(table::SINGLE.columns, false), &rows);
    // A tie goes to the size listed first.
    assert_eq!(
        lat,
        Some(Best {
            key: "t_us",
            value: 0.15,
            bytes: Some(1)
        })
    );
    assert_eq!(
        bw,
        Some(Best {
            key: "mbytes_per_s",
            value: 2455.0,
            bytes: Some(1024)
        })
    );
}

#[test]
fn collective_has_latency_only_and_check_column_is_ignored() {
    let c = Columns {
        defects: true,
        ..cols(table::COLLECTIVE.columns, false)
    };
    // t_min t_max t_avg defects
    let rows = [
        row(None, Some(0), &[0.1, 0.9, 0.5, 0.0]),
        row(None, Some(4), &[0.2, 0.7, 0.5, 0.0]),
    ];
    let (lat, bw) = summarise(&c, &rows);
    assert_eq!(
        lat,
        Some(Best {
            key: "t_max_us",
            value: 0.7,
            bytes: Some(4)
        })
    );
    assert_eq!(bw, None);
}

#[test]
fn latency_passes_over_a_zero_byte_call_that_moves_nothing() {
    // A collective whose 0-byte call returns at once: 0.00 usec is no latency.
    let c = cols(table::COLLECTIVE.columns, false);
    // t_min t_max t_avg
    let rows = [
        row(None, Some(0), &[0.0, 0.0, 0.0]),
        row(None, Some(1), &[1.1, 1.4, 1.2]),
        row(None, Some(2), &[1.3, 1.5, 1.4]),
        row(None, Some(1024), &[2.0, 2.6, 2.3]),
    ];
    let (lat, bw) = summarise(&c, &rows);
    assert_eq!(
        lat,
        Some(Best {
            key: "t_max_us",
            value: 1.4,
            bytes: Some(1)
        })
    );
    assert_eq!(bw, None);
}

#[test]
fn latency_passes_over_the_zero_byte_sizes_of_every_group() {
    let c = cols(table::SINGLE.columns, true);
    let rows = [
        row(Some(0), Some(0), &[0.1, 0.0]),
        row(Some(1), Some(0), &[0.2, 0.0]),
        row(Some(0), Some(8), &[2.0, 4.0]),
        row(Some(1), Some(8), &[3.0, 2.5]),
    ];
    let (lat, bw) = summarise(&c, &rows);
    assert_eq!(lat.map(|b| (b.value, b.bytes)), Some((3.0, Some(8))));
    // The bandwidth rule is unchanged: 0 bytes simply carry 0 Mbytes/sec.
    assert_eq!(bw.map(|b| (b.value, b.bytes)), Some((2.5, Some(8))));
}

#[test]
fn a_table_of_only_zero_bytes_keeps_its_zero_byte_latency() {
    // `-msglen` listing only 0: the 0-byte time is the only figure there is.
    let c = cols(table::COLLECTIVE.columns, false);
    let (lat, _) = summarise(&c, &[row(None, Some(0), &[0.3, 0.5, 0.4])]);
    assert_eq!(
        lat,
        Some(Best {
            key: "t_max_us",
            value: 0.5,
            bytes: Some(0)
        })
    );
    let s = cols(table::SINGLE.columns, false);
    let (lat, bw) = summarise(&s, &[row(None, Some(0), &[0.2, 0.0])]);
    assert_eq!(lat.map(|b| (b.value, b.bytes)), Some((0.2, Some(0))));
    assert_eq!(bw.map(|b| (b.value, b.bytes)), Some((0.0, Some(0))));
}

#[test]
fn barrier_has_no_size_and_an_empty_table_no_values() {
    let c = cols(table::SYNC.columns, false);
    // The 0-byte rule does not touch a table without sizes: its one row is its latency.
    let (lat, _) = summarise(&c, &[row(None, None, &[1.0, 2.0, 1.5])]);
    assert_eq!(
        lat,
        Some(Best {
            key: "t_max_us",
            value: 2.0,
            bytes: None
        })
    );
    assert_eq!(summarise(&c, &[]), (None, None));
}

#[test]
fn per_group_rows_count_with_the_slowest_group() {
    let c = cols(table::SINGLE.columns, true);
    let rows = [
        // 0 bytes: groups at 1.0 and 3.0 usec -> 3.0
        row(Some(0), Some(0), &[1.0, 0.0]),
        row(Some(1), Some(0), &[3.0, 0.0]),
        // 8 bytes: 2.0 and 2.5 -> 2.5 (the lowest), bandwidth min(9, 4) = 4
        row(Some(0), Some(8), &[2.0, 9.0]),
        row(Some(1), Some(8), &[2.5, 4.0]),
        // 16 bytes: 5.0 and 6.0, bandwidth min(7, 5) = 5 (the highest)
        row(Some(0), Some(16), &[5.0, 7.0]),
        row(Some(1), Some(16), &[6.0, 5.0]),
    ];
    let (lat, bw) = summarise(&c, &rows);
    assert_eq!((lat.unwrap().value, bw.as_ref().unwrap().value), (2.5, 5.0));
    assert_eq!(bw.unwrap().bytes, Some(16));
}

#[test]
fn values_that_are_not_finite_are_passed_over() {
    let rows = [
        row(None, Some(0), &[f64::NAN, f64::INFINITY]),
        row(None, Some(8), &[3.0, 2.0]),
    ];
    let (lat, bw) = summarise(&cols(table::SINGLE.columns, false), &rows);
    assert_eq!(lat.unwrap().bytes, Some(8));
    assert_eq!(bw.unwrap().bytes, Some(8));
}

#[test]
fn collector_follows_banners_and_rows() {
    let l = layout(4, 2, None, true);
    let mut c = Collector::default();
    c.banner(&Banner {
        name: "PingPong",
        suffix: "",
        process: None,
        layout: &l,
        mode: Mode::Aggregate,
        cols: cols(table::SINGLE.columns, true),
    });
    c.row(&row(Some(0), Some(0), &[1.0, 0.0]));
    c.row(&row(Some(1), Some(0), &[2.0, 0.0]));
    let s = c.summary();
    assert_eq!(s.len(), 1);
    assert_eq!(
        (s[0].processes, s[0].groups, s[0].mode),
        (2, 2, Some("AGGREGATE"))
    );
    assert_eq!(s[0].latency.as_ref().unwrap().value, 2.0);
}

/// What IMB-output parsers key on must not appear in the block, and every line is a comment.
fn parser_safe(block: &str) {
    for l in block.lines().filter(|l| !l.is_empty()) {
        assert!(l.starts_with('#'), "{l:?}");
        assert!(!l.ends_with(' '), "{l:?}");
        for key in [
            "Benchmarking",
            "#bytes",
            "#repetitions",
            "#processes",
            "#-",
            "Mbytes/sec",
        ] {
            assert!(!l.contains(key), "{key} in {l:?}");
        }
        // Every column imb-core knows (imb-mpi1's Msg/sec by its title).
        let families = [
            crate::table::NONBLOCKING_OVERLAP,
            crate::whitebox::COLUMNS,
            &[column::GROUP, column::DEFECTS],
        ];
        assert!(!l.contains(" Msg/sec"), "{l:?}");
        let kinds = [table::SINGLE, table::PARALLEL, table::COLLECTIVE].map(|k| k.columns);
        for title in kinds
            .iter()
            .chain(&families)
            .flat_map(|c| c.iter().map(|c| c.title))
        {
            assert!(!l.contains(&format!(" {title}")), "{title} in {l:?}");
        }
    }
}

#[test]
fn summary_block_after_the_last_table() {
    let l = layout(2, 2, None, false);
    let s: Summary = vec![
        SummaryLine {
            benchmark: "PingPong".into(),
            processes: 2,
            groups: 1,
            mode: None,
            latency: Some(Best {
                key: "t_us",
                value: 0.14,
                bytes: Some(2),
            }),
            bandwidth: Some(Best {
                key: "mbytes_per_s",
                value: 916.73,
                bytes: Some(4194304),
            }),
        },
        SummaryLine {
            benchmark: "Unidir_Put".into(),
            processes: 2,
            groups: 2,
            mode: Some("NON-AGGREGATE"),
            latency: Some(Best {
                key: "t_us",
                value: 6.02,
                bytes: Some(0),
            }),
            bandwidth: None,
        },
        SummaryLine {
            benchmark: "Barrier".into(),
            processes: 2,
            groups: 1,
            mode: None,
            latency: Some(Best {
                key: "t_max_us",
                value: 0.19,
                bytes: None,
            }),
            bandwidth: None,
        },
        SummaryLine {
            benchmark: "Alltoall".into(),
            processes: 2,
            groups: 1,
            mode: None,
            latency: None,
            bandwidth: None,
        },
    ];
    parser_safe(&summary_text(&s));
    let mut t = Text::new(Vec::new());
    t.banner(&Banner {
        name: "PingPong",
        suffix: "",
        process: None,
        layout: &l,
        mode: Mode::Plain,
        cols: cols(table::SINGLE.columns, false),
    });
    t.row(&row(None, Some(4194304), &[4363.35, 916.73]));
    t.table_end(&[], false);
    t.summary(&s);
    t.finish(Some(&[Verdict {
        name: "PingPong".into(),
        ok: true,
    }]));
    let text = String::from_utf8(t.into_inner()).unwrap();
    insta::assert_snapshot!(text);
}
