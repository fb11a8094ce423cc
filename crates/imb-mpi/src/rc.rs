//! MPI return codes, counts and buffer pointers, shared by every wrapper of this crate: a
//! failed call prints one line naming the call and MPI's own error string, then aborts every
//! rank, so no rank waits forever in a collective that the failed rank never reaches. The checks
//! are `#[inline(always)]` and the failure paths cold, so a timed loop pays one compare per
//! call. [`coll_call!`](crate::coll_call) spells once the argument lists the blocking and
//! non-blocking collective wrappers share.

use mpi::ffi;
use std::os::raw::{c_char, c_int, c_void};

/// The executable's name, for messages (`imb-mpi1`, `imb-ext`, …).
fn exe() -> String {
    std::env::args_os()
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .and_then(|a| a.rsplit('/').next().map(str::to_string))
        .unwrap_or_else(|| "imb-rs".into())
}

/// Print `<exe>: error: <what>` in one write (lines of several ranks do not interleave), then
/// MPI_Abort every rank.
#[cold]
#[inline(never)]
pub fn abort(what: &str, code: c_int) -> ! {
    let line = format!("{}: error: {what}\n", exe());
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    // SAFETY: MPI is initialised (a communicator, window or file exists when any MPI call
    // failed); MPI_Abort does not return.
    unsafe {
        ffi::MPI_Abort(ffi::RSMPI_COMM_WORLD, code.max(1));
    }
    std::process::abort()
}

/// MPI's own text for an error code.
pub fn error_string(rc: c_int) -> String {
    let mut buf = [0 as c_char; ffi::MPI_MAX_ERROR_STRING as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: buf holds MPI_MAX_ERROR_STRING characters and the NUL; MPI_Error_string may be
    // called after a failed call; the string is NUL-terminated by MPI (buf starts zeroed).
    unsafe {
        ffi::MPI_Error_string(rc, buf.as_mut_ptr(), &mut len);
        std::ffi::CStr::from_ptr(buf.as_ptr())
            .to_string_lossy()
            .into_owned()
    }
}

/// A call returned `rc`: name it with MPI's error string and abort.
#[cold]
#[inline(never)]
pub fn failed(call: &str, rc: c_int) -> ! {
    let what = error_string(rc);
    abort(&format!("{call} failed: {what} (MPI error code {rc})"), rc)
}

/// Abort unless `rc` is MPI_SUCCESS.
#[inline(always)]
pub fn check(call: &str, rc: c_int) {
    if rc != ffi::MPI_SUCCESS as c_int {
        failed(call, rc)
    }
}

/// A byte or element count as an MPI int (sizes are at most 2^30 per call).
#[inline(always)]
pub fn count(n: usize) -> c_int {
    if n > c_int::MAX as usize {
        abort("a message count does not fit an MPI int", 1)
    }
    n as c_int
}

/// A displacement as MPI_Aint.
#[inline(always)]
pub fn aint(n: usize) -> ffi::MPI_Aint {
    if n > ffi::MPI_Aint::MAX as usize {
        abort("a displacement does not fit MPI_Aint", 1)
    }
    n as ffi::MPI_Aint
}

/// Counts and displacements as MPI ints, checked once when a kernel is built.
pub fn ints(v: impl IntoIterator<Item = usize>) -> Vec<c_int> {
    v.into_iter().map(count).collect()
}

/// The counts and displacements (bytes) of the v-interfaces for the fixed-size layout: `x`
/// from or to each of `n` ranks, rank k's block at k·x.
pub fn uniform(x: usize, n: usize) -> (Vec<c_int>, Vec<c_int>) {
    (ints(vec![x; n]), ints((0..n).map(|k| k * x)))
}

/// A send buffer as MPI's `void *` (MPI only reads it; MPI_Bcast's root buffer is not `const`
/// in C, so the pointer is `*mut`).
#[inline(always)]
pub fn cptr(b: &[u8]) -> *mut c_void {
    b.as_ptr() as *mut c_void
}

/// A receive buffer as MPI's `void *`.
#[inline(always)]
pub fn mptr(b: &mut [u8]) -> *mut c_void {
    b.as_mut_ptr().cast()
}

/// The call `f(<arguments of the shape>, rest…)` of a collective whose arguments have one of
/// the shapes below; used inside the caller's `unsafe` block, whose `// SAFETY:` line covers
/// the buffers. Each buffer expression is evaluated once.
/// - `blocks(s, r, n, ty)`: `n` elements of `ty` per block on both sides (Gather, Scatter,
///   Allgather, Alltoall);
/// - `vrecv(s, r, counts, displs, ty)`: all of `s`; `counts`/`displs` place the blocks in `r`
///   (Gatherv, Allgatherv);
/// - `vsend(s, counts, displs, r, ty)`: `counts`/`displs` pick the blocks of `s`, all of `r`
///   is received (Scatterv);
/// - `vboth(s, r, counts, displs, ty)`: the same counts and displacements on both sides
///   (Alltoallv);
/// - `reduce(s, r, n, ty, op)`: `n` elements of `ty` combined with `op` (Reduce, Allreduce,
///   Reduce_scatter_block, Reduce_local; Reduce_scatter's `n` is its array of counts).
#[macro_export]
macro_rules! coll_call {
    ($f:path; blocks($s:expr, $r:expr, $n:expr, $ty:expr $(,)?) $(, $rest:expr)* $(,)?) => {{
        let (s, r, n, ty) = ($crate::rc::cptr($s), $crate::rc::mptr($r), $n, $ty);
        $f(s, n, ty, r, n, ty $(, $rest)*)
    }};
    ($f:path; vrecv($s:expr, $r:expr, $counts:expr, $displs:expr, $ty:expr $(,)?)
        $(, $rest:expr)* $(,)?) => {{
        let (s, ty): (&[u8], _) = ($s, $ty);
        let (sn, s) = ($crate::rc::count(s.len()), $crate::rc::cptr(s));
        let r = $crate::rc::mptr($r);
        $f(s, sn, ty, r, $counts.as_ptr(), $displs.as_ptr(), ty $(, $rest)*)
    }};
    ($f:path; vsend($s:expr, $counts:expr, $displs:expr, $r:expr, $ty:expr $(,)?)
        $(, $rest:expr)* $(,)?) => {{
        let (r, ty): (&mut [u8], _) = ($r, $ty);
        let (rn, r) = ($crate::rc::count(r.len()), $crate::rc::mptr(r));
        let s = $crate::rc::cptr($s);
        $f(s, $counts.as_ptr(), $displs.as_ptr(), ty, r, rn, ty $(, $rest)*)
    }};
    ($f:path; vboth($s:expr, $r:expr, $counts:expr, $displs:expr, $ty:expr $(,)?)
        $(, $rest:expr)* $(,)?) => {{
        let (s, r, ty) = ($crate::rc::cptr($s), $crate::rc::mptr($r), $ty);
        let (c, d) = ($counts.as_ptr(), $displs.as_ptr());
        $f(s, c, d, ty, r, c, d, ty $(, $rest)*)
    }};
    ($f:path; reduce($s:expr, $r:expr, $n:expr, $ty:expr, $op:expr $(,)?)
        $(, $rest:expr)* $(,)?) => {{
        let (s, r) = ($crate::rc::cptr($s), $crate::rc::mptr($r));
        $f(s, r, $n, $ty, $op $(, $rest)*)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uniform_layout_puts_rank_k_at_k_times_x() {
        assert_eq!(uniform(8, 3), (vec![8, 8, 8], vec![0, 8, 16]));
        assert_eq!(ints([0, 1 << 20]), [0, 1 << 20]);
        assert_eq!(aint(5), 5);
    }
}
