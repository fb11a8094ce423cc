//! Thin, checked wrappers over the non-blocking collectives (MPI-3), which rsmpi does not all
//! wrap (imb-nbc's operations). Each call starts one operation and returns a [`Pending`] that
//! borrows every buffer and count array MPI may still touch, so nothing can reuse them before
//! the operation completes; `Pending::wait` (or dropping it) is MPI_Wait. Handles are read once
//! (`Mpi::new`), every wrapper is one FFI call plus a return-code check (`coll_call!` spells the
//! argument lists the blocking wrappers share). `persistent`'s requests complete through
//! `Pending` too.

use crate::coll_call;
use crate::rc::{check, count, cptr, mptr};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator as Comm;
use std::marker::PhantomData;
use std::os::raw::c_int;

/// Handles of one communicator plus the datatypes and op the patterns use.
#[derive(Clone, Copy)]
pub struct Mpi<'c> {
    comm: ffi::MPI_Comm,
    byte: ffi::MPI_Datatype,
    float: ffi::MPI_Datatype,
    sum: ffi::MPI_Op,
    _comm: PhantomData<&'c Comm>,
}

/// A started operation. It borrows, for `'b`, every buffer and array the call was given; it
/// completes (MPI_Wait) when waited for or dropped, so the borrows end only after MPI is done.
#[must_use = "a started operation must be waited for"]
pub struct Pending<'b> {
    req: ffi::MPI_Request,
    done: bool,
    _bufs: PhantomData<&'b mut [u8]>,
}

impl<'b> Pending<'b> {
    /// An operation started outside this file, completed here as one of ours is: the
    /// persistent collectives after MPI_Start (`persistent`), so that the overlap loops time
    /// them as they time a non-blocking call. MPI_Wait leaves a persistent request's handle
    /// valid (the request becomes inactive), so waiting on this copy of it is waiting on the
    /// request.
    ///
    /// # Safety
    /// `req` is active, and every buffer and array it reads or writes stays borrowed, by the
    /// caller, for `'b`; nothing else completes it.
    pub(crate) unsafe fn started(req: ffi::MPI_Request) -> Self {
        Pending {
            req,
            done: false,
            _bufs: PhantomData,
        }
    }

    /// MPI_Wait.
    #[inline(always)]
    pub fn wait(mut self) {
        self.complete();
    }

    #[inline(always)]
    fn complete(&mut self) {
        // SAFETY: req was set by a successful MPI_I* call and has not been completed (done is
        // false); MPI_Wait completes it and sets it to MPI_REQUEST_NULL.
        let rc = unsafe { ffi::MPI_Wait(&mut self.req, ffi::RSMPI_STATUS_IGNORE) };
        self.done = true;
        check("MPI_Wait", rc)
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.complete();
        }
    }
}

/// Start one call, `$call(args..., &mut req)` or, with a shape of `coll_call!`,
/// `$call(<shape's arguments>, rest..., &mut req)`, checked; the request borrows for `'b`.
macro_rules! start {
    ($call:ident($($arg:expr),* $(,)?)) => {
        start!(@ req, $call, ffi::$call($($arg,)* req.as_mut_ptr()))
    };
    ($call:ident; $($shape:tt)*) => {
        start!(@ req, $call, coll_call!(ffi::$call; $($shape)*, req.as_mut_ptr()))
    };
    (@ $req:ident, $call:ident, $started:expr) => {{
        let mut $req = std::mem::MaybeUninit::<ffi::MPI_Request>::uninit();
        // SAFETY: the caller's buffers and arrays are borrowed for 'b by the returned Pending,
        // which completes the request before the borrows end; sizes were checked by the caller
        // (kernel construction) against the communicator's size; req is written by MPI.
        let req = unsafe {
            check(stringify!($call), $started);
            $req.assume_init()
        };
        Pending { req, done: false, _bufs: PhantomData }
    }};
}

impl<'c> Mpi<'c> {
    pub fn new(comm: &'c Comm) -> Self {
        // SAFETY: reading rsmpi's extern statics, initialised constants of the MPI library.
        unsafe {
            Mpi {
                comm: comm.as_raw(),
                byte: ffi::RSMPI_UINT8_T,
                float: ffi::RSMPI_FLOAT,
                sum: ffi::RSMPI_SUM,
                _comm: PhantomData,
            }
        }
    }

    /// Handles on MPI_COMM_NULL, for unit tests that look at an operation without starting
    /// it (no MPI_Init needed; an operation started on it fails with MPI's error and aborts).
    #[doc(hidden)]
    pub fn unconnected() -> Mpi<'static> {
        // SAFETY: reading rsmpi's extern statics, initialised constants of the MPI library.
        unsafe {
            Mpi {
                comm: ffi::RSMPI_COMM_NULL,
                byte: ffi::RSMPI_UINT8_T,
                float: ffi::RSMPI_FLOAT,
                sum: ffi::RSMPI_SUM,
                _comm: PhantomData,
            }
        }
    }

    /// MPI_Ibcast from `root`: the root sends `send`, every other rank receives into `recv`
    /// (the same length), so the source data is never overwritten.
    #[inline(always)]
    pub fn ibcast<'b>(
        &self,
        send: &'b [u8],
        recv: &'b mut [u8],
        me: c_int,
        root: c_int,
    ) -> Pending<'b> {
        // At the root MPI only reads the buffer, so the shared send slice is sound there.
        let (buf, n) = if me == root {
            (cptr(send), count(send.len()))
        } else {
            (mptr(recv), count(recv.len()))
        };
        start!(MPI_Ibcast(buf, n, self.byte, root, self.comm))
    }

    /// MPI_Iallgather: `send` from every rank, concatenated into `recv` (size·send.len()).
    #[inline(always)]
    pub fn iallgather<'b>(&self, send: &'b [u8], recv: &'b mut [u8]) -> Pending<'b> {
        let n = count(send.len());
        start!(MPI_Iallgather; blocks(send, recv, n, self.byte), self.comm)
    }

    /// MPI_Iallgatherv with per-rank counts and displacements (bytes, within `recv`).
    #[inline(always)]
    pub fn iallgatherv<'b>(
        &self,
        send: &'b [u8],
        recv: &'b mut [u8],
        counts: &'b [c_int],
        displs: &'b [c_int],
    ) -> Pending<'b> {
        start!(MPI_Iallgatherv; vrecv(send, recv, counts, displs, self.byte), self.comm)
    }

    /// MPI_Igather to `root` (recv, size·send.len(), is used at the root).
    #[inline(always)]
    pub fn igather<'b>(&self, send: &'b [u8], recv: &'b mut [u8], root: c_int) -> Pending<'b> {
        let n = count(send.len());
        start!(MPI_Igather; blocks(send, recv, n, self.byte), root, self.comm)
    }

    /// MPI_Igatherv to `root` with per-rank counts and displacements (bytes).
    #[inline(always)]
    pub fn igatherv<'b>(
        &self,
        send: &'b [u8],
        recv: &'b mut [u8],
        counts: &'b [c_int],
        displs: &'b [c_int],
        root: c_int,
    ) -> Pending<'b> {
        start!(MPI_Igatherv; vrecv(send, recv, counts, displs, self.byte), root, self.comm)
    }

    /// MPI_Iscatter from `root`: block k of the root's `send` (size·recv.len()) goes to rank k.
    #[inline(always)]
    pub fn iscatter<'b>(&self, send: &'b [u8], recv: &'b mut [u8], root: c_int) -> Pending<'b> {
        let n = count(recv.len());
        start!(MPI_Iscatter; blocks(send, recv, n, self.byte), root, self.comm)
    }

    /// MPI_Iscatterv from `root` with per-rank counts and displacements (bytes).
    #[inline(always)]
    pub fn iscatterv<'b>(
        &self,
        send: &'b [u8],
        counts: &'b [c_int],
        displs: &'b [c_int],
        recv: &'b mut [u8],
        root: c_int,
    ) -> Pending<'b> {
        start!(MPI_Iscatterv; vsend(send, counts, displs, recv, self.byte), root, self.comm)
    }

    /// MPI_Ialltoall with `block` bytes per peer (both buffers hold size·block).
    #[inline(always)]
    pub fn ialltoall<'b>(&self, send: &'b [u8], recv: &'b mut [u8], block: usize) -> Pending<'b> {
        let n = count(block);
        start!(MPI_Ialltoall; blocks(send, recv, n, self.byte), self.comm)
    }

    /// MPI_Ialltoallv with the same counts and displacements (bytes) on both sides.
    #[inline(always)]
    pub fn ialltoallv<'b>(
        &self,
        send: &'b [u8],
        recv: &'b mut [u8],
        counts: &'b [c_int],
        displs: &'b [c_int],
    ) -> Pending<'b> {
        start!(MPI_Ialltoallv; vboth(send, recv, counts, displs, self.byte), self.comm)
    }

    /// MPI_Ireduce of `send.len()/4` floats with MPI_SUM to `root` (recv is used at the root).
    #[inline(always)]
    pub fn ireduce<'b>(&self, send: &'b [u8], recv: &'b mut [u8], root: c_int) -> Pending<'b> {
        debug_assert!(recv.len() >= send.len());
        let n = count(send.len() / 4);
        start!(MPI_Ireduce; reduce(send, recv, n, self.float, self.sum), root, self.comm)
    }

    /// MPI_Ireduce_scatter of floats: `counts[k]` results go to rank k.
    #[inline(always)]
    pub fn ireduce_scatter<'b>(
        &self,
        send: &'b [u8],
        recv: &'b mut [u8],
        counts: &'b [c_int],
    ) -> Pending<'b> {
        let counts = counts.as_ptr();
        start!(MPI_Ireduce_scatter; reduce(send, recv, counts, self.float, self.sum), self.comm)
    }

    /// MPI_Iallreduce of `send.len()/4` floats with MPI_SUM.
    #[inline(always)]
    pub fn iallreduce<'b>(&self, send: &'b [u8], recv: &'b mut [u8]) -> Pending<'b> {
        debug_assert!(recv.len() >= send.len());
        let n = count(send.len() / 4);
        start!(MPI_Iallreduce; reduce(send, recv, n, self.float, self.sum), self.comm)
    }

    /// MPI_Ibarrier.
    #[inline(always)]
    pub fn ibarrier(&self) -> Pending<'static> {
        start!(MPI_Ibarrier(self.comm))
    }
}
