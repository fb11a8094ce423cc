//! Thin, checked wrappers over the MPI calls that the timed loops make.
//!
//! rsmpi covers these calls, but its `process_at_rank` asks `MPI_Comm_size` and its rooted
//! collectives ask `MPI_Comm_rank` on every call, and return codes are dropped. Inside a timed
//! loop we want exactly the MPI call and a cheap return-code check, so the handles are read once
//! (`Mpi::new`) and every wrapper is one FFI call. All `unsafe` of imb-mpi1 is in this module (`rooted`: the
//! collectives IMB 2021 added; `window`: Uniband's and Biband's windows of messages; `types`:
//! the datatypes of IMB 2021's `-data_type`, `-red_data_type` and `-contig_type`).

use imb_core::coll_call;
use imb_core::kernel::Comm;
use imb_core::mpirc::{check, count, cptr, mptr};
use mpi::ffi;
use mpi::raw::AsRaw;
use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};

mod rooted;
mod types;
mod window;
pub use types::{Elems, Msg};
pub use window::Requests;

/// Handles of one communicator, plus MPI_BYTE for the acknowledgements and MPI_DOUBLE for the
/// white-box halo; the messages' datatypes come with each call (`Msg`).
#[derive(Clone, Copy)]
pub struct Mpi<'a> {
    comm: ffi::MPI_Comm,
    byte: ffi::MPI_Datatype,
    double: ffi::MPI_Datatype,
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
        // library (they hold the values of MPI_DOUBLE, MPI_ANY_SOURCE, ...).
        unsafe {
            Mpi {
                comm,
                byte: types::mpi_byte(),
                double: ffi::RSMPI_DOUBLE,
                any_source: ffi::RSMPI_ANY_SOURCE,
                any_tag: ffi::RSMPI_ANY_TAG,
                _comm: PhantomData,
            }
        }
    }

    /// MPI_Send of `msg` from `buf` to `dest`, tag 1.
    #[inline(always)]
    pub fn send(&self, buf: &[u8], msg: Msg, dest: c_int) {
        // SAFETY: buf holds msg (checked when the kernel was built); the call only reads it.
        let rc = unsafe { ffi::MPI_Send(cptr(buf), msg.n, msg.ty, dest, 1, self.comm) };
        check("MPI_Send", rc)
    }

    /// MPI_Recv of `msg` into `buf` from `source` (a rank, or `any_source()`) with any tag.
    #[inline(always)]
    pub fn recv(&self, buf: &mut [u8], msg: Msg, source: c_int) {
        // SAFETY: buf is exclusively borrowed and holds msg (checked when the kernel was
        // built).
        let rc = unsafe {
            ffi::MPI_Recv(
                mptr(buf),
                msg.n,
                msg.ty,
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

    /// MPI_Recv of `msg` into `buf` from `source` with tag 1 (the white-box reference
    /// PingPong).
    #[inline(always)]
    pub fn recv_from(&self, buf: &mut [u8], msg: Msg, source: c_int) {
        // SAFETY: buf is exclusively borrowed and holds msg (checked when the kernel was
        // built).
        let rc = unsafe {
            ffi::MPI_Recv(
                mptr(buf),
                msg.n,
                msg.ty,
                source,
                1,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Recv", rc)
    }

    /// A 0-byte MPI_Send to `dest`, tag 1 (the Sphinx latencies' acknowledgements and
    /// triggers).
    #[inline(always)]
    pub fn signal(&self, dest: c_int) {
        // SAFETY: no bytes are read; the pointer is never dereferenced.
        let rc = unsafe { ffi::MPI_Send(cptr(&[]), 0, self.byte, dest, 1, self.comm) };
        check("MPI_Send", rc)
    }

    /// The 0-byte MPI_Recv of `signal` from `source`, tag 1.
    #[inline(always)]
    pub fn await_signal(&self, source: c_int) {
        // SAFETY: no bytes are written; the pointer is never dereferenced.
        let rc = unsafe {
            ffi::MPI_Recv(
                mptr(&mut []),
                0,
                self.byte,
                source,
                1,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Recv", rc)
    }

    /// PingPing's step: MPI_Isend of `msg` to `peer`, MPI_Recv from `source` (a rank, or
    /// `any_source()`) with any tag, MPI_Wait.
    #[inline(always)]
    pub fn pingping(&self, send: &[u8], msg: Msg, peer: c_int, source: c_int, recv: &mut [u8]) {
        // SAFETY: both slices hold msg (checked when the kernel was built) and outlive the
        // request, which is completed (MPI_Wait) before return; send is only read, recv is
        // exclusively borrowed.
        unsafe {
            let mut req: ffi::MPI_Request = ffi::RSMPI_REQUEST_NULL;
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(send), msg.n, msg.ty, peer, 1, self.comm, &mut req),
            );
            check(
                "MPI_Recv",
                ffi::MPI_Recv(
                    mptr(recv),
                    msg.n,
                    msg.ty,
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

    /// MPI_Sendrecv of `msg`: send to `dest` (tag 1), receive from `source` with any tag.
    #[inline(always)]
    pub fn sendrecv(&self, send: &[u8], msg: Msg, dest: c_int, recv: &mut [u8], source: c_int) {
        // SAFETY: both slices hold msg (checked when the kernel was built); send is read, recv
        // is exclusively borrowed, both for the call's duration.
        let rc = unsafe {
            ffi::MPI_Sendrecv(
                cptr(send),
                msg.n,
                msg.ty,
                dest,
                1,
                mptr(recv),
                msg.n,
                msg.ty,
                source,
                self.any_tag,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Sendrecv", rc)
    }

    /// Exchange's step: Isend to right, Isend to left, Recv from left, Recv from right (same
    /// receive buffer), MPI_Waitall; every message is `msg`.
    #[inline(always)]
    pub fn exchange(
        &self,
        (to_right, to_left): (&[u8], &[u8]),
        msg: Msg,
        left: c_int,
        right: c_int,
        recv: &mut [u8],
    ) {
        let (n, ty) = (msg.n, msg.ty);
        // SAFETY: all three slices hold msg (checked when the kernel was built); the sends
        // are only read by the two requests, which complete (MPI_Waitall) before return; recv
        // is exclusively borrowed and written by the blocking receives only.
        unsafe {
            let mut reqs = [ffi::RSMPI_REQUEST_NULL; 2];
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(to_right), n, ty, right, 1, self.comm, &mut reqs[0]),
            );
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(to_left), n, ty, left, 1, self.comm, &mut reqs[1]),
            );
            for src in [left, right] {
                check(
                    "MPI_Recv",
                    ffi::MPI_Recv(
                        mptr(recv),
                        n,
                        ty,
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

    /// MPI_Allreduce of `msg` with its op.
    #[inline(always)]
    pub fn allreduce(&self, send: &[u8], recv: &mut [u8], msg: Msg) {
        // SAFETY: send and recv hold msg (checked when the kernel was built); recv is
        // exclusively borrowed.
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
        // SAFETY: send holds sum(counts) elements (checked when the kernel was built); recv
        // holds at least this rank's count; counts has one entry per rank.
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
        // SAFETY: send holds msg and recv size blocks of it (checked when the kernel was
        // built).
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
        // (checked when the kernel was built).
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
        // SAFETY: send and recv hold size blocks of msg (checked when the kernel was built).
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
        // SAFETY: counts/displs have one entry per rank and lie within both buffers (checked
        // when the kernel was built).
        let rc = unsafe {
            coll_call!(ffi::MPI_Alltoallv; vboth(send, recv, counts, displs, msg.ty), self.comm)
        };
        check("MPI_Alltoallv", rc)
    }

    /// MPI_Bcast of `msg` from `root`: the root sends `send`, every other rank receives into
    /// `recv`.
    #[inline(always)]
    pub fn bcast(&self, send: &[u8], recv: &mut [u8], msg: Msg, me: c_int, root: c_int) {
        // SAFETY: at the root MPI_Bcast only reads its buffer, so passing the shared send slice
        // is sound; elsewhere recv is exclusively borrowed. Both hold msg (checked when the
        // kernel was built).
        let rc = unsafe {
            if me == root {
                ffi::MPI_Bcast(cptr(send), msg.n, msg.ty, root, self.comm)
            } else {
                ffi::MPI_Bcast(mptr(recv), msg.n, msg.ty, root, self.comm)
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
