//! The operation the overlap loops time (`overlap`): started, then waited for, over and over on
//! the same buffers. imb-nbc's are non-blocking calls, imb-mpi4's starts of one persistent
//! request; both complete through `imb_mpi::nonblocking::Pending`.

use imb_core::buffers::Defect;
use imb_core::kernel::Ctx;
use imb_mpi::nonblocking::Pending;

/// One collective, ready to start over and over on the same buffers.
pub trait Op {
    /// Start call `i` of a loop; the loop waits for it. The index, not a counter kept here,
    /// picks the root, so every loop starts at root 0 without being told to.
    fn start(&mut self, i: usize) -> Pending<'_>;
    /// Check mode: what call `i`, the last completed, left in this rank's receive buffer.
    fn check(&self, _i: usize) -> Defect {
        Defect::NONE
    }
}

/// How a benchmark's operation is built for one size (untimed).
pub trait Pattern: Sync + 'static {
    type Op<'a>: Op + 'a;
    fn build(c: Ctx<'_>) -> Self::Op<'_>;
}
