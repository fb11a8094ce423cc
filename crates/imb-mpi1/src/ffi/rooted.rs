//! The collectives IMB 2021 added: rooted Gather/Scatter and their v-forms, MPI_Reduce_scatter_block
//! and MPI_Reduce_local.

use super::Mpi;
use imb_core::coll_call;
use imb_core::mpirc::{check, count};
use mpi::ffi;
use std::os::raw::c_int;

impl Mpi<'_> {
    /// MPI_Gather of `send` from every rank into `recv` at `root` (blocks of send.len() bytes).
    #[inline(always)]
    pub fn gather(&self, send: &[u8], recv: &mut [u8], root: c_int) {
        let n = count(send.len());
        // SAFETY: recv holds size·send.len() bytes (checked when the kernel was built) and is
        // only written at the root; send is only read.
        let rc = unsafe {
            coll_call!(ffi::MPI_Gather; blocks(send, recv, n, self.byte), root, self.comm)
        };
        check("MPI_Gather", rc)
    }

    /// MPI_Gatherv into `recv` at `root` with per-rank counts and displacements (bytes).
    #[inline(always)]
    pub fn gatherv(
        &self,
        send: &[u8],
        recv: &mut [u8],
        counts: &[c_int],
        displs: &[c_int],
        root: c_int,
    ) {
        // SAFETY: counts/displs have one entry per rank and lie within recv (checked when the
        // kernel was built); recv is only written at the root.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Gatherv;
                vrecv(send, recv, counts, displs, self.byte), root, self.comm
            )
        };
        check("MPI_Gatherv", rc)
    }

    /// MPI_Scatter from `root`'s `send` (blocks of recv.len() bytes) into every rank's `recv`.
    #[inline(always)]
    pub fn scatter(&self, send: &[u8], recv: &mut [u8], root: c_int) {
        let n = count(recv.len());
        // SAFETY: send holds size·recv.len() bytes (checked when the kernel was built) and is
        // only read (at the root); recv is exclusively borrowed.
        let rc = unsafe {
            coll_call!(ffi::MPI_Scatter; blocks(send, recv, n, self.byte), root, self.comm)
        };
        check("MPI_Scatter", rc)
    }

    /// MPI_Scatterv from `root`'s `send` with per-rank counts and displacements (bytes).
    #[inline(always)]
    pub fn scatterv(
        &self,
        send: &[u8],
        counts: &[c_int],
        displs: &[c_int],
        recv: &mut [u8],
        root: c_int,
    ) {
        // SAFETY: counts/displs have one entry per rank and lie within send (checked when the
        // kernel was built); send is only read, recv exclusively borrowed.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Scatterv;
                vsend(send, counts, displs, recv, self.byte), root, self.comm
            )
        };
        check("MPI_Scatterv", rc)
    }

    /// MPI_Reduce_scatter_block of floats: recv.len()/4 results per rank.
    #[inline(always)]
    pub fn reduce_scatter_block(&self, send: &[u8], recv: &mut [u8]) {
        let n = count(recv.len() / 4);
        // SAFETY: send holds size·recv.len() bytes (checked when the kernel was built); recv
        // is exclusively borrowed.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Reduce_scatter_block;
                reduce(send, recv, n, self.float, self.sum), self.comm
            )
        };
        check("MPI_Reduce_scatter_block", rc)
    }

    /// MPI_Reduce_local: `inout` += `input`, as floats with MPI_SUM (no communication).
    #[inline(always)]
    pub fn reduce_local(&self, input: &[u8], inout: &mut [u8]) {
        debug_assert!(inout.len() >= input.len());
        let n = count(input.len() / 4);
        // SAFETY: input holds input.len()/4 floats to read, inout at least as many to update.
        let rc = unsafe {
            coll_call!(ffi::MPI_Reduce_local; reduce(input, inout, n, self.float, self.sum))
        };
        check("MPI_Reduce_local", rc)
    }
}
