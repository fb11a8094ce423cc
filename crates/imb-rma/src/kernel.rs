//! The kernel every IMB-RMA benchmark but Truly_passive_put shares: a window, a passive-target
//! `Epoch`, and the operations of one repetition (`Ops`). The engine's loop times
//! `step` × n and `complete`; the locks are taken in `before`, the unlocks and the closing
//! barrier happen in `after`, all untimed.

use crate::epoch::Epoch;
use imb_core::bench::{Effort, Mode, Shape};
use imb_core::buffers::Defect;
use imb_core::kernel::{Comm, Kernel, Timed};
use imb_core::method::Rotation;
use imb_mpi::window::Win;
use imb_onesided::copies;

/// One repetition on an origin for the run-time bound (`imb_core::plan::least`): `ops`
/// operations of X bytes and, if `every`, the flush after them; none of them need wait for
/// anyone (a shared-memory window is a copy and a fence), so each is a message in flight.
pub fn effort(ops: usize, every: bool, x: usize) -> Effort {
    Effort {
        calls: 0.0,
        msgs: (ops + usize::from(every)) as f64,
        ..Effort::call(ops.saturating_mul(x))
    }
}

/// The two-mode benchmarks' repetition: one operation, flushed after each under NON-AGGREGATE.
pub fn one_op(s: &Shape) -> Effort {
    effort(1, s.mode == Mode::NonAggregate, s.x)
}

/// The operations of one repetition on an origin, and what check mode verifies.
pub trait Ops<'a> {
    /// Repetition i's operations (called only on an origin).
    fn issue(&self, w: &Win<'a>, i: usize);
    /// Check mode, after the epoch is closed on every rank: this rank's window or landing
    /// buffer after `n` repetitions.
    fn verify(&self, _w: &Win<'a>, _n: usize) -> Defect {
        Defect::NONE
    }
}

/// Check mode over `-off_cache`'s copies: the worst of `check(j, offset of copy j)` over the
/// copies n repetitions wrote (copy 0 alone without copies), as IMB 2021 checks them.
pub fn each_copy(rot: Rotation, n: usize, check: impl Fn(usize, usize) -> Defect) -> Defect {
    (0..copies::written(rot, n)).fold(Defect::NONE, |d, j| d.max(check(j, rot.offset(j))))
}

/// A window, the epoch of this rank and the pattern.
pub struct Passive<'a, O> {
    pub w: Win<'a>,
    pub comm: &'a Comm,
    pub epoch: Epoch,
    pub ops: O,
}

impl<'a, O: Ops<'a>> Kernel for Passive<'a, O> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        if self.epoch.origin {
            self.ops.issue(&self.w, i);
        }
        self.epoch.after_rep(&self.w);
    }
    fn before(&mut self) {
        self.epoch.open(&self.w);
    }
    fn complete(&mut self) {
        self.epoch.complete(&self.w);
    }
    fn after(&mut self) {
        self.epoch.close(&self.w, self.comm);
    }
    fn verify(&mut self, n: usize) -> Defect {
        self.ops.verify(&self.w, n)
    }
    fn excluded(&self) -> bool {
        !self.epoch.origin
    }
}

/// Box a passive kernel for the engine.
pub fn boxed<'a, O: Ops<'a> + 'a>(
    w: Win<'a>,
    comm: &'a Comm,
    epoch: Epoch,
    ops: O,
) -> Box<dyn Timed + 'a> {
    Box::new(Passive {
        w,
        comm,
        epoch,
        ops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::method::OffCache;

    #[test]
    fn each_copy_written_once() {
        let oc = Some(OffCache {
            cache_bytes: 1000,
            line_bytes: 64,
        });
        let rot = Rotation::new(oc, 100, 50);
        assert_eq!((rot.stride, rot.copies), (192, 11));
        let seen = std::cell::RefCell::new(Vec::new());
        let bad = each_copy(rot, 50, |j, at| {
            seen.borrow_mut().push((j, at));
            if j == 3 {
                Defect::bad(7)
            } else {
                Defect::NONE
            }
        });
        assert_eq!(bad.pos, Some(7));
        let want: Vec<_> = (0..11).map(|j| (j, 192 * j)).collect();
        assert_eq!(*seen.borrow(), want);
        let visits = |rot: Rotation, n: usize| {
            let k = std::cell::Cell::new(0);
            each_copy(rot, n, |_, _| {
                k.set(k.get() + 1);
                Defect::NONE
            });
            k.get()
        };
        // Fewer repetitions than copies: only those written.
        assert_eq!(visits(rot, 4), 4);
        // Without copies, copy 0 alone.
        let none = Rotation::new(None, 100, 50);
        assert_eq!(visits(none, 50), 1);
        assert_eq!(
            each_copy(none, 50, |j, at| Defect::bad(j + at)).pos,
            Some(0)
        );
    }
}
