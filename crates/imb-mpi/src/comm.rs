//! A communicator's handles as the timed loops pass them (`Mpi`), read once when a kernel is
//! built.
//!
//! rsmpi covers the calls of `p2p`, `coll` and `rooted`, but its `process_at_rank` asks
//! `MPI_Comm_size` and its rooted collectives ask `MPI_Comm_rank` on every call, and return
//! codes are dropped. Inside a timed loop we want exactly the MPI call and a cheap return-code
//! check, so the handles are read once (`Mpi::new`) and every wrapper is one FFI call.

use crate::handles;
use crate::rc::check;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use std::marker::PhantomData;
use std::os::raw::c_int;

/// Handles of one communicator, plus MPI_BYTE for the acknowledgements and MPI_DOUBLE for the
/// white-box halo; the messages' datatypes come with each call (`Msg`).
#[derive(Clone, Copy)]
pub struct Mpi<'a> {
    pub(crate) comm: ffi::MPI_Comm,
    pub(crate) byte: ffi::MPI_Datatype,
    pub(crate) double: ffi::MPI_Datatype,
    pub(crate) any_source: c_int,
    pub(crate) any_tag: c_int,
    _comm: PhantomData<&'a SimpleCommunicator>,
}

impl<'a> Mpi<'a> {
    pub fn new(comm: &'a SimpleCommunicator) -> Self {
        Mpi::on(comm.as_raw())
    }

    /// Handles that name no communicator, for unit tests that build kernels to look at them
    /// (their checks, their loop) and never call MPI through them.
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
                byte: handles::byte(),
                double: ffi::RSMPI_DOUBLE,
                any_source: ffi::RSMPI_ANY_SOURCE,
                any_tag: ffi::RSMPI_ANY_TAG,
                _comm: PhantomData,
            }
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
