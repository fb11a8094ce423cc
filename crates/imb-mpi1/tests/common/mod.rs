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

/// A `-check` run without a defect: every table but Barrier's ends in a `defects` column of
/// zeros, and the run says so. The tables.
pub fn no_defects(o: &Out) -> Vec<Table> {
    let t = checked_clean(o, &["Barrier"]);
    for t in t.iter().filter(|t| t.title != "Barrier") {
        assert!(t.header.ends_with("      defects"), "{}", t.header);
    }
    t
}

/// imb-mpi1's benchmarks in its run order but those named in `but`, so a test of "every
/// benchmark" covers one added later without being edited.
pub fn benchmarks_but(but: &[&str]) -> Vec<&'static str> {
    use imb_core::kernel::Benchmark;
    let all: Vec<&'static str> = imb_mpi1::BENCHMARKS
        .iter()
        .map(|b: &&dyn Benchmark| b.info().name)
        .collect();
    for b in but {
        assert!(all.contains(b), "{b}: not a benchmark of imb-mpi1");
    }
    all.into_iter().filter(|n| !but.contains(n)).collect()
}
