//! IMB-MT's tables: what each rank reports of its threads (`Threads`), and how rank 0 turns
//! every rank's report into a row the way IMB-MT does. t_min and t_max are the fastest and
//! slowest thread of any rank, t_avg the mean over every thread that took part, each per
//! repetition and already divided as the pattern says (half a round trip, per message of a
//! window). Mbytes/sec counts 10^6 bytes, as IMB-MT does, of count·type size·threads per rank
//! (its weak-scaling #bytes); the window benchmarks' rates add up every pair's.

use imb_core::note::{Note, Remark};
use imb_core::table::column::{self, Column};
use imb_core::table::{Record, Reduce, RowIn, TableIn, TableKind};
use serde::Serialize;

/// One rank's threads at one size: seconds per repetition of the fastest and slowest thread
/// that took part, their sum, how many took part (a rank without a partner takes no part), the
/// threads the rank ran, and how many of them were not where they were bound.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Threads {
    pub min: f64,
    pub max: f64,
    pub sum: f64,
    pub ran: f64,
    pub threads: f64,
    pub astray: f64,
    /// 1 when the rank's threads were left unbound (fewer CPUs than threads).
    pub unbound: f64,
}

impl Record for Threads {
    const WIDTH: usize = 7;
    fn to_wire(&self, w: &mut [f64]) {
        w.copy_from_slice(&[
            self.min,
            self.max,
            self.sum,
            self.ran,
            self.threads,
            self.astray,
            self.unbound,
        ]);
    }
    fn from_wire(w: &[f64]) -> Self {
        Threads {
            min: w[0],
            max: w[1],
            sum: w[2],
            ran: w[3],
            threads: w[4],
            astray: w[5],
            unbound: w[6],
        }
    }
}

/// The row's figures over the members: (t_min, t_max, t_avg) in seconds, threads that took
/// part, threads per rank.
pub fn over(r: &RowIn<Threads>) -> (f64, f64, f64, f64, f64) {
    let mut min = f64::INFINITY;
    let mut max: f64 = 0.0;
    let (mut sum, mut ran, mut threads) = (0.0, 0.0, 1.0);
    for &m in r.members {
        let t = &r.all[m].rec;
        threads = t.threads.max(1.0);
        if t.ran > 0.0 {
            min = min.min(t.min);
            max = max.max(t.max);
            sum += t.sum;
            ran += t.ran;
        }
    }
    if ran == 0.0 {
        return (0.0, 0.0, 0.0, 0.0, threads);
    }
    (min, max, sum / ran, ran, threads)
}

const USEC: f64 = 1e6;

/// Bytes per second in IMB-MT's megabytes.
fn mb(bytes: f64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes / secs / 1e6
    } else {
        0.0
    }
}

fn times(r: &RowIn<Threads>) -> Vec<f64> {
    let (min, max, avg, _, _) = over(r);
    vec![min * USEC, max * USEC, avg * USEC]
}

/// `Mbytes/sec`: the bytes of one rank's threads (count·size·threads) times the pattern's
/// messages per repetition (`Info::scale_bw`), over the slowest thread's time.
fn times_mbytes(r: &RowIn<Threads>) -> Vec<f64> {
    let (min, max, avg, _, threads) = over(r);
    let bytes = r.x as f64 * threads * r.scale_bw;
    vec![min * USEC, max * USEC, avg * USEC, mb(bytes, max)]
}

/// UniBandMT's and BiBandMT's: t_avg, the bandwidth of all pairs (one thread's message per
/// pair thread over the slowest thread's time) and their messages per second over t_avg.
fn band(r: &RowIn<Threads>) -> Vec<f64> {
    let (_, max, avg, ran, _) = over(r);
    let pairs = (ran / 2.0).floor();
    let rate = if avg > 0.0 {
        (pairs / avg).floor()
    } else {
        0.0
    };
    vec![avg * USEC, mb(r.x as f64 * pairs, max), rate]
}

/// Threads that did not stay on their CPU, or were left unbound: said under the table.
#[derive(Debug, Clone, Serialize)]
pub struct Binding {
    /// Threads found off their CPU after a size.
    pub astray: usize,
    /// Ranks whose threads ran unbound (fewer CPUs than threads on their node).
    pub unbound_ranks: usize,
}

impl Remark for Binding {
    const KIND: &'static str = "thread_binding";
    fn lines(&self) -> Vec<String> {
        let mut l = Vec::new();
        if self.unbound_ranks > 0 {
            l.push(format!(
                "{} rank(s) ran their threads unbound: their node has fewer CPUs than threads",
                self.unbound_ranks
            ));
        }
        if self.astray > 0 {
            l.push(format!(
                "{} thread run(s) were not on the CPU they were bound to",
                self.astray
            ));
        }
        l
    }
}

fn binding_notes(t: &TableIn<Threads>) -> Vec<Note> {
    let mut b = Binding {
        astray: 0,
        unbound_ranks: 0,
    };
    for s in t.sizes {
        b.astray += s.all.iter().map(|r| r.rec.astray as usize).sum::<usize>();
    }
    if let Some(s) = t.sizes.first() {
        b.unbound_ranks = s.all.iter().filter(|r| r.rec.unbound > 0.0).count();
    }
    if b.astray + b.unbound_ranks == 0 {
        Vec::new()
    } else {
        vec![Note::of(&b)]
    }
}

/// `#bytes #repetitions t_min t_max t_avg Mbytes/sec`: PingPongMT, PingPingMT, SendRecvMT,
/// ExchangeMT.
pub const PT2PT: TableKind = TableKind {
    name: "mt_pt2pt",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::T_MIN,
        column::T_MAX,
        column::T_AVG,
        Column::new("Mbytes/sec", "mbytes_per_s"),
    ],
    merged: None,
    reduce: &Reduce {
        values: times_mbytes,
        notes: binding_notes,
    },
};

/// `#bytes #repetitions t_avg Mbytes/sec Msg/sec`: UniBandMT, BiBandMT.
pub const BAND: TableKind = TableKind {
    name: "mt_band",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::T_AVG,
        Column::new("Mbytes/sec", "mbytes_per_s"),
        Column::new_whole("Msg/sec", "msgs_per_s"),
    ],
    merged: None,
    reduce: &Reduce {
        values: band,
        notes: binding_notes,
    },
};

/// `#bytes #repetitions t_min t_max t_avg`: BcastMT, ReduceMT, AllReduceMT.
pub const COLL: TableKind = TableKind {
    name: "mt_coll",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::T_MIN,
        column::T_MAX,
        column::T_AVG,
    ],
    merged: None,
    reduce: &Reduce {
        values: times,
        notes: binding_notes,
    },
};

/// `#repetitions t_min t_max t_avg`: BarrierMT.
pub const SYNC: TableKind = TableKind {
    name: "mt_sync",
    columns: imb_core::table::without_bytes(COLL.columns),
    ..COLL
};

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::stats::{self, RankResult};
    use imb_core::table::{Megabyte, Wire};

    fn rank(min: f64, max: f64, sum: f64, ran: f64) -> RankResult<Wire> {
        RankResult {
            rec: Wire::encode(&Threads {
                min,
                max,
                sum,
                ran,
                threads: 2.0,
                astray: 0.0,
                unbound: 0.0,
            }),
            ..RankResult::default()
        }
    }

    fn row(kind: &TableKind, all: &[RankResult<Wire>], x: usize, bw: f64) -> Vec<f64> {
        let members: Vec<usize> = (0..all.len()).collect();
        let st = stats::over(all, &members);
        kind.values(&RowIn {
            all,
            members: &members,
            stats: &st,
            x,
            scale_bw: bw,
            np: all.len(),
            megabyte: Megabyte::IMB30,
        })
    }

    #[test]
    fn threads_of_every_rank_make_the_row() {
        // Rank 2 had no partner: it adds nothing, not a zero time.
        let all = [
            rank(1e-6, 3e-6, 4e-6, 2.0),
            rank(2e-6, 4e-6, 6e-6, 2.0),
            rank(0.0, 0.0, 0.0, 0.0),
        ];
        let v = row(&PT2PT, &all, 4, 1.0);
        assert!(
            (v[0] - 1.0).abs() < 1e-9 && (v[1] - 4.0).abs() < 1e-9,
            "{v:?}"
        );
        assert!((v[2] - 2.5).abs() < 1e-9, "{v:?}");
        // 4 bytes x 2 threads in 4 usec: 2 MB/s.
        assert!((v[3] - 2.0).abs() < 1e-9, "{v:?}");
        assert_eq!(row(&COLL, &all, 4, 1.0).len(), 3);
    }

    #[test]
    fn band_counts_pairs_of_threads() {
        // 4 threads took part: 2 pairs, each moving 8 bytes per message.
        let all = [rank(1e-6, 2e-6, 3e-6, 2.0), rank(1e-6, 2e-6, 3e-6, 2.0)];
        let v = row(&BAND, &all, 8, 1.0);
        assert!((v[0] - 1.5).abs() < 1e-9, "{v:?}");
        assert!((v[1] - 8.0).abs() < 1e-9, "{v:?}");
        assert_eq!(v[2], (2.0f64 / 1.5e-6).floor());
        assert_eq!(SYNC.columns[0], column::REPETITIONS);
    }

    #[test]
    fn binding_note_when_threads_strayed() {
        let r = RankResult {
            rec: Threads {
                astray: 1.0,
                unbound: 1.0,
                ..Threads::default()
            },
            ..RankResult::default()
        };
        let sizes = [imb_core::table::SizeResults { x: 4, all: vec![r] }];
        let l = imb_core::plan::layout(1, 1, None, false);
        let n = binding_notes(&TableIn {
            sizes: &sizes,
            layout: &l,
            multi: None,
        });
        assert_eq!(n.len(), 1);
        assert_eq!(n[0].lines().len(), 2);
    }
}
