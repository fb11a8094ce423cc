//! Thread levels: the one MPI granted, their names, and the level MPI runs at wherever it is
//! asked (the provenance's MPI_T reader asks for that level).

use crate::rc::check;
use mpi::ffi;
use std::os::raw::c_int;

/// The thread level MPI granted (MPI_Query_thread), as one of `ffi::RSMPI_THREAD_*`.
pub fn granted_level() -> c_int {
    let mut level: c_int = 0;
    // SAFETY: MPI is initialised (the driver calls the hooks after MPI_Init_thread); level is
    // written by MPI.
    check("MPI_Query_thread", unsafe {
        ffi::MPI_Query_thread(&mut level)
    });
    level
}

/// The name of thread level `level` (a value of `granted_level`).
pub fn level_name(level: c_int) -> String {
    // SAFETY: reads constants the bindings export.
    let names = unsafe {
        [
            (ffi::RSMPI_THREAD_SINGLE, "MPI_THREAD_SINGLE"),
            (ffi::RSMPI_THREAD_FUNNELED, "MPI_THREAD_FUNNELED"),
            (ffi::RSMPI_THREAD_SERIALIZED, "MPI_THREAD_SERIALIZED"),
            (ffi::RSMPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE"),
        ]
    };
    names
        .iter()
        .find(|(v, _)| *v == level)
        .map_or_else(|| format!("thread level {level}"), |(_, n)| n.to_string())
}

/// MPI_THREAD_MULTIPLE's value.
pub fn level_multiple() -> c_int {
    // SAFETY: reads a constant the bindings export.
    unsafe { ffi::RSMPI_THREAD_MULTIPLE }
}

/// The thread level MPI runs at (MPI_Query_thread), or SINGLE outside MPI_Init and
/// MPI_Finalize, where MPI_Query_thread may not be called.
pub fn level_now() -> c_int {
    let (mut init, mut fin, mut level): (c_int, c_int, c_int) = (0, 0, 0);
    // SAFETY: MPI_Initialized and MPI_Finalized may be called at any time; MPI_Query_thread
    // only between them, as here; the outputs outlive the calls.
    unsafe {
        ffi::MPI_Initialized(&mut init);
        ffi::MPI_Finalized(&mut fin);
        if init != 0 && fin == 0 && ffi::MPI_Query_thread(&mut level) == ffi::MPI_SUCCESS as c_int {
            return level;
        }
        ffi::RSMPI_THREAD_SINGLE
    }
}
