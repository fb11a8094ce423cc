//! MPI return codes and counts, shared by every executable's thin FFI module (imb-mpi1's
//! `ffi.rs`, imb-ext's `rma.rs`, …): a failed call prints one line naming the call and MPI's
//! own error string, then aborts every rank, so no rank waits forever in a collective that the
//! failed rank never reaches. The checks are `#[inline(always)]` and the failure paths cold, so a
//! timed loop pays one compare per call.

use mpi::ffi;
use std::os::raw::{c_char, c_int};

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
