//! imb-rma: the MPI-3 one-sided part of the Intel MPI Benchmarks methodology as IMB 2021's
//! IMB-RMA runs it (doc/METHODOLOGY.md, "IMB-RMA"; the IMB 3.0 guide, section 4, describes the
//! MPI-2 one-sided benchmarks it grew from): puts, gets, accumulates and atomics under
//! passive-target synchronisation (MPI_Win_lock/lock_all, completed by MPI_Win_flush,
//! flush_local, flush_all or flush_local_all), NON-AGGREGATE tables before AGGREGATE ones.
//! Windows are created with the MPI_Info hints of the settings file's `[info]` table through
//! imb-mpi's wrappers (`imb_mpi::window`), which hold all one-sided `unsafe`; the set-up and
//! `-off_cache`'s copies it shares with imb-ext are imb-onesided's, its options and settings
//! file imb-refusals'. This crate only declares the benchmarks and implements one repetition of
//! each pattern; imb-core runs them.

#![allow(non_camel_case_types)] // benchmark types carry IMB's names (Unidir_put)

mod all;
mod atomic;
mod epoch;
mod exchange;
mod kernel;
mod pair;
mod truly;

use imb_core::kernel::Benchmark;
use imb_core::kernel::{Hooks, Suite};

/// Every benchmark, in IMB-RMA's default run order; those run only when named come last.
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &pair::Unidir_put,
    &pair::Bidir_put,
    &pair::Unidir_get,
    &pair::Bidir_get,
    &pair::Put_local,
    &all::Put_all_local,
    &all::One_put_all,
    &all::All_put_all,
    &all::One_get_all,
    &all::All_get_all,
    &exchange::Exchange_put,
    &exchange::Exchange_get,
    &atomic::Accumulate,
    &atomic::Get_accumulate,
    &atomic::Fetch_and_op,
    &atomic::Compare_and_swap,
    &truly::Truly_passive_put,
    &pair::Get_local,
    &all::Get_all_local,
];

/// The imb-rma executable.
pub static SUITE: Suite = Suite {
    exe: "imb-rma",
    part: "MPI-RMA part",
    settings: &imb_refusals::SETTINGS,
    npmin: 2,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &imb_refusals::OPTIONS,
    hooks: Hooks::IMB,
};

/// For the overhead example: the Unidir_put benchmark as the suite runs it.
pub fn unidir_put() -> &'static dyn Benchmark {
    &pair::Unidir_put
}

#[cfg(test)]
mod tests;

/// The run-time bound of this suite's own terms (`bench::Effort`, `plan::least`): legal option
/// sets that need hours are refused before anything runs, `-force` lets them run, and the
/// standard runs stay far below the limit.
#[cfg(test)]
mod bound {
    use super::*;

    fn refused(args: &str, np: usize) {
        imb_core::driver::assert_refused(&SUITE, args, np);
    }

    fn accepted(args: &str, np: usize) {
        imb_core::driver::assert_accepted(&SUITE, args, np);
    }

    #[test]
    fn standard_runs_are_not_refused() {
        accepted("", 2);
        accepted("", 64);
        accepted("Get_local Get_all_local -multi 1", 64);
    }

    /// The _all benchmarks' repetition is one operation with each of the NP−1 other ranks.
    #[test]
    fn every_target_counts() {
        refused("All_put_all -iter 10000000,1000", 1024);
        refused("One_get_all -iter 10000000,1000", 1024);
        accepted("All_put_all One_get_all -iter 10000000,1000", 64);
    }
}
