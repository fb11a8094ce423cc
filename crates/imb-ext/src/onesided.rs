//! Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get (guide 4.2.1–4.2.4; doc/METHODOLOGY.md, "The
//! patterns"): two processes, X bytes of MPI_BYTE per call, completed by MPI_Win_fence.
//!
//! Put windows expose the receive buffer, Get windows the send buffer; both span the whole
//! buffer (max(X, OVERALL_VOL)), created untimed when the kernel is built and followed by a
//! fence. Repetition i targets displacement i·X. NON-AGGREGATE: each origin call is followed by
//! a fence (the passive side only fences). AGGREGATE: an untimed fence before the barriers, n
//! origin calls from disjoint offsets i·X, one closing fence inside the timed region.
//!
//! `-off_cache`: IMB 2021 moves all four (its Bidir_ kernels are its Unidir_ ones) through the
//! copies by the repetition index in both modes: the origin's buffer by its own copies, the
//! target displacement by the window buffer's. Here a copy is a whole window buffer, so
//! repetition i does the above inside copy i % copies of each buffer (`Place`), and the
//! windows, which span the buffers, expose every copy.

use crate::epoch::Epochs;
use imb_core::bench::{BufShape, Class, Info, Mode, Procs};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Ctx, Kernel, Prep, Timed};
use imb_core::method::Rotations;
use imb_core::table;
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies;
use std::os::raw::c_int;

/// Where repetition i reads (in a send buffer: the Put origin's, the Get target's window) and
/// writes (in a receive buffer: the Put target's window, the Get origin's landing place):
/// block i·X of its copy, but a NON-AGGREGATE origin reads (Put) or lands (Get) at the start
/// of its copy, as in 3.0.
#[derive(Debug, Clone, Copy)]
struct Place {
    rot: Rotations,
    x: usize,
    aggregate: bool,
    get: bool,
}

impl Place {
    /// Offset of repetition i's source within its copy of the send buffer.
    #[inline(always)]
    fn src_block(&self, i: usize) -> usize {
        if self.aggregate || self.get {
            i * self.x
        } else {
            0
        }
    }
    /// Offset of repetition i's destination within its copy of the receive buffer.
    #[inline(always)]
    fn dst_block(&self, i: usize) -> usize {
        if self.aggregate || !self.get {
            i * self.x
        } else {
            0
        }
    }
    #[inline(always)]
    fn src(&self, i: usize) -> usize {
        self.rot.send.offset(i) + self.src_block(i)
    }
    #[inline(always)]
    fn dst(&self, i: usize) -> usize {
        self.rot.recv.offset(i) + self.dst_block(i)
    }
}

/// One of the four patterns on one rank.
struct OneSided<'a> {
    w: Win<'a>,
    s: &'a [u8],
    x: usize,
    peer: usize,
    epochs: Epochs,
    get: bool,
    place: Place,
    /// This rank issues the Put/Get calls.
    origin: bool,
    /// This rank's window is written (Put) or its landing buffer receives (Get): it is checked.
    receives: bool,
}

impl<'a> OneSided<'a> {
    fn new(c: Ctx<'a>, get: bool, bidir: bool) -> Self {
        // Unidir: rank 0 puts into rank 1; rank 1 gets from rank 0.
        let origin = bidir || (c.rank == 1) == get;
        let hints = Hints::new(c.info);
        // A copy's blocks span at most the copy (n·X <= OVERALL_VOL), and the windows span the
        // buffers: every copy is exposed.
        copies::assert_fit("send buffer", c.rot.send, c.rot.send.len, c.send.len());
        copies::assert_fit("receive buffer", c.rot.recv, c.rot.recv.len, c.recv.len());
        let aggregate = c.mode == Mode::Aggregate;
        let w = if get {
            Win::readable(c.comm, c.send, c.recv, 1, &hints)
        } else {
            Win::exposing(c.comm, c.recv, 1, &hints)
        };
        w.fence();
        OneSided {
            w,
            s: c.send,
            x: c.x,
            peer: 1 - c.rank,
            epochs: Epochs { aggregate },
            get,
            place: Place {
                rot: c.rot,
                x: c.x,
                aggregate,
                get,
            },
            origin,
            receives: if get { origin } else { bidir || !origin },
        }
    }

    /// What repetition i wrote, once fenced, against the peer's send bytes it came from (every
    /// copy holds the same bytes, so the offset within the copy names them).
    fn check_block(&self, i: usize) -> Defect {
        if !self.receives {
            return Defect::NONE;
        }
        let (x, at) = (self.x, self.place.dst(i));
        let got = if self.get {
            self.w.landed()
        } else {
            self.w.local()
        };
        check_copy(&got[at..at + x], self.peer, self.place.src_block(i))
    }
}

impl Kernel for OneSided<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let (x, src, dst) = (self.x, self.place.src(i), self.place.dst(i));
        if self.origin {
            if self.get {
                self.w.get(dst, x, self.peer as c_int, src);
            } else {
                self.w.put(&self.s[src..src + x], self.peer as c_int, dst);
            }
        }
        self.epochs.after_transfer(&self.w);
    }
    fn check(&mut self, i: usize) -> Defect {
        self.epochs.check(i, |i| self.check_block(i))
    }
    fn verify(&mut self, n: usize) -> Defect {
        self.epochs.verify(n, |i| self.check_block(i))
    }
    fn before(&mut self) {
        self.epochs.open(&self.w);
    }
    fn complete(&mut self) {
        self.epochs.close(&self.w);
    }
}

const fn pair(name: &'static str) -> Info {
    Info {
        procs: Procs::Pair,
        table: &table::SINGLE,
        unit: 4,
        second_min: 4,
        bufs: BufShape::Window,
        modes: &[Mode::Aggregate, Mode::NonAggregate],
        effort: crate::epoch::effort,
        ..Info::mpi1(name, Class::SingleTransfer)
    }
}

macro_rules! one_sided {
    ($ty:ident, $info:ident, $name:literal, get = $get:expr, bidir = $bidir:expr) => {
        pub struct $ty;
        static $info: Info = pair($name);
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
                imb_onesided::prepare(p)
            }
            fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                Box::new(OneSided::new(c, $get, $bidir))
            }
        }
    };
}

one_sided!(
    Unidir_Put,
    UNIDIR_PUT,
    "Unidir_Put",
    get = false,
    bidir = false
);
one_sided!(
    Unidir_Get,
    UNIDIR_GET,
    "Unidir_Get",
    get = true,
    bidir = false
);
one_sided!(Bidir_Put, BIDIR_PUT, "Bidir_Put", get = false, bidir = true);
one_sided!(Bidir_Get, BIDIR_GET, "Bidir_Get", get = true, bidir = true);

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::method::{OffCache, Rotation};

    /// The engine's copies of imb-ext's buffers: whole windows of max(X, OVERALL_VOL) bytes.
    fn place(x: usize, vol: usize, n: usize, copies: bool, aggregate: bool, get: bool) -> Place {
        let oc = copies.then_some(OffCache {
            cache_bytes: 4 * vol,
            line_bytes: 64,
        });
        let r = Rotation::new(oc, x.max(vol), n);
        Place {
            rot: Rotations { send: r, recv: r },
            x,
            aggregate,
            get,
        }
    }

    #[test]
    fn without_copies_the_3_0_offsets() {
        for get in [false, true] {
            let p = place(8, 64, 8, false, true, get);
            assert_eq!((p.src(3), p.dst(3)), (24, 24));
            let p = place(8, 64, 8, false, false, get);
            // The origin reads (Put) or lands (Get) at 0; the target side moves by i·X.
            let (src, dst) = if get { (24, 0) } else { (0, 24) };
            assert_eq!((p.src(3), p.dst(3)), (src, dst));
        }
    }

    #[test]
    fn repetitions_move_through_the_copies_and_stay_inside() {
        let (x, vol, n) = (8, 64, 8);
        for (aggregate, get) in [(true, false), (true, true), (false, false), (false, true)] {
            let p = place(x, vol, n, true, aggregate, get);
            let r = p.rot.recv;
            assert!(r.copies > 1 && r.stride > vol);
            let mut written = Vec::new();
            for i in 0..n {
                assert!(p.src(i) + x <= p.rot.send.bytes() && p.dst(i) + x <= r.bytes());
                assert_eq!(p.dst(i) - p.dst_block(i), r.offset(i));
                assert_eq!(p.src(i) - p.src_block(i), p.rot.send.offset(i));
                written.push(p.dst(i));
            }
            // An AGGREGATE epoch never writes one place twice (nor does a target in either mode).
            if aggregate || !get {
                written.sort();
                written.dedup();
                assert_eq!(written.len(), n);
            }
        }
    }
}
