//! Collective benchmarks (guide 3.3.4). Reductions move X/4 MPI_FLOATs with MPI_SUM; the rest
//! move MPI_BYTEs (IMB 2021's `-red_data_type`, `-data_type` and `-contig_type` choose others:
//! `elems`). Rooted collectives take root `i mod roots`: roots = NP rotates the root (IMB 3.0,
//! `-root_shift on`), roots = 1 keeps root 0 (IMB 2021's default).
//!
//! Every kernel here but Barrier's, and those of `coll2021`, says `per_call`: IMB 2021 times
//! each of these calls on its own, so under its method (`-compat 2021`, `-sync`) the engine
//! does too; Barrier's loop is one timer in IMB 2021 as in IMB 3.0.
//!
//! Under `-off_cache` every kernel here and in `coll2021` moves through its buffers' copies as
//! IMB 2021 does: repetition i sends from send copy i mod copies and receives into receive
//! copy i mod copies (`elems::Views`), and check mode reads the copy repetition i received
//! into. Barrier has no data, and no copies.

use crate::elems::{copied, summed, Views};
use crate::types::Elems;
use imb_core::bench::{np_blocks, BufShape, Class, Info};
use imb_core::buffers::Defect;
use imb_core::kernel::{Benchmark, Ctx, Kernel, Timed};
use imb_core::method::Compat;
use imb_mpi::comm::Mpi;
use imb_mpi::rc::{ints, uniform};
use std::os::raw::c_int;

/// What every collective kernel holds.
pub(crate) struct Coll<'a> {
    pub(crate) m: Mpi<'a>,
    pub(crate) me: usize,
    pub(crate) n: usize,
    /// How many ranks a rooted pattern's root cycles through (`Method::roots`), read once
    /// here so the timed step only takes a remainder.
    roots: usize,
    /// The messages of this size.
    pub(crate) e: Elems,
    /// The buffers, every `-off_cache` copy of them.
    pub(crate) v: Views<'a>,
}

/// Whether a pattern reduces (its messages are `-red_data_type`'s) or moves data.
#[derive(Clone, Copy)]
pub(crate) enum Moves {
    Data,
    Sums,
}

impl<'a> Coll<'a> {
    /// `sblocks`/`rblocks`: messages of the buffers the pattern touches.
    pub(crate) fn new(c: Ctx<'a>, moves: Moves, sblocks: usize, rblocks: usize) -> Self {
        let e = Elems::of(&c, matches!(moves, Moves::Sums));
        let v = Views::new(c.send, c.recv, &e.lay, (sblocks, rblocks), c.rot);
        Coll {
            m: Mpi::new(c.comm),
            me: c.rank,
            n: c.size,
            roots: c.method.roots(c.size),
            e,
            v,
        }
    }

    /// Bytes from one message to the next (a block of the gathers' and scatters' buffers).
    pub(crate) fn block(&self) -> usize {
        self.e.lay.block()
    }

    /// Repetition `i`'s receive copy, for its check.
    pub(crate) fn got(&self, i: usize) -> &[u8] {
        self.v.got(i)
    }

    /// Repetition `i` left the sums of all ranks' send elements `first ..`, `count` of them.
    pub(crate) fn sums(&self, i: usize, first: usize, count: usize) -> Defect {
        summed(self.got(i), &self.e.lay, self.n, first, count)
    }

    /// The root of repetition `i`.
    #[inline(always)]
    pub(crate) fn root(&self, i: usize) -> usize {
        i % self.roots
    }

    /// A kernel's view for unit tests: rank `me` of `n`, `roots` roots, IMB 3.0's messages
    /// (`moves`) of the smaller buffer's length, no communicator.
    #[cfg(test)]
    pub(crate) fn bare(
        me: usize,
        n: usize,
        roots: usize,
        moves: Moves,
        s: &'a [u8],
        r: &'a mut [u8],
    ) -> Self {
        Coll {
            m: Mpi::unconnected(),
            me,
            n,
            roots,
            e: Elems::imb(matches!(moves, Moves::Sums), s.len().min(r.len())),
            v: Views::bare(s, r, imb_core::method::Rotations::NONE),
        }
    }

    /// As `bare`, IMB 3.0's messages of `x` bytes in copies laid out by `rot`.
    #[cfg(test)]
    pub(crate) fn rotated(
        (me, n, roots): (usize, usize, usize),
        moves: Moves,
        x: usize,
        (s, r): (&'a [u8], &'a mut [u8]),
        rot: imb_core::method::Rotations,
    ) -> Self {
        Coll {
            m: Mpi::unconnected(),
            me,
            n,
            roots,
            e: Elems::imb(matches!(moves, Moves::Sums), x),
            v: Views::bare(s, r, rot),
        }
    }
}

/// A Coll with counts and displacements (in elements of the message's type) for the
/// v-interfaces: one message from / to every rank, rank k's at k messages, the layout of the
/// fixed-size operation.
pub(crate) struct CollV<'a> {
    pub(crate) c: Coll<'a>,
    pub(crate) counts: Vec<c_int>,
    pub(crate) displs: Vec<c_int>,
}

impl<'a> CollV<'a> {
    pub(crate) fn new(c: Ctx<'a>, sblocks: usize, rblocks: usize) -> Self {
        let size = c.size;
        let c = Coll::new(c, Moves::Data, sblocks, rblocks);
        let (counts, displs) = uniform(c.e.lay.count(), size);
        CollV { c, counts, displs }
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
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let (s, r) = c.v.at(i);
        c.m.allreduce(s, r, c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        self.0.sums(i, 0, self.0.e.lay.n)
    }
}
benchmark!(Allreduce, ALLREDUCE, AllreduceK, |c| AllreduceK(Coll::new(
    c,
    Moves::Sums,
    1,
    1
)));

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
        let root = c.root(i) as c_int;
        let (s, r) = c.v.at(i);
        c.m.reduce(s, r, c.e.msg, root);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        if c.root(i) == c.me {
            c.sums(i, 0, c.e.lay.n)
        } else {
            Defect::NONE
        }
    }
}
benchmark!(Reduce, REDUCE, ReduceK, |c| ReduceK(Coll::new(
    c,
    Moves::Sums,
    1,
    1
)));

static REDUCE_SCATTER: Info = Info {
    bufs_2021: Some(BufShape::ScatterSend),
    ..reduction("Reduce_scatter")
};
/// The X/4 floats (the message's MPI count) are split as evenly as possible: rank k gets one
/// more when k < (X/4) mod NP (guide 3.3.4.2). A message that is one vector goes whole to rank
/// 0. Under `-compat 2021` every rank gets a whole message of an NP-message vector, as in IMB
/// 2021, whose figures then compare with ours size for size.
struct ReduceScatterK<'a> {
    c: Coll<'a>,
    counts: Vec<c_int>,
    /// This rank's first element of the send buffer, and its elements.
    first: usize,
    mine: usize,
}
impl Kernel for ReduceScatterK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.c;
        let (s, r) = c.v.at(i);
        c.m.reduce_scatter(s, r, &self.counts, c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        self.c.sums(i, self.first, self.mine)
    }
}
/// Element counts per rank (guide 3.3.4.2).
pub fn split(elements: usize, n: usize) -> Vec<usize> {
    (0..n)
        .map(|k| elements / n + usize::from(k < elements % n))
        .collect()
}
benchmark!(Reduce_scatter, REDUCE_SCATTER, ReduceScatterK, |c| {
    let (n, me) = (c.size, c.rank);
    let whole = c.method.compat == Compat::V2021;
    let c = Coll::new(c, Moves::Sums, if whole { n } else { 1 }, 1);
    let count = c.e.lay.count();
    let counts = if whole {
        vec![count; n]
    } else {
        split(count, n)
    };
    let per = c.e.lay.per;
    let first = counts[..me].iter().sum::<usize>() * per;
    let mine = counts[me] * per;
    ReduceScatterK {
        c,
        counts: ints(counts),
        first,
        mine,
    }
});

static ALLGATHER: Info = Info {
    bufs: BufShape::GatherRecv,
    effort: np_blocks,
    ..Info::mpi1("Allgather", Class::Collective)
};
struct AllgatherK<'a>(Coll<'a>);
/// Block k of repetition `i`'s receive copy came from rank k.
pub(crate) fn check_blocks(c: &Coll, i: usize) -> Defect {
    let (b, got) = (c.block(), c.got(i));
    (0..c.n).fold(Defect::NONE, |d, k| {
        d.max(copied(&got[k * b..(k + 1) * b], &c.e.lay, k, 0))
    })
}
impl Kernel for AllgatherK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let (s, r) = c.v.at(i);
        c.m.allgather(s, r, c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_blocks(&self.0, i)
    }
}
benchmark!(Allgather, ALLGATHER, AllgatherK, |c| {
    let n = c.size;
    AllgatherK(Coll::new(c, Moves::Data, 1, n))
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
    fn step(&mut self, i: usize) {
        let v = &mut self.0;
        let (s, r) = v.c.v.at(i);
        v.c.m.allgatherv(s, r, &v.counts, &v.displs, v.c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_blocks(&self.0.c, i)
    }
}
benchmark!(Allgatherv, ALLGATHERV, AllgathervK, |c| {
    let n = c.size;
    AllgathervK(CollV::new(c, 1, n))
});

static ALLTOALL: Info = Info {
    bufs: BufShape::AllToAll,
    effort: np_blocks,
    ..Info::mpi1("Alltoall", Class::Collective)
};
struct AlltoallK<'a>(Coll<'a>);
/// Block k of repetition `i`'s receive copy came from rank k's block for me, block `me` of
/// its send copy.
fn check_alltoall(c: &Coll, i: usize) -> Defect {
    let (b, got) = (c.block(), c.got(i));
    (0..c.n).fold(Defect::NONE, |d, k| {
        d.max(copied(&got[k * b..(k + 1) * b], &c.e.lay, k, c.me * b))
    })
}
impl Kernel for AlltoallK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let (s, r) = c.v.at(i);
        c.m.alltoall(s, r, c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_alltoall(&self.0, i)
    }
}
benchmark!(Alltoall, ALLTOALL, AlltoallK, |c| {
    let n = c.size;
    AlltoallK(Coll::new(c, Moves::Data, n, n))
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
    fn step(&mut self, i: usize) {
        let v = &mut self.0;
        let (s, r) = v.c.v.at(i);
        v.c.m.alltoallv(s, r, &v.counts, &v.displs, v.c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_alltoall(&self.0.c, i)
    }
}
benchmark!(Alltoallv, ALLTOALLV, AlltoallvK, |c| {
    let n = c.size;
    AlltoallvK(CollV::new(c, n, n))
});

static BCAST: Info = Info {
    rooted: true,
    ..Info::mpi1("Bcast", Class::Collective)
};
/// The root sends from the send buffer, the others receive into the receive buffer, so the
/// source data is never overwritten. Under `-off_cache` each moves through its own buffer's
/// copies: IMB 2021 moves both through the send buffer's (its `bc_buf` is the receive buffer
/// off the root), and the two strides are equal, both buffers being X bytes a copy.
struct BcastK<'a>(Coll<'a>);
impl Kernel for BcastK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let (me, root) = (c.me as c_int, c.root(i) as c_int);
        let (s, r) = c.v.at(i);
        c.m.bcast(s, r, c.e.msg, me, root);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        let root = c.root(i);
        if root == c.me {
            Defect::NONE
        } else {
            copied(c.got(i), &c.e.lay, root, 0)
        }
    }
}
benchmark!(Bcast, BCAST, BcastK, |c| BcastK(Coll::new(
    c,
    Moves::Data,
    1,
    1
)));

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
    use imb_core::buffers::buf_value;
    use imb_core::method::{Rotation, Rotations};

    /// A kernel's view with no buffers, for what does not read them.
    pub(crate) fn bare() -> Coll<'static> {
        Coll::bare(0, 2, 2, Moves::Data, &[], &mut [])
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
            mine: 0,
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
        assert_eq!(Coll::bare(0, 4, 4, Moves::Data, &[], &mut []).root(5), 1);
        assert_eq!(Coll::bare(0, 4, 1, Moves::Data, &[], &mut []).root(5), 0);
    }

    /// Reduce checks the sums only where this rank was the root: with one root (`-root_shift
    /// off`) at rank 0 every repetition, with NP roots every NP-th. The receive buffer holds no
    /// sums, so each check there is a defect.
    #[test]
    fn reduce_checks_at_the_repetitions_root() {
        let s = [0u8; 8];
        let mut r = [0u8; 8];
        let mut one = ReduceK(Coll::bare(0, 3, 1, Moves::Sums, &s, &mut r));
        let at: Vec<bool> = (0..4).map(|i| one.check(i).pos.is_some()).collect();
        assert_eq!(at, [true; 4]);
        let mut all = ReduceK(Coll::bare(0, 3, 3, Moves::Sums, &s, &mut r));
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
        let mut one = BcastK(Coll::bare(1, 3, 1, Moves::Data, &s, &mut r));
        assert!((0..4).all(|i| one.check(i) == Defect::NONE));
        let mut all = BcastK(Coll::bare(1, 3, 3, Moves::Data, &s, &mut r));
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

    /// Two copies 64 bytes apart in each buffer.
    pub(crate) const TWO: Rotations = Rotations {
        send: Rotation {
            len: 8,
            stride: 64,
            copies: 2,
        },
        recv: Rotation {
            len: 8,
            stride: 64,
            copies: 2,
        },
    };

    /// The sums of `np` ranks' first two floats.
    fn sums(np: usize) -> Vec<u8> {
        (0..2)
            .flat_map(|k| (0..np).map(|r| buf_value(r, k)).sum::<f32>().to_ne_bytes())
            .collect()
    }

    /// Allreduce checks the copy repetition i received into: copy i mod 2 here, of which
    /// only copy 1 holds the sums.
    #[test]
    fn reductions_check_the_repetitions_copy() {
        let s = [0u8; 72];
        let mut r = [0u8; 72];
        r[64..].copy_from_slice(&sums(3));
        let mut k = AllreduceK(Coll::rotated((0, 3, 1), Moves::Sums, 8, (&s, &mut r), TWO));
        let bad: Vec<bool> = (0..4).map(|i| k.check(i).pos.is_some()).collect();
        assert_eq!(bad, [true, false, true, false]);
    }

    /// Allgather's blocks are read from the repetition's copy: copy 0 holds both ranks'
    /// 4-byte blocks, copy 1 nothing.
    #[test]
    fn gathered_blocks_are_read_from_the_repetitions_copy() {
        let s = [0u8; 68];
        let mut r = [0u8; 72];
        r[..4].copy_from_slice(&buf_value(0, 0).to_ne_bytes());
        r[4..8].copy_from_slice(&buf_value(1, 0).to_ne_bytes());
        let c = Coll::rotated((1, 2, 1), Moves::Data, 4, (&s, &mut r), TWO);
        assert_eq!(check_blocks(&c, 2), Defect::NONE);
        assert!(check_blocks(&c, 3).pos.is_some());
    }

    /// A Bcast receiver reads the repetition's receive copy.
    #[test]
    fn bcast_checks_the_repetitions_copy() {
        let s = [0u8; 72];
        let mut r = [0u8; 72];
        r[64..68].copy_from_slice(&buf_value(0, 0).to_ne_bytes());
        r[68..].copy_from_slice(&buf_value(0, 1).to_ne_bytes());
        let mut k = BcastK(Coll::rotated((1, 2, 1), Moves::Data, 8, (&s, &mut r), TWO));
        assert!(k.check(0).pos.is_some());
        assert_eq!(k.check(1), Defect::NONE);
    }
}
