//! The operation latency of a fan-out and a fan-in collective by the de Supinski–Karonis method
//! (the LLNL Sphinx suite; de Supinski and Karonis, "Accurately Measuring Broadcasts in a
//! Computational Grid", HPDC 1999; doc/METHODOLOGY.md, "Sphinx latencies"): Bcast_latency and
//! Reduce_latency.
//!
//! Back-to-back broadcasts overlap (the root returns before the last receiver has the data),
//! so Bcast's mean time per call under-reports the time until every process has the message.
//! Here, for each non-root rank i, the root times n × (MPI_Bcast; i sends a 0-byte
//! acknowledgement; the root receives it), so no broadcast starts before i had the previous
//! one, and subtracts the acknowledgement's own latency from i, timed separately as half a
//! 0-byte round trip. Reduce_latency mirrors it: the root sends i a 0-byte trigger, i enters
//! MPI_Reduce only then (the others are already in it), and the root's completion time minus
//! the trigger's latency is the time from i's entry to the result at the root.
//!
//! Each rank's row value is its own corrected latency; the root only measures (it is left out
//! of t_min/t_max/t_avg), so t_max is the operation latency and the note after the table names
//! the rank it came from. Both phases are timed `ROUNDS` times, interleaved, and the minimum
//! of each is used, so that a burst of noise in one phase does not decide the difference; a
//! corrected time that is still <= 0 is reported as it is and flagged UNRELIABLE.
//!
//! Sizes start at 1 byte (Reduce: 4): a 0-byte MPI_Bcast need not communicate at all (Open
//! MPI returns at once), so i's acknowledgements stream back without waiting and the method
//! measures nothing.
//!
//! Not an IMB 2021 benchmark: `-off_cache` leaves its messages at offset 0.

use crate::elems::{copied, summed, Views};
use crate::latency_notes::{Slowest, Unreliable};
use crate::types::Elems;
use imb_core::bench::{Class, Effort, Info, Procs, Shape};
use imb_core::buffers::Defect;
use imb_core::kernel::{bracket, Barriers, Benchmark, Comm, Ctx, Loop, Measure, Sample, Timed};
use imb_core::method::Rotations;
use imb_core::note::Note;
use imb_core::plan::Layout;
use imb_core::stats::{self, RankResult};
use imb_core::table::{self as kind, Reduce, TableIn, TableKind};
use imb_core::vocab::Multi;
use imb_mpi::comm::Mpi;
use mpi::traits::*;
use std::os::raw::c_int;

/// Interleaved timings of each phase per receiver; the minimum of each is used.
pub const ROUNDS: usize = 3;

const ROOT: usize = 0;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pattern {
    /// MPI_Bcast, then the acknowledgement.
    FanOut,
    /// The trigger, then MPI_Reduce.
    FanIn,
}

pub struct Bcast_latency;
static BCAST_LATENCY: Info = Info {
    procs: Procs::AtLeastTwo,
    on_request: true,
    min_x: 1,
    table: &BCAST_TABLE,
    effort: per_receiver,
    ..Info::mpi1("Bcast_latency", Class::Collective)
};

pub struct Reduce_latency;
static REDUCE_LATENCY: Info = Info {
    procs: Procs::AtLeastTwo,
    unit: 4,
    on_request: true,
    min_x: 4,
    table: &REDUCE_TABLE,
    effort: per_receiver,
    ..Info::mpi1("Reduce_latency", Class::Collective)
};

/// One repetition at the root, which takes part in everything: for each of the NP−1 other
/// ranks and each of the `ROUNDS`, a 0-byte round trip (its own timed loop) and the
/// collective of X bytes with the acknowledgement or trigger (another). So the cost grows
/// with 2·ROUNDS·(NP−1) loops of n, not with n alone.
fn per_receiver(s: &Shape) -> Effort {
    let k = (ROUNDS * s.np.saturating_sub(1)) as f64;
    Effort {
        calls: 3.0 * k,
        msgs: 0.0,
        bytes: k * s.x as f64,
        loops: 2.0 * k,
        lever: None,
    }
}

/// A collective's columns over the ranks that do not report `Sample::excluded` (the root),
/// and after the table the slowest rank of each size with the kind's label, and UNRELIABLE
/// for every corrected time <= 0.
const BCAST_TABLE: TableKind = TableKind {
    name: "Bcast_latency",
    reduce: &Reduce {
        values: kind::min_max_avg,
        notes: |t| table_notes("last receiver", t),
    },
    ..kind::COLLECTIVE
};
const REDUCE_TABLE: TableKind = TableKind {
    name: "Reduce_latency",
    reduce: &Reduce {
        values: kind::min_max_avg,
        notes: |t| table_notes("critical contributor", t),
    },
    ..kind::COLLECTIVE
};

fn table_notes(who: &str, t: &TableIn) -> Vec<Note> {
    t.sizes
        .iter()
        .flat_map(|s| latency_notes(who, s.x, &s.all, t.layout, t.multi))
        .collect()
}

/// One size's notes: the slowest rank (per group under `-multi 1`, with its group under
/// `-multi 0`), and UNRELIABLE for every rank whose corrected time is not positive.
fn latency_notes(
    who: &str,
    x: usize,
    all: &[RankResult],
    layout: &Layout,
    multi: Option<Multi>,
) -> Vec<Note> {
    let mut v = Vec::new();
    for (g, members) in kind::row_sets(layout, multi) {
        if let Some((w, t)) = stats::slowest(all, &members) {
            let (wg, pos) = layout.role(w).unwrap_or((0, w));
            v.push(Note::of(&Slowest {
                bytes: x,
                label: who.to_string(),
                rank: pos,
                group: if layout.multi && g.is_none() {
                    Some(wg)
                } else {
                    g
                },
                t_us: t.0,
            }));
        }
    }
    for &w in layout.groups.iter().flatten() {
        let r = &all[w];
        if !r.excluded && r.t.0 <= 0.0 {
            let (g, pos) = layout.role(w).unwrap_or((0, w));
            v.push(Note::of(&Unreliable {
                bytes: x,
                rank: pos,
                group: layout.multi.then_some(g),
                t_us: r.t.0,
            }));
        }
    }
    v
}

struct LatencyK<'a> {
    m: Mpi<'a>,
    pattern: Pattern,
    me: usize,
    np: usize,
    /// The messages of this size: `-data_type`'s for the broadcast, `-red_data_type`'s for
    /// the reduction.
    e: Elems,
    s: &'a [u8],
    r: &'a mut [u8],
    /// Root: per rank, the smallest acknowledgement latency and the smallest time of the
    /// operation with its acknowledgement (seconds per repetition).
    ack: Vec<f64>,
    op: Vec<f64>,
    /// Every rank's corrected latency, sent by the root after the timings.
    lat: Vec<f64>,
}

fn build<'a>(c: Ctx<'a>, pattern: Pattern) -> LatencyK<'a> {
    let e = Elems::of(&c, pattern == Pattern::FanIn);
    let (m, me, np) = (Mpi::new(c.comm), c.rank, c.size);
    // Not an IMB 2021 benchmark: no -off_cache copies, offset 0.
    let (s, r) = Views::new(c.send, c.recv, &e.lay, (1, 1), Rotations::NONE).into_parts();
    LatencyK {
        m,
        pattern,
        me,
        np,
        e,
        s,
        r,
        ack: vec![f64::INFINITY; c.size],
        op: vec![f64::INFINITY; c.size],
        lat: vec![0.0; c.size],
    }
}

impl LatencyK<'_> {
    /// Half the time of n 0-byte round trips between the root and i (seconds, at the root).
    fn ack_latency(&mut self, comm: &Comm, n_barr: Barriers, i: usize, n: usize) -> f64 {
        let (root, peer) = (ROOT as c_int, i as c_int);
        let (t, ()) = bracket(comm, n_barr, n, || {
            if self.me == ROOT {
                for _ in 0..n {
                    self.m.signal(peer);
                    self.m.await_signal(peer);
                }
            } else if self.me == i {
                for _ in 0..n {
                    self.m.await_signal(root);
                    self.m.signal(root);
                }
            }
        });
        t / 2.0
    }

    /// n × (operation with i's acknowledgement or trigger): seconds per repetition at the
    /// root, and the worst check result on this rank.
    fn operation(
        &mut self,
        comm: &Comm,
        n_barr: Barriers,
        (i, n, check): (usize, usize, bool),
    ) -> (f64, Defect) {
        let (root, peer) = (ROOT as c_int, i as c_int);
        let me = self.me as c_int;
        bracket(comm, n_barr, n, || {
            let mut d = Defect::NONE;
            for _ in 0..n {
                match self.pattern {
                    Pattern::FanOut => {
                        self.m.bcast(self.s, self.r, self.e.msg, me, root);
                        if self.me == i {
                            self.m.signal(root);
                        } else if self.me == ROOT {
                            self.m.await_signal(peer);
                        }
                        if check && self.me != ROOT {
                            d = d.max(copied(self.r, &self.e.lay, ROOT, 0));
                        }
                    }
                    Pattern::FanIn => {
                        if self.me == ROOT {
                            self.m.signal(peer);
                        } else if self.me == i {
                            self.m.await_signal(root);
                        }
                        self.m.reduce(self.s, self.r, self.e.msg, root);
                        if check && self.me == ROOT {
                            d = d.max(summed(self.r, &self.e.lay, self.np, 0, self.e.lay.n));
                        }
                    }
                }
            }
            d
        })
    }
}

impl Measure for LatencyK<'_> {
    type Rec = ();
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample {
        let n_barr = lp.barriers;
        let n = n.max(1);
        let mut defect = Defect::NONE;
        self.ack.fill(f64::INFINITY);
        self.op.fill(f64::INFINITY);
        for _ in 0..ROUNDS {
            for i in (0..self.np).filter(|&i| i != ROOT) {
                let a = self.ack_latency(comm, n_barr, i, n);
                let (t, d) = self.operation(comm, n_barr, (i, n, check));
                defect = defect.max(d);
                self.ack[i] = self.ack[i].min(a);
                self.op[i] = self.op[i].min(t);
            }
        }
        if self.me == ROOT {
            for i in (0..self.np).filter(|&i| i != ROOT) {
                self.lat[i] = self.op[i] - self.ack[i];
            }
            self.lat[ROOT] = 0.0;
        }
        // Untimed: every rank learns its own corrected latency.
        comm.process_at_rank(ROOT as i32)
            .broadcast_into(&mut self.lat[..]);
        Sample {
            secs: self.lat[self.me],
            defect,
            excluded: self.me == ROOT,
            rec: (),
        }
    }
}

impl Benchmark for Bcast_latency {
    fn info(&self) -> &'static Info {
        &BCAST_LATENCY
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(build(c, Pattern::FanOut))
    }
}

impl Benchmark for Reduce_latency {
    fn info(&self) -> &'static Info {
        &REDUCE_LATENCY
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(build(c, Pattern::FanIn))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::stats::Usec;

    fn results(t: &[f64], roots: &[usize]) -> Vec<RankResult> {
        t.iter()
            .enumerate()
            .map(|(w, &t)| RankResult {
                t: Usec(t),
                excluded: roots.contains(&w),
                ..RankResult::default()
            })
            .collect()
    }

    #[test]
    fn latency_notes_name_the_slowest_rank_per_group_and_flag_corrections() {
        // two groups of 2: {0, 1} and {2, 3}; their roots are world ranks 0 and 2
        let l = imb_core::plan::layout(4, 2, None, true);
        let all = results(&[0.0, 3.0, 0.0, -0.5], &[0, 2]);
        let text = |v: Vec<Note>| v.iter().flat_map(|n| n.lines()).collect::<Vec<_>>();
        let per_group = text(latency_notes(
            "last receiver",
            8,
            &all,
            &l,
            Some(Multi::PerGroup),
        ));
        assert_eq!(
            per_group,
            [
                "8 bytes: last receiver: rank 1 of group 0 (3.00 usec)",
                "8 bytes: last receiver: rank 1 of group 1 (-0.50 usec)",
                "8 bytes: UNRELIABLE: rank 1 of group 1: corrected time -0.50 usec <= 0 (the \
                 acknowledgement latency is not below the measured time)"
            ]
        );
        let merged = text(latency_notes(
            "last receiver",
            8,
            &all,
            &l,
            Some(Multi::Merged),
        ));
        assert_eq!(
            merged[0],
            "8 bytes: last receiver: rank 1 of group 0 (3.00 usec)"
        );
        let one = imb_core::plan::layout(3, 3, None, false);
        let all = results(&[0.0, 2.0, 2.5], &[0]);
        assert_eq!(
            text(latency_notes("critical contributor", 4, &all, &one, None)),
            ["4 bytes: critical contributor: rank 2 (2.50 usec)"]
        );
    }
}
