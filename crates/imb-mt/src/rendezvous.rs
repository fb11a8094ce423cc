//! The barrier of a rank's threads (IMB-MT's `-barrier`), which a thread's pattern passes
//! (`patterns`) and the rank's team builds for each thread (`team`): below both, so neither
//! reaches into the other for it.

use crate::options::Barrier;
use imb_mpi::threaded::Comm;
use std::sync::Barrier as ThreadBarrier;

/// IMB-MT's barrier of a rank's threads: the threads meet, thread 0 synchronises the ranks
/// (MPI_Barrier or the special barrier on MPI_COMM_WORLD), the threads meet again. One thread:
/// the ranks' barrier alone.
pub struct Rendezvous<'a> {
    /// The rank's threads' barrier; None for one thread.
    pub threads: Option<&'a ThreadBarrier>,
    /// `-barrier`'s kind.
    pub kind: Barrier,
    /// Thread 0, which synchronises the ranks.
    pub leader: bool,
    pub world: Comm,
}

impl Rendezvous<'_> {
    /// The threads of the rank meet.
    #[inline]
    pub fn threads(&self) {
        if let Some(b) = self.threads {
            b.wait();
        }
    }
    /// `-barrier`'s barrier.
    pub fn full(&self) {
        if self.kind == Barrier::Off {
            return;
        }
        self.threads();
        if self.leader {
            match self.kind {
                Barrier::Special => self.world.special_barrier(),
                _ => self.world.barrier(),
            }
        }
        self.threads();
    }
}
