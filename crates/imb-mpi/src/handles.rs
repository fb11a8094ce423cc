//! The library's constants the Rust bindings do not export portably, read through
//! csrc/handles.c (compiled against the library's mpi.h by build.rs), and rsmpi's exported
//! ones this crate's wrappers need as plain values.

use mpi::ffi;
use std::os::raw::c_int;

extern "C" {
    fn imb_mpi_byte() -> ffi::MPI_Datatype;
    fn imb_mpi_char() -> ffi::MPI_Datatype;
    fn imb_mpi_int() -> ffi::MPI_Datatype;
    fn imb_mpi_t_bind_no_object() -> c_int;
}

/// MPI_BYTE.
#[inline]
pub fn byte() -> ffi::MPI_Datatype {
    // SAFETY: a C function of ours that takes nothing and returns the constant MPI_BYTE of the
    // library's mpi.h.
    unsafe { imb_mpi_byte() }
}

/// MPI_CHAR.
#[inline]
pub fn char() -> ffi::MPI_Datatype {
    // SAFETY: as `byte`, for MPI_CHAR.
    unsafe { imb_mpi_char() }
}

/// MPI_INT.
#[inline]
pub fn int() -> ffi::MPI_Datatype {
    // SAFETY: as `byte`, for MPI_INT.
    unsafe { imb_mpi_int() }
}

/// MPI_T_BIND_NO_OBJECT.
pub fn t_bind_no_object() -> c_int {
    // SAFETY: a C function of ours that takes nothing and returns a compile-time constant of
    // mpi.h.
    unsafe { imb_mpi_t_bind_no_object() }
}
