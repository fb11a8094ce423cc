//! Window (guide 4.2.6; doc/METHODOLOGY.md, "The patterns"): per repetition, every process creates
//! a window of X bytes over its receive buffer (MPI_Win_create with the settings file's info
//! hints), fences, puts 1 byte from its send buffer into its own window (the "negligible action",
//! skipped for X = 0), fences again and frees the window.
//!
//! Departure from 3.0: the closing fence before the free. 3.0 frees the window with the put's
//! epoch still open, which is erroneous MPI (MPI_Win_free requires completed RMA); IMB 2021
//! adds the same fence. It costs one more fence per repetition.
//!
//! `-off_cache` leaves Window at offset 0: IMB 2021's Window kernel creates every window over
//! the start of its receive buffer and puts from the start of its send buffer, without copies.

use imb_core::bench::{Class, Effort, Info};
use imb_core::kernel::{Benchmark, Comm, Ctx, Kernel, Prep, Timed};
use imb_mpi::window::{Hints, Win};
use std::os::raw::c_int;

pub struct Window;
static WINDOW: Info = Info {
    unit: 4,
    second_min: 4,
    checked: false,
    nonaggr_cap: true,
    // MPI_Win_create, two fences and MPI_Win_free wait for the group; the put is one byte.
    effort: |_| Effort {
        calls: 4.0,
        msgs: 1.0,
        ..Effort::call(1)
    },
    ..Info::mpi1("Window", Class::Collective)
};

struct WindowK<'a> {
    comm: &'a Comm,
    hints: Hints,
    me: c_int,
    s: &'a [u8],
    r: &'a mut [u8],
    x: usize,
}

impl Kernel for WindowK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let s = self.s;
        let w = Win::exposing_timed(self.comm, &mut self.r[..self.x], 1, &self.hints);
        w.fence();
        if self.x > 0 {
            w.put(&s[..1], self.me, 0);
        }
        w.fence();
        drop(w); // MPI_Win_free
    }
}

impl Benchmark for Window {
    fn info(&self) -> &'static Info {
        &WINDOW
    }
    fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
        imb_onesided::prepare(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let hints = Hints::new(c.info);
        // Untimed probe: hints MPI rejects fail here with a clear message, not in the loop.
        Win::exposing(c.comm, &mut [], 1, &hints).fence();
        Box::new(WindowK {
            comm: c.comm,
            hints,
            me: c.rank as c_int,
            s: c.send,
            r: c.recv,
            x: c.x,
        })
    }
}
