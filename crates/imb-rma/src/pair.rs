//! Unidir_put, Bidir_put, Unidir_get, Bidir_get, Put_local and Get_local (doc/METHODOLOGY.md,
//! "IMB-RMA"): two processes, X bytes of MPI_BYTE per call into (or from) displacement 0 of the
//! peer's window, under a shared lock of the peer. Rank 0 is the origin; in the Bidir_ forms
//! rank 1 is one too. NON-AGGREGATE flushes after every call, AGGREGATE once after n calls;
//! the `_local` forms flush locally (the origin's buffer is reusable, the data may still be
//! on its way).
//!
//! Put windows expose the receive buffer, Get windows the send buffer (the data lands in the
//! receive buffer). Check mode: a put target's window, or a get origin's receive buffer, holds
//! the peer's first X send bytes.
//!
//! `-off_cache`: as in IMB 2021, repetition i reads copy i % copies of its send buffer (a put's
//! origin, a get's target displacement) and writes that copy of the receive buffer (a put's
//! target displacement, a get's landing place), in both modes; the windows span the whole
//! buffers, so every copy. Check mode verifies every copy written.

use crate::epoch::{settle_own, Epoch, Flush, Targets};
use crate::kernel::{boxed, each_copy, Ops};
use imb_core::bench::{Class, Info, Mode};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Ctx, Prep, Timed};
use imb_core::method::Rotations;
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies;
use std::os::raw::c_int;

/// Put or get of X bytes with the peer.
struct Transfer<'a> {
    s: &'a [u8],
    x: usize,
    me: c_int,
    peer: c_int,
    get: bool,
    /// This rank's window (put) or landing buffer (get) receives the peer's data.
    receives: bool,
    rot: Rotations,
}

impl<'a> Ops<'a> for Transfer<'a> {
    #[inline(always)]
    fn issue(&self, w: &Win<'a>, i: usize) {
        let (x, src, dst) = (self.x, self.rot.send.offset(i), self.rot.recv.offset(i));
        if self.get {
            w.get(dst, x, self.peer, src);
        } else {
            w.put(&self.s[src..src + x], self.peer, dst);
        }
    }
    fn verify(&self, w: &Win<'a>, n: usize) -> Defect {
        if !self.receives {
            return Defect::NONE;
        }
        let got = if self.get {
            w.landed()
        } else {
            settle_own(w, self.me);
            w.local()
        };
        each_copy(self.rot.recv, n, |_, at| {
            check_copy(&got[at..at + self.x], self.peer as usize, 0)
        })
    }
}

/// The kernel of one of the six on one rank.
fn kernel<'a>(c: Ctx<'a>, get: bool, bidir: bool, flush: Flush) -> Box<dyn Timed + 'a> {
    let origin = bidir || c.rank == 0;
    let peer = 1 - c.rank as c_int;
    let hints = Hints::new(c.info);
    copies::assert_fit("send buffer", c.rot.send, c.x, c.send.len());
    copies::assert_fit("receive buffer", c.rot.recv, c.x, c.recv.len());
    let w = if get {
        Win::readable(c.comm, c.send, c.recv, 1, &hints)
    } else {
        Win::exposing(c.comm, c.recv, 1, &hints)
    };
    let epoch = Epoch {
        targets: Targets::One(peer),
        flush,
        every: c.mode == Mode::NonAggregate,
        origin,
    };
    let ops = Transfer {
        s: c.send,
        x: c.x,
        me: c.rank as c_int,
        peer,
        get,
        receives: if get { origin } else { bidir || !origin },
        rot: c.rot,
    };
    boxed(w, c.comm, epoch, ops)
}

/// A benchmark of two processes in NON-AGGREGATE and AGGREGATE mode (IMB-RMA's order).
pub const fn pair(name: &'static str) -> Info {
    Info {
        modes: &[Mode::NonAggregate, Mode::Aggregate],
        effort: crate::kernel::one_op,
        ..Info::mpi1(name, Class::SingleTransfer)
    }
}

macro_rules! pair_benchmark {
    ($ty:ident, $info:ident, get = $get:expr, bidir = $bidir:expr, flush = $flush:expr,
     on_request = $req:expr) => {
        pub struct $ty;
        static $info: Info = Info {
            on_request: $req,
            ..pair(stringify!($ty))
        };
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
                imb_onesided::prepare(p)
            }
            fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                kernel(c, $get, $bidir, $flush)
            }
        }
    };
}

#[rustfmt::skip]
mod decl {
    use super::*;
    pair_benchmark!(Unidir_put, UNIDIR_PUT, get = false, bidir = false, flush = Flush::Remote, on_request = false);
    pair_benchmark!(Bidir_put, BIDIR_PUT, get = false, bidir = true, flush = Flush::Remote, on_request = false);
    pair_benchmark!(Unidir_get, UNIDIR_GET, get = true, bidir = false, flush = Flush::Remote, on_request = false);
    pair_benchmark!(Bidir_get, BIDIR_GET, get = true, bidir = true, flush = Flush::Remote, on_request = false);
    pair_benchmark!(Put_local, PUT_LOCAL, get = false, bidir = false, flush = Flush::Local, on_request = false);
    pair_benchmark!(Get_local, GET_LOCAL, get = true, bidir = false, flush = Flush::Local, on_request = true);
}
pub use decl::*;
