//! The provenance of an MPI run, collected once before the first benchmark: every rank sends
//! its host, CPUs and clock facts to rank 0 (one variable-length gather of JSON bytes), and
//! rank 0 adds the library and the parameters.

use super::{mpi_parameters, Local, MpiFacts, Provenance};
use crate::cli::{Options, ThreadLevel};
use crate::kernel::{Comm, Suite};
use crate::sysinfo;
use mpi::datatype::PartitionMut;
use mpi::ffi;
use mpi::traits::*;
use mpi::Threading;
use std::os::raw::{c_int, c_void};

/// `MPI_WTIME_IS_GLOBAL` of `MPI_COMM_WORLD`: whether the library keeps MPI_Wtime
/// synchronised across the job; None when it does not say.
fn wtime_is_global() -> Option<bool> {
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

fn level_name(t: ThreadLevel) -> &'static str {
    match t {
        ThreadLevel::Single => "MPI_THREAD_SINGLE",
        ThreadLevel::Funneled => "MPI_THREAD_FUNNELED",
        ThreadLevel::Serialized => "MPI_THREAD_SERIALIZED",
        ThreadLevel::Multiple => "MPI_THREAD_MULTIPLE",
    }
}

/// Collective over the world: the run's provenance on rank 0 (None on the others).
pub fn gather(
    world: &Comm,
    suite: &Suite,
    opts: &Options,
    granted: Threading,
) -> Option<Provenance> {
    let mine = Local::here(Some(mpi::time_resolution()), wtime_is_global());
    let bytes = serde_json::to_vec(&mine).expect("JSON of plain data");
    let len = bytes.len() as i32;
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_into(&len);
        root.gather_varcount_into(&bytes[..]);
        return None;
    }
    let mut lens = vec![0i32; world.size() as usize];
    root.gather_into_root(&len, &mut lens[..]);
    let displs: Vec<i32> = lens
        .iter()
        .scan(0i32, |at, &l| {
            let d = *at;
            *at += l;
            Some(d)
        })
        .collect();
    let mut all = vec![0u8; lens.iter().map(|&l| l as usize).sum()];
    root.gather_varcount_into_root(
        &bytes[..],
        &mut PartitionMut::new(&mut all[..], &lens[..], &displs[..]),
    );
    let locals = lens
        .iter()
        .zip(&displs)
        .map(|(&l, &d)| {
            serde_json::from_slice(&all[d as usize..(d + l) as usize]).expect("a rank's facts")
        })
        .collect();
    let aggregate = suite
        .benchmarks
        .iter()
        .any(|b| b.info().modes.contains(&crate::vocab::Mode::Aggregate));
    let mpi = MpiFacts {
        library_version: sysinfo::mpi_library(),
        standard_version: sysinfo::mpi_version(),
        thread_level: sysinfo::thread_name(granted).to_string(),
        thread_level_requested: level_name(opts.thread_level).to_string(),
    };
    Some(Provenance::new(
        mpi_parameters(opts, suite.settings, aggregate),
        opts.settings.source.clone(),
        Some(mpi),
        locals,
    ))
}
