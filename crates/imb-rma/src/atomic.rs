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

use crate::epoch::{settle_own, Epoch, Flush, Targets};
use crate::kernel::{boxed, Ops};
use imb_core::bench::{BufShape, Class, Info, Mode};
use imb_core::buffers::{buf_value, Defect, TOL};
use imb_core::kernel::{Benchmark, Ctx, Prep, Timed};
use imb_ext::rma::{self, Info as Hints, Win};

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
    /// Compare_and_swap's operands: four zero bytes.
    zeros: &'a [u8],
    x: usize,
    origin: bool,
    aggregate: bool,
}

impl<'a> Ops<'a> for Atomic<'a> {
    #[inline(always)]
    fn issue(&self, w: &Win<'a>) {
        match self.op {
            Op::Accumulate => w.accumulate(&self.s[..self.x], 1, 0),
            Op::GetAccumulate => w.get_accumulate(&self.s[..self.x], 0, 1, 0),
            Op::FetchAdd => w.fetch_and_op(self.s, 0, 1, 0),
            Op::CompareAndSwap => w.compare_and_swap(self.zeros, self.zeros, 0, 1, 0),
        }
    }
    fn verify(&self, w: &Win<'a>, n: usize) -> Defect {
        let x = self.x;
        if self.op == Op::CompareAndSwap {
            let got = if self.origin {
                w.landed()
            } else {
                settle_own(w, 1);
                w.local()
            };
            return match got[..4].iter().position(|&b| b != 0) {
                Some(j) => Defect::bad(j),
                None => Defect::NONE,
            };
        }
        if !self.origin {
            settle_own(w, 1);
            return times(&w.local()[..x], n);
        }
        if self.op != Op::Accumulate && !self.aggregate {
            return times(&w.landed()[..x], n - 1);
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
    let x = c.x;
    let hints = Hints::new(c.info);
    let (win, rest) = c.recv.split_at_mut(x);
    let (land, zeros): (&mut [u8], &'a [u8]) = if op == Op::CompareAndSwap {
        let (land, zeros) = rest.split_at_mut(4);
        // A result the operation must overwrite.
        land.fill(0xff);
        (land, zeros)
    } else {
        (rest, &[])
    };
    let w = Win::exposing_with(c.comm, win, land, 4, &hints);
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
        zeros,
        x,
        origin,
        aggregate,
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
            fn prepare(&self, p: &Prep) -> rma::Prepared {
                rma::prepare(p)
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
