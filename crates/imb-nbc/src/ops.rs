//! The thirteen non-blocking collectives, one started operation each (the `Op`s the loops of
//! `overlap` time), and what `-check` compares afterwards (guide 3.3.4 for the patterns).
//! Reductions move X/4 MPI_FLOATs with MPI_SUM; the rest move MPI_BYTEs. Call i of a loop (each
//! loop counts from 0) of a rooted operation uses root `i mod roots`: roots = 1 keeps root 0
//! (IMB 2021's default, under either profile), roots = NP moves the root by one each call
//! (`-root_shift on`), as IMB 2021's IMB-NBC does in its `_pure` and overlap loops. Its
//! Ireduce alone rotates the overlap loop's root under `off` too; here t_ovrl keeps t_pure's
//! roots, so overlap[%] compares one operation (doc/METHODOLOGY.md, "imb-nbc").
//! Ireduce_scatter gives every process X bytes of an NP·X-byte vector, as IMB 2021 does (not
//! 3.0's split of X that imb-mpi1's Reduce_scatter keeps; doc/METHODOLOGY.md, "imb-nbc").
//!
//! `-off_cache`: IMB 2021 moves every one of these operations but Ibarrier through its
//! copies, in the `_pure` loop and the overlap loop alike, by the call's index: call i sends
//! from send copy `i mod copies` and receives into receive copy `i mod copies`, each buffer by
//! its own stride (`Ctx::rot`). Its Ibcast moves the one buffer a rank passes (the send buffer
//! at the root, the receive buffer elsewhere) by the send buffer's stride; here each moves by
//! its own, which is the same, both being X bytes. Ibarrier has no buffers, so no copies.
//! Check mode reads the receive copy of the call it checks; every copy is written whole by its
//! call, so nothing accumulates.

use imb_core::buffers::{check_copy, check_sum, Defect};
use imb_core::kernel::Ctx;
use imb_core::method::{Rotation, Rotations};
use imb_mpi::nonblocking::{Mpi, Pending};
use imb_mpi::rc::{ints, uniform};
use imb_overlap::op::{Op, Pattern};
use std::os::raw::c_int;

/// What every operation holds: the communicator's handles and the buffers it touches.
pub struct Coll<'a> {
    m: Mpi<'a>,
    me: usize,
    n: usize,
    x: usize,
    /// How many ranks the root of a rooted operation cycles through
    /// (`Method::roots_or_zero`), read once here so that a call only takes a remainder.
    roots: usize,
    /// Every copy of the send and the receive message (one without `-off_cache`).
    s: &'a [u8],
    r: &'a mut [u8],
    /// Bytes of one call's send and receive message.
    slen: usize,
    rlen: usize,
    /// Where call i's copies lie in `s` and `r`.
    rot: Rotations,
}

/// The bytes of `buf` that the copies of a `len`-byte message occupy. Checked here, once,
/// so that every call's slice lies inside the buffer and the FFI wrappers' lengths hold.
fn copies(buf: &[u8], rot: Rotation, len: usize, what: &str) -> usize {
    let need = (rot.copies - 1) * rot.stride + len;
    let have = buf.len();
    assert!(
        need <= have,
        "{what} buffer of {have} B cannot hold {} copies {} B apart of a {len} B message",
        rot.copies,
        rot.stride
    );
    need
}

impl<'a> Coll<'a> {
    /// `slen`/`rlen`: bytes of one call's messages (the slicing checks them, and their
    /// copies, once).
    fn new(c: Ctx<'a>, slen: usize, rlen: usize) -> Self {
        let rot = c.rot;
        let s_view = copies(c.send, rot.send, slen, "send");
        let r_view = copies(c.recv, rot.recv, rlen, "receive");
        Coll {
            m: Mpi::new(c.comm),
            me: c.rank,
            n: c.size,
            x: c.x,
            roots: c.method.roots_or_zero(c.size),
            s: &c.send[..s_view],
            r: &mut c.recv[..r_view],
            slen,
            rlen,
            rot,
        }
    }

    /// The root of call `i`.
    #[inline(always)]
    fn root(&self, i: usize) -> usize {
        i % self.roots
    }

    /// Call `i`'s send and receive message: its copies, as IMB 2021 picks them.
    #[inline(always)]
    fn msgs(&mut self, i: usize) -> (&[u8], &mut [u8]) {
        let (so, ro) = (self.rot.send.offset(i), self.rot.recv.offset(i));
        (&self.s[so..so + self.slen], &mut self.r[ro..ro + self.rlen])
    }

    /// What call `i` received: its receive copy.
    fn got(&self, i: usize) -> &[u8] {
        let ro = self.rot.recv.offset(i);
        &self.r[ro..ro + self.rlen]
    }

    /// An operation's view for unit tests: rank `me` of `n`, `roots` roots, no communicator,
    /// one copy of each buffer.
    #[cfg(test)]
    fn bare(me: usize, n: usize, roots: usize, s: &'a [u8], r: &'a mut [u8]) -> Self {
        Coll {
            m: Mpi::unconnected(),
            me,
            n,
            x: s.len().min(r.len()),
            roots,
            slen: s.len(),
            rlen: r.len(),
            s,
            r,
            rot: Rotations::NONE,
        }
    }

    /// The same over copies `rot` of `slen`- and `rlen`-byte messages (X: the shorter).
    #[cfg(test)]
    fn with_copies(mut self, rot: Rotations, slen: usize, rlen: usize) -> Self {
        copies(self.s, rot.send, slen, "send");
        copies(self.r, rot.recv, rlen, "receive");
        (self.slen, self.rlen, self.rot) = (slen, rlen, rot);
        self.x = slen.min(rlen);
        self
    }

    /// Block k of call `i`'s receive copy came from rank k's byte `from` on.
    fn check_blocks(&self, i: usize, from: impl Fn(usize) -> usize) -> Defect {
        let got = self.got(i);
        (0..self.n).fold(Defect::NONE, |d, k| {
            d.max(check_copy(&got[k * self.x..(k + 1) * self.x], k, from(k)))
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
    fn start(&mut self, i: usize) -> Pending<'_> {
        let c = &mut self.0;
        let (m, me, root) = (c.m, c.me as c_int, c.root(i) as c_int);
        let (s, r) = c.msgs(i);
        m.ibcast(s, r, me, root)
    }
    fn check(&self, i: usize) -> Defect {
        let c = &self.0;
        let root = c.root(i);
        if c.me == root {
            Defect::NONE
        } else {
            check_copy(c.got(i), root, 0)
        }
    }
}

pattern!(Allgather, AllgatherOp, Coll, GATHER);
impl Op for AllgatherOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let m = self.0.m;
        let (s, r) = self.0.msgs(i);
        m.iallgather(s, r)
    }
    fn check(&self, i: usize) -> Defect {
        self.0.check_blocks(i, |_| 0)
    }
}

pattern!(Allgatherv, AllgathervOp, CollV, GATHER);
impl Op for AllgathervOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let v = &mut self.0;
        let m = v.c.m;
        let (s, r) = v.c.msgs(i);
        m.iallgatherv(s, r, &v.counts, &v.displs)
    }
    fn check(&self, i: usize) -> Defect {
        self.0.c.check_blocks(i, |_| 0)
    }
}

/// The gathers fill the receive buffer of call i's root only.
fn check_gathered(c: &Coll, i: usize) -> Defect {
    if c.me == c.root(i) {
        c.check_blocks(i, |_| 0)
    } else {
        Defect::NONE
    }
}

pattern!(Gather, GatherOp, Coll, GATHER);
impl Op for GatherOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let c = &mut self.0;
        let (m, root) = (c.m, c.root(i) as c_int);
        let (s, r) = c.msgs(i);
        m.igather(s, r, root)
    }
    fn check(&self, i: usize) -> Defect {
        check_gathered(&self.0, i)
    }
}

pattern!(Gatherv, GathervOp, CollV, GATHER);
impl Op for GathervOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let v = &mut self.0;
        let (m, root) = (v.c.m, v.c.root(i) as c_int);
        let (s, r) = v.c.msgs(i);
        m.igatherv(s, r, &v.counts, &v.displs, root)
    }
    fn check(&self, i: usize) -> Defect {
        check_gathered(&self.0.c, i)
    }
}

/// Rank me, the root too, received block me of call i's root's send buffer (every copy of
/// which holds the same blocks).
fn check_scattered(c: &Coll, i: usize) -> Defect {
    check_copy(c.got(i), c.root(i), c.me * c.x)
}

pattern!(Scatter, ScatterOp, Coll, SCATTER);
impl Op for ScatterOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let c = &mut self.0;
        let (m, root) = (c.m, c.root(i) as c_int);
        let (s, r) = c.msgs(i);
        m.iscatter(s, r, root)
    }
    fn check(&self, i: usize) -> Defect {
        check_scattered(&self.0, i)
    }
}

pattern!(Scatterv, ScattervOp, CollV, SCATTER);
impl Op for ScattervOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let v = &mut self.0;
        let (m, root) = (v.c.m, v.c.root(i) as c_int);
        let (s, r) = v.c.msgs(i);
        m.iscatterv(s, &v.counts, &v.displs, r, root)
    }
    fn check(&self, i: usize) -> Defect {
        check_scattered(&self.0.c, i)
    }
}

pattern!(Alltoall, AlltoallOp, Coll, ALL);
impl Op for AlltoallOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let c = &mut self.0;
        let (m, x) = (c.m, c.x);
        let (s, r) = c.msgs(i);
        m.ialltoall(s, r, x)
    }
    fn check(&self, i: usize) -> Defect {
        // Block k came from rank k's block for me.
        let c = &self.0;
        c.check_blocks(i, |_| c.me * c.x)
    }
}

pattern!(Alltoallv, AlltoallvOp, CollV, ALL);
impl Op for AlltoallvOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let v = &mut self.0;
        let m = v.c.m;
        let (s, r) = v.c.msgs(i);
        m.ialltoallv(s, r, &v.counts, &v.displs)
    }
    fn check(&self, i: usize) -> Defect {
        let c = &self.0.c;
        c.check_blocks(i, |_| c.me * c.x)
    }
}

pattern!(Reduce, ReduceOp, Coll, PLAIN);
impl Op for ReduceOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let c = &mut self.0;
        let (m, root) = (c.m, c.root(i) as c_int);
        let (s, r) = c.msgs(i);
        m.ireduce(s, r, root)
    }
    fn check(&self, i: usize) -> Defect {
        let c = &self.0;
        if c.me == c.root(i) {
            check_sum(c.got(i), c.n, 0)
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
    fn start(&mut self, i: usize) -> Pending<'_> {
        let m = self.c.m;
        let (s, r) = self.c.msgs(i);
        m.ireduce_scatter(s, r, &self.counts)
    }
    fn check(&self, i: usize) -> Defect {
        let c = &self.c;
        check_sum(c.got(i), c.n, c.me * (c.x / 4))
    }
}

pattern!(Allreduce, AllreduceOp, Coll, PLAIN);
impl Op for AllreduceOp<'_> {
    #[inline(always)]
    fn start(&mut self, i: usize) -> Pending<'_> {
        let m = self.0.m;
        let (s, r) = self.0.msgs(i);
        m.iallreduce(s, r)
    }
    fn check(&self, i: usize) -> Defect {
        check_sum(self.0.got(i), self.0.n, 0)
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
    fn start(&mut self, _: usize) -> Pending<'_> {
        self.0.ibarrier()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::buffers::buf_value;

    /// `n` floats of rank `rank`'s send pattern from float `first` on.
    fn pattern(rank: usize, first: usize, n: usize) -> Vec<u8> {
        (first..first + n)
            .flat_map(|i| buf_value(rank, i).to_ne_bytes())
            .collect()
    }

    /// For calls 0, 1, …: whether the check of that call found a defect.
    fn defects(op: &impl Op, calls: usize) -> Vec<bool> {
        (0..calls).map(|i| op.check(i).pos.is_some()).collect()
    }

    fn bare_v<'a>(me: usize, n: usize, roots: usize, s: &'a [u8], r: &'a mut [u8]) -> CollV<'a> {
        let c = Coll::bare(me, n, roots, s, r);
        let (counts, displs) = uniform(c.x, n);
        CollV { c, counts, displs }
    }

    /// IMB 2021's sequence: root 0, then one further each call, back to 0 after NP − 1; one
    /// root keeps 0.
    #[test]
    fn the_root_of_call_i_is_i_mod_roots() {
        let three: Vec<usize> = (0..7)
            .map(|i| Coll::bare(0, 3, 3, &[], &mut []).root(i))
            .collect();
        assert_eq!(three, [0, 1, 2, 0, 1, 2, 0]);
        assert!((0..7).all(|i| Coll::bare(2, 3, 1, &[], &mut []).root(i) == 0));
    }

    /// A receiver compares with the pattern of its call's root (rank 0's here) and the root
    /// checks nothing.
    #[test]
    fn bcast_checks_the_calls_root() {
        let s = [0u8; 8];
        let mut r = pattern(0, 0, 2);
        let fixed = BcastOp(Coll::bare(1, 3, 1, &s, &mut r));
        assert_eq!(defects(&fixed, 4), [false; 4]);
        let moving = BcastOp(Coll::bare(1, 3, 3, &s, &mut r));
        // Call 1: this rank was the root; call 2: rank 2's pattern was due.
        assert_eq!(defects(&moving, 4), [false, false, true, false]);
    }

    /// The receive buffer holds nothing gathered, so every check made is a defect: the
    /// gathers and Ireduce check only at their call's root.
    #[test]
    fn gathers_and_reduce_check_at_the_calls_root_only() {
        let s = [0u8; 8];
        let mut r = [0u8; 24];
        for roots in [1, 3] {
            let want = |me: usize| -> Vec<bool> { (0..5).map(|i| i % roots == me).collect() };
            for me in 0..3 {
                let g = GatherOp(Coll::bare(me, 3, roots, &s, &mut r));
                assert_eq!(defects(&g, 5), want(me), "Igather {me}/{roots}");
                let gv = GathervOp(bare_v(me, 3, roots, &s, &mut r));
                assert_eq!(defects(&gv, 5), want(me), "Igatherv {me}/{roots}");
                let red = ReduceOp(Coll::bare(me, 3, roots, &s, &mut r[..8]));
                assert_eq!(defects(&red, 5), want(me), "Ireduce {me}/{roots}");
            }
        }
    }

    /// `-off_cache -1`'s lines over a 256-byte cache: copies two or more lines apart.
    fn rotations(slen: usize, rlen: usize, n: usize) -> Rotations {
        let oc = Some(imb_core::method::OffCache {
            cache_bytes: 256,
            line_bytes: 64,
        });
        Rotations::new(oc, (slen, rlen), n)
    }

    /// Where call i's messages start in the buffers, and their lengths.
    fn placed(c: &mut Coll, i: usize) -> (usize, usize, usize, usize) {
        let (s0, r0) = (c.s.as_ptr() as usize, c.r.as_ptr() as usize);
        let (s, r) = c.msgs(i);
        (
            s.as_ptr() as usize - s0,
            s.len(),
            r.as_ptr() as usize - r0,
            r.len(),
        )
    }

    /// Call i sends from send copy i mod copies and receives into receive copy i mod copies,
    /// each buffer by its own stride; without copies both stay at the buffers' start.
    #[test]
    fn call_i_uses_copy_i_mod_copies() {
        let rot = rotations(8, 130, 100);
        assert_eq!((rot.send.stride, rot.send.copies), (128, 4));
        assert_eq!((rot.recv.stride, rot.recv.copies), (256, 2));
        let s = vec![0u8; rot.send.bytes()];
        let mut r = vec![0u8; rot.recv.bytes()];
        let mut c = Coll::bare(0, 2, 1, &s, &mut r).with_copies(rot, 8, 130);
        let got: Vec<_> = (0..6).map(|i| placed(&mut c, i)).collect();
        let want: Vec<_> = [0, 1, 2, 3, 0, 1]
            .iter()
            .zip([0, 1, 0, 1, 0, 1])
            .map(|(&k, l)| (k * 128, 8, l * 256, 130))
            .collect();
        assert_eq!(got, want);
        let mut one = Coll::bare(0, 2, 1, &s[..8], &mut r[..130]);
        assert!((0..5).all(|i| placed(&mut one, i) == (0, 8, 0, 130)));
    }

    /// The last copy plus the message must fit the buffer, checked when the operation is
    /// built: a buffer one byte short is refused.
    #[test]
    fn the_last_copy_must_fit() {
        let rot = rotations(40, 40, 2).send;
        assert_eq!((rot.stride, rot.copies), (128, 2));
        assert_eq!(copies(&[0; 168], rot, 40, "send"), 168);
        let short = std::panic::catch_unwind(|| copies(&[0; 167], rot, 40, "send"));
        assert!(short.is_err());
        assert_eq!(copies(&[0; 40], Rotation::NONE, 40, "send"), 40);
    }

    /// `copies` receive copies of `len` bytes `stride` apart, each holding the sum over `n`
    /// ranks, except copy `bad`, which holds nothing.
    fn sums_but(n: usize, len: usize, stride: usize, copies: usize, bad: usize) -> Vec<u8> {
        let sum: Vec<u8> = (0..len / 4)
            .flat_map(|j| {
                let e: f32 = (0..n).map(|k| buf_value(k, j)).sum();
                e.to_ne_bytes()
            })
            .collect();
        let mut r = vec![0u8; copies * stride];
        for k in (0..copies).filter(|&k| k != bad) {
            r[k * stride..k * stride + len].copy_from_slice(&sum);
        }
        r
    }

    /// Check mode reads the copy the checked call received into: a copy left empty is a
    /// defect exactly at the calls that use it.
    #[test]
    fn a_check_reads_its_calls_copy() {
        let rot = rotations(16, 16, 100);
        assert_eq!((rot.recv.stride, rot.recv.copies), (128, 4));
        let s = vec![0u8; rot.send.bytes()];
        let mut r = sums_but(2, 16, 128, 4, 1);
        let op = AllreduceOp(Coll::bare(0, 2, 1, &s, &mut r).with_copies(rot, 16, 16));
        let want = [false, true, false, false, false, true, false, false];
        assert_eq!(defects(&op, 8), want);
        // Ireduce with a moving root: rank 1, the root of the odd calls, checks their copies.
        let op = ReduceOp(Coll::bare(1, 2, 2, &s, &mut r).with_copies(rot, 16, 16));
        assert_eq!(defects(&op, 8), want);
        // Ibcast, rank 0 receiving from rank 1 at the odd calls: only copy 1 holds rank 1's
        // message, so calls 3 and 7 (copy 3) find none.
        let mut r = vec![0u8; rot.recv.bytes()];
        r[128..144].copy_from_slice(&pattern(1, 0, 4));
        let op = BcastOp(Coll::bare(0, 2, 2, &s, &mut r).with_copies(rot, 16, 16));
        let want = [false, false, false, true, false, false, false, true];
        assert_eq!(defects(&op, 8), want);
    }

    /// Every rank, the root too, has its block of the call's root's send buffer: rank 1
    /// holds block 1 of rank 0's.
    #[test]
    fn scatters_check_the_calls_roots_block() {
        let s = [0u8; 24];
        let mut r = pattern(0, 2, 2);
        let fixed = ScatterOp(Coll::bare(1, 3, 1, &s, &mut r));
        assert_eq!(defects(&fixed, 4), [false; 4]);
        let moving = ScatterOp(Coll::bare(1, 3, 3, &s, &mut r));
        assert_eq!(defects(&moving, 4), [false, true, true, false]);
        let moving_v = ScattervOp(bare_v(1, 3, 3, &s, &mut r));
        assert_eq!(defects(&moving_v, 4), [false, true, true, false]);
    }
}
