//! Launch imb-rma under a real `mpirun` (the launcher and table parser are in imb-testkit).

#![allow(dead_code)]

pub use imb_testkit::*;

/// `mpirun -np NP imb-rma ARGS` in `dir`, killed after `limit` seconds.
pub fn mpirun_in(dir: &std::path::Path, np: usize, args: &[&str], limit: u64) -> Out {
    imb_testkit::mpirun_in(env!("CARGO_BIN_EXE_imb-rma"), dir, np, args, limit)
}

/// `mpirun -np NP imb-rma ARGS` with extra environment variables, in `dir`.
pub fn mpirun_env(dir: &std::path::Path, np: usize, args: &[&str], env: &[(&str, &str)]) -> Out {
    imb_testkit::mpirun_env(env!("CARGO_BIN_EXE_imb-rma"), dir, np, args, env, 180)
}

/// Open MPI 4.1's default one-sided component (osc/rdma) cannot create a window on one
/// process; osc/ucx can (doc/ReadMe_IMB.md, "Open MPI notes for imb-ext").
pub const OSC_UCX: [(&str, &str); 1] = [("OMPI_MCA_osc", "ucx")];

/// Every benchmark, default ones first, in IMB-RMA's order.
pub const ALL: [&str; 19] = [
    "Unidir_put",
    "Bidir_put",
    "Unidir_get",
    "Bidir_get",
    "Put_local",
    "Put_all_local",
    "One_put_all",
    "All_put_all",
    "One_get_all",
    "All_get_all",
    "Exchange_put",
    "Exchange_get",
    "Accumulate",
    "Get_accumulate",
    "Fetch_and_op",
    "Compare_and_swap",
    "Truly_passive_put",
    "Get_local",
    "Get_all_local",
];

pub const SINGLE: &str = "       #bytes #repetitions      t[usec]   Mbytes/sec";
pub const PARALLEL: &str =
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec";
pub const COLL: &str = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]";
pub const TRULY: &str = "       #bytes #repetitions t_pure[usec] t_ovrl[usec]";
pub const AGG: &str = "#    MODE: AGGREGATE ";
pub const NONAGG: &str = "#    MODE: NON-AGGREGATE ";

/// Two processes, NON-AGGREGATE and AGGREGATE tables.
pub fn is_pair(name: &str) -> bool {
    name.contains("idir_")
        || name.ends_with("_local") && !name.contains("_all_")
        || name.contains("ccumulate")
        || name == "Fetch_and_op"
        || name == "Compare_and_swap"
}
