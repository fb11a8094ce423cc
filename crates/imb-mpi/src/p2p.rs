//! The point-to-point calls of the timed loops, on a communicator's `Mpi` handles: PingPong's
//! and PingPing's messages, Sendrecv, Exchange, the Sphinx latencies' 0-byte signals and the
//! white-box halo exchange.

use crate::comm::Mpi;
use crate::datatype::Msg;
use crate::rc::{check, count, cptr, mptr};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

impl Mpi<'_> {
    /// MPI_Send of `msg` from `buf` to `dest`, tag 1.
    #[inline(always)]
    pub fn send(&self, buf: &[u8], msg: Msg, dest: c_int) {
        // SAFETY: buf holds msg (the `Msg` contract, which the caller checked when its kernel was
        // built); the call only reads it.
        let rc = unsafe { ffi::MPI_Send(cptr(buf), msg.n, msg.ty, dest, 1, self.comm) };
        check("MPI_Send", rc)
    }

    /// MPI_Recv of `msg` into `buf` from `source` (a rank, or `any_source()`) with any tag.
    #[inline(always)]
    pub fn recv(&self, buf: &mut [u8], msg: Msg, source: c_int) {
        // SAFETY: buf is exclusively borrowed and holds msg (the `Msg` contract, which the caller
        // checked when its kernel was built).
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
        // SAFETY: buf is exclusively borrowed and holds msg (the `Msg` contract, which the caller
        // checked when its kernel was built).
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
        // SAFETY: both slices hold msg (the `Msg` contract, which the caller checked when its
        // kernel was built) and outlive the request, which is completed (MPI_Wait) before return;
        // send is only read, recv is exclusively borrowed.
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
        // SAFETY: both slices hold msg (the `Msg` contract, which the caller checked when its
        // kernel was built); send is read, recv is exclusively borrowed, both for the call's
        // duration.
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
        // SAFETY: all three slices hold msg (the `Msg` contract, which the caller checked when its
        // kernel was built); the sends are only read by the two requests, which complete
        // (MPI_Waitall) before return; recv is exclusively borrowed and written by the blocking
        // receives only.
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
}
