//! Launch imb-nbc under a real `mpirun` (the launcher and table parser are in imb-testkit).

#![allow(dead_code)]

pub use imb_testkit::*;

/// `mpirun -np NP imb-nbc ARGS` in `dir`, killed after `limit` seconds.
pub fn mpirun_in(dir: &std::path::Path, np: usize, args: &[&str], limit: u64) -> Out {
    imb_testkit::mpirun_in(env!("CARGO_BIN_EXE_imb-nbc"), dir, np, args, limit)
}

/// `mpirun -np NP imb-nbc ARGS` in the temporary directory, with a 120 s limit.
pub fn mpirun(np: usize, args: &[&str]) -> Out {
    imb_testkit::mpirun(env!("CARGO_BIN_EXE_imb-nbc"), np, args)
}

/// The thirteen overlap benchmarks in default order.
pub const OVERLAP: [&str; 13] = [
    "Ibcast",
    "Iallgather",
    "Iallgatherv",
    "Igather",
    "Igatherv",
    "Iscatter",
    "Iscatterv",
    "Ialltoall",
    "Ialltoallv",
    "Ireduce",
    "Ireduce_scatter",
    "Iallreduce",
    "Ibarrier",
];

/// Every benchmark: the overlap ones, then each `_pure` variant.
pub fn all_names() -> Vec<String> {
    let mut v: Vec<String> = OVERLAP.iter().map(|s| s.to_string()).collect();
    v.extend(OVERLAP.iter().map(|s| format!("{s}_pure")));
    v
}

pub const OVERLAP_HEADER: &str =
    "       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]";
pub const OVERLAP_SYNC_HEADER: &str =
    " #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]";
pub const COLL_HEADER: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";
pub const SYNC_HEADER: &str = " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";

/// The column titles and rule length (`#` plus dashes) IMB 2021 prints for `name`.
pub fn layout(name: &str) -> (&'static str, usize) {
    match (name.ends_with("_pure"), name.contains("Ibarrier")) {
        (false, false) => (OVERLAP_HEADER, 78),
        (false, true) => (OVERLAP_SYNC_HEADER, 65),
        (true, false) => (COLL_HEADER, 65),
        (true, true) => (SYNC_HEADER, 52),
    }
}

/// Whether `name` reduces floats (its sizes are multiples of 4).
pub fn reduction(name: &str) -> bool {
    name.contains("reduce")
}
