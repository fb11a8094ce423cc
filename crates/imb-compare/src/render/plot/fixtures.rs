//! The runs and tables the plot tests draw, shared by each file's tests.

use crate::read::key::TableKey;
use crate::read::run::{Run, Table};
use crate::read::sides::Side;

pub(super) fn table(bench: &str, columns: &[&str], rows: &[&[f64]]) -> Table {
    Table {
        benchmark: bench.to_string(),
        processes: Some(2),
        groups: 1,
        mode: None,
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows: rows.iter().map(|r| r.to_vec()).collect(),
        line: 0,
        flags: Vec::new(),
        placement: None,
    }
}

/// A side of one launch a list of tables.
pub(super) fn side_of(label: &str, launches: Vec<Vec<Table>>) -> Side {
    let proto: Run =
        crate::read::sides::fixture_side(label, &[("MPI_THREAD_SINGLE", &[1.0])]).runs[0].clone();
    Side {
        label: label.to_string(),
        runs: launches
            .into_iter()
            .map(|tables| Run {
                tables,
                ..proto.clone()
            })
            .collect(),
        files: Vec::new(),
        repeats: Vec::new(),
        empty: Vec::new(),
    }
}

/// Allreduce (t_min, t_max, t_avg all different) and PingPong (t, Mbytes/sec), times scaled
/// by `f`.
pub(super) fn launch(f: f64) -> Vec<Table> {
    vec![
        table(
            "Allreduce",
            &["bytes", "repetitions", "t_min", "t_max", "t_avg"],
            &[
                &[0.0, 1000.0, 0.1, 0.3, 0.2],
                &[4.0, 1000.0, f, 3.0 * f, 2.0 * f],
                &[8.0, 1000.0, 2.0 * f, 6.0 * f, 4.0 * f],
            ],
        ),
        table(
            "PingPong",
            &["bytes", "repetitions", "t", "mbytes"],
            &[&[4.0, 1000.0, f, 4.0 / f], &[8.0, 1000.0, 2.0 * f, 4.0 / f]],
        ),
    ]
}

pub(super) fn texts(svg: &str) -> Vec<String> {
    let x = roxmltree::Document::parse(svg).unwrap();
    x.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

pub(super) fn key(bench: &str) -> TableKey {
    TableKey {
        benchmark: bench.to_string(),
        processes: Some(2),
        groups: 1,
        mode: String::new(),
    }
}
