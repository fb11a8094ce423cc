//! Exchange_put and Exchange_get (doc/METHODOLOGY.md, "IMB-RMA"): every rank locks its left and
//! right neighbour of the ring and per repetition puts its send bytes [0, X) into the left
//! one's window at 0 and [X, 2X) into the right one's at X (Exchange_get: gets the right one's
//! [0, X) and the left one's [X, 2X) into the same places of its receive buffer), then flushes
//! both. Buffers are 2X. Two processes are each other's left and right (one lock, one flush);
//! one process is its own neighbour. Check mode: block 0 holds the right neighbour's block 0,
//! block 1 the left neighbour's block 1.
//!
//! `-off_cache`: as in IMB 2021, repetition i moves both blocks of copy i % copies of the send
//! buffer (a put's origin, a get's target displacement) to the same blocks of that copy of
//! the receive buffer (a put's target displacement, a get's landing place); the windows span
//! the whole buffers, so every copy. Check mode verifies every copy written.

use crate::epoch::{settle_own, Epoch, Flush, Targets};
use crate::kernel::{boxed, each_copy, Ops};
use imb_core::bench::{BufShape, Class, Info};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Ctx, Prep, Timed};
use imb_core::method::Rotations;
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies;
use std::os::raw::c_int;

struct Exchange<'a> {
    s: &'a [u8],
    x: usize,
    me: c_int,
    left: c_int,
    right: c_int,
    get: bool,
    rot: Rotations,
}

impl<'a> Ops<'a> for Exchange<'a> {
    #[inline(always)]
    fn issue(&self, w: &Win<'a>, i: usize) {
        let (x, src, dst) = (self.x, self.rot.send.offset(i), self.rot.recv.offset(i));
        if self.get {
            w.get(dst, x, self.right, src);
            w.get(dst + x, x, self.left, src + x);
        } else {
            w.put(&self.s[src..src + x], self.left, dst);
            w.put(&self.s[src + x..src + 2 * x], self.right, dst + x);
        }
    }
    fn verify(&self, w: &Win<'a>, n: usize) -> Defect {
        let got = if self.get {
            w.landed()
        } else {
            settle_own(w, self.me);
            w.local()
        };
        let x = self.x;
        each_copy(self.rot.recv, n, |_, at| {
            check_copy(&got[at..at + x], self.right as usize, 0).max(check_copy(
                &got[at + x..at + 2 * x],
                self.left as usize,
                x,
            ))
        })
    }
}

fn kernel<'a>(c: Ctx<'a>, get: bool) -> Box<dyn Timed + 'a> {
    let (me, np) = (c.rank as c_int, c.size as c_int);
    let (left, right) = ((me + np - 1) % np, (me + 1) % np);
    let hints = Hints::new(c.info);
    copies::assert_fit("send buffer", c.rot.send, 2 * c.x, c.send.len());
    copies::assert_fit("receive buffer", c.rot.recv, 2 * c.x, c.recv.len());
    let w = if get {
        Win::readable(c.comm, c.send, c.recv, 1, &hints)
    } else {
        Win::exposing(c.comm, c.recv, 1, &hints)
    };
    let epoch = Epoch {
        targets: Targets::Two(left, right),
        flush: Flush::Remote,
        every: true,
        origin: true,
    };
    let ops = Exchange {
        s: c.send,
        x: c.x,
        me,
        left,
        right,
        get,
        rot: c.rot,
    };
    boxed(w, c.comm, epoch, ops)
}

const fn exchange(name: &'static str) -> Info {
    Info {
        bufs: BufShape::Blocks(2),
        // Two operations, flushed after each repetition.
        effort: |s| crate::kernel::effort(2, true, s.x),
        ..Info::mpi1(name, Class::Collective)
    }
}

pub struct Exchange_put;
static EXCHANGE_PUT: Info = exchange("Exchange_put");
impl Benchmark for Exchange_put {
    fn info(&self) -> &'static Info {
        &EXCHANGE_PUT
    }
    fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
        imb_onesided::prepare(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        kernel(c, false)
    }
}

pub struct Exchange_get;
static EXCHANGE_GET: Info = exchange("Exchange_get");
impl Benchmark for Exchange_get {
    fn info(&self) -> &'static Info {
        &EXCHANGE_GET
    }
    fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
        imb_onesided::prepare(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        kernel(c, true)
    }
}
