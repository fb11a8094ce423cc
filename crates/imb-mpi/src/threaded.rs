//! The calls of IMB-MT's patterns, callable from any of a rank's threads (the run asks for
//! MPI_THREAD_MULTIPLE). A communicator is held as its raw handle (`Comm`), which every thread
//! may use; each wrapper is one FFI call (or one post-and-wait sequence for the windows) plus
//! the return-code check (`rc`), which aborts every rank on a failure. Element counts come
//! from the byte slices and the datatype's size, so no call can reach past a buffer.

use crate::handles;
use crate::inflight::Requests;
use crate::rc::{check, count, cptr, mptr};
use mpi::ffi;
use std::os::raw::c_int;

/// Words of a CPU mask exchanged between the ranks of a node: 4096 CPUs.
pub const MASK_WORDS: usize = 64;

/// A communicator handle shared by a rank's threads.
#[derive(Clone, Copy)]
pub struct Comm(ffi::MPI_Comm);

// SAFETY: an MPI_Comm is a handle MPI lets any thread use under MPI_THREAD_MULTIPLE, which
// the run checks it was granted before it starts more than one thread (imb-mt's
// `before_run`); with fewer threads every call comes from the thread that owns it.
unsafe impl Send for Comm {}
// SAFETY: as for Send: the handle is never written after creation.
unsafe impl Sync for Comm {}

/// An MPI datatype and its size in bytes.
#[derive(Clone, Copy)]
pub struct Elem {
    ty: ffi::MPI_Datatype,
    pub size: usize,
}

// SAFETY: a predefined datatype handle is a constant of the library, usable from any thread.
unsafe impl Send for Elem {}
// SAFETY: as for Send.
unsafe impl Sync for Elem {}

impl Elem {
    /// MPI_INT.
    pub fn int() -> Elem {
        let ty = handles::int();
        Elem {
            ty,
            size: std::mem::size_of::<c_int>(),
        }
    }
    /// MPI_CHAR.
    pub fn char() -> Elem {
        let ty = handles::char();
        Elem { ty, size: 1 }
    }
    /// Elements in `b`.
    #[inline(always)]
    fn n(&self, b: &[u8]) -> c_int {
        count(b.len() / self.size)
    }
}

impl Comm {
    /// MPI_COMM_WORLD.
    pub fn world() -> Comm {
        // SAFETY: reads a constant the bindings export.
        Comm(unsafe { ffi::RSMPI_COMM_WORLD })
    }

    /// A duplicate of MPI_COMM_WORLD for thread `thread`, named to the library by the info
    /// key `thread_id` as IMB-MT names it (MPI_Comm_dup, MPI_Comm_set_info). Collective: every
    /// rank creates the same duplicates in the same order. The duplicate lives until
    /// MPI_Finalize.
    pub fn world_dup_for(thread: usize) -> Comm {
        let mut out = std::mem::MaybeUninit::<ffi::MPI_Comm>::uninit();
        let key = c"thread_id";
        let value = std::ffi::CString::new(thread.to_string()).unwrap_or_default();
        let mut info = std::mem::MaybeUninit::<ffi::MPI_Info>::uninit();
        // SAFETY: MPI is initialised; out and info are written by MPI before they are read;
        // key and value are NUL-terminated strings that outlive the calls; the info object is
        // freed after the communicator has copied its hints.
        unsafe {
            check(
                "MPI_Comm_dup",
                ffi::MPI_Comm_dup(ffi::RSMPI_COMM_WORLD, out.as_mut_ptr()),
            );
            let comm = out.assume_init();
            check("MPI_Info_create", ffi::MPI_Info_create(info.as_mut_ptr()));
            let mut info = info.assume_init();
            check(
                "MPI_Info_set",
                ffi::MPI_Info_set(info, key.as_ptr(), value.as_ptr()),
            );
            check("MPI_Comm_set_info", ffi::MPI_Comm_set_info(comm, info));
            check("MPI_Info_free", ffi::MPI_Info_free(&mut info));
            Comm(comm)
        }
    }

    /// This rank's place among the ranks of its node (MPI_Comm_split_type,
    /// MPI_COMM_TYPE_SHARED) and every node rank's CPU mask, `MASK_WORDS` words of 64 CPUs
    /// each (MPI_Allgather), so a rank binds its threads only to CPUs no other rank of the
    /// node was also given. Collective on MPI_COMM_WORLD.
    pub fn node_masks(mine: &[u64; MASK_WORDS]) -> (usize, Vec<[u64; MASK_WORDS]>) {
        let mut out = std::mem::MaybeUninit::<ffi::MPI_Comm>::uninit();
        // SAFETY: MPI is initialised; out is written by MPI before it is read, and freed
        // after use; the gather writes node-size blocks of MASK_WORDS u64 into `all`, which
        // holds exactly that many, and reads MASK_WORDS u64 from `mine`.
        unsafe {
            check(
                "MPI_Comm_split_type",
                ffi::MPI_Comm_split_type(
                    ffi::RSMPI_COMM_WORLD,
                    ffi::RSMPI_COMM_TYPE_SHARED,
                    0,
                    ffi::RSMPI_INFO_NULL,
                    out.as_mut_ptr(),
                ),
            );
            let mut node = out.assume_init();
            let (rank, size) = Comm(node).rank_size();
            let mut all = vec![[0u64; MASK_WORDS]; size];
            let words = count(MASK_WORDS);
            check(
                "MPI_Allgather",
                ffi::MPI_Allgather(
                    mine.as_ptr().cast(),
                    words,
                    ffi::RSMPI_UINT64_T,
                    all.as_mut_ptr().cast(),
                    words,
                    ffi::RSMPI_UINT64_T,
                    node,
                ),
            );
            check("MPI_Comm_free", ffi::MPI_Comm_free(&mut node));
            (rank, all)
        }
    }

    /// (rank, size) in this communicator.
    pub fn rank_size(&self) -> (usize, usize) {
        let (mut r, mut s): (c_int, c_int) = (0, 0);
        // SAFETY: the handle is a valid communicator; r and s are written by MPI.
        unsafe {
            check("MPI_Comm_rank", ffi::MPI_Comm_rank(self.0, &mut r));
            check("MPI_Comm_size", ffi::MPI_Comm_size(self.0, &mut s));
        }
        (r.max(0) as usize, s.max(0) as usize)
    }

    /// MPI_Send of all of `b`.
    #[inline(always)]
    pub fn send(&self, b: &[u8], e: Elem, dest: c_int, tag: c_int) {
        // SAFETY: b is readable for its length, which holds n(b) elements of e.
        check("MPI_Send", unsafe {
            ffi::MPI_Send(cptr(b), e.n(b), e.ty, dest, tag, self.0)
        });
    }

    /// MPI_Recv into all of `b`.
    #[inline(always)]
    pub fn recv(&self, b: &mut [u8], e: Elem, src: c_int, tag: c_int) {
        // SAFETY: b is writable for its length, which holds n(b) elements of e; the status is
        // ignored.
        check("MPI_Recv", unsafe {
            ffi::MPI_Recv(
                mptr(b),
                e.n(b),
                e.ty,
                src,
                tag,
                self.0,
                ffi::RSMPI_STATUS_IGNORE,
            )
        });
    }

    /// MPI_Sendrecv: all of `s` to `dest`, all of `r` from `src`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn sendrecv(&self, s: &[u8], r: &mut [u8], e: Elem, dest: c_int, src: c_int, tag: c_int) {
        // SAFETY: s readable and r writable for their lengths (n elements of e each); distinct
        // borrows, so they do not overlap.
        check("MPI_Sendrecv", unsafe {
            ffi::MPI_Sendrecv(
                cptr(s),
                e.n(s),
                e.ty,
                dest,
                tag,
                mptr(r),
                e.n(r),
                e.ty,
                src,
                tag,
                self.0,
                ffi::RSMPI_STATUS_IGNORE,
            )
        });
    }

    /// MPI_Isend of `s` to `peer`, MPI_Recv of `r` from `src`, MPI_Wait: PingPingMT's step.
    #[inline(always)]
    pub fn isend_recv(&self, s: &[u8], r: &mut [u8], e: Elem, peer: c_int, src: c_int, tag: c_int) {
        let mut req = std::mem::MaybeUninit::<ffi::MPI_Request>::uninit();
        // SAFETY: s stays borrowed until MPI_Wait below completes the send; r is writable for
        // its length; req is written by MPI_Isend before MPI_Wait reads it.
        unsafe {
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(s), e.n(s), e.ty, peer, tag, self.0, req.as_mut_ptr()),
            );
            check(
                "MPI_Recv",
                ffi::MPI_Recv(
                    mptr(r),
                    e.n(r),
                    e.ty,
                    src,
                    tag,
                    self.0,
                    ffi::RSMPI_STATUS_IGNORE,
                ),
            );
            check(
                "MPI_Wait",
                ffi::MPI_Wait(req.as_mut_ptr(), ffi::RSMPI_STATUS_IGNORE),
            );
        }
    }

    /// ExchangeMT's step: `s` to `left` and to `right` (MPI_Isend each), `rl` from `left`
    /// and `rr` from `right` (MPI_Recv), then MPI_Waitall of the two sends.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn exchange(
        &self,
        s: &[u8],
        rl: &mut [u8],
        rr: &mut [u8],
        e: Elem,
        left: c_int,
        right: c_int,
        tag: c_int,
    ) {
        let mut reqs = [std::mem::MaybeUninit::<ffi::MPI_Request>::uninit(); 2];
        // SAFETY: s stays borrowed until MPI_Waitall completes both sends; rl and rr are
        // distinct writable slices; both requests are written by MPI_Isend before
        // MPI_Waitall reads them (MaybeUninit<T> has T's layout).
        unsafe {
            let r = reqs.as_mut_ptr().cast::<ffi::MPI_Request>();
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(s), e.n(s), e.ty, left, tag, self.0, r),
            );
            check(
                "MPI_Isend",
                ffi::MPI_Isend(cptr(s), e.n(s), e.ty, right, tag, self.0, r.add(1)),
            );
            check(
                "MPI_Recv",
                ffi::MPI_Recv(
                    mptr(rl),
                    e.n(rl),
                    e.ty,
                    left,
                    tag,
                    self.0,
                    ffi::RSMPI_STATUS_IGNORE,
                ),
            );
            check(
                "MPI_Recv",
                ffi::MPI_Recv(
                    mptr(rr),
                    e.n(rr),
                    e.ty,
                    right,
                    tag,
                    self.0,
                    ffi::RSMPI_STATUS_IGNORE,
                ),
            );
            check(
                "MPI_Waitall",
                ffi::MPI_Waitall(2, r, ffi::RSMPI_STATUSES_IGNORE),
            );
        }
    }

    /// A window of sends and receives with one peer, then MPI_Waitall: `recvs` MPI_Irecv of
    /// `r` from `src` first, then `sends` MPI_Isend of `s` to `dest` (UniBandMT's sender posts
    /// only sends, its receiver only receives, BiBandMT's both sides both). Every receive of
    /// the window lands in the same `r`, as in IMB-MT. `reqs` holds the requests (allocated
    /// before timing, at least recvs + sends long).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn window(
        &self,
        reqs: &mut Requests,
        (s, sends, dest): (&[u8], usize, c_int),
        (r, recvs, src): (&mut [u8], usize, c_int),
        e: Elem,
        tag: c_int,
    ) {
        let total = recvs + sends;
        assert!(total <= reqs.0.len(), "window larger than its requests");
        let base = reqs.0.as_mut_ptr();
        // SAFETY: s and r stay borrowed until MPI_Waitall has completed every request; the
        // requests written are within reqs (checked above); MPI writes every receive of the
        // window into r, which is writable for its length.
        unsafe {
            let rp = mptr(r);
            for w in 0..recvs {
                check(
                    "MPI_Irecv",
                    ffi::MPI_Irecv(rp, e.n(r), e.ty, src, tag, self.0, base.add(w)),
                );
            }
            for w in 0..sends {
                check(
                    "MPI_Isend",
                    ffi::MPI_Isend(
                        cptr(s),
                        e.n(s),
                        e.ty,
                        dest,
                        tag,
                        self.0,
                        base.add(recvs + w),
                    ),
                );
            }
            check(
                "MPI_Waitall",
                ffi::MPI_Waitall(count(total), base, ffi::RSMPI_STATUSES_IGNORE),
            );
        }
    }

    /// MPI_Bcast of all of `b` from `root`.
    #[inline(always)]
    pub fn bcast(&self, b: &mut [u8], e: Elem, root: c_int) {
        // SAFETY: b is readable and writable for its length (n elements of e).
        check("MPI_Bcast", unsafe {
            ffi::MPI_Bcast(mptr(b), e.n(b), e.ty, root, self.0)
        });
    }

    /// MPI_Reduce (MPI_SUM) of `s` into `r` at `root`.
    #[inline(always)]
    pub fn reduce(&self, s: &[u8], r: &mut [u8], e: Elem, root: c_int) {
        // SAFETY: s readable, r writable, each n(s) elements of e (the caller gives them the
        // same length); distinct borrows.
        check("MPI_Reduce", unsafe {
            ffi::MPI_Reduce(cptr(s), mptr(r), e.n(s), e.ty, ffi::RSMPI_SUM, root, self.0)
        });
    }

    /// MPI_Allreduce (MPI_SUM) of `s` into `r`.
    #[inline(always)]
    pub fn allreduce(&self, s: &[u8], r: &mut [u8], e: Elem) {
        // SAFETY: as for reduce.
        check("MPI_Allreduce", unsafe {
            ffi::MPI_Allreduce(cptr(s), mptr(r), e.n(s), e.ty, ffi::RSMPI_SUM, self.0)
        });
    }

    /// MPI_Barrier.
    #[inline(always)]
    pub fn barrier(&self) {
        // SAFETY: the handle is a valid communicator.
        check("MPI_Barrier", unsafe { ffi::MPI_Barrier(self.0) });
    }

    /// IMB-MT's "special" barrier: log2(size) rounds of zero-byte MPI_Sendrecv, round k with
    /// the ranks 2^k away on either side (tag 1010).
    pub fn special_barrier(&self) {
        let (rank, size) = self.rank_size();
        let byte = handles::byte();
        let mut mask = 1;
        while mask < size {
            let dst = count((rank + mask) % size);
            let src = count((rank + size - mask) % size);
            let mut tmp = [0u8; 1];
            let p = tmp.as_mut_ptr().cast();
            // SAFETY: zero elements are sent and received, so tmp is never read or written
            // beyond its byte; the status is ignored.
            check("MPI_Sendrecv", unsafe {
                ffi::MPI_Sendrecv(
                    p,
                    0,
                    byte,
                    dst,
                    1010,
                    p,
                    0,
                    byte,
                    src,
                    1010,
                    self.0,
                    ffi::RSMPI_STATUS_IGNORE,
                )
            });
            mask <<= 1;
        }
    }
}
