//! imb-onesided: what the two one-sided families, imb-ext (MPI-2, active target) and imb-rma
//! (MPI-3, passive target), share around their windows, so that neither depends on the other:
//! the set-up every one-sided benchmark does per process count (`prepare`: a window probe on
//! one process, `-multi`'s groups kept apart under Open MPI 4, `apart`), and `-off_cache`'s
//! copies as their kernels and checks count them (`copies`). The windows themselves, and all
//! one-sided `unsafe`, are imb-mpi's (`imb_mpi::window`).

pub mod apart;
pub mod copies;

use imb_core::kernel::Prep;
use imb_mpi::window::{self, Hints};
use std::any::Any;

/// What `Benchmark::prepare` returns.
pub type Prepared = Result<Option<Box<dyn Any>>, String>;

/// `Benchmark::prepare` of every one-sided benchmark, once per process count on the active
/// ranks. On one process: whether a window can be created at all (Open MPI's osc/rdma cannot),
/// so that the run ends on every rank with one line. Under `-multi`: the context ids this
/// rank's group holds for the step (`apart`).
pub fn prepare(p: &Prep) -> Prepared {
    if p.size == 1 {
        window::probe(p.comm, &Hints::new(p.info))?;
    }
    Ok(apart::hold(p).map(|a| Box::new(a) as Box<dyn Any>))
}
