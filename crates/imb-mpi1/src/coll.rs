//! Collective benchmarks (guide 3.3.4). Reductions move X/4 MPI_FLOATs with MPI_SUM; the rest
//! move MPI_BYTEs. Rooted collectives rotate the root: root = i mod NP.

use crate::ffi::Mpi;
use imb_core::bench::{np_blocks, BufShape, Class, Info};
use imb_core::buffers::{check_copy, check_sum, Defect};
use imb_core::kernel::{Benchmark, Ctx, Kernel, Timed};
use imb_core::mpirc::{ints, uniform};
use std::os::raw::c_int;

/// What every collective kernel holds.
pub(crate) struct Coll<'a> {
    pub(crate) m: Mpi<'a>,
    pub(crate) me: usize,
    pub(crate) n: usize,
    pub(crate) x: usize,
    pub(crate) s: &'a [u8],
    pub(crate) r: &'a mut [u8],
}

impl<'a> Coll<'a> {
    /// `slen`/`rlen`: bytes of the buffers the pattern touches.
    pub(crate) fn new(c: Ctx<'a>, slen: usize, rlen: usize) -> Self {
        Coll {
            m: Mpi::new(c.comm),
            me: c.rank,
            n: c.size,
            x: c.x,
            s: &c.send[..slen],
            r: &mut c.recv[..rlen],
        }
    }
}

/// A Coll with counts and displacements (bytes) for the v-interfaces: X from / to every rank at
/// k·X, the layout of the fixed-size operation.
pub(crate) struct CollV<'a> {
    pub(crate) c: Coll<'a>,
    pub(crate) counts: Vec<c_int>,
    pub(crate) displs: Vec<c_int>,
}

impl<'a> CollV<'a> {
    pub(crate) fn new(c: Ctx<'a>, slen: usize, rlen: usize) -> Self {
        let (counts, displs) = uniform(c.x, c.size);
        CollV {
            c: Coll::new(c, slen, rlen),
            counts,
            displs,
        }
    }
}

/// Declare a benchmark type whose kernel is `$k` built by `$build`.
macro_rules! benchmark {
    ($ty:ident, $info:ident, $k:ident, $build:expr) => {
        pub struct $ty;
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                let build: fn(Ctx<'a>) -> $k<'a> = $build;
                Box::new(build(c))
            }
        }
    };
}

pub(crate) const fn reduction(name: &'static str) -> Info {
    Info {
        unit: 4,
        ..Info::mpi1(name, Class::Collective)
    }
}

static ALLREDUCE: Info = reduction("Allreduce");
struct AllreduceK<'a>(Coll<'a>);
impl Kernel for AllreduceK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.0.m.allreduce(self.0.s, self.0.r);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_sum(self.0.r, self.0.n, 0)
    }
}
benchmark!(Allreduce, ALLREDUCE, AllreduceK, |c| {
    let x = c.x;
    AllreduceK(Coll::new(c, x, x))
});

static REDUCE: Info = reduction("Reduce");
struct ReduceK<'a>(Coll<'a>);
impl Kernel for ReduceK<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        c.m.reduce(c.s, c.r, (i % c.n) as c_int);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        if i % c.n == c.me {
            check_sum(c.r, c.n, 0)
        } else {
            Defect::NONE
        }
    }
}
benchmark!(Reduce, REDUCE, ReduceK, |c| {
    let x = c.x;
    ReduceK(Coll::new(c, x, x))
});

static REDUCE_SCATTER: Info = reduction("Reduce_scatter");
/// The X/4 floats are split as evenly as possible: rank k gets one more when k < (X/4) mod NP.
struct ReduceScatterK<'a> {
    c: Coll<'a>,
    counts: Vec<c_int>,
    first: usize,
}
impl Kernel for ReduceScatterK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.c.m.reduce_scatter(self.c.s, self.c.r, &self.counts);
    }
    fn check(&mut self, _i: usize) -> Defect {
        let mine = self.counts[self.c.me] as usize * 4;
        check_sum(&self.c.r[..mine], self.c.n, self.first)
    }
}
/// Element counts per rank (guide 3.3.4.2).
pub fn split(elements: usize, n: usize) -> Vec<usize> {
    (0..n)
        .map(|k| elements / n + usize::from(k < elements % n))
        .collect()
}
benchmark!(Reduce_scatter, REDUCE_SCATTER, ReduceScatterK, |c| {
    let (x, n, me) = (c.x, c.size, c.rank);
    let counts = split(x / 4, n);
    let first = counts[..me].iter().sum();
    ReduceScatterK {
        c: Coll::new(c, x, x),
        counts: ints(counts),
        first,
    }
});

static ALLGATHER: Info = Info {
    bufs: BufShape::GatherRecv,
    effort: np_blocks,
    ..Info::mpi1("Allgather", Class::Collective)
};
struct AllgatherK<'a>(Coll<'a>);
pub(crate) fn check_blocks(c: &Coll) -> Defect {
    (0..c.n).fold(Defect::NONE, |d, k| {
        d.max(check_copy(&c.r[k * c.x..(k + 1) * c.x], k, 0))
    })
}
impl Kernel for AllgatherK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.0.m.allgather(self.0.s, self.0.r);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_blocks(&self.0)
    }
}
benchmark!(Allgather, ALLGATHER, AllgatherK, |c| {
    let (x, n) = (c.x, c.size);
    AllgatherK(Coll::new(c, x, n * x))
});

static ALLGATHERV: Info = Info {
    bufs: BufShape::GatherRecv,
    effort: np_blocks,
    ..Info::mpi1("Allgatherv", Class::Collective)
};
/// The Allgather layout through the v-interface: counts X, displacements k·X.
struct AllgathervK<'a>(CollV<'a>);
impl Kernel for AllgathervK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.0
            .c
            .m
            .allgatherv(self.0.c.s, self.0.c.r, &self.0.counts, &self.0.displs);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_blocks(&self.0.c)
    }
}
benchmark!(Allgatherv, ALLGATHERV, AllgathervK, |c| {
    let (x, n) = (c.x, c.size);
    AllgathervK(CollV::new(c, x, n * x))
});

static ALLTOALL: Info = Info {
    bufs: BufShape::AllToAll,
    effort: np_blocks,
    ..Info::mpi1("Alltoall", Class::Collective)
};
struct AlltoallK<'a>(Coll<'a>);
/// Block k came from rank k's block for me, at byte me·X of its send buffer.
fn check_alltoall(c: &Coll) -> Defect {
    (0..c.n).fold(Defect::NONE, |d, k| {
        d.max(check_copy(&c.r[k * c.x..(k + 1) * c.x], k, c.me * c.x))
    })
}
impl Kernel for AlltoallK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.0.m.alltoall(self.0.s, self.0.r, self.0.x);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_alltoall(&self.0)
    }
}
benchmark!(Alltoall, ALLTOALL, AlltoallK, |c| {
    let (x, n) = (c.x, c.size);
    AlltoallK(Coll::new(c, n * x, n * x))
});

static ALLTOALLV: Info = Info {
    bufs: BufShape::AllToAll,
    effort: np_blocks,
    ..Info::mpi1("Alltoallv", Class::Collective)
};
struct AlltoallvK<'a>(CollV<'a>);
impl Kernel for AlltoallvK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.0
            .c
            .m
            .alltoallv(self.0.c.s, self.0.c.r, &self.0.counts, &self.0.displs);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_alltoall(&self.0.c)
    }
}
benchmark!(Alltoallv, ALLTOALLV, AlltoallvK, |c| {
    let (x, n) = (c.x, c.size);
    AlltoallvK(CollV::new(c, n * x, n * x))
});

static BCAST: Info = Info::mpi1("Bcast", Class::Collective);
/// The root sends from the send buffer, the others receive into the receive buffer, so the
/// source data is never overwritten.
struct BcastK<'a>(Coll<'a>);
impl Kernel for BcastK<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        c.m.bcast(c.s, c.r, c.me as c_int, (i % c.n) as c_int);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        let root = i % c.n;
        if root == c.me {
            Defect::NONE
        } else {
            check_copy(c.r, root, 0)
        }
    }
}
benchmark!(Bcast, BCAST, BcastK, |c| {
    let x = c.x;
    BcastK(Coll::new(c, x, x))
});

static BARRIER: Info = Info::mpi1("Barrier", Class::Sync);
struct BarrierK<'a>(Mpi<'a>);
impl Kernel for BarrierK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        self.0.barrier();
    }
}
benchmark!(Barrier, BARRIER, BarrierK, |c| BarrierK(Mpi::new(c.comm)));

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn reduce_scatter_split_as_the_guide_says() {
        assert_eq!(split(1, 3), vec![1, 0, 0]);
        assert_eq!(split(25, 3), vec![9, 8, 8]);
        assert_eq!(split(0, 4), vec![0, 0, 0, 0]);
        assert_eq!(split(8, 4), vec![2, 2, 2, 2]);
    }
}
