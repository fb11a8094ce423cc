//! Table kinds: what a benchmark's table looks like and how the per-rank results of one size
//! become a row and the table's notes (doc/OUTPUT.md, "Column sets"). A benchmark names its
//! kind in `Info::table`; the driver calls `values` and `notes` without knowing which kind it
//! holds, or which `Record` its kernels report. The plain IMB kinds are here; a family brings
//! its own, with its columns and its record type (the white-box decomposition in imb-mpi1's
//! Jacobi2D, the Sphinx latencies, Uniband's message rate, the non-blocking overlaps of
//! imb-io and imb-nbc).

pub use crate::method::Megabyte;
use crate::note::Note;
use crate::stats::{self, RankResult, Stats};
use crate::vocab::Layout;
use crate::vocab::Multi;
use std::any::TypeId;
use std::fmt;

pub mod column;
mod record;

pub use column::Column;
pub use record::{Record, Wire};

/// What one row is reduced from, each rank's record read as `R`.
pub struct RowIn<'a, R = ()> {
    /// One size's result of every world rank (idle ranks too).
    pub all: &'a [RankResult<R>],
    /// The world ranks of the row: one group under `-multi 1`, every group otherwise.
    pub members: &'a [usize],
    /// t_min/t_max/t_avg and the check result over `members`.
    pub stats: &'a Stats,
    pub x: usize,
    /// `Info::scale_bw`: messages per sample for Mbytes/sec.
    pub scale_bw: f64,
    /// Processes per group (NP): a kind whose bandwidth counts the peers reads it.
    pub np: usize,
    /// The megabyte of `Mbytes/sec` (the run's `-compat`).
    pub megabyte: Megabyte,
}

/// One measured size of a table, as rank 0 gathered it.
#[derive(Debug, Clone)]
pub struct SizeResults<R = Wire> {
    pub x: usize,
    pub all: Vec<RankResult<R>>,
}

/// What a table's notes are made from: every measured size, in order.
pub struct TableIn<'a, R = ()> {
    pub sizes: &'a [SizeResults<R>],
    pub layout: &'a Layout,
    pub multi: Option<Multi>,
}

/// A kind of table.
#[derive(Debug, Clone, Copy)]
pub struct TableKind {
    /// For tests and messages.
    pub name: &'static str,
    /// The columns, before the optional `defects`.
    pub columns: &'static [Column],
    /// The kind this one becomes under `-multi 0`, where one row covers every group
    /// (single transfer: t_min/t_max/t_avg over the groups instead of one time).
    pub merged: Option<&'static TableKind>,
    /// Its rows and notes, from records of the type its benchmarks' kernels report
    /// (a `Reduce`).
    pub reduce: &'static dyn Reduction,
}

/// Kinds are told apart by name (function pointers do not compare reliably).
impl PartialEq for TableKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for TableKind {}

impl TableKind {
    /// The values of a row after `#bytes` and `#repetitions`.
    pub fn values(&self, r: &RowIn<Wire>) -> Vec<f64> {
        self.reduce.values(r)
    }
    /// The notes after the table, before the `-adaptive` and `-mem` notes.
    pub fn notes(&self, t: &TableIn<Wire>) -> Vec<Note> {
        self.reduce.notes(t)
    }
}

/// How a kind's rows and notes come from its records. Typed in `Reduce`; this face lets
/// `TableKind` hold any of them, and the driver hand it records it cannot read.
pub trait Reduction: Sync + fmt::Debug {
    fn values(&self, r: &RowIn<Wire>) -> Vec<f64>;
    fn notes(&self, t: &TableIn<Wire>) -> Vec<Note>;
    /// The record type it reads, which the kernels must report (`kernel::Timed::record`).
    fn record(&self) -> TypeId;
}

/// A kind's reduction from records of type `R`: the row's values and the table's notes.
pub struct Reduce<R: Record = ()> {
    pub values: fn(&RowIn<R>) -> Vec<f64>,
    pub notes: fn(&TableIn<R>) -> Vec<Note>,
}

impl<R: Record> fmt::Debug for Reduce<R> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Reduce<{}>", std::any::type_name::<R>())
    }
}

fn decoded<R: Record>(all: &[RankResult<Wire>]) -> Vec<RankResult<R>> {
    all.iter().map(RankResult::decode).collect()
}

/// Rank 0, once per row and once per table: the records are read here, never near a timer.
impl<R: Record> Reduction for Reduce<R> {
    fn values(&self, r: &RowIn<Wire>) -> Vec<f64> {
        let all = decoded(r.all);
        (self.values)(&RowIn {
            all: &all,
            members: r.members,
            stats: r.stats,
            x: r.x,
            scale_bw: r.scale_bw,
            np: r.np,
            megabyte: r.megabyte,
        })
    }
    fn notes(&self, t: &TableIn<Wire>) -> Vec<Note> {
        let sizes: Vec<SizeResults<R>> = t
            .sizes
            .iter()
            .map(|s| SizeResults {
                x: s.x,
                all: decoded(&s.all),
            })
            .collect();
        (self.notes)(&TableIn {
            sizes: &sizes,
            layout: t.layout,
            multi: t.multi,
        })
    }
    fn record(&self) -> TypeId {
        TypeId::of::<R>()
    }
}

/// A kind without notes of its own.
pub fn no_notes<R>(_: &TableIn<R>) -> Vec<Note> {
    Vec::new()
}

fn t_mbytes(r: &RowIn) -> Vec<f64> {
    vec![
        r.stats.t_max.0,
        stats::mbytes_per_sec(r.scale_bw, r.x, r.stats.t_max, r.megabyte),
    ]
}

fn min_max_avg_mbytes(r: &RowIn) -> Vec<f64> {
    let s = r.stats;
    vec![
        s.t_min.0,
        s.t_max.0,
        s.t_avg.0,
        stats::mbytes_per_sec(r.scale_bw, r.x, s.t_max, r.megabyte),
    ]
}

/// t_min, t_max, t_avg: the collectives' and Barrier's values.
pub fn min_max_avg(r: &RowIn) -> Vec<f64> {
    let s = r.stats;
    vec![s.t_min.0, s.t_max.0, s.t_avg.0]
}

/// `#bytes #repetitions t[usec] Mbytes/sec`: single transfer.
pub const SINGLE: TableKind = TableKind {
    name: "single",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::T,
        column::MBYTES,
    ],
    merged: Some(&PARALLEL),
    reduce: &Reduce {
        values: t_mbytes,
        notes: no_notes,
    },
};

/// `#bytes #repetitions t_min t_max t_avg Mbytes/sec`: parallel transfer.
pub const PARALLEL: TableKind = TableKind {
    name: "parallel",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::T_MIN,
        column::T_MAX,
        column::T_AVG,
        column::MBYTES,
    ],
    merged: None,
    reduce: &Reduce {
        values: min_max_avg_mbytes,
        notes: no_notes,
    },
};

/// `#bytes #repetitions t_min t_max t_avg`: collectives.
pub const COLLECTIVE: TableKind = TableKind {
    name: "collective",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::T_MIN,
        column::T_MAX,
        column::T_AVG,
    ],
    merged: None,
    reduce: &Reduce {
        values: min_max_avg,
        notes: no_notes,
    },
};

/// `#repetitions t_min t_max t_avg`: Barrier.
pub const SYNC: TableKind = TableKind {
    name: "sync",
    columns: without_bytes(COLLECTIVE.columns),
    ..COLLECTIVE
};

/// `columns` without the leading `#bytes`: the table of a benchmark that moves no data
/// (Barrier, Ibarrier).
pub const fn without_bytes(columns: &'static [Column]) -> &'static [Column] {
    match columns.split_first() {
        Some((_, rest)) => rest,
        None => columns,
    }
}

/// `#bytes #repetitions t_ovrl t_pure t_CPU overlap[%]`: the non-blocking overlap of guide
/// 4.2.5.2, the columns of IMB-IO's non-blocking and IMB-NBC's overlap tables. Shared because
/// both families print the guide's figures under the guide's names; each reduces its rows its
/// own way (doc/METHODOLOGY.md), from the one record below.
pub const NONBLOCKING_OVERLAP: &[Column] = &[
    column::BYTES,
    column::REPETITIONS,
    Column::new("t_ovrl[usec]", "t_ovrl_us"),
    Column::new("t_pure[usec]", "t_pure_us"),
    Column::new("t_CPU[usec]", "t_cpu_us"),
    Column::new("overlap[%]", "overlap_pct"),
];

/// What a non-blocking overlap kernel reports besides t_ovrl, its time (guide 4.2.5.2), in
/// seconds per repetition: IMB-IO's and IMB-NBC's record.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct OverlapTimes {
    /// The operation alone: IMB-NBC's call and wait, IMB-IO's blocking AGGREGATE kernel.
    pub pure: f64,
    /// The CPU work alone (IMB-IO) or inside the overlapped calls (IMB-NBC).
    pub cpu: f64,
}

impl Record for OverlapTimes {
    const WIDTH: usize = 2;
    fn to_wire(&self, w: &mut [f64]) {
        w.copy_from_slice(&[self.pure, self.cpu]);
    }
    fn from_wire(w: &[f64]) -> Self {
        OverlapTimes {
            pure: w[0],
            cpu: w[1],
        }
    }
}

/// The members of every row of a size: each group under `-multi 1`, all groups otherwise.
pub fn row_sets(layout: &Layout, multi: Option<Multi>) -> Vec<(Option<usize>, Vec<usize>)> {
    match multi {
        Some(Multi::PerGroup) => layout
            .groups
            .iter()
            .enumerate()
            .map(|(g, m)| (Some(g), m.clone()))
            .collect(),
        _ => vec![(None, layout.groups.iter().flatten().copied().collect())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Usec;

    #[test]
    fn plain_kinds_reduce_as_imb_does() {
        let all = [2.0, 4.0].map(|t| RankResult {
            t: Usec(t),
            ..RankResult::<Wire>::default()
        });
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[0, 1],
            stats: &st,
            x: 1 << 20,
            scale_bw: 1.0,
            np: 2,
            megabyte: Megabyte::IMB30,
        };
        let single = SINGLE.values(&r);
        // 1 MiB in 4 usec: 250000 MB/s with IMB's MB of 2^20 bytes.
        assert_eq!(single[0], 4.0);
        assert!((single[1] - 250000.0).abs() < 1e-6, "{single:?}");
        assert_eq!(COLLECTIVE.values(&r), [2.0, 4.0, 3.0]);
        assert_eq!(SINGLE.merged, Some(&PARALLEL));
        assert_eq!(PARALLEL.values(&r).len() + 2, PARALLEL.columns.len());
        assert_eq!(SYNC.values(&r).len() + 1, SYNC.columns.len());
        let titles = |c: &[Column]| c.iter().map(|c| c.title).collect::<Vec<_>>();
        assert_eq!(
            titles(SYNC.columns),
            ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]
        );
        assert_eq!(without_bytes(NONBLOCKING_OVERLAP)[0], column::REPETITIONS);
        assert!(without_bytes(&[]).is_empty());
        assert_eq!(SYNC.reduce.record(), TypeId::of::<()>());
    }

    #[test]
    fn a_kind_reads_its_own_record() {
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        struct Count(f64);
        impl Record for Count {
            const WIDTH: usize = 1;
            fn to_wire(&self, w: &mut [f64]) {
                w[0] = self.0;
            }
            fn from_wire(w: &[f64]) -> Self {
                Count(w[0])
            }
        }
        const COUNTED: TableKind = TableKind {
            name: "counted",
            columns: &[column::BYTES, column::REPETITIONS, column::T],
            merged: None,
            reduce: &Reduce {
                values: |r: &RowIn<Count>| r.members.iter().map(|&m| r.all[m].rec.0).collect(),
                notes: |t: &TableIn<Count>| {
                    let n = t.sizes.iter().map(|s| s.all[1].rec.0 as usize).sum();
                    vec![Note::Truncated { from: n, to: 0 }]
                },
            },
        };
        let all = [3.0, 5.0].map(|c| RankResult {
            rec: Wire::encode(&Count(c)),
            ..RankResult::default()
        });
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[1, 0],
            stats: &st,
            x: 0,
            scale_bw: 1.0,
            np: 2,
            megabyte: Megabyte::IMB30,
        };
        assert_eq!(COUNTED.values(&r), [5.0, 3.0]);
        let l = crate::plan::layout(2, 2, None, false);
        let sizes = [0, 1].map(|x| SizeResults {
            x,
            all: all.to_vec(),
        });
        let notes = COUNTED.notes(&TableIn {
            sizes: &sizes,
            layout: &l,
            multi: None,
        });
        assert!(matches!(notes[..], [Note::Truncated { from: 10, .. }]));
        assert_eq!(COUNTED.reduce.record(), TypeId::of::<Count>());
    }

    #[test]
    fn rows_per_group_or_over_all() {
        let l = crate::plan::layout(4, 2, None, true);
        assert_eq!(
            row_sets(&l, Some(Multi::PerGroup)),
            [(Some(0), vec![0, 1]), (Some(1), vec![2, 3])]
        );
        assert_eq!(
            row_sets(&l, Some(Multi::Merged)),
            [(None, vec![0, 1, 2, 3])]
        );
    }
}
