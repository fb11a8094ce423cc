//! Launch imb-ext under a real `mpirun` (the launcher and table parser are in imb-testkit).

#![allow(dead_code)]

pub use imb_testkit::*;

/// `mpirun -np NP imb-ext ARGS` in `dir`, killed after `limit` seconds.
pub fn mpirun_in(dir: &std::path::Path, np: usize, args: &[&str], limit: u64) -> Out {
    imb_testkit::mpirun_in(env!("CARGO_BIN_EXE_imb-ext"), dir, np, args, limit)
}

/// `mpirun -np NP imb-ext ARGS` in the temporary directory, with a 120 s limit.
pub fn mpirun(np: usize, args: &[&str]) -> Out {
    imb_testkit::mpirun(env!("CARGO_BIN_EXE_imb-ext"), np, args)
}

/// `mpirun -np NP imb-ext ARGS` with extra environment variables, in the temporary directory.
pub fn mpirun_env(np: usize, args: &[&str], env: &[(&str, &str)]) -> Out {
    let dir = std::env::temp_dir();
    imb_testkit::mpirun_env(env!("CARGO_BIN_EXE_imb-ext"), &dir, np, args, env, 120)
}

/// Open MPI 4.1's default one-sided component (osc/rdma) cannot create a window on one
/// process; osc/ucx can (doc/ReadMe_IMB.md, "Open MPI notes for imb-ext").
pub const OSC_UCX: [(&str, &str); 1] = [("OMPI_MCA_osc", "ucx")];
