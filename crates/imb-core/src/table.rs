//! Table kinds: what a benchmark's table looks like and how the per-rank results of one size
//! become a row and the table's notes (doc/OUTPUT.md, "Column sets"). A benchmark names its
//! kind in `Info::table`; the driver calls `values` and `notes` without knowing which kind it
//! holds. The plain IMB kinds are here; a family brings its own (the white-box decomposition
//! in imb-mpi1's Jacobi2D, the Sphinx latencies, IMB-IO's non-blocking overlap).

use crate::report::Note;
use crate::stats::{self, RankResult, Stats};
use crate::vocab::Layout;
use crate::vocab::Multi;

/// What one row is reduced from.
pub struct RowIn<'a> {
    /// One size's result of every world rank (idle ranks too).
    pub all: &'a [RankResult],
    /// The world ranks of the row: one group under `-multi 1`, every group otherwise.
    pub members: &'a [usize],
    /// t_min/t_max/t_avg and the check result over `members`.
    pub stats: &'a Stats,
    pub x: usize,
    /// `Info::scale_bw`: messages per sample for Mbytes/sec.
    pub scale_bw: f64,
    /// Processes per group (NP): a kind whose bandwidth counts the peers reads it.
    pub np: usize,
}

/// One measured size of a table, as rank 0 gathered it.
#[derive(Debug, Clone)]
pub struct SizeResults {
    pub x: usize,
    pub all: Vec<RankResult>,
}

/// What a table's notes are made from: every measured size, in order.
pub struct TableIn<'a> {
    pub sizes: &'a [SizeResults],
    pub layout: &'a Layout,
    pub multi: Option<Multi>,
}

/// A kind of table.
#[derive(Debug, Clone, Copy)]
pub struct TableKind {
    /// For tests and messages.
    pub name: &'static str,
    /// Column titles as IMB prints them, before the optional `defects`.
    pub titles: &'static [&'static str],
    /// The kind this one becomes under `-multi 0`, where one row covers every group
    /// (single transfer: t_min/t_max/t_avg over the groups instead of one time).
    pub merged: Option<&'static TableKind>,
    /// The values of a row after `#bytes` and `#repetitions`.
    pub values: fn(&RowIn) -> Vec<f64>,
    /// The notes after the table, before the `-adaptive` and `-mem` notes.
    pub notes: fn(&TableIn) -> Vec<Note>,
}

/// Kinds are told apart by name (function pointers do not compare reliably).
impl PartialEq for TableKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for TableKind {}

/// A kind without notes of its own.
pub fn no_notes(_: &TableIn) -> Vec<Note> {
    Vec::new()
}

fn t_mbytes(r: &RowIn) -> Vec<f64> {
    vec![
        r.stats.t_max.0,
        stats::mbytes_per_sec(r.scale_bw, r.x, r.stats.t_max),
    ]
}

fn min_max_avg_mbytes(r: &RowIn) -> Vec<f64> {
    let s = r.stats;
    vec![
        s.t_min.0,
        s.t_max.0,
        s.t_avg.0,
        stats::mbytes_per_sec(r.scale_bw, r.x, s.t_max),
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
    titles: &["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"],
    merged: Some(&PARALLEL),
    values: t_mbytes,
    notes: no_notes,
};

/// `#bytes #repetitions t_min t_max t_avg Mbytes/sec`: parallel transfer.
pub const PARALLEL: TableKind = TableKind {
    name: "parallel",
    titles: &[
        "#bytes",
        "#repetitions",
        "t_min[usec]",
        "t_max[usec]",
        "t_avg[usec]",
        "Mbytes/sec",
    ],
    merged: None,
    values: min_max_avg_mbytes,
    notes: no_notes,
};

/// `#bytes #repetitions t_min t_max t_avg`: collectives.
pub const COLLECTIVE: TableKind = TableKind {
    name: "collective",
    titles: &[
        "#bytes",
        "#repetitions",
        "t_min[usec]",
        "t_max[usec]",
        "t_avg[usec]",
    ],
    merged: None,
    values: min_max_avg,
    notes: no_notes,
};

/// `#repetitions t_min t_max t_avg`: Barrier.
pub const SYNC: TableKind = TableKind {
    name: "sync",
    titles: without_bytes(COLLECTIVE.titles),
    merged: None,
    values: min_max_avg,
    notes: no_notes,
};

/// `titles` without the leading `#bytes`: the table of a benchmark that moves no data (Barrier,
/// Ibarrier).
pub const fn without_bytes(titles: &'static [&'static str]) -> &'static [&'static str] {
    match titles.split_first() {
        Some((_, rest)) => rest,
        None => titles,
    }
}

/// `#bytes #repetitions t_ovrl t_pure t_CPU overlap[%]`: the columns of IMB-IO's non-blocking
/// and IMB-NBC's overlap tables (guide 4.2.5.2), whose rows each family reduces its own way
/// (doc/METHODOLOGY.md).
pub const OVERLAP_TITLES: &[&str] = &[
    "#bytes",
    "#repetitions",
    "t_ovrl[usec]",
    "t_pure[usec]",
    "t_CPU[usec]",
    "overlap[%]",
];

/// `Sample::parts` index of a message-rate kernel's messages per repetition (window × pairs).
/// Parts are scaled like times (seconds to usec), so over t in usec it is a rate per second.
pub const MSGS: usize = 0;

/// IMB 3.0's megabyte, for `Mbytes/sec`.
const MB: f64 = 1_048_576.0;

/// Msg/sec = scale_bw · window · NP/2 / t_max (IMB 2021's message rate) and Mbytes/sec =
/// Msg/sec · X / 2^20: the MB of every other imb-rs table (IMB 3.0's), not IMB 2021's 10^6, so
/// one run's tables, and imb-compare's conversions, use one unit; 0 when t_max is not positive.
fn msg_rate(r: &RowIn) -> Vec<f64> {
    let msgs = r
        .members
        .iter()
        .map(|&w| r.all[w].parts[MSGS])
        .fold(0.0, f64::max);
    let t = r.stats.t_max.0;
    let rate = if t > 0.0 { r.scale_bw * msgs / t } else { 0.0 };
    vec![rate * r.x as f64 / MB, rate]
}

/// `#bytes #repetitions Mbytes/sec Msg/sec`: IMB 2021's ParallelTransferMsgRate (Uniband,
/// Biband). No times: the rate is what these benchmarks measure.
pub const MSG_RATE: TableKind = TableKind {
    name: "msg-rate",
    titles: &["#bytes", "#repetitions", "Mbytes/sec", "Msg/sec"],
    merged: None,
    values: msg_rate,
    notes: no_notes,
};

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
        let all = [
            RankResult {
                t: Usec(2.0),
                ..RankResult::default()
            },
            RankResult {
                t: Usec(4.0),
                ..RankResult::default()
            },
        ];
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[0, 1],
            stats: &st,
            x: 1 << 20,
            scale_bw: 1.0,
            np: 2,
        };
        let single = (SINGLE.values)(&r);
        // 1 MiB in 4 usec: 250000 MB/s with IMB's MB of 2^20 bytes.
        assert_eq!(single[0], 4.0);
        assert!((single[1] - 250000.0).abs() < 1e-6, "{single:?}");
        assert_eq!((COLLECTIVE.values)(&r), [2.0, 4.0, 3.0]);
        assert_eq!(SINGLE.merged, Some(&PARALLEL));
        assert_eq!((PARALLEL.values)(&r).len() + 2, PARALLEL.titles.len());
        assert_eq!((SYNC.values)(&r).len() + 1, SYNC.titles.len());
        assert_eq!(
            SYNC.titles,
            ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]
        );
        assert_eq!(without_bytes(OVERLAP_TITLES)[0], "#repetitions");
        assert_eq!(without_bytes(&[]), [""; 0]);
    }

    #[test]
    fn message_rate_as_imb_2021() {
        // Two ranks, window 256 on one pair: 256 messages (parts scaled like times) in 4 usec.
        let mut all = [RankResult::default(); 2];
        for (k, a) in all.iter_mut().enumerate() {
            a.t = Usec(2.0 + 2.0 * k as f64);
            a.parts[MSGS] = 256.0 * 1e6;
        }
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[0, 1],
            stats: &st,
            x: 1000,
            scale_bw: 2.0,
            np: 2,
        };
        let v = (MSG_RATE.values)(&r);
        assert_eq!(v[1], 2.0 * 256.0 / 4.0 * 1e6);
        assert_eq!(v[0], v[1] * 1000.0 / 1_048_576.0);
        assert_eq!(v.len() + 2, MSG_RATE.titles.len());
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
