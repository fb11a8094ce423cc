//! The measured loop shared by every IMB-P2P pattern (doc/ReadMe_IMB.md, "imb-p2p"), and the
//! helpers of its repetitions. Per size, untimed: `-pause`, IMB-P2P's barrier, n/10
//! repetitions of warm-up (at least one when n > 1), the barrier again and the timed loop
//! through `kernel::bracket`, then `-pause` again. A pattern (`Pattern`) implements one repetition; it
//! owns its messages, allocated when the kernel is built, so `-msgwr` can store into them.

use crate::options::Conf;
use crate::table::Counted;
use imb_core::barrier::Barriers;
use imb_core::buffers::Defect;
use imb_core::kernel::{bracket, Comm, Ctx, Loop, Measure, Sample};
use std::hint::black_box;
use std::time::Duration;

/// IMB-P2P's one barrier before the warm-up and before the timer: rounds of zero-byte
/// `MPI_Sendrecv` (the dissemination barrier IMB 2021's `-imb_barrier` also uses), whatever
/// the MPI library's `MPI_Barrier` does.
pub const IMB_P2P_BARRIER: Barriers = Barriers { n: 1, imb: true };

/// IMB-P2P touches one byte of every cache line of this length.
pub const LINE: usize = 64;

/// One repetition of a pattern, with what `-check` can say about it.
pub trait Pattern {
    /// Repetition `i`; returns the messages this process sent or received.
    fn step(&mut self, i: usize, t: &mut Touch) -> u64;
    /// Untimed, before the warm-up and before the timed loop: a pattern that keeps state
    /// across repetitions (a random sequence, a rotating buffer) starts it again here.
    fn restart(&mut self) {}
    /// Check mode: what repetition `i` received.
    fn check(&mut self, _i: usize) -> Defect {
        Defect::NONE
    }
}

/// `-msgrd` and `-msgwr`: IMB-P2P reads or writes one byte of every 64 of a message.
pub struct Touch {
    rd: bool,
    wr: bool,
    sum: u8,
    /// The next byte stored: IMB-P2P's running counter.
    next: u8,
    /// Under `-check` the byte stored is the one already there, so the message stays what
    /// the receiver checks; the timings are then not IMB-P2P's.
    keep: bool,
}

impl Touch {
    pub fn new(c: &Conf) -> Touch {
        Touch {
            rd: c.msgrd,
            wr: c.msgwr,
            sum: 0,
            next: 0,
            keep: false,
        }
    }

    /// Whether the stores keep the message (`-check`).
    pub fn keep(&mut self, keep: bool) {
        self.keep = keep;
    }

    /// Before a send: a store into every cache line of the message, as IMB-P2P does it: a
    /// running counter, with no load before it (a load-then-store of each line measured ~20 %
    /// slower from 4 KiB to 256 KiB than IMB-P2P's stores: doc/METHODOLOGY.md).
    #[inline(always)]
    pub fn write(&mut self, m: &mut [u8]) {
        if !self.wr {
            return;
        }
        if self.keep {
            for b in m.iter_mut().step_by(LINE) {
                *b = black_box(*b);
            }
        } else {
            let mut v = self.next;
            for b in m.iter_mut().step_by(LINE) {
                *b = v;
                v = v.wrapping_add(1);
            }
            self.next = v;
        }
    }

    /// After a receive: a load from every cache line of the message, summed.
    #[inline(always)]
    pub fn read(&mut self, m: &[u8]) {
        if self.rd {
            let mut s = self.sum;
            for &b in m.iter().step_by(LINE) {
                s = s.wrapping_add(b);
            }
            self.sum = s;
        }
    }
}

/// A message of X bytes owned by the kernel: a copy of this process's send buffer (its
/// BUF_VALUE contents), or zeros to receive into.
pub fn message(c: &Ctx, send: bool) -> Vec<u8> {
    if send {
        c.send[..c.x].to_vec()
    } else {
        vec![0; c.x]
    }
}

/// IMB-P2P's warm-up: a tenth of the repetitions, at least one when there are two or more.
pub fn warm_ups(n: usize) -> usize {
    match n / 10 {
        0 if n > 1 => 1,
        w => w,
    }
}

/// The engine's face of a pattern: IMB-P2P's loop around it, the record its table reads.
pub struct P2pLoop<P> {
    pub p: P,
    pub touch: Touch,
    pub pause: Duration,
}

impl<P: Pattern> P2pLoop<P> {
    pub fn new(p: P, c: &Conf) -> Self {
        P2pLoop {
            p,
            touch: Touch::new(c),
            pause: Duration::from_micros(c.pause_us as u64),
        }
    }

    fn pause(&self) {
        if !self.pause.is_zero() {
            std::thread::sleep(self.pause);
        }
    }
}

impl<P: Pattern> Measure for P2pLoop<P> {
    type Rec = Counted;
    fn measure(&mut self, comm: &Comm, _: Loop, n: usize, check: bool) -> Sample<Counted> {
        let n = n.max(1);
        self.touch.keep(check);
        self.pause();
        IMB_P2P_BARRIER.wait(comm);
        self.p.restart();
        for i in 0..warm_ups(n) {
            self.p.step(i, &mut self.touch);
        }
        self.p.restart();
        let (p, t) = (&mut self.p, &mut self.touch);
        let (secs, (msgs, defect)) = bracket(comm, IMB_P2P_BARRIER, n, || {
            let mut msgs = 0u64;
            let mut defect = Defect::NONE;
            if check {
                for i in 0..n {
                    msgs += p.step(i, t);
                    defect = defect.max(p.check(i));
                }
            } else {
                for i in 0..n {
                    msgs += p.step(i, t);
                }
            }
            (msgs, defect)
        });
        black_box(self.touch.sum);
        self.pause();
        Sample {
            secs,
            defect,
            excluded: false,
            rec: Counted(msgs as f64 / n as f64),
        }
    }
}

/// IMB-P2P's random sequence: a 64-bit linear congruential generator from seed 0, its bits
/// 24 and up.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lcg(pub u64);

impl Lcg {
    const MUL: u64 = 7_560_690_468_208_412_377;
    const ADD: u64 = 4_343_336_064_253_945_357;

    #[inline(always)]
    pub fn draw(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(Self::MUL).wrapping_add(Self::ADD);
        (self.0 >> 24) as u32
    }

    /// A rank below `np`.
    #[inline(always)]
    pub fn below(&mut self, np: usize) -> usize {
        self.draw() as usize % np
    }

    /// IMB-P2P's pair of a draw: a rank, then another one.
    #[inline(always)]
    pub fn pair(&mut self, np: usize) -> (usize, usize) {
        let a = self.below(np);
        loop {
            let b = self.below(np);
            if b != a {
                return (a, b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_is_a_tenth() {
        let w: Vec<usize> = [1, 2, 9, 10, 19, 100, 100000].map(warm_ups).to_vec();
        assert_eq!(w, [0, 1, 1, 1, 1, 10, 10000]);
    }

    /// The sequence IMB-P2P's generator gives from seed 0 (worked out by hand from its
    /// definition: n ← n·a + c mod 2^64, then n >> 24 truncated to 32 bits).
    #[test]
    fn random_sequence() {
        let mut g = Lcg::default();
        let a = 4_343_336_064_253_945_357u64;
        assert_eq!(g.draw(), (a >> 24) as u32);
        let b = a
            .wrapping_mul(7_560_690_468_208_412_377)
            .wrapping_add(4_343_336_064_253_945_357);
        assert_eq!(g.draw(), (b >> 24) as u32);
        let mut g = Lcg::default();
        for _ in 0..1000 {
            let (x, y) = g.pair(3);
            assert!(x < 3 && y < 3 && x != y);
        }
    }

    #[test]
    fn touches_as_imb_p2p_or_keeping_the_message() {
        let conf = Conf {
            msgrd: true,
            msgwr: true,
            pause_us: 0,
        };
        let mut t = Touch::new(&conf);
        t.keep(true);
        let mut m: Vec<u8> = (0..200u8).collect();
        let before = m.clone();
        t.write(&mut m);
        t.read(&m);
        assert_eq!(m, before);
        // Bytes 0, 64, 128, 192.
        assert_eq!(t.sum, 64u8.wrapping_add(128).wrapping_add(192));
        // Timed runs store IMB-P2P's counter into bytes 0, 64, 128, 192, going on from one
        // message to the next.
        t.keep(false);
        t.write(&mut m);
        t.write(&mut m);
        let at: Vec<u8> = m.iter().step_by(LINE).copied().collect();
        assert_eq!(at, [4, 5, 6, 7]);
        assert_eq!(m[1..64], before[1..64]);
    }
}
