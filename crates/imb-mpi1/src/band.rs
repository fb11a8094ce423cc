//! IMB 2021's message-rate benchmarks, Uniband and Biband (doc/ReadMe_IMB.md, "Uniband and
//! Biband"). The NP processes form NP/2 pairs, rank i with rank i + NP/2. In one repetition
//! every pair moves a window of W = `-window_size` messages of X bytes, all in flight at once
//! (MPI_Isend/MPI_Irecv, then MPI_Waitall), and the receiving side then sends a 1-byte
//! acknowledgement, so no window starts before the previous one has arrived. Uniband sends
//! from the lower half to the upper; Biband both ways (W each way, Mbytes/sec counts both).
//! The row is IMB 2021's Msg/sec = scale_bw · W · NP/2 / t_max, and Mbytes/sec = Msg/sec · X /
//! 2^20, the megabyte of every imb-rs table (`table::MSG_RATE`). Run only when named.

use crate::ffi::{Mpi, Requests};
use imb_core::bench::{Class, Effort, Info, Procs, Shape};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Comm, Ctx, Kernel, Timed};
use imb_core::table::{self, MSGS};
use std::os::raw::c_int;

const fn rate(name: &'static str, scale_bw: f64, effort: fn(&Shape) -> Effort) -> Info {
    Info {
        procs: Procs::Pairs,
        table: &table::MSG_RATE,
        scale_bw,
        on_request: true,
        effort,
        ..Info::mpi1(name, Class::ParallelTransfer)
    }
}

static UNIBAND: Info = rate("Uniband", 1.0, |s| window(s, 1));
static BIBAND: Info = rate("Biband", 2.0, |s| window(s, 2));

/// One repetition on one process: `ways` × W messages of X bytes in flight together, and the
/// acknowledgement that waits for them. The time grows with W (with Open MPI's shared memory,
/// faster than W: doc/ReadMe_IMB.md, "Uniband and Biband"), so `-window_size` is what lowers it.
fn window(s: &Shape, ways: usize) -> Effort {
    let msgs = ways * s.params.window_size;
    Effort {
        msgs: msgs as f64,
        bytes: (msgs * s.x) as f64,
        lever: Some("-window_size"),
        ..Effort::call(0)
    }
}

/// One rank's side of a pair.
pub struct Pair<'a> {
    m: Mpi<'a>,
    /// In the lower half (sends in Uniband, receives the acknowledgement).
    first: bool,
    peer: usize,
    s: &'a [u8],
    r: &'a mut [u8],
    reqs: Requests,
    ack: [u8; 1],
    /// W · NP/2: the messages one repetition moves (one direction).
    msgs: f64,
}

impl<'a> Pair<'a> {
    fn new(c: Ctx<'a>, per_window: usize) -> Self {
        let half = c.size / 2;
        let w = c.params.window_size;
        Pair {
            m: Mpi::new(c.comm),
            first: c.rank < half,
            peer: if c.rank < half {
                c.rank + half
            } else {
                c.rank - half
            },
            s: &c.send[..c.x],
            r: &mut c.recv[..c.x],
            reqs: Requests::new(per_window * w),
            ack: [0],
            msgs: (w * half) as f64,
        }
    }
}

pub struct UnibandK<'a>(Pair<'a>);
impl Kernel for UnibandK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        if p.first {
            p.m.window_send(p.s, p.peer as c_int, &mut p.reqs, &mut p.ack);
        } else {
            p.m.window_recv(p.r, p.peer as c_int, &mut p.reqs, &p.ack);
        }
    }
    fn check(&mut self, _i: usize) -> Defect {
        let p = &self.0;
        if p.first {
            Defect::NONE
        } else {
            check_copy(p.r, p.peer, 0)
        }
    }
}

pub struct BibandK<'a>(Pair<'a>);
impl Kernel for BibandK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        p.m.window_both(p.s, p.r, p.peer as c_int, &mut p.reqs, &mut p.ack, p.first);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_copy(self.0.r, self.0.peer, 0)
    }
}

/// A kernel's timed loop (the engine's, through `kernel::bracket`) with the pair's message
/// count in `Sample::parts[MSGS]`, which `table::MSG_RATE` turns into the rates.
pub struct Rated<K> {
    k: K,
    msgs: f64,
}

impl<'a> Rated<UnibandK<'a>> {
    /// Uniband's kernel as the overhead example drives it.
    pub fn uniband(c: Ctx<'a>) -> Self {
        let p = Pair::new(c, 1);
        Rated {
            msgs: p.msgs,
            k: UnibandK(p),
        }
    }
}

impl<K: Kernel> Timed for Rated<K> {
    fn run(
        &mut self,
        comm: &Comm,
        n_barr: usize,
        n: usize,
        check: bool,
    ) -> imb_core::kernel::Sample {
        let mut s = self.k.run(comm, n_barr, n, check);
        s.parts[MSGS] = self.msgs;
        s
    }
}

pub struct Uniband;
impl Benchmark for Uniband {
    fn info(&self) -> &'static Info {
        &UNIBAND
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(Rated::uniband(c))
    }
}

pub struct Biband;
impl Benchmark for Biband {
    fn info(&self) -> &'static Info {
        &BIBAND
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let p = Pair::new(c, 2);
        Box::new(Rated {
            msgs: p.msgs,
            k: BibandK(p),
        })
    }
}
