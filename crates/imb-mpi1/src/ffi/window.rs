//! Windows of messages in flight (Uniband, Biband) and the 1-byte acknowledgement that ends
//! each window. Message ws of a window (0-based) lies in copy ws mod copies of its buffer
//! under `-off_cache`, as in IMB 2021; without it every message uses the same bytes.

use super::{cptr, mptr, Mpi, Msg};
use imb_core::method::Rotation;
use imb_core::mpirc::{check, count};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

impl Mpi<'_> {
    /// Uniband's sending side: `reqs.len()` MPI_Isend of `msg` from `buf`'s copies (`rot`) to
    /// `peer` (tag 1), MPI_Waitall, then the 1-byte acknowledgement from `peer`.
    #[inline(always)]
    pub fn window_send(
        &self,
        (buf, rot): (&[u8], Rotation),
        msg: Msg,
        peer: c_int,
        reqs: &mut Requests,
        ack: &mut [u8; 1],
    ) {
        // SAFETY: buf holds msg in every copy of rot (its last copy and msg were checked to fit
        // when the kernel was built); the requests only read it and complete (MPI_Waitall)
        // before return; ack is exclusively borrowed for the blocking receive.
        unsafe {
            self.isends(buf, rot, msg, peer, &mut reqs.0);
            self.waitall(&mut reqs.0);
            self.ack_recv(ack, peer);
        }
    }

    /// Uniband's receiving side: `reqs.len()` MPI_Irecv of `msg` into `buf`'s copies (`rot`)
    /// from `peer`, MPI_Waitall, then the 1-byte acknowledgement to `peer`.
    #[inline(always)]
    pub fn window_recv(
        &self,
        (buf, rot): (&mut [u8], Rotation),
        msg: Msg,
        peer: c_int,
        reqs: &mut Requests,
        ack: &[u8; 1],
    ) {
        // SAFETY: as window_send; the receives are complete before buf is borrowed again.
        unsafe {
            self.irecvs(buf, rot, msg, peer, &mut reqs.0);
            self.waitall(&mut reqs.0);
            self.ack_send(ack, peer);
        }
    }

    /// Biband's step: half of `reqs` MPI_Irecv of `msg` into `recv`'s copies from `peer`, the
    /// other half MPI_Isend of it from `send`'s copies to it, MPI_Waitall, then the
    /// acknowledgement: `first` (the lower half of the pairs) receives it, the other side
    /// sends it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn window_both(
        &self,
        send: (&[u8], Rotation),
        recv: (&mut [u8], Rotation),
        msg: Msg,
        peer: c_int,
        reqs: &mut Requests,
        ack: &mut [u8; 1],
        first: bool,
    ) {
        let half = reqs.0.len() / 2;
        let (r, s) = reqs.0.split_at_mut(half);
        // SAFETY: as window_send and window_recv: every request completes before return.
        unsafe {
            self.irecvs(recv.0, recv.1, msg, peer, r);
            self.isends(send.0, send.1, msg, peer, s);
            self.waitall(&mut reqs.0);
            if first {
                self.ack_recv(ack, peer);
            } else {
                self.ack_send(ack, peer);
            }
        }
    }

    /// One MPI_Isend of `msg` per request, message ws from `buf`'s copy ws mod copies (the
    /// slice from its offset on). Caller: `buf` holds msg in every copy of `rot`; complete the
    /// requests before `buf` is released.
    #[inline(always)]
    unsafe fn isends(
        &self,
        buf: &[u8],
        rot: Rotation,
        msg: Msg,
        peer: c_int,
        reqs: &mut [ffi::MPI_Request],
    ) {
        for (ws, q) in reqs.iter_mut().enumerate() {
            let p = cptr(&buf[rot.offset(ws)..]);
            check(
                "MPI_Isend",
                ffi::MPI_Isend(p, msg.n, msg.ty, peer, 1, self.comm, q),
            );
        }
    }

    /// One MPI_Irecv of `msg` per request, message ws into `buf`'s copy ws mod copies: with one
    /// copy all into the same bytes, as IMB 2021 does, so the window costs no extra memory;
    /// every message carries the same contents. Caller: `buf` holds msg in every copy of
    /// `rot`; complete the requests before `buf` is read or released.
    #[inline(always)]
    unsafe fn irecvs(
        &self,
        buf: &mut [u8],
        rot: Rotation,
        msg: Msg,
        peer: c_int,
        reqs: &mut [ffi::MPI_Request],
    ) {
        for (ws, q) in reqs.iter_mut().enumerate() {
            let p = mptr(&mut buf[rot.offset(ws)..]);
            check(
                "MPI_Irecv",
                ffi::MPI_Irecv(p, msg.n, msg.ty, peer, 1, self.comm, q),
            );
        }
    }

    #[inline(always)]
    unsafe fn waitall(&self, reqs: &mut [ffi::MPI_Request]) {
        check(
            "MPI_Waitall",
            ffi::MPI_Waitall(
                count(reqs.len()),
                reqs.as_mut_ptr(),
                ffi::RSMPI_STATUSES_IGNORE,
            ),
        );
    }

    #[inline(always)]
    unsafe fn ack_recv(&self, ack: &mut [u8; 1], peer: c_int) {
        check(
            "MPI_Recv",
            ffi::MPI_Recv(
                ack.as_mut_ptr() as *mut c_void,
                1,
                self.byte,
                peer,
                1,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            ),
        );
    }

    #[inline(always)]
    unsafe fn ack_send(&self, ack: &[u8; 1], peer: c_int) {
        check(
            "MPI_Send",
            ffi::MPI_Send(cptr(ack), 1, self.byte, peer, 1, self.comm),
        );
    }
}

/// The requests of a window of messages, allocated when a kernel is built so the timed loop
/// allocates nothing.
pub struct Requests(Vec<ffi::MPI_Request>);

impl Requests {
    pub fn new(n: usize) -> Self {
        // SAFETY: reading rsmpi's extern static MPI_REQUEST_NULL, an initialised constant.
        Requests(vec![unsafe { ffi::RSMPI_REQUEST_NULL }; n])
    }
}
