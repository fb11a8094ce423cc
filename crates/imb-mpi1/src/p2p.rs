//! Single and parallel transfer benchmarks (guide 3.3.2, 3.3.3): PingPong, PingPing, Sendrecv,
//! Exchange. MPI_BYTE messages of X bytes, always from offset 0 of the buffers.

use crate::ffi::Mpi;
use imb_core::bench::{Class, Info};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Ctx, Kernel, Timed};
use std::os::raw::c_int;

/// Send/receive views of one size and the neighbours of this rank.
struct P2p<'a> {
    m: Mpi<'a>,
    me: usize,
    left: usize,
    right: usize,
    s: &'a [u8],
    r: &'a mut [u8],
}

impl<'a> P2p<'a> {
    fn new(c: Ctx<'a>) -> Self {
        let n = c.size;
        P2p {
            m: Mpi::new(c.comm),
            me: c.rank,
            left: (c.rank + n - 1) % n,
            right: (c.rank + 1) % n,
            s: &c.send[..c.x],
            r: &mut c.recv[..c.x],
        }
    }
}

pub struct PingPong;
static PINGPONG: Info = Info {
    scale_time: 0.5,
    ..Info::mpi1("PingPong", Class::SingleTransfer)
};
struct PingPongK<'a>(P2p<'a>);

impl Kernel for PingPongK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        if p.me == 0 {
            p.m.send(p.s, 1);
            p.m.recv_any(p.r);
        } else {
            p.m.recv_any(p.r);
            p.m.send(p.s, 0);
        }
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_copy(self.0.r, 1 - self.0.me, 0)
    }
}

impl Benchmark for PingPong {
    fn info(&self) -> &'static Info {
        &PINGPONG
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(PingPongK(P2p::new(c)))
    }
}

pub struct PingPing;
static PINGPING: Info = Info::mpi1("PingPing", Class::SingleTransfer);
struct PingPingK<'a>(P2p<'a>);

impl Kernel for PingPingK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        p.m.pingping(p.s, p.right as c_int, p.r);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_copy(self.0.r, self.0.right, 0)
    }
}

impl Benchmark for PingPing {
    fn info(&self) -> &'static Info {
        &PINGPING
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(PingPingK(P2p::new(c)))
    }
}

pub struct Sendrecv;
static SENDRECV: Info = Info {
    scale_bw: 2.0,
    ..Info::mpi1("Sendrecv", Class::ParallelTransfer)
};
struct SendrecvK<'a>(P2p<'a>);

impl Kernel for SendrecvK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        p.m.sendrecv(p.s, p.right as c_int, p.r, p.left as c_int);
    }
    fn check(&mut self, _i: usize) -> Defect {
        check_copy(self.0.r, self.0.left, 0)
    }
}

impl Benchmark for Sendrecv {
    fn info(&self) -> &'static Info {
        &SENDRECV
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(SendrecvK(P2p::new(c)))
    }
}

pub struct Exchange;
static EXCHANGE: Info = Info {
    scale_bw: 4.0,
    ..Info::mpi1("Exchange", Class::ParallelTransfer)
};
struct ExchangeK<'a>(P2p<'a>);

impl Kernel for ExchangeK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        p.m.exchange(p.s, p.left as c_int, p.right as c_int, p.r);
    }
    /// Both messages land in the same buffer; the right neighbour's arrives last.
    fn check(&mut self, _i: usize) -> Defect {
        check_copy(self.0.r, self.0.right, 0)
    }
}

impl Benchmark for Exchange {
    fn info(&self) -> &'static Info {
        &EXCHANGE
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(ExchangeK(P2p::new(c)))
    }
}
