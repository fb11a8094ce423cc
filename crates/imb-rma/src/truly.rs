//! Truly_passive_put (doc/METHODOLOGY.md, "IMB-RMA"): does a put progress while its target
//! computes outside MPI? Rank 0 holds a shared lock of rank 1 and times two loops of n × (put
//! of X bytes, flush, barrier):
//! - t_pure: rank 1 waits in the barrier, inside MPI, all the time;
//! - t_ovrl: rank 1 first computes for t_pure (sent to it by rank 0), outside MPI, then enters
//!   the barrier.
//!
//! With truly passive target progress t_ovrl ≈ t_pure; where the put needs the target to
//! enter MPI, t_ovrl ≈ t_pure + the computation. The computation spins on the clock for
//! exactly t_pure (no calibration to go wrong). Check mode: rank 1's window holds rank 0's
//! first X bytes.
//!
//! `-off_cache`: as in IMB 2021, repetition i of either loop puts from copy i % copies of the
//! send buffer to that copy of the receive buffer, which the window spans. Check mode verifies
//! every copy written.

use crate::epoch::settle_own;
use crate::kernel::each_copy;
use imb_core::bench::{Class, Effort, Info};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{
    bracket, Barriers, Benchmark, Comm, Ctx, Loop, Measure, Prep, Sample, Timed,
};
use imb_core::method::Rotations;
use imb_core::stats::{self, Usec};
use imb_core::table::column::{self, Column};
use imb_core::table::{self, Record, Reduce, RowIn, TableKind};
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies;
use mpi::traits::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What the origin reports: its two loops, in seconds per repetition (the target, which is
/// left out of the row, reports zeros).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Passive {
    /// The target waits inside MPI.
    pub pure: f64,
    /// The target computes outside MPI first.
    pub ovrl: f64,
}

impl Record for Passive {
    const WIDTH: usize = 2;
    fn to_wire(&self, w: &mut [f64]) {
        w.copy_from_slice(&[self.pure, self.ovrl]);
    }
    fn from_wire(w: &[f64]) -> Self {
        Passive {
            pure: w[0],
            ovrl: w[1],
        }
    }
}

/// `#bytes #repetitions t_pure[usec] t_ovrl[usec]`: the origin's two times, under the names
/// IMB's non-blocking overlap gives them (guide 4.2.5.2), though measured another way.
pub static TRULY_PASSIVE: TableKind = TableKind {
    name: "rma-truly-passive",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        Column::new("t_pure[usec]", "t_pure_us"),
        Column::new("t_ovrl[usec]", "t_ovrl_us"),
    ],
    merged: None,
    reduce: &Reduce {
        values: passive_values,
        notes: table::no_notes,
    },
};

fn passive_values(r: &RowIn<Passive>) -> Vec<f64> {
    let slowest =
        |of: fn(&Passive) -> f64| stats::figure(r.all, r.members, |p| Usec::from_secs(of(p)).0).1;
    vec![slowest(|p| p.pure), slowest(|p| p.ovrl)]
}

pub struct Truly_passive_put;
static TRULY_PASSIVE_PUT: Info = Info {
    table: &TRULY_PASSIVE,
    // Two loops of (put, flush, barrier), without N_BARR barriers; the target's computation
    // in the second only makes it longer.
    effort: |s| Effort {
        calls: 2.0,
        msgs: 4.0,
        loops: 0.0,
        ..Effort::call(2 * s.x)
    },
    ..Info::mpi1("Truly_passive_put", Class::SingleTransfer)
};

struct TrulyK<'a> {
    w: Win<'a>,
    comm: &'a Comm,
    s: &'a [u8],
    x: usize,
    origin: bool,
    rot: Rotations,
}

/// Computation outside MPI for `secs`.
fn compute_for(secs: f64) {
    let end = Instant::now() + Duration::from_secs_f64(secs.clamp(0.0, 1.0));
    let mut acc = 0u64;
    while Instant::now() < end {
        acc = black_box(acc.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
}

impl TrulyK<'_> {
    /// One timed loop on the origin: n × (put, flush, barrier).
    fn origin_loop(&self, n: usize) -> f64 {
        let (w, s, x, rot, comm) = (&self.w, self.s, self.x, self.rot, self.comm);
        bracket(comm, Barriers::NONE, n, || {
            for i in 0..n {
                let (src, dst) = (rot.send.offset(i), rot.recv.offset(i));
                w.put(&s[src..src + x], 1, dst);
                w.flush(1);
                comm.barrier();
            }
        })
        .0
    }

    /// The target's loop: n × (computation for `secs`, barrier).
    fn target_loop(&self, n: usize, secs: f64) {
        for _ in 0..n {
            if secs > 0.0 {
                compute_for(secs);
            }
            self.comm.barrier();
        }
    }
}

impl Measure for TrulyK<'_> {
    type Rec = Passive;
    fn measure(&mut self, comm: &Comm, _lp: Loop, n: usize, check: bool) -> Sample<Passive> {
        let n = n.max(1);
        let mut rec = Passive::default();
        let peer = comm.process_at_rank(if self.origin { 1 } else { 0 });
        if self.origin {
            self.w.lock(1);
        }
        comm.barrier();
        if self.origin {
            let pure = self.origin_loop(n);
            peer.send(&pure);
            comm.barrier();
            rec.pure = pure;
            rec.ovrl = self.origin_loop(n);
            self.w.unlock(1);
        } else {
            self.target_loop(n, 0.0);
            let (pure, _) = peer.receive::<f64>();
            comm.barrier();
            self.target_loop(n, pure);
        }
        comm.barrier();
        let defect = if check && !self.origin {
            settle_own(&self.w, 1);
            let got = self.w.local();
            each_copy(self.rot.recv, n, |_, at| {
                check_copy(&got[at..at + self.x], 0, 0)
            })
        } else {
            Defect::NONE
        };
        Sample {
            secs: rec.ovrl,
            defect,
            excluded: !self.origin,
            rec,
        }
    }
}

impl Benchmark for Truly_passive_put {
    fn info(&self) -> &'static Info {
        &TRULY_PASSIVE_PUT
    }
    fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
        imb_onesided::prepare(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        copies::assert_fit("send buffer", c.rot.send, c.x, c.send.len());
        copies::assert_fit("receive buffer", c.rot.recv, c.x, c.recv.len());
        let w = Win::exposing(c.comm, c.recv, 1, &Hints::new(c.info));
        Box::new(TrulyK {
            w,
            comm: c.comm,
            s: c.send,
            x: c.x,
            origin: c.rank == 0,
            rot: c.rot,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::stats::RankResult;
    use imb_core::table::{Wire, NONBLOCKING_OVERLAP};

    #[test]
    fn the_origins_two_times() {
        let mut all = [RankResult::default(), RankResult::default()];
        // Seconds, as the kernel reports them; the excluded target's would not count.
        all[0].rec = Wire::encode(&Passive {
            pure: 2e-6,
            ovrl: 3e-6,
        });
        all[1].rec = Wire::encode(&Passive {
            pure: 9.0,
            ovrl: 9.0,
        });
        all[1].excluded = true;
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[0, 1],
            stats: &st,
            x: 8,
            scale_bw: 1.0,
            np: 2,
            megabyte: imb_core::table::Megabyte::IMB30,
        };
        let v = TRULY_PASSIVE.values(&r);
        assert!(
            (v[0] - 2.0).abs() < 1e-9 && (v[1] - 3.0).abs() < 1e-9,
            "{v:?}"
        );
        // The same names as the overlap tables', so one JSON key means one figure.
        let shared = |c: &Column| NONBLOCKING_OVERLAP.iter().any(|o| o == c);
        assert!(TRULY_PASSIVE.columns.iter().all(shared));
    }
}
