//! Single and parallel transfer benchmarks (guide 3.3.2, 3.3.3): PingPong, PingPing, Sendrecv,
//! Exchange. Messages of X bytes (MPI_BYTE; `-data_type`, `-contig_type`: `elems`), from offset
//! 0 of the buffers, or under `-off_cache` from repetition i's copy of each, as IMB 2021 moves
//! them (Exchange under `-compat 2021`: its left-bound message from a copy's second block). PingPong's and PingPing's kernels also run IMB 2021's Source variants (`source.rs`).

use crate::elems::{copied, Views};
use crate::types::Elems;
use imb_core::bench::{BufShape, Class, Info};
use imb_core::buffers::Defect;
use imb_core::kernel::{Benchmark, Ctx, Kernel, Timed};
use imb_core::method::Compat;
use imb_mpi::comm::Mpi;
use std::os::raw::c_int;

/// Send/receive views of one size, its messages and the neighbours of this rank.
struct P2p<'a> {
    m: Mpi<'a>,
    left: usize,
    right: usize,
    e: Elems,
    v: Views<'a>,
}

impl<'a> P2p<'a> {
    /// `sblocks`: messages in a send copy (one each but IMB 2021's Exchange's two).
    fn new(c: Ctx<'a>, sblocks: usize) -> Self {
        let n = c.size;
        let e = Elems::of(&c, false);
        let v = Views::new(c.send, c.recv, &e.lay, (sblocks, 1), c.rot);
        P2p {
            m: Mpi::new(c.comm),
            left: (c.rank + n - 1) % n,
            right: (c.rank + 1) % n,
            e,
            v,
        }
    }

    /// What `from` sent into repetition `i`'s receive copy.
    fn check(&self, i: usize, from: usize) -> Defect {
        copied(self.v.got(i), &self.e.lay, from, 0)
    }
}

/// Where a single transfer's receives come from. Fixed when the kernel is built, so the timed
/// step passes a number and decides nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// MPI_ANY_SOURCE, as IMB 3.0's PingPong and PingPing (the guide, 3.3.2, names none).
    Any,
    /// The partner's rank: IMB 2021's PingPong and PingPing name it.
    Partner,
}

impl Source {
    /// PingPong's and PingPing's receives under `-compat`: IMB 2021 names the partner where
    /// IMB 3.0 takes any source, and the library may match a named source faster.
    pub(crate) fn of(compat: Compat) -> Source {
        match compat {
            Compat::V30 => Source::Any,
            Compat::V2021 => Source::Partner,
        }
    }
}

/// The two ranks of a single transfer: views of one size, the partner, and the source the
/// receives name (the partner or MPI_ANY_SOURCE); the tag is always MPI_ANY_TAG, as in IMB.
struct Pair<'a> {
    m: Mpi<'a>,
    partner: c_int,
    source: c_int,
    e: Elems,
    v: Views<'a>,
}

impl<'a> Pair<'a> {
    fn new(c: Ctx<'a>, from: Source) -> Self {
        let m = Mpi::new(c.comm);
        let partner = ((c.rank + 1) % c.size) as c_int;
        let e = Elems::of(&c, false);
        let v = Views::new(c.send, c.recv, &e.lay, (1, 1), c.rot);
        Pair::of(m, partner, from, e, v)
    }

    fn of(m: Mpi<'a>, partner: c_int, from: Source, e: Elems, v: Views<'a>) -> Self {
        let source = match from {
            Source::Any => m.any_source(),
            Source::Partner => partner,
        };
        Pair {
            m,
            partner,
            source,
            e,
            v,
        }
    }

    /// What the partner sent into repetition `i`'s receive copy: its BUF_VALUE contents.
    fn check(&self, i: usize) -> Defect {
        copied(self.v.got(i), &self.e.lay, self.partner as usize, 0)
    }
}

pub struct PingPong;
static PINGPONG: Info = Info {
    scale_time: 0.5,
    ..Info::mpi1("PingPong", Class::SingleTransfer)
};
/// `FIRST`: rank 0, which sends first; the other rank answers. A type each, so the order is
/// chosen once when the kernel is built.
struct PingPongK<'a, const FIRST: bool>(Pair<'a>);

impl<const FIRST: bool> Kernel for PingPongK<'_, FIRST> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let p = &mut self.0;
        let (s, r) = p.v.at(i);
        if FIRST {
            p.m.send(s, p.e.msg, p.partner);
            p.m.recv(r, p.e.msg, p.source);
        } else {
            p.m.recv(r, p.e.msg, p.source);
            p.m.send(s, p.e.msg, p.partner);
        }
    }
    fn check(&mut self, i: usize) -> Defect {
        self.0.check(i)
    }
}

/// PingPong's kernel with receives from `from`.
pub(crate) fn pingpong<'a>(c: Ctx<'a>, from: Source) -> Box<dyn Timed + 'a> {
    let first = c.rank == 0;
    let p = Pair::new(c, from);
    if first {
        Box::new(PingPongK::<true>(p))
    } else {
        Box::new(PingPongK::<false>(p))
    }
}

impl Benchmark for PingPong {
    fn info(&self) -> &'static Info {
        &PINGPONG
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let from = Source::of(c.method.compat);
        pingpong(c, from)
    }
}

pub struct PingPing;
static PINGPING: Info = Info::mpi1("PingPing", Class::SingleTransfer);
struct PingPingK<'a>(Pair<'a>);

impl Kernel for PingPingK<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let p = &mut self.0;
        let (s, r) = p.v.at(i);
        p.m.pingping(s, p.e.msg, p.partner, p.source, r);
    }
    fn check(&mut self, i: usize) -> Defect {
        self.0.check(i)
    }
}

/// PingPing's kernel with receives from `from`.
pub(crate) fn pingping<'a>(c: Ctx<'a>, from: Source) -> Box<dyn Timed + 'a> {
    Box::new(PingPingK(Pair::new(c, from)))
}

impl Benchmark for PingPing {
    fn info(&self) -> &'static Info {
        &PINGPING
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let from = Source::of(c.method.compat);
        pingping(c, from)
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
    fn step(&mut self, i: usize) {
        let p = &mut self.0;
        let (s, r) = p.v.at(i);
        p.m.sendrecv(s, p.e.msg, p.right as c_int, r, p.left as c_int);
    }
    fn check(&mut self, i: usize) -> Defect {
        self.0.check(i, self.0.left)
    }
}

impl Benchmark for Sendrecv {
    fn info(&self) -> &'static Info {
        &SENDRECV
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(SendrecvK(P2p::new(c, 1)))
    }
}

pub struct Exchange;
static EXCHANGE: Info = Info {
    scale_bw: 4.0,
    bufs_2021: Some(BufShape::TwoSend),
    ..Info::mpi1("Exchange", Class::ParallelTransfer)
};
/// IMB 3.0 sends both messages from the same X bytes; IMB 2021 sends the left-bound one from
/// the next X bytes of a 2X-byte send buffer (`-compat 2021`), so under `-off_cache` its send
/// copies lie 2X apart. `to_left`: where the left-bound message starts in a send copy.
struct ExchangeK<'a> {
    p: P2p<'a>,
    to_left: usize,
}

impl Kernel for ExchangeK<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let p = &mut self.p;
        let (s, r) = p.v.at(i);
        let to_left = &s[self.to_left..];
        p.m.exchange((s, to_left), p.e.msg, p.left as c_int, p.right as c_int, r);
    }
    /// Both messages land in the same receive copy; the right neighbour's, its left-bound
    /// message, arrives last.
    fn check(&mut self, i: usize) -> Defect {
        let p = &self.p;
        copied(p.v.got(i), &p.e.lay, p.right, self.to_left)
    }
}

impl Benchmark for Exchange {
    fn info(&self) -> &'static Info {
        &EXCHANGE
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let two = c.method.compat == Compat::V2021;
        let p = P2p::new(c, if two { 2 } else { 1 });
        let to_left = if two { p.e.lay.block() } else { 0 };
        Box::new(ExchangeK { p, to_left })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::buffers::buf_value;
    use imb_core::method::{Rotation, Rotations};

    #[test]
    fn pingpong_and_pingping_name_the_partner_only_under_2021() {
        assert_eq!(Source::of(Compat::V30), Source::Any);
        assert_eq!(Source::of(Compat::V2021), Source::Partner);
    }

    /// The source is decided when the kernel is built: MPI_ANY_SOURCE or the partner's rank.
    #[test]
    fn receives_name_the_chosen_source() {
        let m = Mpi::unconnected();
        let (s, mut r) = ([0u8; 4], [0u8; 4]);
        let any = Pair::of(
            m,
            1,
            Source::Any,
            Elems::imb(false, 4),
            Views::bare(&s, &mut r, Rotations::NONE),
        );
        assert_eq!((any.partner, any.source), (1, m.any_source()));
        assert_ne!(m.any_source(), 1);
        let named = Pair::of(
            m,
            1,
            Source::Partner,
            Elems::imb(false, 4),
            Views::bare(&s, &mut r, Rotations::NONE),
        );
        assert_eq!((named.partner, named.source), (1, 1));
    }

    /// Every variant checks what the partner sent, whichever source its receives name.
    #[test]
    fn check_compares_with_the_partners_contents() {
        let m = Mpi::unconnected();
        // Rank 0's send buffer, as it arrives.
        let sent: Vec<u8> = (0..4).flat_map(|i| buf_value(0, i).to_ne_bytes()).collect();
        let s = [0u8; 16];
        for from in [Source::Any, Source::Partner] {
            let mut r = sent.clone();
            let p = Pair::of(
                m,
                0,
                from,
                Elems::imb(false, 16),
                Views::bare(&s, &mut r, Rotations::NONE),
            );
            assert_eq!(PingPingK(p).check(0), Defect::NONE);
            let mut r = sent.clone();
            let p = Pair::of(
                m,
                1,
                from,
                Elems::imb(false, 16),
                Views::bare(&s, &mut r, Rotations::NONE),
            );
            assert!(PingPongK::<false>(p).check(0).pos.is_some());
        }
    }

    /// Under `-off_cache` every transfer checks the receive copy of its repetition: copy
    /// i mod 2 here, of which only copy 1 holds rank 0's message.
    #[test]
    fn checks_read_the_repetitions_copy() {
        let m = Mpi::unconnected();
        let rot = Rotations {
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
        let s = [0u8; 72];
        let mut r = [0u8; 72];
        for (k, b) in r[64..].chunks_mut(4).enumerate() {
            b.copy_from_slice(&buf_value(0, k).to_ne_bytes());
        }
        let v = Views::bare(&s, &mut r, rot);
        let mut k = PingPongK::<false>(Pair::of(m, 0, Source::Any, Elems::imb(false, 8), v));
        let bad: Vec<bool> = (0..4).map(|i| k.check(i).pos.is_some()).collect();
        assert_eq!(bad, [true, false, true, false]);
    }
}
