//! One repetition of each IMB-P2P pattern (doc/ReadMe_IMB.md, "imb-p2p"). Every process of
//! the run takes part; messages are MPI_BYTE, tag 0, on the benchmark's communicator.

use crate::kernel::{message, Lcg, Pattern, Touch};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Comm, Ctx};
use mpi::point_to_point::send_receive_replace_into;
use mpi::traits::*;

fn at(comm: &Comm, r: usize) -> mpi::topology::Process<'_> {
    comm.process_at_rank(r as i32)
}

/// What `from` sent, checked in `got` (its BUF_VALUE contents).
fn from(got: &[u8], from: Option<usize>) -> Defect {
    from.map_or(Defect::NONE, |f| check_copy(got, f, 0))
}

/// PingPong and PingPing: rank i and rank i + NP/2 are partners, every pair at once.
pub struct Pair<'a> {
    comm: &'a Comm,
    partner: usize,
    first: bool,
    s: Vec<u8>,
    r: Vec<u8>,
}

impl<'a> Pair<'a> {
    pub fn new(c: &Ctx<'a>) -> Self {
        let half = c.size / 2;
        Pair {
            comm: c.comm,
            partner: (c.rank + half) % c.size,
            first: c.rank < half,
            s: message(c, true),
            r: message(c, false),
        }
    }
}

/// The lower half sends first and waits for the answer; the upper half answers.
pub struct PingPongP<'a>(pub Pair<'a>);
impl Pattern for PingPongP<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize, t: &mut Touch) -> u64 {
        let p = &mut self.0;
        let peer = at(p.comm, p.partner);
        if p.first {
            t.write(&mut p.s);
            peer.send(&p.s[..]);
            peer.receive_into(&mut p.r[..]);
            t.read(&p.r);
        } else {
            peer.receive_into(&mut p.r[..]);
            t.read(&p.r);
            t.write(&mut p.s);
            peer.send(&p.s[..]);
        }
        2
    }
    fn check(&mut self, _i: usize) -> Defect {
        from(&self.0.r, Some(self.0.partner))
    }
}

/// Both partners post a receive, send, and wait for the receive.
pub struct PingPingP<'a>(pub Pair<'a>);
impl Pattern for PingPingP<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize, t: &mut Touch) -> u64 {
        let p = &mut self.0;
        let peer = at(p.comm, p.partner);
        let (s, r) = (&mut p.s, &mut p.r);
        mpi::request::scope(|sc| {
            let q = peer.immediate_receive_into(sc, &mut r[..]);
            t.write(s);
            peer.send(&s[..]);
            q.wait();
        });
        t.read(&p.r);
        2
    }
    fn check(&mut self, _i: usize) -> Defect {
        from(&self.0.r, Some(self.0.partner))
    }
}

/// MPI_Sendrecv_replace around the ring: to rank + 1, from rank − 1, in one buffer, so after
/// repetition i the buffer holds what rank − (i + 1) started with.
pub struct SendRecvReplaceP<'a> {
    comm: &'a Comm,
    rank: usize,
    np: usize,
    start: Vec<u8>,
    b: Vec<u8>,
}

impl<'a> SendRecvReplaceP<'a> {
    pub fn new(c: &Ctx<'a>) -> Self {
        SendRecvReplaceP {
            comm: c.comm,
            rank: c.rank,
            np: c.size,
            start: message(c, true),
            b: message(c, true),
        }
    }
}

impl Pattern for SendRecvReplaceP<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize, t: &mut Touch) -> u64 {
        let n = self.np;
        let dst = at(self.comm, (self.rank + 1) % n);
        let src = at(self.comm, (self.rank + n - 1) % n);
        t.write(&mut self.b);
        send_receive_replace_into(&mut self.b[..], &dst, &src);
        t.read(&self.b);
        2
    }
    fn restart(&mut self) {
        self.b.copy_from_slice(&self.start);
    }
    fn check(&mut self, i: usize) -> Defect {
        let n = self.np;
        from(&self.b, Some((self.rank + n - (i + 1) % n) % n))
    }
}

/// Unirandom and Birandom: NP draws of a random pair a ≠ b a repetition, from IMB-P2P's
/// sequence restarted at seed 0 before the warm-up and before the timed loop. Unirandom: a
/// sends to b; Birandom: a and b exchange (receive posted, send, wait).
pub struct Random<'a, const BI: bool> {
    comm: &'a Comm,
    rank: usize,
    np: usize,
    g: Lcg,
    s: Vec<u8>,
    r: Vec<u8>,
    got: Option<usize>,
}

impl<'a, const BI: bool> Random<'a, BI> {
    pub fn new(c: &Ctx<'a>) -> Self {
        Random {
            comm: c.comm,
            rank: c.rank,
            np: c.size,
            g: Lcg::default(),
            s: message(c, true),
            r: message(c, false),
            got: None,
        }
    }
}

impl<const BI: bool> Pattern for Random<'_, BI> {
    #[inline(always)]
    fn step(&mut self, _i: usize, t: &mut Touch) -> u64 {
        let mut msgs = 0;
        self.got = None;
        for _ in 0..self.np {
            let (a, b) = self.g.pair(self.np);
            let peer = if self.rank == a {
                b
            } else if self.rank == b {
                a
            } else {
                continue;
            };
            let p = at(self.comm, peer);
            if BI {
                let (s, r) = (&mut self.s, &mut self.r);
                mpi::request::scope(|sc| {
                    let q = p.immediate_receive_into(sc, &mut r[..]);
                    t.write(s);
                    p.send(&s[..]);
                    q.wait();
                });
                t.read(&self.r);
                self.got = Some(peer);
                msgs += 2;
            } else if self.rank == a {
                t.write(&mut self.s);
                p.send(&self.s[..]);
                msgs += 1;
            } else {
                p.receive_into(&mut self.r[..]);
                t.read(&self.r);
                self.got = Some(peer);
                msgs += 1;
            }
        }
        msgs
    }
    fn restart(&mut self) {
        self.g = Lcg::default();
    }
    fn check(&mut self, _i: usize) -> Defect {
        from(&self.r, self.got)
    }
}

/// Corandom: every repetition shuffles the ring of all ranks (IMB-P2P's sequence, one swap
/// per position), and each process receives from its left and sends to its right.
pub struct Corandom<'a> {
    comm: &'a Comm,
    rank: usize,
    ring: Vec<usize>,
    g: Lcg,
    s: Vec<u8>,
    r: Vec<u8>,
    left: usize,
}

impl<'a> Corandom<'a> {
    pub fn new(c: &Ctx<'a>) -> Self {
        Corandom {
            comm: c.comm,
            rank: c.rank,
            ring: (0..c.size).collect(),
            g: Lcg::default(),
            s: message(c, true),
            r: message(c, false),
            left: 0,
        }
    }
}

impl Pattern for Corandom<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize, t: &mut Touch) -> u64 {
        let n = self.ring.len();
        for i in 0..n {
            let j = self.g.below(n);
            self.ring.swap(i, j);
        }
        let me = self.ring.iter().position(|&r| r == self.rank).unwrap_or(0);
        let left = self.ring[(me + n - 1) % n];
        let right = at(self.comm, self.ring[(me + 1) % n]);
        let (s, r) = (&mut self.s, &mut self.r);
        let l = at(self.comm, left);
        mpi::request::scope(|sc| {
            let q = l.immediate_receive_into(sc, &mut r[..]);
            t.write(s);
            right.send(&s[..]);
            q.wait();
        });
        t.read(&self.r);
        self.left = left;
        2
    }
    fn restart(&mut self) {
        self.g = Lcg::default();
        for (i, r) in self.ring.iter_mut().enumerate() {
            *r = i;
        }
    }
    fn check(&mut self, _i: usize) -> Defect {
        from(&self.r, Some(self.left))
    }
}

/// Stencil2D (N = 4) and Stencil3D (N = 6): a message to and from each neighbour of the
/// periodic grid, all receives posted, then all sends, then every request waited for.
pub struct Stencil<'a, const N: usize> {
    comm: &'a Comm,
    nb: [usize; N],
    s: [Vec<u8>; N],
    r: [Vec<u8>; N],
}

impl<'a, const N: usize> Stencil<'a, N> {
    pub fn new(c: &Ctx<'a>, nb: [usize; N]) -> Self {
        Stencil {
            comm: c.comm,
            nb,
            s: std::array::from_fn(|_| message(c, true)),
            r: std::array::from_fn(|_| message(c, false)),
        }
    }
}

impl<const N: usize> Pattern for Stencil<'_, N> {
    #[inline(always)]
    fn step(&mut self, _i: usize, t: &mut Touch) -> u64 {
        for s in self.s.iter_mut() {
            t.write(s);
        }
        let (comm, nb) = (self.comm, &self.nb);
        let (ss, rr) = (&self.s, &mut self.r);
        mpi::request::scope(|sc| {
            let mut rit = rr.iter_mut();
            let recvs: [_; N] = std::array::from_fn(|k| {
                let b = rit.next().expect("N receive buffers");
                at(comm, nb[k]).immediate_receive_into(sc, &mut b[..])
            });
            let sends: [_; N] =
                std::array::from_fn(|k| at(comm, nb[k]).immediate_send(sc, &ss[k][..]));
            for q in recvs {
                q.wait();
            }
            for q in sends {
                q.wait();
            }
        });
        for r in self.r.iter() {
            t.read(r);
        }
        2 * N as u64
    }
    fn check(&mut self, _i: usize) -> Defect {
        (0..N).fold(Defect::NONE, |d, k| {
            d.max(from(&self.r[k], Some(self.nb[k])))
        })
    }
}
