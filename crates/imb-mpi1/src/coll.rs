//! Collective benchmarks (guide 3.3.4). Reductions move X/4 MPI_FLOATs with MPI_SUM; the rest
//! move MPI_BYTEs. Rooted collectives take root `i mod roots`: roots = NP rotates the root
//! (IMB 3.0, `-root_shift on`), roots = 1 keeps root 0 (IMB 2021's default).
//!
//! Every kernel here but Barrier's, and those of `coll2021`, says `per_call`: IMB 2021 times
//! each of these calls on its own, so under its method (`-compat 2021`, `-sync`) the engine
//! does too; Barrier's loop is one timer in IMB 2021 as in IMB 3.0.

use crate::ffi::Mpi;
use imb_core::bench::{np_blocks, BufShape, Class, Info};
use imb_core::buffers::{check_copy, check_sum, Defect};
use imb_core::kernel::{Benchmark, Ctx, Kernel, Timed};
use imb_core::method::Compat;
use imb_core::mpirc::{ints, uniform};
use std::os::raw::c_int;

/// What every collective kernel holds.
pub(crate) struct Coll<'a> {
    pub(crate) m: Mpi<'a>,
    pub(crate) me: usize,
    pub(crate) n: usize,
    pub(crate) x: usize,
    /// How many ranks a rooted pattern's root cycles through (`Method::roots`), read once
    /// here so the timed step only takes a remainder.
    roots: usize,
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
            roots: c.method.roots(c.size),
            s: &c.send[..slen],
            r: &mut c.recv[..rlen],
        }
    }

    /// The root of repetition `i`.
    #[inline(always)]
    pub(crate) fn root(&self, i: usize) -> usize {
        i % self.roots
    }

    /// A kernel's view for unit tests: rank `me` of `n`, `roots` roots, no communicator.
    #[cfg(test)]
    pub(crate) fn bare(me: usize, n: usize, roots: usize, s: &'a [u8], r: &'a mut [u8]) -> Self {
        Coll {
            m: Mpi::unconnected(),
            me,
            n,
            x: s.len().min(r.len()),
            roots,
            s,
            r,
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
    fn per_call(&self) -> bool {
        true
    }
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

static REDUCE: Info = Info {
    rooted: true,
    ..reduction("Reduce")
};
struct ReduceK<'a>(Coll<'a>);
impl Kernel for ReduceK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        c.m.reduce(c.s, c.r, c.root(i) as c_int);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        if c.root(i) == c.me {
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

static REDUCE_SCATTER: Info = Info {
    bufs_2021: Some(BufShape::ScatterSend),
    ..reduction("Reduce_scatter")
};
/// The X/4 floats are split as evenly as possible: rank k gets one more when k < (X/4) mod NP
/// (guide 3.3.4.2). Under `-compat 2021` every rank gets X/4 floats of an NP·X/4 vector, as in
/// IMB 2021, whose figures then compare with ours size for size.
struct ReduceScatterK<'a> {
    c: Coll<'a>,
    counts: Vec<c_int>,
    first: usize,
}
impl Kernel for ReduceScatterK<'_> {
    fn per_call(&self) -> bool {
        true
    }
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
    let (counts, send) = if c.method.compat == Compat::V2021 {
        (vec![x / 4; n], n * x)
    } else {
        (split(x / 4, n), x)
    };
    let first = counts[..me].iter().sum();
    ReduceScatterK {
        c: Coll::new(c, send, x),
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
    fn per_call(&self) -> bool {
        true
    }
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
    fn per_call(&self) -> bool {
        true
    }
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
    fn per_call(&self) -> bool {
        true
    }
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
    fn per_call(&self) -> bool {
        true
    }
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

static BCAST: Info = Info {
    rooted: true,
    ..Info::mpi1("Bcast", Class::Collective)
};
/// The root sends from the send buffer, the others receive into the receive buffer, so the
/// source data is never overwritten.
struct BcastK<'a>(Coll<'a>);
impl Kernel for BcastK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        c.m.bcast(c.s, c.r, c.me as c_int, c.root(i) as c_int);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        let root = c.root(i);
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
pub(crate) mod tests {
    use super::*;

    /// A kernel's view with no buffers, for what does not read them.
    pub(crate) fn bare() -> Coll<'static> {
        Coll::bare(0, 2, 2, &[], &mut [])
    }

    pub(crate) fn bare_v() -> CollV<'static> {
        CollV {
            c: bare(),
            counts: Vec::new(),
            displs: Vec::new(),
        }
    }

    /// IMB 2021 times every call of the guide's collectives on its own, Barrier's loop whole.
    #[test]
    fn per_call_for_every_collective_but_barrier() {
        let rs = ReduceScatterK {
            c: bare(),
            counts: Vec::new(),
            first: 0,
        };
        let per_call = [
            AllreduceK(bare()).per_call(),
            ReduceK(bare()).per_call(),
            rs.per_call(),
            AllgatherK(bare()).per_call(),
            AllgathervK(bare_v()).per_call(),
            AlltoallK(bare()).per_call(),
            AlltoallvK(bare_v()).per_call(),
            BcastK(bare()).per_call(),
        ];
        assert_eq!(per_call, [true; 8]);
        assert!(!BarrierK(Mpi::unconnected()).per_call());
    }

    #[test]
    fn root_cycles_through_the_roots_given() {
        assert_eq!(Coll::bare(0, 4, 4, &[], &mut []).root(5), 1);
        assert_eq!(Coll::bare(0, 4, 1, &[], &mut []).root(5), 0);
    }

    /// Reduce checks the sums only where this rank was the root: with one root (`-root_shift
    /// off`) at rank 0 every repetition, with NP roots every NP-th. The receive buffer holds no
    /// sums, so each check there is a defect.
    #[test]
    fn reduce_checks_at_the_repetitions_root() {
        let s = [0u8; 8];
        let mut r = [0u8; 8];
        let mut one = ReduceK(Coll::bare(0, 3, 1, &s, &mut r));
        let at: Vec<bool> = (0..4).map(|i| one.check(i).pos.is_some()).collect();
        assert_eq!(at, [true; 4]);
        let mut all = ReduceK(Coll::bare(0, 3, 3, &s, &mut r));
        let at: Vec<bool> = (0..4).map(|i| all.check(i).pos.is_some()).collect();
        assert_eq!(at, [true, false, false, true]);
    }

    /// A Bcast receiver compares with the repetition's root's contents (rank 0's here).
    #[test]
    fn bcast_checks_the_repetitions_root() {
        let s = [0u8; 8];
        let mut r: Vec<u8> = (0..2)
            .flat_map(|i| imb_core::buffers::buf_value(0, i).to_ne_bytes())
            .collect();
        let mut one = BcastK(Coll::bare(1, 3, 1, &s, &mut r));
        assert!((0..4).all(|i| one.check(i) == Defect::NONE));
        let mut all = BcastK(Coll::bare(1, 3, 3, &s, &mut r));
        let bad: Vec<bool> = (0..3).map(|i| all.check(i).pos.is_some()).collect();
        // Repetition 1: this rank is the root and checks nothing; 2: rank 2's contents.
        assert_eq!(bad, [false, false, true]);
    }

    #[test]
    fn reduce_scatter_split_as_the_guide_says() {
        assert_eq!(split(1, 3), vec![1, 0, 0]);
        assert_eq!(split(25, 3), vec![9, 8, 8]);
        assert_eq!(split(0, 4), vec![0, 0, 0, 0]);
        assert_eq!(split(8, 4), vec![2, 2, 2, 2]);
    }
}
