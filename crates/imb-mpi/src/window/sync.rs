//! Completing a window's operations. Active target: MPI_Win_fence (imb-ext). Passive target
//! (imb-rma): MPI_Win_lock/unlock of one target and MPI_Win_lock_all/unlock_all open and close
//! an access epoch; inside it MPI_Win_flush completes this rank's operations to a target at
//! both ends, MPI_Win_flush_local only at the origin (its buffers may be reused), and the
//! `_all` forms do the same for every target.

use super::Win;
use crate::rc::check;
use mpi::ffi;
use std::os::raw::c_int;

impl Win<'_> {
    /// MPI_Win_fence(0): completes every RMA operation of the epoch, on both sides.
    #[inline(always)]
    pub fn fence(&self) {
        // SAFETY: self.raw is a live window; the fence only completes operations whose memory
        // is borrowed for the window's life.
        check("MPI_Win_fence", unsafe { ffi::MPI_Win_fence(0, self.raw) })
    }

    /// MPI_Win_lock(MPI_LOCK_SHARED, target): opens a passive-target access epoch.
    pub fn lock(&self, target: c_int) {
        // SAFETY: self.raw is a live window; a lock only changes which epoch is open.
        check("MPI_Win_lock", unsafe {
            ffi::MPI_Win_lock(ffi::MPI_LOCK_SHARED as c_int, target, 0, self.raw)
        })
    }

    /// MPI_Win_unlock(target): completes this rank's operations to `target` and closes the
    /// epoch.
    pub fn unlock(&self, target: c_int) {
        // SAFETY: self.raw is a live window; the unlock completes operations whose memory is
        // borrowed for the window's life.
        check("MPI_Win_unlock", unsafe {
            ffi::MPI_Win_unlock(target, self.raw)
        })
    }

    /// MPI_Win_lock_all(0): a shared access epoch to every rank of the window.
    pub fn lock_all(&self) {
        // SAFETY: as `lock`.
        check("MPI_Win_lock_all", unsafe {
            ffi::MPI_Win_lock_all(0, self.raw)
        })
    }

    /// MPI_Win_unlock_all: completes this rank's operations and closes the epoch.
    pub fn unlock_all(&self) {
        // SAFETY: as `unlock`.
        check("MPI_Win_unlock_all", unsafe {
            ffi::MPI_Win_unlock_all(self.raw)
        })
    }

    /// MPI_Win_flush(target): this rank's operations to `target` are complete at both ends.
    #[inline(always)]
    pub fn flush(&self, target: c_int) {
        // SAFETY: as `unlock`.
        check("MPI_Win_flush", unsafe {
            ffi::MPI_Win_flush(target, self.raw)
        })
    }

    /// MPI_Win_flush_local(target): this rank's operations to `target` are complete here.
    #[inline(always)]
    pub fn flush_local(&self, target: c_int) {
        // SAFETY: as `unlock`.
        check("MPI_Win_flush_local", unsafe {
            ffi::MPI_Win_flush_local(target, self.raw)
        })
    }

    /// MPI_Win_flush_all: as `flush`, for every target.
    #[inline(always)]
    pub fn flush_all(&self) {
        // SAFETY: as `unlock`.
        check("MPI_Win_flush_all", unsafe {
            ffi::MPI_Win_flush_all(self.raw)
        })
    }

    /// MPI_Win_flush_local_all: as `flush_local`, for every target.
    #[inline(always)]
    pub fn flush_local_all(&self) {
        // SAFETY: as `unlock`.
        check("MPI_Win_flush_local_all", unsafe {
            ffi::MPI_Win_flush_local_all(self.raw)
        })
    }

    /// MPI_Win_sync: this rank's view of its own window memory catches up with the RMA
    /// operations that have completed on it (needed under the separate memory model; call
    /// inside an epoch, e.g. a lock of this rank).
    pub fn sync(&self) {
        // SAFETY: self.raw is a live window; MPI_Win_sync only orders memory.
        check("MPI_Win_sync", unsafe { ffi::MPI_Win_sync(self.raw) })
    }
}
