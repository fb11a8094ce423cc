//! The predefined attributes of MPI_COMM_WORLD the provenance records.

use mpi::ffi;
use std::os::raw::{c_int, c_void};

/// `MPI_WTIME_IS_GLOBAL` of `MPI_COMM_WORLD`: whether the library keeps MPI_Wtime
/// synchronised across the job; None when it does not say.
pub fn wtime_is_global() -> Option<bool> {
    let mut value: *mut c_int = std::ptr::null_mut();
    let mut flag: c_int = 0;
    // SAFETY: MPI is initialised; for a predefined attribute MPI stores a pointer to its own
    // int through `attribute_val` (here the address of `value`) and sets `flag`; both outlive
    // the call.
    let rc = unsafe {
        ffi::MPI_Comm_get_attr(
            ffi::RSMPI_COMM_WORLD,
            ffi::MPI_WTIME_IS_GLOBAL as c_int,
            (&mut value as *mut *mut c_int).cast::<c_void>(),
            &mut flag,
        )
    };
    if rc != ffi::MPI_SUCCESS as c_int || flag == 0 || value.is_null() {
        return None;
    }
    // SAFETY: flag is set, so `value` points to the library's attribute, an int that lives as
    // long as the communicator.
    Some(unsafe { *value } != 0)
}
