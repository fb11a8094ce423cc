//! Accumulate (guide 4.2.5; doc/METHODOLOGY.md, "The patterns"): every process adds X/4 floats
//! (MPI_FLOAT, MPI_SUM) into the window of comm rank 0 (rank 0 of each group under -multi), which
//! exposes its receive buffer with displacement unit 4. Repetition i targets element i·X/4.
//! NON-AGGREGATE: accumulate from offset 0, then a fence, with no barriers before the timer (3.0).
//! AGGREGATE: n accumulates from the disjoint offsets i·X, one closing fence.
//!
//! `-off_cache`: IMB 2021 moves the origin buffer by its copies and the target displacement by
//! the receive buffer's, by the repetition index in both modes. Here a copy is a whole window
//! buffer, so repetition i does the above inside copy i % copies of each buffer; the window
//! spans the receive buffer and so every copy. Each block of each copy is still added to once
//! per process.

use crate::epoch::Epochs;
use imb_core::bench::{BufShape, Class, Effort, Info, Mode};
use imb_core::buffers::{check_sum, Defect};
use imb_core::kernel::{Benchmark, Ctx, Kernel, Prep, Timed};
use imb_core::method::Rotations;
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies;

pub struct Accumulate;
static ACCUMULATE: Info = Info {
    unit: 4,
    second_min: 4,
    bufs: BufShape::Window,
    modes: &[Mode::Aggregate, Mode::NonAggregate],
    effort: |s| Effort {
        // NON-AGGREGATE has no barriers before its timer (`barriers`).
        loops: f64::from(u8::from(s.mode == Mode::Aggregate)),
        ..crate::epoch::effort(s)
    },
    ..Info::mpi1("Accumulate", Class::Collective)
};

struct AccumulateK<'a> {
    w: Win<'a>,
    s: &'a [u8],
    x: usize,
    root: bool,
    np: usize,
    epochs: Epochs,
    rot: Rotations,
}

impl AccumulateK<'_> {
    /// Offset of repetition i's source within its copy of the send buffer.
    #[inline(always)]
    fn src_block(&self, i: usize) -> usize {
        if self.epochs.aggregate {
            i * self.x
        } else {
            0
        }
    }

    /// Repetition i's target displacement in elements: block i of its copy.
    #[inline(always)]
    fn disp(&self, i: usize) -> usize {
        copies::elements(self.rot.recv.offset(i)) + i * (self.x / 4)
    }

    /// Root only: repetition i's block holds Σ_k BUF_VALUE(k, first element of its source).
    fn check_block(&self, i: usize) -> Defect {
        if !self.root {
            return Defect::NONE;
        }
        let (x, e) = (self.x, 4 * self.disp(i));
        check_sum(&self.w.local()[e..e + x], self.np, self.src_block(i) / 4)
    }
}

impl Kernel for AccumulateK<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let (s, x) = (self.s, self.x);
        let at = self.rot.send.offset(i) + self.src_block(i);
        self.w.accumulate(&s[at..at + x], 0, self.disp(i));
        self.epochs.after_transfer(&self.w);
    }
    fn check(&mut self, i: usize) -> Defect {
        self.epochs.check(i, |i| self.check_block(i))
    }
    fn verify(&mut self, n: usize) -> Defect {
        self.epochs.verify(n, |i| self.check_block(i))
    }
    fn complete(&mut self) {
        self.epochs.close(&self.w);
    }
    fn barriers(&self) -> bool {
        // 3.0 times NON-AGGREGATE Accumulate without the barriers before the timer.
        self.epochs.aggregate
    }
}

impl Benchmark for Accumulate {
    fn info(&self) -> &'static Info {
        &ACCUMULATE
    }
    fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
        imb_onesided::prepare(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        // A copy's blocks span at most the copy (n·X <= OVERALL_VOL); the window spans the
        // receive buffer.
        copies::assert_fit("send buffer", c.rot.send, c.rot.send.len, c.send.len());
        copies::assert_fit("receive buffer", c.rot.recv, c.rot.recv.len, c.recv.len());
        let w = Win::exposing(c.comm, c.recv, 4, &Hints::new(c.info));
        w.fence();
        Box::new(AccumulateK {
            w,
            s: c.send,
            x: c.x,
            root: c.rank == 0,
            np: c.size,
            epochs: Epochs {
                aggregate: c.mode == Mode::Aggregate,
            },
            rot: c.rot,
        })
    }
}
