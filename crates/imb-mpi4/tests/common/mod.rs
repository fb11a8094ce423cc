//! Launch imb-mpi4 under a real `mpirun` (the launcher and table parser are in imb-testkit).

#![allow(dead_code)]

pub use imb_testkit::*;

/// `mpirun -np NP imb-mpi4 ARGS` in `dir`, killed after `limit` seconds.
pub fn mpirun_in(dir: &std::path::Path, np: usize, args: &[&str], limit: u64) -> Out {
    imb_testkit::mpirun_in(env!("CARGO_BIN_EXE_imb-mpi4"), dir, np, args, limit)
}

/// `mpirun -np NP imb-mpi4 ARGS` in the temporary directory, with a 120 s limit.
pub fn mpirun(np: usize, args: &[&str]) -> Out {
    imb_testkit::mpirun(env!("CARGO_BIN_EXE_imb-mpi4"), np, args)
}

/// The thirteen operations in IMB 2021's order.
pub const OPS: [&str; 13] = [
    "Bcast",
    "Allgather",
    "Allgatherv",
    "Gather",
    "Gatherv",
    "Scatter",
    "Scatterv",
    "Alltoall",
    "Alltoallv",
    "Reduce",
    "Reduce_scatter",
    "Allreduce",
    "Barrier",
];

/// IMB 2021's default list: every `_persist` benchmark but Allgather_persist.
pub fn defaults() -> Vec<String> {
    OPS.iter()
        .filter(|o| **o != "Allgather")
        .map(|o| format!("{o}_persist"))
        .collect()
}

/// Every benchmark, each `_persist` followed by its `_pure` variant.
pub fn all_names() -> Vec<String> {
    OPS.iter()
        .flat_map(|o| [format!("{o}_persist"), format!("{o}_persist_pure")])
        .collect()
}

/// Whether `name` can run on `np` processes with this MPI library. MPICH 4.0's
/// MPI_Scatter_init (its binomial schedule) does not reset its state between starts, so the
/// second MPI_Start on 3 or more processes fails in MPI_Wait ("Invalid communicator"; a C
/// program of MPI_Scatter_init and two starts does the same; fixed in MPICH by
/// pmodels/mpich#7550, 2025). Scatterv_persist is not affected.
pub fn runs_here(name: &str, np: usize) -> bool {
    !(name.starts_with("Scatter_persist") && np >= 3 && !open_mpi())
}

/// `all_names()` that run on `np` processes here.
pub fn names_for(np: usize) -> Vec<String> {
    all_names()
        .into_iter()
        .filter(|n| runs_here(n, np))
        .collect()
}

pub const OVERLAP_HEADER: &str =
    "       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]";
pub const OVERLAP_SYNC_HEADER: &str =
    " #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]";
pub const COLL_HEADER: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";
pub const SYNC_HEADER: &str = " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";

/// The column titles and rule length (`#` plus dashes) IMB 2021's IMB-MPI4 prints for `name`.
pub fn layout(name: &str) -> (&'static str, usize) {
    match (name.ends_with("_pure"), name.starts_with("Barrier")) {
        (false, false) => (OVERLAP_HEADER, 78),
        (false, true) => (OVERLAP_SYNC_HEADER, 65),
        (true, false) => (COLL_HEADER, 65),
        (true, true) => (SYNC_HEADER, 52),
    }
}

/// Whether `name` reduces floats (its sizes are multiples of 4).
pub fn reduction(name: &str) -> bool {
    name.contains("Reduce") || name.contains("Allreduce")
}
