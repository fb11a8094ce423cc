//! Open_Close (guide 4.2.6; doc/METHODOLOGY.md, "imb-io"): n × (MPI_File_open on the benchmark's
//! communicator, a 1-byte write through the individual pointer, MPI_File_close), timed together.
//! The file is not prepared (3.0 leaves it to the first open); its name is reserved and it is
//! removed with the step like every other IO file.

use crate::access::prepared;
use imb_core::kernel::{Comm, Ctx, Kernel};
use imb_mpi::info::Info;
use imb_mpi::io::{c_path, Call, File, On, Open};
use imb_mpi::rc;
use std::ffi::CString;

pub struct OpenClose<'a> {
    comm: &'a Comm,
    name: CString,
    hints: Info,
    /// The "negligible action": one byte.
    byte: [u8; 1],
}

impl<'a> OpenClose<'a> {
    pub fn new(c: Ctx<'a>) -> Self {
        let name = c_path(prepared(&c)).unwrap_or_else(|e| rc::abort(&e, 1));
        OpenClose {
            comm: c.comm,
            name,
            hints: Info::new(c.info),
            byte: [0],
        }
    }
}

impl Kernel for OpenClose<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let f = File::open_c(On::Comm(self.comm), &self.name, Open::Shared, &self.hints)
            .unwrap_or_else(|rc| rc::failed("MPI_File_open", rc));
        f.write(Call::Pointer, 0, &self.byte);
        drop(f);
    }
}
