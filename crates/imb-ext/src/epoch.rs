//! The two synchronisation modes of the one-sided benchmarks (guide 4.1): NON-AGGREGATE closes
//! every repetition's epoch with a fence, so each transfer is complete (and checkable) before the
//! next; AGGREGATE issues all n transfers into one epoch, closed by a single fence at the end of
//! the timed loop, and its data can only be checked after that fence. Put/Get and Accumulate
//! share these rules; only the transfer and the check of one block differ.

use imb_core::bench::{Effort, Mode, Shape};
use imb_core::buffers::Defect;
use imb_mpi::window::Win;

/// One repetition for the run-time bound (`imb_core::plan::least`): a one-sided operation of X
/// bytes, which need not wait for anyone (a shared-memory window is a copy), and under
/// NON-AGGREGATE the fence that does.
pub fn effort(s: &Shape) -> Effort {
    Effort {
        calls: f64::from(u8::from(s.mode == Mode::NonAggregate)),
        msgs: 1.0,
        ..Effort::call(s.x)
    }
}

/// Which mode a kernel runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epochs {
    pub aggregate: bool,
}

impl Epochs {
    /// After repetition i's transfer: NON-AGGREGATE fences here, inside the timed loop.
    #[inline(always)]
    pub fn after_transfer(self, w: &Win) {
        if !self.aggregate {
            w.fence();
        }
    }

    /// Check mode after repetition i: only NON-AGGREGATE data has landed by then.
    pub fn check(self, i: usize, block: impl Fn(usize) -> Defect) -> Defect {
        if self.aggregate {
            Defect::NONE
        } else {
            block(i)
        }
    }

    /// Check mode after the loop and its closing fence: AGGREGATE's n blocks.
    pub fn verify(self, n: usize, block: impl Fn(usize) -> Defect) -> Defect {
        if !self.aggregate {
            return Defect::NONE;
        }
        (0..n).fold(Defect::NONE, |d, i| d.max(block(i)))
    }

    /// AGGREGATE: the fence that opens the epoch, untimed before the barriers (Put/Get).
    pub fn open(self, w: &Win) {
        if self.aggregate {
            w.fence();
        }
    }

    /// AGGREGATE: the one fence that closes all n transfers, inside the timed region.
    pub fn close(self, w: &Win) {
        if self.aggregate {
            w.fence();
        }
    }
}
