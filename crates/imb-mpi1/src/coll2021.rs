//! The collectives IMB 2021 added to the MPI-1 set: Gather, Gatherv, Scatter, Scatterv,
//! Reduce_scatter_block and Reduce_local (doc/ReadMe_IMB.md, "Benchmarks beyond IMB 3.0").
//! They run only when named. Rooted ones take their root as this crate's Reduce and Bcast do
//! (`Coll::root`: rotating under `-root_shift on`, root 0 under off); the v-variants use the
//! plain layout through the v-interface (counts X, displacements k·X), as IMB 2021 does. IMB
//! 2021 times every call of these on its own (`per_call`). Under `-off_cache` they move
//! through their copies by repetition, as `coll`'s kernels do.

use crate::coll::{check_blocks, reduction, Coll, CollV, Moves};
use crate::elems::{copied, multiple};
use imb_core::bench::{np_blocks, BufShape, Class, Effort, Info, Shape};
use imb_core::buffers::Defect;
use imb_core::kernel::{Benchmark, Ctx, Kernel, Timed};
use std::os::raw::c_int;

/// `i`, run only when named.
pub(crate) const fn on_request(i: Info) -> Info {
    Info {
        on_request: true,
        ..i
    }
}

static GATHER: Info = on_request(Info {
    bufs: BufShape::GatherRecv,
    rooted: true,
    ..Info::mpi1("Gather", Class::Collective)
});
/// Every rank's message into the root's NP blocks.
struct GatherK<'a>(Coll<'a>);
/// The root has block k from rank k; the others receive nothing.
fn check_gathered(c: &Coll, i: usize) -> Defect {
    if c.root(i) == c.me {
        check_blocks(c, i)
    } else {
        Defect::NONE
    }
}
impl Kernel for GatherK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let root = c.root(i) as c_int;
        let (s, r) = c.v.at(i);
        c.m.gather(s, r, c.e.msg, root);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_gathered(&self.0, i)
    }
}
benchmark!(Gather, GATHER, GatherK, |c| {
    let n = c.size;
    GatherK(Coll::new(c, Moves::Data, 1, n))
});

static GATHERV: Info = on_request(Info {
    bufs: BufShape::GatherRecv,
    rooted: true,
    ..Info::mpi1("Gatherv", Class::Collective)
});
struct GathervK<'a>(CollV<'a>);
impl Kernel for GathervK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let v = &mut self.0;
        let root = v.c.root(i) as c_int;
        let (s, r) = v.c.v.at(i);
        v.c.m.gatherv(s, r, &v.counts, &v.displs, v.c.e.msg, root);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_gathered(&self.0.c, i)
    }
}
benchmark!(Gatherv, GATHERV, GathervK, |c| {
    let n = c.size;
    GathervK(CollV::new(c, 1, n))
});

static SCATTER: Info = on_request(Info {
    bufs: BufShape::ScatterSend,
    rooted: true,
    ..Info::mpi1("Scatter", Class::Collective)
});
/// The root's NP blocks, block k to rank k.
struct ScatterK<'a>(Coll<'a>);
/// Every rank, the root too, has block `me` of the root's send buffer.
fn check_scattered(c: &Coll, i: usize) -> Defect {
    copied(c.got(i), &c.e.lay, c.root(i), c.me * c.block())
}
impl Kernel for ScatterK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let root = c.root(i) as c_int;
        let (s, r) = c.v.at(i);
        c.m.scatter(s, r, c.e.msg, root);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_scattered(&self.0, i)
    }
}
benchmark!(Scatter, SCATTER, ScatterK, |c| {
    let n = c.size;
    ScatterK(Coll::new(c, Moves::Data, n, 1))
});

static SCATTERV: Info = on_request(Info {
    bufs: BufShape::ScatterSend,
    rooted: true,
    ..Info::mpi1("Scatterv", Class::Collective)
});
struct ScattervK<'a>(CollV<'a>);
impl Kernel for ScattervK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let v = &mut self.0;
        let root = v.c.root(i) as c_int;
        let (s, r) = v.c.v.at(i);
        v.c.m.scatterv(s, &v.counts, &v.displs, r, v.c.e.msg, root);
    }
    fn check(&mut self, i: usize) -> Defect {
        check_scattered(&self.0.c, i)
    }
}
benchmark!(Scatterv, SCATTERV, ScattervK, |c| {
    let n = c.size;
    ScattervK(CollV::new(c, n, 1))
});

static REDUCE_SCATTER_BLOCK: Info = on_request(Info {
    bufs: BufShape::ScatterSend,
    effort: np_blocks,
    ..reduction("Reduce_scatter_block")
});
/// IMB 2021's semantics: X bytes (X/4 floats) is the block every rank receives, so each sends
/// NP·X; rank k gets the sums of floats k·X/4 .. (k+1)·X/4 (of the message's elements k·N ..
/// (k+1)·N under `-red_data_type`).
struct ReduceScatterBlockK<'a>(Coll<'a>);
impl Kernel for ReduceScatterBlockK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let (s, r) = c.v.at(i);
        c.m.reduce_scatter_block(s, r, c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        let n = c.e.lay.n;
        c.sums(i, c.me * n, n)
    }
}
benchmark!(
    Reduce_scatter_block,
    REDUCE_SCATTER_BLOCK,
    ReduceScatterBlockK,
    |c| {
        let n = c.size;
        ReduceScatterBlockK(Coll::new(c, Moves::Sums, n, 1))
    }
);

static REDUCE_LOCAL: Info = on_request(Info {
    effort: local_sum,
    ..reduction("Reduce_local")
});
/// No communication, so no waiting step: the X bytes of each buffer read and X written.
fn local_sum(s: &Shape) -> Effort {
    Effort {
        calls: 0.0,
        ..Effort::call(3 * s.x)
    }
}
/// MPI_Reduce_local of X/4 floats (or `-red_data_type`'s elements): the receive buffer += the
/// send buffer, no communication (IMB 2021: from one process on, every rank on its own).
/// Under `-off_cache` repetition i adds into receive copy i mod copies, as IMB 2021 does.
struct ReduceLocalK<'a>(Coll<'a>);
impl Kernel for ReduceLocalK<'_> {
    fn per_call(&self) -> bool {
        true
    }
    /// Untimed: start each loop from zero in every copy, so each holds a count of sums.
    fn before(&mut self) {
        self.0.v.all().1.fill(0);
    }
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let c = &mut self.0;
        let (s, r) = c.v.at(i);
        c.m.reduce_local(s, r, c.e.msg);
    }
    fn check(&mut self, i: usize) -> Defect {
        let c = &self.0;
        multiple(
            c.got(i),
            &c.e.lay,
            c.me,
            local_sums(i, c.v.rot().recv.copies),
        )
    }
}
/// How many times repetition `i`'s receive copy has had the send buffer added, of `copies`
/// taken in turn: once each time its turn came, repetition i's included.
fn local_sums(i: usize, copies: usize) -> usize {
    i / copies + 1
}
benchmark!(Reduce_local, REDUCE_LOCAL, ReduceLocalK, |c| ReduceLocalK(
    Coll::new(c, Moves::Sums, 1, 1)
));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coll::tests::{bare, bare_v, TWO};
    use imb_core::buffers::buf_value;

    #[test]
    fn imb2021_times_each_call() {
        let per_call = [
            GatherK(bare()).per_call(),
            GathervK(bare_v()).per_call(),
            ScatterK(bare()).per_call(),
            ScattervK(bare_v()).per_call(),
            ReduceScatterBlockK(bare()).per_call(),
            ReduceLocalK(bare()).per_call(),
        ];
        assert_eq!(per_call, [true; 6]);
    }

    /// Rank 1 of 2 holds bytes 4..8 of rank 0's send buffer, the block root 0 scatters to it:
    /// right at every repetition with one root, wrong where rank 1 is the root with two.
    #[test]
    fn scatter_checks_the_repetitions_root() {
        let s = [0u8; 4];
        let mut r = buf_value(0, 1).to_ne_bytes();
        let mut one = ScatterK(Coll::bare(1, 2, 1, Moves::Data, &s, &mut r));
        assert!((0..4).all(|i| one.check(i) == Defect::NONE));
        let mut two = ScatterK(Coll::bare(1, 2, 2, Moves::Data, &s, &mut r));
        let bad: Vec<bool> = (0..4).map(|i| two.check(i).pos.is_some()).collect();
        assert_eq!(bad, [false, true, false, true]);
    }

    /// Only the root checks what it gathered: rank 0 always with one root.
    #[test]
    fn gather_checks_at_the_repetitions_root() {
        let s = [0u8; 4];
        let mut r = [0u8; 8];
        let mut one = GatherK(Coll::bare(0, 2, 1, Moves::Data, &s, &mut r));
        assert!((0..4).all(|i| one.check(i).pos.is_some()));
        let mut two = GatherK(Coll::bare(0, 2, 2, Moves::Data, &s, &mut r));
        let bad: Vec<bool> = (0..4).map(|i| two.check(i).pos.is_some()).collect();
        assert_eq!(bad, [true, false, true, false]);
    }

    /// Repetition i of Reduce_local left i+1 times the send buffer.
    #[test]
    fn local_sums_are_checked_against_their_count() {
        let s = [0u8; 20];
        let mut b: Vec<u8> = (0..5)
            .flat_map(|i| (3.0 * buf_value(1, i)).to_ne_bytes())
            .collect();
        let mut k = ReduceLocalK(Coll::bare(1, 2, 1, Moves::Sums, &s, &mut b));
        assert_eq!(k.check(2).pos, None);
        assert_eq!(k.check(1).pos, Some(0));
    }

    /// Under `-off_cache` repetition i adds into copy i mod copies, which has then been added
    /// to i / copies + 1 times.
    #[test]
    fn local_sums_count_the_turns_of_each_copy() {
        let turns: Vec<usize> = (0..7).map(|i| local_sums(i, 3)).collect();
        assert_eq!(turns, [1, 1, 1, 2, 2, 2, 3]);
        assert!((0..5).all(|i| local_sums(i, 1) == i + 1));
    }

    /// After repetition 2 of two copies, copy 0 holds 2 × the send buffer, copy 1 holds 1 ×:
    /// repetitions 2 and 1 check so, repetition 3 (copy 1's second turn) finds too little.
    #[test]
    fn local_sums_are_checked_in_the_repetitions_copy() {
        let s = [0u8; 72];
        let times = |k: f32| -> Vec<u8> {
            (0..2)
                .flat_map(|i| (k * buf_value(1, i)).to_ne_bytes())
                .collect()
        };
        let mut r = [0u8; 72];
        r[..8].copy_from_slice(&times(2.0));
        r[64..].copy_from_slice(&times(1.0));
        let c = Coll::rotated((1, 2, 1), Moves::Sums, 8, (&s, &mut r), TWO);
        let mut k = ReduceLocalK(c);
        assert_eq!(k.check(2), Defect::NONE);
        assert_eq!(k.check(1), Defect::NONE);
        assert_eq!(k.check(3).pos, Some(0));
    }

    /// Scatter and Gather read the repetition's receive copy.
    #[test]
    fn rooted_checks_read_the_repetitions_copy() {
        let s = [0u8; 72];
        let mut r = [0u8; 72];
        r[64..68].copy_from_slice(&buf_value(0, 1).to_ne_bytes());
        let mut k = ScatterK(Coll::rotated((1, 2, 1), Moves::Data, 4, (&s, &mut r), TWO));
        assert!(k.check(0).pos.is_some());
        assert_eq!(k.check(1), Defect::NONE);
        let mut r = [0u8; 72];
        r[..4].copy_from_slice(&buf_value(0, 0).to_ne_bytes());
        r[4..8].copy_from_slice(&buf_value(1, 0).to_ne_bytes());
        let mut k = GatherK(Coll::rotated((0, 2, 1), Moves::Data, 4, (&s, &mut r), TWO));
        assert_eq!(k.check(4), Defect::NONE);
        assert!(k.check(5).pos.is_some());
    }
}
