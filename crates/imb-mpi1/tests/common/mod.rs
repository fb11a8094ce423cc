//! Launch imb-mpi1 under a real `mpirun` (the launcher and table parser are in imb-testkit).

#![allow(dead_code)]

pub use imb_testkit::*;

/// `mpirun -np NP imb-mpi1 ARGS` in `dir`, killed after `limit` seconds.
pub fn mpirun_in(dir: &std::path::Path, np: usize, args: &[&str], limit: u64) -> Out {
    imb_testkit::mpirun_in(env!("CARGO_BIN_EXE_imb-mpi1"), dir, np, args, limit)
}

/// `mpirun -np NP imb-mpi1 ARGS` in the temporary directory, with a 120 s limit.
pub fn mpirun(np: usize, args: &[&str]) -> Out {
    imb_testkit::mpirun(env!("CARGO_BIN_EXE_imb-mpi1"), np, args)
}

/// `imb-mpi1 ARGS` without mpirun (one process) in `dir`, killed after `limit` seconds.
pub fn direct_in(dir: &std::path::Path, args: &[&str], limit: u64) -> Out {
    imb_testkit::direct_in(env!("CARGO_BIN_EXE_imb-mpi1"), dir, args, limit)
}
