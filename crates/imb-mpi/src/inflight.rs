//! Windows of messages in flight with one peer (IMB 2021's Uniband and Biband) and the 1-byte
//! acknowledgement that ends each window. Message ws of a window (0-based) lies in copy ws mod
//! copies of its buffer (`Copies`: `-off_cache`'s copies, as in IMB 2021); with one copy every
//! message uses the same bytes.

use crate::comm::Mpi;
use crate::datatype::Msg;
use crate::rc::{check, count, cptr, mptr};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

/// Where a window's messages lie in a buffer: message ws in copy ws mod `copies`, the copies
/// `stride` bytes apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copies {
    pub stride: usize,
    pub copies: usize,
}

impl Copies {
    /// Offset of message ws's copy. Without copies no division: this runs in timed loops.
    #[inline(always)]
    fn offset(&self, ws: usize) -> usize {
        if self.copies == 1 {
            0
        } else {
            (ws % self.copies) * self.stride
        }
    }
}

/// The requests of a window of messages, allocated when a kernel is built so the timed loop
/// allocates nothing.
pub struct Requests(pub(crate) Vec<ffi::MPI_Request>);

impl Requests {
    pub fn new(n: usize) -> Self {
        // SAFETY: reading rsmpi's extern static MPI_REQUEST_NULL, an initialised constant.
        Requests(vec![unsafe { ffi::RSMPI_REQUEST_NULL }; n])
    }
}

impl Mpi<'_> {
    /// Uniband's sending side: `reqs.len()` MPI_Isend of `msg` from `buf`'s copies to `peer`
    /// (tag 1), MPI_Waitall, then the 1-byte acknowledgement from `peer`.
    #[inline(always)]
    pub fn window_send(
        &self,
        send: (&[u8], Copies),
        msg: Msg,
        peer: c_int,
        reqs: &mut Requests,
        ack: &mut [u8; 1],
    ) {
        self.post_and_wait(&mut reqs.0, None, Some(send), msg, peer);
        self.ack_recv(ack, peer);
    }

    /// Uniband's receiving side: `reqs.len()` MPI_Irecv of `msg` into `buf`'s copies from
    /// `peer`, MPI_Waitall, then the 1-byte acknowledgement to `peer`.
    #[inline(always)]
    pub fn window_recv(
        &self,
        recv: (&mut [u8], Copies),
        msg: Msg,
        peer: c_int,
        reqs: &mut Requests,
        ack: &[u8; 1],
    ) {
        self.post_and_wait(&mut reqs.0, Some(recv), None, msg, peer);
        self.ack_send(ack, peer);
    }

    /// Biband's step: half of `reqs` MPI_Irecv of `msg` into `recv`'s copies from `peer`, the
    /// other half MPI_Isend of it from `send`'s copies to it, MPI_Waitall, then the
    /// acknowledgement: `first` (the lower half of the pairs) receives it, the other side
    /// sends it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn window_both(
        &self,
        send: (&[u8], Copies),
        recv: (&mut [u8], Copies),
        msg: Msg,
        peer: c_int,
        reqs: &mut Requests,
        ack: &mut [u8; 1],
        first: bool,
    ) {
        self.post_and_wait(&mut reqs.0, Some(recv), Some(send), msg, peer);
        if first {
            self.ack_recv(ack, peer);
        } else {
            self.ack_send(ack, peer);
        }
    }

    /// One MPI_Irecv of `msg` per request into `recv`'s copy ws mod copies (all of them when
    /// there is no `send`, the first half otherwise), one MPI_Isend per remaining request from
    /// `send`'s copies, then MPI_Waitall. With one copy every receive lands in the same bytes,
    /// as IMB 2021 does, so the window costs no extra memory; every message carries the same
    /// contents.
    #[inline(always)]
    fn post_and_wait(
        &self,
        reqs: &mut [ffi::MPI_Request],
        recv: Option<(&mut [u8], Copies)>,
        send: Option<(&[u8], Copies)>,
        msg: Msg,
        peer: c_int,
    ) {
        let n = reqs.len();
        let split = match (&recv, &send) {
            (Some(_), Some(_)) => n / 2,
            (Some(_), None) => n,
            (None, _) => 0,
        };
        let (r, s) = reqs.split_at_mut(split);
        // SAFETY: message ws is posted from (or into) the slice of its copy, cut from the
        // borrowed buffer with a bounds check, which holds msg (the `Msg` contract: the caller
        // checked every copy when its kernel was built); both buffers stay borrowed, the
        // receive buffer exclusively, until every request completes (MPI_Waitall below, before
        // return); the requests written are within `reqs`.
        unsafe {
            if let Some((buf, c)) = recv {
                for (ws, q) in r.iter_mut().enumerate() {
                    let p = mptr(&mut buf[c.offset(ws)..]);
                    check(
                        "MPI_Irecv",
                        ffi::MPI_Irecv(p, msg.n, msg.ty, peer, 1, self.comm, q),
                    );
                }
            }
            if let Some((buf, c)) = send {
                for (ws, q) in s.iter_mut().enumerate() {
                    let p = cptr(&buf[c.offset(ws)..]);
                    check(
                        "MPI_Isend",
                        ffi::MPI_Isend(p, msg.n, msg.ty, peer, 1, self.comm, q),
                    );
                }
            }
            check(
                "MPI_Waitall",
                ffi::MPI_Waitall(count(n), reqs.as_mut_ptr(), ffi::RSMPI_STATUSES_IGNORE),
            );
        }
    }

    /// The blocking 1-byte acknowledgement from `peer`.
    #[inline(always)]
    fn ack_recv(&self, ack: &mut [u8; 1], peer: c_int) {
        // SAFETY: ack is exclusively borrowed and holds the one MPI_BYTE received.
        let rc = unsafe {
            ffi::MPI_Recv(
                ack.as_mut_ptr() as *mut c_void,
                1,
                self.byte,
                peer,
                1,
                self.comm,
                ffi::RSMPI_STATUS_IGNORE,
            )
        };
        check("MPI_Recv", rc);
    }

    /// The blocking 1-byte acknowledgement to `peer`.
    #[inline(always)]
    fn ack_send(&self, ack: &[u8; 1], peer: c_int) {
        // SAFETY: ack holds the one MPI_BYTE sent and is only read.
        let rc = unsafe { ffi::MPI_Send(cptr(ack), 1, self.byte, peer, 1, self.comm) };
        check("MPI_Send", rc);
    }
}

#[cfg(test)]
mod tests {
    use super::Copies;

    #[test]
    fn a_window_walks_its_copies_and_wraps() {
        let c = Copies {
            stride: 192,
            copies: 3,
        };
        let at: Vec<usize> = (0..5).map(|ws| c.offset(ws)).collect();
        assert_eq!(at, [0, 192, 384, 0, 192]);
        let one = Copies {
            stride: 192,
            copies: 1,
        };
        assert!((0..5).all(|ws| one.offset(ws) == 0));
    }
}
