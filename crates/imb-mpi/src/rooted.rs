//! The collectives IMB 2021 added: rooted Gather/Scatter and their v-forms,
//! MPI_Reduce_scatter_block and MPI_Reduce_local.

use crate::coll_call;
use crate::comm::Mpi;
use crate::datatype::Msg;
use crate::rc::{check, cptr, mptr};
use mpi::ffi;
use std::os::raw::c_int;

impl Mpi<'_> {
    /// MPI_Gather of `msg` from every rank into `recv` at `root` (block k from rank k).
    #[inline(always)]
    pub fn gather(&self, send: &[u8], recv: &mut [u8], msg: Msg, root: c_int) {
        // SAFETY: send holds msg and recv size blocks of it (the `Msg` contract, which the caller
        // checked when its kernel was built); recv is only written at the root, send only read.
        let rc = unsafe {
            coll_call!(ffi::MPI_Gather; blocks(send, recv, msg.n, msg.ty), root, self.comm)
        };
        check("MPI_Gather", rc)
    }

    /// MPI_Gatherv of `msg` into `recv` at `root` with per-rank counts and displacements (in
    /// elements of its type).
    #[inline(always)]
    pub fn gatherv(
        &self,
        send: &[u8],
        recv: &mut [u8],
        counts: &[c_int],
        displs: &[c_int],
        msg: Msg,
        root: c_int,
    ) {
        // SAFETY: send holds msg; counts/displs have one entry per rank and lie within recv (the
        // `Msg` contract, which the caller checked when its kernel was built); recv is only written
        // at the root.
        let rc = unsafe {
            ffi::MPI_Gatherv(
                cptr(send),
                msg.n,
                msg.ty,
                mptr(recv),
                counts.as_ptr(),
                displs.as_ptr(),
                msg.ty,
                root,
                self.comm,
            )
        };
        check("MPI_Gatherv", rc)
    }

    /// MPI_Scatter from `root`'s `send` (block k to rank k) of `msg` into every rank's `recv`.
    #[inline(always)]
    pub fn scatter(&self, send: &[u8], recv: &mut [u8], msg: Msg, root: c_int) {
        // SAFETY: send holds size blocks of msg and recv one (the `Msg` contract, which the caller
        // checked when its kernel was built); send is only read (at the root), recv exclusively
        // borrowed.
        let rc = unsafe {
            coll_call!(ffi::MPI_Scatter; blocks(send, recv, msg.n, msg.ty), root, self.comm)
        };
        check("MPI_Scatter", rc)
    }

    /// MPI_Scatterv of `msg` from `root`'s `send` with per-rank counts and displacements (in
    /// elements of its type).
    #[inline(always)]
    pub fn scatterv(
        &self,
        send: &[u8],
        counts: &[c_int],
        displs: &[c_int],
        recv: &mut [u8],
        msg: Msg,
        root: c_int,
    ) {
        // SAFETY: counts/displs have one entry per rank and lie within send, and recv holds msg
        // (the `Msg` contract, which the caller checked when its kernel was built); send is only
        // read, recv exclusively borrowed.
        let rc = unsafe {
            ffi::MPI_Scatterv(
                cptr(send),
                counts.as_ptr(),
                displs.as_ptr(),
                msg.ty,
                mptr(recv),
                msg.n,
                msg.ty,
                root,
                self.comm,
            )
        };
        check("MPI_Scatterv", rc)
    }

    /// MPI_Reduce_scatter_block of `msg` per rank, with its op.
    #[inline(always)]
    pub fn reduce_scatter_block(&self, send: &[u8], recv: &mut [u8], msg: Msg) {
        // SAFETY: send holds size blocks of msg and recv one (the `Msg` contract, which the caller
        // checked when its kernel was built); recv is exclusively borrowed.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Reduce_scatter_block;
                reduce(send, recv, msg.n, msg.ty, msg.op), self.comm
            )
        };
        check("MPI_Reduce_scatter_block", rc)
    }

    /// MPI_Reduce_local: `inout` += `input`, `msg` with its op (no communication).
    #[inline(always)]
    pub fn reduce_local(&self, input: &[u8], inout: &mut [u8], msg: Msg) {
        // SAFETY: input and inout hold msg (the `Msg` contract, which the caller checked when its
        // kernel was built); inout is exclusively borrowed.
        let rc = unsafe {
            coll_call!(ffi::MPI_Reduce_local; reduce(input, inout, msg.n, msg.ty, msg.op))
        };
        check("MPI_Reduce_local", rc)
    }
}
