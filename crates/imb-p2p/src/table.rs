//! IMB-P2P's table: `#bytes #repetitions t[usec] Mbytes/sec Msg/sec`, reduced as IMB-P2P
//! reduces it (doc/ReadMe_IMB.md, "imb-p2p"). Every process of the run takes part; each
//! reports its time per repetition and the messages it sent or received per repetition
//! (`Counted`). With M the messages of one repetition of the run (the counts summed over the
//! processes, halved since each message is counted by its sender and its receiver):
//! t[usec] = Σ time / M (PingPong: / 2M, half a round trip), Msg/sec = M / t_max and
//! Mbytes/sec = Msg/sec · X / 10^6, IMB-P2P's megabyte (the header says so: `lib.rs`).

use imb_core::table::column::{self, Column};
use imb_core::table::{Record, Reduce, RowIn, TableKind};

/// Messages this process sent or received in one repetition.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Counted(pub f64);

impl Record for Counted {
    const WIDTH: usize = 1;
    fn to_wire(&self, w: &mut [f64]) {
        w[0] = self.0;
    }
    fn from_wire(w: &[f64]) -> Self {
        Counted(w[0])
    }
}

/// IMB-P2P's megabyte, whatever `-compat` would say for the other executables.
pub const MB: f64 = 1e6;

/// IMB-P2P's message rate, a whole number.
pub const MSG_PER_SEC: Column = Column::new_whole("Msg/sec", "msg_per_s");

const COLUMNS: &[Column] = &[
    column::BYTES,
    column::REPETITIONS,
    column::T,
    column::MBYTES,
    MSG_PER_SEC,
];

/// Every benchmark's table but PingPong's.
pub const P2P: TableKind = TableKind {
    name: "p2p",
    columns: COLUMNS,
    merged: None,
    reduce: &Reduce {
        values: |r| values(r, 1.0),
        notes: imb_core::table::no_notes,
    },
};

/// PingPong's: its time is half a round trip.
pub const P2P_HALF: TableKind = TableKind {
    name: "p2p-half",
    columns: COLUMNS,
    merged: None,
    reduce: &Reduce {
        values: |r| values(r, 2.0),
        notes: imb_core::table::no_notes,
    },
};

/// t[usec], Mbytes/sec and Msg/sec from the members' times (usec per repetition) and counts;
/// `legs`: message times per message in t (2 for a round trip). Zero rates when no time or
/// no message was measured.
fn values(r: &RowIn<Counted>, legs: f64) -> Vec<f64> {
    let (mut sum_t, mut sum_m, mut t_max) = (0.0, 0.0, 0.0f64);
    for &w in r.members {
        let a = &r.all[w];
        sum_t += a.t.0;
        sum_m += a.rec.0;
        t_max = t_max.max(a.t.0);
    }
    let msgs = sum_m / 2.0;
    let t = if msgs > 0.0 {
        sum_t / (legs * msgs)
    } else {
        0.0
    };
    let rate = if t_max > 0.0 { msgs * 1e6 / t_max } else { 0.0 };
    vec![t, rate * r.x as f64 / MB, rate]
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::stats::{self, RankResult, Usec};
    use imb_core::table::{Megabyte, Wire};

    fn row(kind: &TableKind, times: &[f64], counts: &[f64], x: usize, mb: Megabyte) -> Vec<f64> {
        let all: Vec<RankResult<Wire>> = times
            .iter()
            .zip(counts)
            .map(|(&t, &c)| RankResult {
                t: Usec(t),
                rec: Wire::encode(&Counted(c)),
                ..RankResult::default()
            })
            .collect();
        let members: Vec<usize> = (0..all.len()).collect();
        let st = stats::over(&all, &members);
        kind.values(&RowIn {
            all: &all,
            members: &members,
            stats: &st,
            x,
            scale_bw: 1.0,
            np: all.len(),
            megabyte: mb,
        })
    }

    /// PingPong on 4 processes: every process sends and receives one message a repetition,
    /// so M = 4; t is the mean round trip halved, the rates come from the slowest process.
    #[test]
    fn pingpong_as_imb_p2p() {
        let v = row(
            &P2P_HALF,
            &[2.0, 2.0, 4.0, 4.0],
            &[2.0; 4],
            1_000_000,
            // The run's megabyte does not count: IMB-P2P's is 10^6 bytes.
            Megabyte::IMB30,
        );
        assert_eq!(v[0], 12.0 / 8.0);
        assert_eq!(v[2], 4.0 / 4.0 * 1e6);
        assert_eq!(v[1], 4.0 * 1_000_000.0 / 4.0);
    }

    /// A random pattern: 3 messages counted 6 times over the processes in 3 usec at most.
    #[test]
    fn counted_messages_as_imb_p2p() {
        let v = row(&P2P, &[1.0, 2.0, 3.0], &[2.0, 1.0, 3.0], 0, Megabyte::IMB30);
        assert_eq!(v, [6.0 / 3.0, 0.0, 1e6]);
        let none = row(&P2P, &[0.0, 0.0], &[0.0, 0.0], 8, Megabyte::IMB30);
        assert_eq!(none, [0.0, 0.0, 0.0]);
    }

    #[test]
    fn columns_as_imb_p2p() {
        let titles: Vec<&str> = P2P.columns.iter().map(|c| c.title).collect();
        assert_eq!(
            titles,
            ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec"]
        );
        assert!(P2P.columns.iter().all(|c| c.whole == (c == &MSG_PER_SEC)));
    }
}
