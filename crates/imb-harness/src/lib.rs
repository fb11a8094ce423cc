//! imb-harness: what the suites without MPI measure with, kept out of the MPI engine.
//!
//! `adaptive` is the Sphinx/SKaMPI-style harness of imb-threads and imb-omp (iterations per
//! timing from the clock's resolution, timings until they settle, UNSETTLED and UNRELIABLE
//! flags; doc/THREADS.md); `robust` the median-based summary of imb-omp's repeated outer
//! measurements (doc/OMP.md); `binding` the thread-to-CPU placement of imb-threads with proof
//! that it took effect, whose affinity reading imb-core's oversubscription check also uses.
//! Nothing here touches MPI or prints.

pub mod adaptive;
pub mod binding;
pub mod robust;
