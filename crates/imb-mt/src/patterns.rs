//! What one thread does at one size, as IMB-MT does it: its pattern on its own communicator,
//! the warm-up, the barrier and the timed repetitions, and what `-check` verifies after them.
//!
//! The point-to-point patterns warm up, pass the barrier (`Sync`), then time all their
//! repetitions at once; the collectives time each call on its own and pass the barrier five
//! times after each call (untimed), the warm-up calls being the first ones and left out of the
//! sum; BarrierMT times the threads' barrier and MPI_Barrier together. Nothing here allocates
//! or formats between two reads of the clock.

use crate::rendezvous::Rendezvous;
use imb_mpi::inflight::Requests;
use imb_mpi::threaded::{Comm, Elem};
use std::os::raw::c_int;

/// IMB-MT's benchmarks, one pattern each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    PingPong,
    PingPing,
    SendRecv,
    Exchange,
    UniBand,
    BiBand,
    Barrier,
    Bcast,
    Reduce,
    AllReduce,
}

impl Pattern {
    /// Whether it needs a partner rank `stride` away (IMB-MT's pairs; a rank without one
    /// takes no part).
    pub const fn paired(self) -> bool {
        matches!(
            self,
            Pattern::PingPong | Pattern::PingPing | Pattern::UniBand | Pattern::BiBand
        )
    }
    /// Whether each call is timed on its own.
    pub const fn per_call(self) -> bool {
        matches!(
            self,
            Pattern::Barrier | Pattern::Bcast | Pattern::Reduce | Pattern::AllReduce
        )
    }
    /// Receive buffer in messages (ExchangeMT receives from both sides).
    pub const fn recv_blocks(self) -> usize {
        match self {
            Pattern::Exchange => 2,
            _ => 1,
        }
    }
    /// What a repetition's time is divided by: half a round trip, one message of a window
    /// (both ways for BiBandMT).
    pub fn divider(self, window: usize) -> f64 {
        match self {
            Pattern::PingPong => 2.0,
            Pattern::UniBand => window as f64,
            Pattern::BiBand => 2.0 * window as f64,
            _ => 1.0,
        }
    }
}

/// IMB-MT's pairing: rank r's group is r / stride; even groups pair with r + stride, odd with
/// r − stride; the last group has no partner group when the processes do not split into whole
/// pairs of groups. Stride 0 is half the processes. None: no partner.
pub fn partner(rank: usize, size: usize, stride: usize) -> Option<(usize, bool)> {
    let stride = if stride == 0 { size / 2 } else { stride };
    if stride == 0 || stride > size / 2 {
        return None;
    }
    let group = rank / stride;
    if group / 2 == size / (2 * stride) && !size.is_multiple_of(2 * stride) {
        return None;
    }
    Some(if group.is_multiple_of(2) {
        (rank + stride, true)
    } else {
        (rank - stride, false)
    })
}

/// The ranks that take part in a paired pattern on `size` processes.
pub fn paired_ranks(size: usize, stride: usize) -> usize {
    (0..size)
        .filter(|&r| partner(r, size, stride).is_some())
        .count()
}

/// The ring neighbours `stride` away (SendRecvMT, ExchangeMT): (left, right).
fn ring(rank: usize, size: usize, stride: usize) -> (usize, usize) {
    let stride = if stride == 0 { size / 2 } else { stride };
    ((rank + size - stride % size) % size, (rank + stride) % size)
}

/// One thread's view at one size.
pub struct Thread<'a> {
    pub comm: Comm,
    pub elem: Elem,
    pub send: &'a mut [u8],
    /// `recv_blocks` messages long.
    pub recv: &'a mut [u8],
    pub stride: usize,
    pub window: usize,
}

/// What a thread measured.
#[derive(Debug, Clone, Copy, Default)]
pub struct Out {
    /// Seconds per repetition, divided as the pattern says.
    pub secs: f64,
    pub ran: bool,
    /// Check mode: byte position of the first wrong element.
    pub wrong: Option<usize>,
    /// The thread was not on the CPU it was bound to.
    pub astray: bool,
}

const TAG: c_int = 0;

fn rank_of(r: usize) -> c_int {
    imb_mpi::rc::count(r)
}

/// Run `p` on this thread: warm-up, barrier, timed repetitions; then check if asked.
pub fn run(
    p: Pattern,
    t: &mut Thread,
    warmup: usize,
    n: usize,
    check: bool,
    sync: &Rendezvous,
) -> Out {
    let (rank, size) = t.comm.rank_size();
    let x = t.send.len();
    if check {
        fill(p, t, rank);
    }
    let mut reqs = Requests::new(if p.paired() { 2 * t.window } else { 0 });
    let secs = if p.per_call() {
        per_call(p, t, warmup, n, sync)
    } else {
        if p.paired() && partner(rank, size, t.stride).is_none() {
            // IMB-MT's idle thread still passes the rank's barrier with the others.
            sync.full();
            return Out::default();
        }
        for _ in 0..warmup {
            step(p, t, rank, size, &mut reqs);
        }
        sync.full();
        let t0 = mpi::time();
        for _ in 0..n {
            step(p, t, rank, size, &mut reqs);
        }
        mpi::time() - t0
    };
    let wrong = if check {
        verify(p, t, rank, size, x)
    } else {
        None
    };
    Out {
        secs: secs / n.max(1) as f64 / p.divider(t.window),
        ran: true,
        wrong,
        astray: false,
    }
}

/// One repetition of a point-to-point pattern.
#[inline(always)]
fn step(p: Pattern, t: &mut Thread, rank: usize, size: usize, reqs: &mut Requests) {
    let (c, e) = (t.comm, t.elem);
    match p {
        Pattern::PingPong => {
            if let Some((peer, first)) = partner(rank, size, t.stride) {
                let peer = rank_of(peer);
                if first {
                    c.send(t.send, e, peer, TAG);
                    c.recv(t.recv, e, peer, TAG);
                } else {
                    c.recv(t.recv, e, peer, TAG);
                    c.send(t.send, e, peer, TAG);
                }
            }
        }
        Pattern::PingPing => {
            if let Some((peer, _)) = partner(rank, size, t.stride) {
                let peer = rank_of(peer);
                c.isend_recv(t.send, t.recv, e, peer, peer, TAG);
            }
        }
        Pattern::SendRecv => {
            let (left, right) = ring(rank, size, t.stride);
            c.sendrecv(t.send, t.recv, e, rank_of(right), rank_of(left), TAG);
        }
        Pattern::Exchange => {
            let (left, right) = ring(rank, size, t.stride);
            let x = t.send.len();
            let (rl, rr) = t.recv.split_at_mut(x);
            c.exchange(
                t.send,
                rl,
                &mut rr[..x],
                e,
                rank_of(left),
                rank_of(right),
                TAG,
            );
        }
        Pattern::UniBand | Pattern::BiBand => {
            if let Some((peer, first)) = partner(rank, size, t.stride) {
                let peer = rank_of(peer);
                let w = t.window;
                let mut ack = [0u8; 1];
                let bi = p == Pattern::BiBand;
                let sends = if first || bi { w } else { 0 };
                let recvs = if !first || bi { w } else { 0 };
                c.window(reqs, (t.send, sends, peer), (t.recv, recvs, peer), e, TAG);
                let byte = Elem::char();
                if first {
                    c.recv(&mut ack, byte, peer, TAG);
                } else {
                    c.send(&ack, byte, peer, TAG);
                }
            }
        }
        Pattern::Barrier | Pattern::Bcast | Pattern::Reduce | Pattern::AllReduce => {}
    }
}

/// The collectives: each call timed on its own, five barriers after each; the first `warmup`
/// calls are left out of the sum. BarrierMT's call is the threads' barrier and MPI_Barrier,
/// with no barrier after it.
fn per_call(p: Pattern, t: &mut Thread, warmup: usize, n: usize, sync: &Rendezvous) -> f64 {
    let (c, e) = (t.comm, t.elem);
    let root = 0;
    let (rank, _) = c.rank_size();
    let mut sum = 0.0;
    for i in 0..warmup + n {
        let t0 = mpi::time();
        match p {
            Pattern::Barrier => {
                sync.threads();
                c.barrier();
            }
            Pattern::Bcast => {
                let b = if rank == 0 {
                    &mut *t.send
                } else {
                    &mut *t.recv
                };
                c.bcast(b, e, root);
            }
            Pattern::Reduce => c.reduce(t.send, t.recv, e, root),
            Pattern::AllReduce => c.allreduce(t.send, t.recv, e),
            _ => {}
        }
        let dt = mpi::time() - t0;
        if i >= warmup {
            sum += dt;
        }
        if p != Pattern::Barrier {
            for _ in 0..5 {
                sync.full();
            }
        }
    }
    sum
}

fn ints(b: &mut [u8]) -> impl Iterator<Item = (usize, &mut [u8])> {
    b.chunks_exact_mut(4).enumerate()
}

fn put(b: &mut [u8], f: impl Fn(usize) -> i32) {
    for (i, c) in ints(b) {
        c.copy_from_slice(&f(i).to_ne_bytes());
    }
}

fn first_wrong(b: &[u8], f: impl Fn(usize) -> i32) -> Option<usize> {
    b.chunks_exact(4)
        .enumerate()
        .find(|(i, c)| i32::from_ne_bytes([c[0], c[1], c[2], c[3]]) != f(*i))
        .map(|(i, _)| 4 * i)
}

/// (k+1)·i as IMB-MT's C ints compute it (wrapping).
fn pattern_of(k: usize, i: usize) -> i32 {
    ((k as i64 + 1).wrapping_mul(i as i64)) as i32
}

/// IMB-MT's contents before the loops: element i of the send buffer (k+1)·i on rank k (i on
/// BcastMT's root), the receive buffer −1.
fn fill(p: Pattern, t: &mut Thread, rank: usize) {
    let x = t.send.len();
    if p == Pattern::Bcast {
        put(t.send, |i| i as i32);
    } else {
        put(t.send, |i| pattern_of(rank, i));
    }
    put(&mut t.recv[..x], |_| -1);
}

/// What IMB-MT checks after the loops: the send buffer untouched, and the received elements
/// as the partner(s) sent them, or the sum of every rank's for the reductions.
fn verify(p: Pattern, t: &Thread, rank: usize, size: usize, x: usize) -> Option<usize> {
    let mine = |i| pattern_of(rank, i);
    let sent_ok = match p {
        Pattern::Bcast | Pattern::Barrier => None,
        _ => first_wrong(t.send, mine),
    };
    let recv = &t.recv[..x];
    let got = match p {
        Pattern::PingPong | Pattern::PingPing | Pattern::BiBand => partner(rank, size, t.stride)
            .and_then(|(peer, _)| first_wrong(recv, |i| pattern_of(peer, i))),
        Pattern::UniBand => match partner(rank, size, t.stride) {
            Some((peer, false)) => first_wrong(recv, |i| pattern_of(peer, i)),
            _ => None,
        },
        Pattern::SendRecv => {
            let (left, _) = ring(rank, size, t.stride);
            first_wrong(recv, |i| pattern_of(left, i))
        }
        Pattern::Exchange => {
            let (left, right) = ring(rank, size, t.stride);
            first_wrong(recv, |i| pattern_of(left, i))
                .or_else(|| first_wrong(&t.recv[x..2 * x], |i| pattern_of(right, i)).map(|p| p + x))
        }
        Pattern::Bcast if rank != 0 => first_wrong(recv, |i| i as i32),
        Pattern::Reduce if rank != 0 => None,
        Pattern::Reduce | Pattern::AllReduce => {
            let total = (size as i64) * (size as i64 + 1) / 2;
            first_wrong(recv, |i| total.wrapping_mul(i as i64) as i32)
        }
        _ => None,
    };
    sent_ok.or(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_as_imb_mt() {
        // 4 ranks, stride 2: 0-2, 1-3.
        assert_eq!(partner(0, 4, 0), Some((2, true)));
        assert_eq!(partner(3, 4, 0), Some((1, false)));
        // 3 ranks: 0-1, rank 2 idle.
        assert_eq!(partner(0, 3, 0), Some((1, true)));
        assert_eq!(partner(2, 3, 0), None);
        assert_eq!(paired_ranks(3, 0), 2);
        // 1 rank: nobody.
        assert_eq!(paired_ranks(1, 0), 0);
        // 6 ranks, stride 2: groups 0,1,2 -> 0-2, 1-3; 4 and 5 idle.
        assert_eq!(paired_ranks(6, 2), 4);
        assert_eq!(partner(4, 6, 2), None);
        assert_eq!(partner(5, 4, 3), None);
    }

    #[test]
    fn ring_neighbours() {
        assert_eq!(ring(0, 4, 0), (2, 2));
        assert_eq!(ring(1, 3, 1), (0, 2));
        assert_eq!(ring(0, 1, 0), (0, 0));
    }

    #[test]
    fn check_values_wrap_as_c_ints() {
        assert_eq!(pattern_of(0, 5), 5);
        assert_eq!(pattern_of(2, 3), 9);
        let mut b = vec![0u8; 12];
        put(&mut b, |i| pattern_of(1, i));
        assert_eq!(first_wrong(&b, |i| pattern_of(1, i)), None);
        assert_eq!(first_wrong(&b, |i| pattern_of(0, i)), Some(4));
    }

    #[test]
    fn dividers() {
        assert_eq!(Pattern::PingPong.divider(64), 2.0);
        assert_eq!(Pattern::BiBand.divider(64), 128.0);
        assert_eq!(Pattern::Bcast.divider(64), 1.0);
    }
}
