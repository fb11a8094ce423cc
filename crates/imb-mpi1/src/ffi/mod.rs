//! Thin, checked wrappers over the MPI calls that the timed loops make.
//!
//! rsmpi covers these calls, but its `process_at_rank` asks `MPI_Comm_size` and its rooted
//! collectives ask `MPI_Comm_rank` on every call, and return codes are dropped. Inside a timed
//! loop we want exactly the MPI call and a cheap return-code check, so the handles are read once
//! (`Mpi::new`) and every wrapper is one FFI call. All `unsafe` of imb-mpi1 is in this module (`rooted`: the
//! collectives IMB 2021 added; `window`: Uniband's and Biband's windows of messages).

use imb_core::coll_call;
use imb_core::kernel::Comm;
use imb_core::mpirc::{check, count, cptr, mptr};
use mpi::ffi;
use mpi::raw::AsRaw;
use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};

mod rooted;
mod window;
pub use window::Requests;

/// Handles of one communicator plus the datatypes and op the patterns use.
#[derive(Clone, Copy)]
pub struct Mpi<'a> {
    comm: ffi::MPI_Comm,
    byte: ffi::MPI_Datatype,
    float: ffi::MPI_Datatype,
    double: ffi::MPI_Datatype,
    sum: ffi::MPI_Op,
    any_source: c_int,
    any_tag: c_int,
    _comm: PhantomData<&'a Comm>,
}

impl<'a> Mpi<'a> {
    pub fn new(comm: &'a Comm) -> Self {
        Mpi::on(comm.as_raw())
    }

    /// Handles that name no communicator, for unit tests that build kernels to look at them
    /// (their checks, their loop) and never call MPI through them.
    #[cfg(test)]
    pub fn unconnected() -> Mpi<'static> {
        // SAFETY: reading an extern static that holds the MPI library's MPI_COMM_NULL.
        Mpi::on(unsafe { ffi::RSMPI_COMM_NULL })
    }

    fn on(comm: ffi::MPI_Comm) -> Self {
        // SAFETY: reading rsmpi's extern statics, which are initialised constants of the MPI
        // library (they hold the values of MPI_UINT8_T, MPI_FLOAT, MPI_SUM, ...).
        unsafe {
            Mpi {
                comm,
                byte: ffi::RSMPI_UINT8_T,
                float: ffi::RSMPI_FLOAT,
                double: ffi::RSMPI_DOUBLE,
                sum: ffi::RSMPI_SUM,
                any_source: ffi::RSMPI_ANY_SOURCE,
                any_tag: ffi::RSMPI_ANY_TAG,
                _comm: PhantomData,
            }
        }
    }

    /// MPI_Send of `buf` to `dest`, tag 1.
    #[inline(always)]
    pub fn send(&self, buf: &[u8], dest: c_int) {
        // SAFETY: buf is a live slice of buf.len() bytes; the call only reads it.
        let rc =
            unsafe { ffi::MPI_Send(cptr(buf), count(buf.len()), self.byte, dest, 1, self.comm) };
        check("MPI_Send", rc)
    }

    /// MPI_Recv into `buf` from `source` (a rank, or `any_source()`) with any tag.
    #[inline(always)]
    pub fn recv(&self, buf: &mut [u8], source: c_int) {
        // SAFETY: buf is a live, exclusively borrowed slice of buf.len() bytes.
        let rc = unsafe {
            ffi::MPI_Recv(
                mptr(buf),
                count(buf.len()),
                self.byte,
                source,
                self.any_tag,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Recv", rc)
    }

    /// MPI_ANY_SOURCE, for the receives that take any sender.
    pub fn any_source(&self) -> c_int {
        self.any_source
    }

    /// MPI_Recv into `buf` from `source` with tag 1 (the acknowledgements of the Sphinx
    /// latencies).
    #[inline(always)]
    pub fn recv_from(&self, buf: &mut [u8], source: c_int) {
        // SAFETY: buf is a live, exclusively borrowed slice of buf.len() bytes.
        let rc = unsafe {
            ffi::MPI_Recv(
                mptr(buf),
                count(buf.len()),
                self.byte,
                source,
                1,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Recv", rc)
    }

    /// PingPing's step: MPI_Isend to `peer`, MPI_Recv from `source` (a rank, or
    /// `any_source()`) with any tag, MPI_Wait.
    #[inline(always)]
    pub fn pingping(&self, send: &[u8], peer: c_int, source: c_int, recv: &mut [u8]) {
        // SAFETY: both slices outlive the request, which is completed (MPI_Wait) before return;
        // send is only read, recv is exclusively borrowed.
        unsafe {
            let mut req: ffi::MPI_Request = ffi::RSMPI_REQUEST_NULL;
            check(
                "MPI_Isend",
                ffi::MPI_Isend(
                    cptr(send),
                    count(send.len()),
                    self.byte,
                    peer,
                    1,
                    self.comm,
                    &mut req,
                ),
            );
            check(
                "MPI_Recv",
                ffi::MPI_Recv(
                    mptr(recv),
                    count(recv.len()),
                    self.byte,
                    source,
                    self.any_tag,
                    self.comm,
                    ffi::RSMPI_STATUS_IGNORE,
                ),
            );
            check(
                "MPI_Wait",
                ffi::MPI_Wait(&mut req, ffi::RSMPI_STATUS_IGNORE),
            );
        }
    }

    /// MPI_Sendrecv: send to `dest` (tag 1), receive from `source` with any tag.
    #[inline(always)]
    pub fn sendrecv(&self, send: &[u8], dest: c_int, recv: &mut [u8], source: c_int) {
        // SAFETY: send is read, recv is exclusively borrowed, both for the call's duration.
        let rc = unsafe {
            ffi::MPI_Sendrecv(
                cptr(send),
                count(send.len()),
                self.byte,
                dest,
                1,
                mptr(recv),
                count(recv.len()),
                self.byte,
                source,
                self.any_tag,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Sendrecv", rc)
    }

    /// Exchange's step: Isend to right, Isend to left, Recv from left, Recv from right (same
    /// receive buffer), MPI_Waitall.
    #[inline(always)]
    pub fn exchange(&self, send: &[u8], left: c_int, right: c_int, recv: &mut [u8]) {
        let n = count(send.len());
        // SAFETY: send is only read by the two requests, which complete (MPI_Waitall) before
        // return; recv is exclusively borrowed and written by the blocking receives only.
        unsafe {
            let mut reqs = [ffi::RSMPI_REQUEST_NULL; 2];
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(send), n, self.byte, right, 1, self.comm, &mut reqs[0]),
            );
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(send), n, self.byte, left, 1, self.comm, &mut reqs[1]),
            );
            for src in [left, right] {
                check(
                    "MPI_Recv",
                    ffi::MPI_Recv(
                        mptr(recv),
                        count(recv.len()),
                        self.byte,
                        src,
                        self.any_tag,
                        self.comm,
                        ffi::RSMPI_STATUS_IGNORE,
                    ),
                );
            }
            check(
                "MPI_Waitall",
                ffi::MPI_Waitall(2, reqs.as_mut_ptr(), ffi::RSMPI_STATUSES_IGNORE),
            );
        }
    }

    /// MPI_Allreduce of `send.len()/4` floats with MPI_SUM.
    #[inline(always)]
    pub fn allreduce(&self, send: &[u8], recv: &mut [u8]) {
        debug_assert!(recv.len() >= send.len());
        let n = count(send.len() / 4);
        // SAFETY: send holds send.len()/4 floats to read, recv at least as many to write.
        let rc = unsafe {
            coll_call!(ffi::MPI_Allreduce; reduce(send, recv, n, self.float, self.sum), self.comm)
        };
        check("MPI_Allreduce", rc)
    }

    /// MPI_Reduce of `send.len()/4` floats with MPI_SUM to `root` (recv is used at the root).
    #[inline(always)]
    pub fn reduce(&self, send: &[u8], recv: &mut [u8], root: c_int) {
        debug_assert!(recv.len() >= send.len());
        let n = count(send.len() / 4);
        // SAFETY: as allreduce; recv is only written at the root.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Reduce;
                reduce(send, recv, n, self.float, self.sum), root, self.comm
            )
        };
        check("MPI_Reduce", rc)
    }

    /// MPI_Reduce_scatter of floats: `counts[k]` results go to rank k.
    #[inline(always)]
    pub fn reduce_scatter(&self, send: &[u8], recv: &mut [u8], counts: &[c_int]) {
        let counts = counts.as_ptr();
        // SAFETY: send holds sum(counts) floats (checked when the kernel was built); recv holds
        // at least this rank's count; counts has one entry per rank.
        let rc = unsafe {
            coll_call!(
                ffi::MPI_Reduce_scatter;
                reduce(send, recv, counts, self.float, self.sum), self.comm
            )
        };
        check("MPI_Reduce_scatter", rc)
    }

    /// MPI_Allgather: `send` from every rank, concatenated into `recv`.
    #[inline(always)]
    pub fn allgather(&self, send: &[u8], recv: &mut [u8]) {
        let n = count(send.len());
        // SAFETY: recv holds size·send.len() bytes (checked when the kernel was built).
        let rc =
            unsafe { coll_call!(ffi::MPI_Allgather; blocks(send, recv, n, self.byte), self.comm) };
        check("MPI_Allgather", rc)
    }

    /// MPI_Allgatherv with per-rank counts and displacements (bytes).
    #[inline(always)]
    pub fn allgatherv(&self, send: &[u8], recv: &mut [u8], counts: &[c_int], displs: &[c_int]) {
        // SAFETY: counts/displs have one entry per rank and lie within recv (checked when the
        // kernel was built).
        let rc = unsafe {
            coll_call!(ffi::MPI_Allgatherv; vrecv(send, recv, counts, displs, self.byte), self.comm)
        };
        check("MPI_Allgatherv", rc)
    }

    /// MPI_Alltoall with `block` bytes per peer.
    #[inline(always)]
    pub fn alltoall(&self, send: &[u8], recv: &mut [u8], block: usize) {
        let n = count(block);
        // SAFETY: send and recv hold size·block bytes (checked when the kernel was built).
        let rc =
            unsafe { coll_call!(ffi::MPI_Alltoall; blocks(send, recv, n, self.byte), self.comm) };
        check("MPI_Alltoall", rc)
    }

    /// MPI_Alltoallv with the same counts and displacements (bytes) on both sides.
    #[inline(always)]
    pub fn alltoallv(&self, send: &[u8], recv: &mut [u8], counts: &[c_int], displs: &[c_int]) {
        // SAFETY: counts/displs have one entry per rank and lie within both buffers.
        let rc = unsafe {
            coll_call!(ffi::MPI_Alltoallv; vboth(send, recv, counts, displs, self.byte), self.comm)
        };
        check("MPI_Alltoallv", rc)
    }

    /// MPI_Bcast from `root`: the root sends `send`, every other rank receives into `recv`.
    #[inline(always)]
    pub fn bcast(&self, send: &[u8], recv: &mut [u8], me: c_int, root: c_int) {
        // SAFETY: at the root MPI_Bcast only reads its buffer, so passing the shared send slice
        // is sound; elsewhere recv is exclusively borrowed. Both have the same length.
        let rc = unsafe {
            if me == root {
                ffi::MPI_Bcast(cptr(send), count(send.len()), self.byte, root, self.comm)
            } else {
                ffi::MPI_Bcast(mptr(recv), count(recv.len()), self.byte, root, self.comm)
            }
        };
        check("MPI_Bcast", rc)
    }

    /// A 2-D halo exchange of doubles: for each direction d, MPI_Irecv of `recvs[d]` from
    /// `from[d]` and MPI_Isend of `sends[d]` to `to[d]`, both with tag d (so two directions
    /// that share a neighbour, or a neighbour that is this rank, stay apart), then MPI_Waitall.
    #[inline(always)]
    pub fn halo(
        &self,
        sends: [&[f64]; 4],
        recvs: [&mut [f64]; 4],
        to: [c_int; 4],
        from: [c_int; 4],
    ) {
        // SAFETY: the eight requests complete (MPI_Waitall) before return, while the send
        // slices are borrowed shared (only read) and the receive slices exclusively; the
        // receive slices are distinct borrows, so no two requests write the same memory.
        unsafe {
            let mut reqs = [ffi::RSMPI_REQUEST_NULL; 8];
            for (d, r) in recvs.into_iter().enumerate() {
                check(
                    "MPI_Irecv",
                    ffi::MPI_Irecv(
                        r.as_mut_ptr() as *mut c_void,
                        count(r.len()),
                        self.double,
                        from[d],
                        d as c_int,
                        self.comm,
                        &mut reqs[d],
                    ),
                );
            }
            for (d, b) in sends.into_iter().enumerate() {
                check(
                    "MPI_Isend",
                    ffi::MPI_Isend(
                        b.as_ptr() as *mut c_void,
                        count(b.len()),
                        self.double,
                        to[d],
                        d as c_int,
                        self.comm,
                        &mut reqs[4 + d],
                    ),
                );
            }
            check(
                "MPI_Waitall",
                ffi::MPI_Waitall(8, reqs.as_mut_ptr(), ffi::RSMPI_STATUSES_IGNORE),
            );
        }
    }

    /// MPI_Barrier.
    #[inline(always)]
    pub fn barrier(&self) {
        // SAFETY: no buffers; the communicator outlives self.
        let rc = unsafe { ffi::MPI_Barrier(self.comm) };
        check("MPI_Barrier", rc)
    }
}
