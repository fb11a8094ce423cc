//! Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get (guide 4.2.1–4.2.4; doc/METHODOLOGY.md, "The
//! patterns"): two processes, X bytes of MPI_BYTE per call, completed by MPI_Win_fence.
//!
//! Put windows expose the receive buffer, Get windows the send buffer; both span the whole
//! buffer (max(X, OVERALL_VOL)), created untimed when the kernel is built and followed by a
//! fence. Repetition i targets displacement i·X. NON-AGGREGATE: each origin call is followed by
//! a fence (the passive side only fences). AGGREGATE: an untimed fence before the barriers, n
//! origin calls from disjoint offsets i·X, one closing fence inside the timed region.

use crate::epoch::Epochs;
use crate::rma::{self, Info as Hints, Win};
use imb_core::bench::{BufShape, Class, Info, Mode, Procs};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Ctx, Kernel, Prep, Timed};
use imb_core::table;
use std::os::raw::c_int;

/// One of the four patterns on one rank.
struct OneSided<'a> {
    w: Win<'a>,
    s: &'a [u8],
    x: usize,
    peer: usize,
    epochs: Epochs,
    get: bool,
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
            epochs: Epochs {
                aggregate: c.mode == Mode::Aggregate,
            },
            get,
            origin,
            receives: if get { origin } else { bidir || !origin },
        }
    }

    /// What block `i` holds once fenced, against the peer's send bytes at i·X.
    fn check_block(&self, i: usize) -> Defect {
        if !self.receives {
            return Defect::NONE;
        }
        let agg = self.epochs.aggregate;
        let (x, at) = (self.x, if agg || !self.get { i * self.x } else { 0 });
        let got = if self.get {
            self.w.landed()
        } else {
            self.w.local()
        };
        // Non-aggregate puts send bytes [0, X) of the origin; everything else moves block i.
        let from = if agg || self.get { i * x } else { 0 };
        check_copy(&got[at..at + x], self.peer, from)
    }
}

impl Kernel for OneSided<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let (x, disp) = (self.x, i * self.x);
        let at = if self.epochs.aggregate { disp } else { 0 };
        if self.origin {
            if self.get {
                self.w.get(at, x, self.peer as c_int, disp);
            } else {
                self.w.put(&self.s[at..at + x], self.peer as c_int, disp);
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
            fn prepare(&self, p: &Prep) -> rma::Prepared {
                rma::prepare(p)
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
