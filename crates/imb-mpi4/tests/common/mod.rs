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
