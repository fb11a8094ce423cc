//! Passive-target epochs as IMB-RMA runs them (doc/METHODOLOGY.md, "IMB-RMA"): an origin
//! locks its targets (MPI_LOCK_SHARED, or lock_all) untimed, issues its operations inside the
//! timed region and completes them there with a flush (remote completion) or a local flush
//! (the origin buffers may be reused), after every repetition (NON-AGGREGATE, Exchange) or
//! once after all n (AGGREGATE and the one-mode benchmarks). The unlock is untimed, then a
//! barrier tells the targets that their windows hold the final data. A target only waits:
//! it has no time of its own.

use imb_core::kernel::Comm;
use imb_mpi::window::Win;
use mpi::traits::*;
use std::os::raw::c_int;

/// Whom an origin locks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets {
    One(c_int),
    /// Left and right neighbour (one lock when they are the same rank).
    Two(c_int, c_int),
    All,
}

/// How an origin completes its operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// MPI_Win_flush(_all): complete at the target too.
    Remote,
    /// MPI_Win_flush_local(_all): complete at the origin only.
    Local,
}

/// One rank's part of a passive-target epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epoch {
    pub targets: Targets,
    pub flush: Flush,
    /// Flush after every repetition (NON-AGGREGATE, Exchange) rather than once after all.
    pub every: bool,
    /// This rank issues operations (and is timed).
    pub origin: bool,
}

impl Epoch {
    /// Untimed, before the barriers: the locks.
    pub fn open(&self, w: &Win) {
        if !self.origin {
            return;
        }
        match self.targets {
            Targets::One(t) => w.lock(t),
            Targets::Two(l, r) => {
                w.lock(l);
                if r != l {
                    w.lock(r);
                }
            }
            Targets::All => w.lock_all(),
        }
    }

    #[inline(always)]
    fn flush_one(&self, w: &Win, t: c_int) {
        match self.flush {
            Flush::Remote => w.flush(t),
            Flush::Local => w.flush_local(t),
        }
    }

    #[inline(always)]
    fn flush_now(&self, w: &Win) {
        match (self.targets, self.flush) {
            (Targets::One(t), _) => self.flush_one(w, t),
            (Targets::Two(l, r), _) => {
                self.flush_one(w, l);
                if r != l {
                    self.flush_one(w, r);
                }
            }
            (Targets::All, Flush::Remote) => w.flush_all(),
            (Targets::All, Flush::Local) => w.flush_local_all(),
        }
    }

    /// Timed, after repetition i's operations.
    #[inline(always)]
    pub fn after_rep(&self, w: &Win) {
        if self.origin && self.every {
            self.flush_now(w);
        }
    }

    /// Timed, after the last repetition.
    #[inline(always)]
    pub fn complete(&self, w: &Win) {
        if self.origin && !self.every {
            self.flush_now(w);
        }
    }

    /// Untimed: the unlocks, then the barrier after which every window is final.
    pub fn close(&self, w: &Win, comm: &Comm) {
        if self.origin {
            match self.targets {
                Targets::One(t) => w.unlock(t),
                Targets::Two(l, r) => {
                    w.unlock(l);
                    if r != l {
                        w.unlock(r);
                    }
                }
                Targets::All => w.unlock_all(),
            }
        }
        comm.barrier();
    }
}

/// Check mode on a target: its own view of its window catches up with the completed RMA
/// (MPI_Win_sync inside a lock of itself, which the separate memory model needs).
pub fn settle_own(w: &Win, me: c_int) {
    w.lock(me);
    w.sync();
    w.unlock(me);
}
