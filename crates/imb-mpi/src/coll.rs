//! The blocking collectives of IMB 3.0's set on a communicator's `Mpi` handles (the ones IMB
//! 2021 added are `rooted`'s).

use crate::coll_call;
use crate::comm::Mpi;
use crate::datatype::Msg;
use crate::rc::{check, cptr, mptr};
use mpi::ffi;
use std::os::raw::c_int;

impl Mpi<'_> {
    /// MPI_Allreduce of `msg` with its op.
    #[inline(always)]
    pub fn allreduce(&self, send: &[u8], recv: &mut [u8], msg: Msg) {
        // SAFETY: send and recv hold msg (the `Msg` contract, which the caller checked when its
        // kernel was built); recv is exclusively borrowed.
        let rc = unsafe {
            coll_call!(ffi::MPI_Allreduce; reduce(send, recv, msg.n, msg.ty, msg.op), self.comm)
        };
        check("MPI_Allreduce", rc)
    }

    /// MPI_Reduce of `msg` with its op to `root` (recv is used at the root).
    #[inline(always)]
    pub fn reduce(&self, send: &[u8], recv: &mut [u8], msg: Msg, root: c_int) {
        // SAFETY: as allreduce; recv is only written at the root.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Reduce;
                reduce(send, recv, msg.n, msg.ty, msg.op), root, self.comm
            )
        };
        check("MPI_Reduce", rc)
    }

    /// MPI_Reduce_scatter of `msg`'s type and op: `counts[k]` results go to rank k.
    #[inline(always)]
    pub fn reduce_scatter(&self, send: &[u8], recv: &mut [u8], counts: &[c_int], msg: Msg) {
        let counts = counts.as_ptr();
        // SAFETY: send holds sum(counts) elements (the `Msg` contract, which the caller checked
        // when its kernel was built); recv holds at least this rank's count; counts has one entry
        // per rank.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Reduce_scatter;
                reduce(send, recv, counts, msg.ty, msg.op), self.comm
            )
        };
        check("MPI_Reduce_scatter", rc)
    }

    /// MPI_Allgather: `msg` from every rank, block k of `recv` from rank k.
    #[inline(always)]
    pub fn allgather(&self, send: &[u8], recv: &mut [u8], msg: Msg) {
        // SAFETY: send holds msg and recv size blocks of it (the `Msg` contract, which the caller
        // checked when its kernel was built).
        let rc =
            unsafe { coll_call!(ffi::MPI_Allgather; blocks(send, recv, msg.n, msg.ty), self.comm) };
        check("MPI_Allgather", rc)
    }

    /// MPI_Allgatherv of `msg` with per-rank counts and displacements (in elements of its
    /// type).
    #[inline(always)]
    pub fn allgatherv(
        &self,
        send: &[u8],
        recv: &mut [u8],
        counts: &[c_int],
        displs: &[c_int],
        msg: Msg,
    ) {
        // SAFETY: send holds msg; counts/displs have one entry per rank and lie within recv
        // (the `Msg` contract, which the caller checked when its kernel was built).
        let rc = unsafe {
            ffi::MPI_Allgatherv(
                cptr(send),
                msg.n,
                msg.ty,
                mptr(recv),
                counts.as_ptr(),
                displs.as_ptr(),
                msg.ty,
                self.comm,
            )
        };
        check("MPI_Allgatherv", rc)
    }

    /// MPI_Alltoall with `msg` per peer.
    #[inline(always)]
    pub fn alltoall(&self, send: &[u8], recv: &mut [u8], msg: Msg) {
        // SAFETY: send and recv hold size blocks of msg (the `Msg` contract, which the caller
        // checked when its kernel was built).
        let rc =
            unsafe { coll_call!(ffi::MPI_Alltoall; blocks(send, recv, msg.n, msg.ty), self.comm) };
        check("MPI_Alltoall", rc)
    }

    /// MPI_Alltoallv with the same counts and displacements (in elements of `msg`'s type) on
    /// both sides.
    #[inline(always)]
    pub fn alltoallv(
        &self,
        send: &[u8],
        recv: &mut [u8],
        counts: &[c_int],
        displs: &[c_int],
        msg: Msg,
    ) {
        // SAFETY: counts/displs have one entry per rank and lie within both buffers (the `Msg`
        // contract, which the caller checked when its kernel was built).
        let rc = unsafe {
            coll_call!(ffi::MPI_Alltoallv; vboth(send, recv, counts, displs, msg.ty), self.comm)
        };
        check("MPI_Alltoallv", rc)
    }

    /// MPI_Bcast of `msg` from `root`: the root sends `send`, every other rank receives into
    /// `recv`.
    #[inline(always)]
    pub fn bcast(&self, send: &[u8], recv: &mut [u8], msg: Msg, me: c_int, root: c_int) {
        // SAFETY: at the root MPI_Bcast only reads its buffer, so passing the shared send slice is
        // sound; elsewhere recv is exclusively borrowed. Both hold msg (the `Msg` contract, which
        // the caller checked when its kernel was built).
        let rc = unsafe {
            if me == root {
                ffi::MPI_Bcast(cptr(send), msg.n, msg.ty, root, self.comm)
            } else {
                ffi::MPI_Bcast(mptr(recv), msg.n, msg.ty, root, self.comm)
            }
        };
        check("MPI_Bcast", rc)
    }
}
