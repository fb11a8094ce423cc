//! The thirteen non-blocking collectives, one started operation each (the `Op`s the loops of
//! `overlap` time), and what `-check` compares afterwards (guide 3.3.4 for the patterns).
//! Reductions move X/4 MPI_FLOATs with MPI_SUM; the rest move MPI_BYTEs. The root of the rooted
//! operations is rank 0 on every call, as IMB 2021 does by default (`-root_shift off`).
//! Ireduce_scatter gives every process X bytes of an NP·X-byte vector, as IMB 2021 does (not
//! 3.0's split of X that imb-mpi1's Reduce_scatter keeps; doc/METHODOLOGY.md, "imb-nbc").

use crate::ffi::{Mpi, Pending};
use imb_core::buffers::{check_copy, check_sum, Defect};
use imb_core::kernel::Ctx;
use imb_core::mpirc::{ints, uniform};
use std::os::raw::c_int;

/// The root of Ibcast, Igather(v), Iscatter(v) and Ireduce.
const ROOT: usize = 0;

/// One non-blocking collective, ready to start over and over on the same buffers.
pub trait Op {
    /// Start the operation; the loop waits for it.
    fn start(&mut self) -> Pending<'_>;
    /// Check mode: what the last completed operation left in this rank's receive buffer.
    fn check(&self) -> Defect {
        Defect::NONE
    }
}

/// How a benchmark's operation is built for one size (untimed).
pub trait Pattern: Sync + 'static {
    type Op<'a>: Op + 'a;
    fn build(c: Ctx<'_>) -> Self::Op<'_>;
}

/// What every operation holds: the communicator's handles and the buffers it touches.
pub struct Coll<'a> {
    m: Mpi<'a>,
    me: usize,
    n: usize,
    x: usize,
    s: &'a [u8],
    r: &'a mut [u8],
}

impl<'a> Coll<'a> {
    /// `slen`/`rlen`: bytes of the buffers the pattern touches (the slicing checks them once).
    fn new(c: Ctx<'a>, slen: usize, rlen: usize) -> Self {
        Coll {
            m: Mpi::new(c.comm),
            me: c.rank,
            n: c.size,
            x: c.x,
            s: &c.send[..slen],
            r: &mut c.recv[..rlen],
        }
    }

    /// Block k of the receive buffer came from rank k's byte `from` on.
    fn check_blocks(&self, from: impl Fn(usize) -> usize) -> Defect {
        (0..self.n).fold(Defect::NONE, |d, k| {
            d.max(check_copy(
                &self.r[k * self.x..(k + 1) * self.x],
                k,
                from(k),
            ))
        })
    }
}

/// A Coll with counts and displacements (bytes) for the v-interfaces: X from / to every rank at
/// k·X, the layout of the fixed-size operation.
pub struct CollV<'a> {
    c: Coll<'a>,
    counts: Vec<c_int>,
    displs: Vec<c_int>,
}

impl<'a> CollV<'a> {
    fn new(c: Ctx<'a>, slen: usize, rlen: usize) -> Self {
        let (counts, displs) = uniform(c.x, c.size);
        CollV {
            c: Coll::new(c, slen, rlen),
            counts,
            displs,
        }
    }
}

/// Declare pattern `$ty` whose operation is `$op`, built with send and receive lengths
/// `$lens(x, n)` by `$base::new`.
macro_rules! pattern {
    ($ty:ident, $op:ident, $base:ident, $lens:expr) => {
        pub struct $ty;
        pub struct $op<'a>($base<'a>);
        impl Pattern for $ty {
            type Op<'a> = $op<'a>;
            fn build(c: Ctx<'_>) -> $op<'_> {
                let lens: fn(usize, usize) -> (usize, usize) = $lens;
                let (s, r) = lens(c.x, c.size);
                $op($base::new(c, s, r))
            }
        }
    };
}

const PLAIN: fn(usize, usize) -> (usize, usize) = |x, _| (x, x);
const GATHER: fn(usize, usize) -> (usize, usize) = |x, n| (x, n * x);
const SCATTER: fn(usize, usize) -> (usize, usize) = |x, n| (n * x, x);
const ALL: fn(usize, usize) -> (usize, usize) = |x, n| (n * x, n * x);

pattern!(Bcast, BcastOp, Coll, PLAIN);
impl Op for BcastOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        let c = &mut self.0;
        c.m.ibcast(c.s, c.r, c.me as c_int, ROOT as c_int)
    }
    fn check(&self) -> Defect {
        let c = &self.0;
        if c.me == ROOT {
            Defect::NONE
        } else {
            check_copy(c.r, ROOT, 0)
        }
    }
}

pattern!(Allgather, AllgatherOp, Coll, GATHER);
impl Op for AllgatherOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.0.m.iallgather(self.0.s, self.0.r)
    }
    fn check(&self) -> Defect {
        self.0.check_blocks(|_| 0)
    }
}

pattern!(Allgatherv, AllgathervOp, CollV, GATHER);
impl Op for AllgathervOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        let v = &mut self.0;
        v.c.m.iallgatherv(v.c.s, v.c.r, &v.counts, &v.displs)
    }
    fn check(&self) -> Defect {
        self.0.c.check_blocks(|_| 0)
    }
}

/// The gathers fill the root's receive buffer only.
fn check_at_root(c: &Coll) -> Defect {
    if c.me == ROOT {
        c.check_blocks(|_| 0)
    } else {
        Defect::NONE
    }
}

pattern!(Gather, GatherOp, Coll, GATHER);
impl Op for GatherOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.0.m.igather(self.0.s, self.0.r, ROOT as c_int)
    }
    fn check(&self) -> Defect {
        check_at_root(&self.0)
    }
}

pattern!(Gatherv, GathervOp, CollV, GATHER);
impl Op for GathervOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        let v = &mut self.0;
        v.c.m
            .igatherv(v.c.s, v.c.r, &v.counts, &v.displs, ROOT as c_int)
    }
    fn check(&self) -> Defect {
        check_at_root(&self.0.c)
    }
}

/// Rank me received block me of the root's send buffer.
fn check_scattered(c: &Coll) -> Defect {
    check_copy(c.r, ROOT, c.me * c.x)
}

pattern!(Scatter, ScatterOp, Coll, SCATTER);
impl Op for ScatterOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.0.m.iscatter(self.0.s, self.0.r, ROOT as c_int)
    }
    fn check(&self) -> Defect {
        check_scattered(&self.0)
    }
}

pattern!(Scatterv, ScattervOp, CollV, SCATTER);
impl Op for ScattervOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        let v = &mut self.0;
        v.c.m
            .iscatterv(v.c.s, &v.counts, &v.displs, v.c.r, ROOT as c_int)
    }
    fn check(&self) -> Defect {
        check_scattered(&self.0.c)
    }
}

pattern!(Alltoall, AlltoallOp, Coll, ALL);
impl Op for AlltoallOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        let c = &mut self.0;
        c.m.ialltoall(c.s, c.r, c.x)
    }
    fn check(&self) -> Defect {
        // Block k came from rank k's block for me.
        let c = &self.0;
        c.check_blocks(|_| c.me * c.x)
    }
}

pattern!(Alltoallv, AlltoallvOp, CollV, ALL);
impl Op for AlltoallvOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        let v = &mut self.0;
        v.c.m.ialltoallv(v.c.s, v.c.r, &v.counts, &v.displs)
    }
    fn check(&self) -> Defect {
        let c = &self.0.c;
        c.check_blocks(|_| c.me * c.x)
    }
}

pattern!(Reduce, ReduceOp, Coll, PLAIN);
impl Op for ReduceOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.0.m.ireduce(self.0.s, self.0.r, ROOT as c_int)
    }
    fn check(&self) -> Defect {
        let c = &self.0;
        if c.me == ROOT {
            check_sum(c.r, c.n, 0)
        } else {
            Defect::NONE
        }
    }
}

/// Every process receives X/4 floats: elements me·X/4 onwards of the sum of the NP·X-byte
/// send vectors.
pub struct ReduceScatter;
pub struct ReduceScatterOp<'a> {
    c: Coll<'a>,
    counts: Vec<c_int>,
}
impl Pattern for ReduceScatter {
    type Op<'a> = ReduceScatterOp<'a>;
    fn build(c: Ctx<'_>) -> ReduceScatterOp<'_> {
        let (x, n) = (c.x, c.size);
        ReduceScatterOp {
            c: Coll::new(c, n * x, x),
            counts: ints(vec![x / 4; n]),
        }
    }
}
impl Op for ReduceScatterOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.c.m.ireduce_scatter(self.c.s, self.c.r, &self.counts)
    }
    fn check(&self) -> Defect {
        let c = &self.c;
        check_sum(c.r, c.n, c.me * (c.x / 4))
    }
}

pattern!(Allreduce, AllreduceOp, Coll, PLAIN);
impl Op for AllreduceOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.0.m.iallreduce(self.0.s, self.0.r)
    }
    fn check(&self) -> Defect {
        check_sum(self.0.r, self.0.n, 0)
    }
}

pub struct Barrier;
pub struct BarrierOp<'a>(Mpi<'a>);
impl Pattern for Barrier {
    type Op<'a> = BarrierOp<'a>;
    fn build(c: Ctx<'_>) -> BarrierOp<'_> {
        BarrierOp(Mpi::new(c.comm))
    }
}
impl Op for BarrierOp<'_> {
    #[inline(always)]
    fn start(&mut self) -> Pending<'_> {
        self.0.ibarrier()
    }
}
