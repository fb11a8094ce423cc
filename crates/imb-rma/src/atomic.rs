//! Accumulate, Get_accumulate, Fetch_and_op and Compare_and_swap (doc/METHODOLOGY.md,
//! "IMB-RMA"): rank 0 applies n operations to displacement 0 of rank 1's window (MPI_FLOAT
//! with MPI_SUM, displacement unit 4) under a shared lock of rank 1, in NON-AGGREGATE (a flush
//! after each) and AGGREGATE (one flush after all) mode. Fetch_and_op and Compare_and_swap move
//! one element, so their table has the one size 4. Compare_and_swap, as in IMB, compares a 32-bit
//! integer 0 with the target's 0 and swaps in 0.
//!
//! The fetching operations land their results beside the window in the receive buffer
//! (Get_accumulate, Fetch_and_op: 2X; Compare_and_swap: its result, then the zero operands).
//! Check mode: the target's window holds n times rank 0's values (Compare_and_swap: 0);
//! NON-AGGREGATE Get_accumulate and Fetch_and_op fetched n−1 times them last;
//! Compare_and_swap's result, set to all ones before the loop, was overwritten with 0.
//!
//! `-off_cache`: as in IMB 2021, repetition i reads its operand from copy i % copies of the
//! send buffer and works on that copy of the receive buffer: the target displacement, and the
//! origin's results beside it (Compare_and_swap's zero operands too, moved as IMB 2021 moves
//! them under AGGREGATE; under NON-AGGREGATE it moves them by the send buffer's stride though
//! they lie in the receive buffer). The window then spans every copy, and the results land in
//! the origin's own window memory, which no one targets. Check mode verifies every copy
//! written: the target's copy j holds as many sums as repetitions used it, and a
//! NON-AGGREGATE fetch fetched one fewer.

use crate::epoch::{settle_own, Epoch, Flush, Targets};
use crate::kernel::{boxed, each_copy, Ops};
use imb_core::bench::{BufShape, Class, Info, Mode};
use imb_core::buffers::{buf_value, Defect, TOL};
use imb_core::kernel::{Benchmark, Ctx, Prep, Timed};
use imb_core::method::Rotations;
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies::{self, elements};

/// The operation of one repetition.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Accumulate,
    GetAccumulate,
    /// MPI_Fetch_and_op with MPI_SUM.
    FetchAdd,
    CompareAndSwap,
}

struct Atomic<'a> {
    op: Op,
    s: &'a [u8],
    x: usize,
    origin: bool,
    aggregate: bool,
    rot: Rotations,
    /// Where copy 0's results lie in the landing buffer: at its start, beside a window of X
    /// bytes, or X into a window spanning every copy (`Win::exposing_landing_inside`).
    land0: usize,
}

impl Atomic<'_> {
    /// Where repetition i's results land (Compare_and_swap's zero operands follow them).
    #[inline(always)]
    fn result(&self, i: usize) -> usize {
        self.land0 + self.rot.recv.offset(i)
    }

    /// Where the target's window block of the copy at byte `at` lies: at a whole element.
    fn block(at: usize) -> usize {
        4 * elements(at)
    }
}

impl<'a> Ops<'a> for Atomic<'a> {
    #[inline(always)]
    fn issue(&self, w: &Win<'a>, i: usize) {
        let (x, src) = (self.x, self.rot.send.offset(i));
        let (res, disp) = (self.result(i), elements(self.rot.recv.offset(i)));
        match self.op {
            Op::Accumulate => w.accumulate(&self.s[src..src + x], 1, disp),
            Op::GetAccumulate => w.get_accumulate(&self.s[src..src + x], res, 1, disp),
            Op::FetchAdd => w.fetch_and_op(&self.s[src..], res, 1, disp),
            Op::CompareAndSwap => w.compare_and_swap(res + 4, res + 4, res, 1, disp),
        }
    }
    fn verify(&self, w: &Win<'a>, n: usize) -> Defect {
        let (x, rot, land0) = (self.x, self.rot.recv, self.land0);
        if self.op == Op::CompareAndSwap {
            let got = if self.origin {
                w.landed()
            } else {
                settle_own(w, 1);
                w.local()
            };
            let zero = |at: usize| match got[at..at + 4].iter().position(|&b| b != 0) {
                Some(j) => Defect::bad(at + j),
                None => Defect::NONE,
            };
            return if self.origin {
                each_copy(rot, n, |_, at| zero(land0 + at))
            } else {
                each_copy(rot, n, |_, at| zero(Self::block(at)))
            };
        }
        if !self.origin {
            settle_own(w, 1);
            let got = w.local();
            return each_copy(rot, n, |j, at| {
                let at = Self::block(at);
                times(&got[at..at + x], copies::uses(rot, j, n))
            });
        }
        if self.op != Op::Accumulate && !self.aggregate {
            let got = w.landed();
            return each_copy(rot, n, |j, at| {
                let at = land0 + at;
                times(&got[at..at + x], copies::uses(rot, j, n) - 1)
            });
        }
        Defect::NONE
    }
}

/// `got` holds `k` times rank 0's floats BUF_VALUE(0, i), within TOL.
fn times(got: &[u8], k: usize) -> Defect {
    let mut worst = 0.0f64;
    for (i, c) in got.chunks_exact(4).enumerate() {
        let g = f32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as f64;
        let e = k as f64 * buf_value(0, i) as f64;
        let d = if e == 0.0 {
            g.abs()
        } else {
            (g - e).abs() / e.abs()
        };
        if d > TOL || d.is_nan() {
            return Defect::bad(4 * i);
        }
        worst = worst.max(d);
    }
    Defect {
        value: worst,
        pos: None,
    }
}

fn kernel<'a>(c: Ctx<'a>, op: Op) -> Box<dyn Timed + 'a> {
    let origin = c.rank == 0;
    let (x, rot) = (c.x, c.rot.recv);
    let hints = Hints::new(c.info);
    // Each copy of the receive buffer: the window block, then the results, then (Compare_and_
    // swap) the zero operands, as the benchmark's `BufShape::Blocks` lays them out.
    copies::assert_fit("receive buffer", rot, rot.len.max(x), c.recv.len());
    copies::assert_fit("send buffer", c.rot.send, x, c.send.len());
    if op == Op::CompareAndSwap && origin {
        // A result the operation must overwrite, in every copy.
        for j in 0..rot.copies {
            let at = x + rot.offset(j);
            c.recv[at..at + 4].fill(0xff);
        }
    }
    let (w, land0) = if rot.copies > 1 {
        (Win::exposing_landing_inside(c.comm, c.recv, 4, &hints), x)
    } else {
        let (win, land) = c.recv.split_at_mut(x);
        (Win::exposing_with(c.comm, win, land, 4, &hints), 0)
    };
    let aggregate = c.mode == Mode::Aggregate;
    let epoch = Epoch {
        targets: Targets::One(1),
        flush: Flush::Remote,
        every: !aggregate,
        origin,
    };
    let ops = Atomic {
        op,
        s: c.send,
        x,
        origin,
        aggregate,
        rot: c.rot,
        land0,
    };
    boxed(w, c.comm, epoch, ops)
}

const fn atomic(name: &'static str, blocks: usize, one: bool) -> Info {
    Info {
        unit: 4,
        bufs: BufShape::Blocks(blocks),
        modes: &[Mode::NonAggregate, Mode::Aggregate],
        min_x: if one { 4 } else { 0 },
        max_x: if one { 4 } else { usize::MAX },
        one_size: if one { Some(4) } else { None },
        effort: crate::kernel::one_op,
        ..Info::mpi1(name, Class::SingleTransfer)
    }
}

macro_rules! atomic_benchmark {
    ($ty:ident, $info:ident, $op:expr, blocks = $b:expr, one = $one:expr) => {
        pub struct $ty;
        static $info: Info = atomic(stringify!($ty), $b, $one);
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
                imb_onesided::prepare(p)
            }
            fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                kernel(c, $op)
            }
        }
    };
}

atomic_benchmark!(
    Accumulate,
    ACCUMULATE,
    Op::Accumulate,
    blocks = 1,
    one = false
);
atomic_benchmark!(
    Get_accumulate,
    GET_ACCUMULATE,
    Op::GetAccumulate,
    blocks = 2,
    one = false
);
atomic_benchmark!(
    Fetch_and_op,
    FETCH_AND_OP,
    Op::FetchAdd,
    blocks = 2,
    one = true
);
atomic_benchmark!(
    Compare_and_swap,
    COMPARE_AND_SWAP,
    Op::CompareAndSwap,
    blocks = 3,
    one = true
);

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::method::{OffCache, Rotation};

    /// The origin's results (and Compare_and_swap's operands) and the target's window blocks
    /// of every copy: inside the buffer, and apart from each other, odd lines included.
    #[test]
    fn copies_keep_results_operands_and_blocks_apart() {
        for line in [64, 3, 1] {
            for (op, x, blocks) in [
                (Op::CompareAndSwap, 4, 3),
                (Op::FetchAdd, 4, 2),
                (Op::GetAccumulate, 1004, 2),
            ] {
                let oc = Some(OffCache {
                    cache_bytes: 8 << 10,
                    line_bytes: line,
                });
                let rot = Rotation::new(oc, blocks * x, 1000);
                assert!(rot.copies > 1);
                let a = Atomic {
                    op,
                    s: &[],
                    x,
                    origin: true,
                    aggregate: false,
                    rot: Rotations {
                        send: rot,
                        recv: rot,
                    },
                    land0: x,
                };
                let apart = |v: &mut Vec<(usize, usize)>| {
                    v.sort();
                    assert!(v.windows(2).all(|w| w[0].1 <= w[1].0), "{line} {x}: {v:?}");
                    assert!(v.last().unwrap().1 <= rot.bytes());
                };
                // The origin's: results (and zero operands), never a target.
                let mut origin = Vec::new();
                // The target's: the window blocks repetitions add to.
                let mut target = Vec::new();
                for j in 0..rot.copies {
                    let res = a.result(j);
                    let end = if op == Op::CompareAndSwap {
                        res + 8
                    } else {
                        res + x
                    };
                    origin.push((res, end));
                    let b = Atomic::block(rot.offset(j));
                    target.push((b, b + x));
                    assert_eq!(b / 4, elements(rot.offset(j)));
                }
                apart(&mut origin);
                apart(&mut target);
            }
        }
    }

    #[test]
    fn multiples_of_rank_0s_values() {
        let v: Vec<f32> = (0..5).map(|i| 3.0 * buf_value(0, i)).collect();
        let b: &[u8] = bytemuck::cast_slice(&v);
        let d = times(b, 3);
        assert!(d.value < 1e-6 && d.pos.is_none(), "{d:?}");
        assert_eq!(times(b, 2).pos, Some(0));
        assert_eq!(times(&[0u8; 8], 0), Defect::NONE);
        assert_eq!(times(&[0u8; 8], 1).pos, Some(0));
    }
}
