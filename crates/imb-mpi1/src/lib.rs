//! imb-mpi1: the MPI-1 part of the Intel MPI Benchmarks methodology (IMB 3.0 user guide,
//! section 3): PingPong, PingPing, Sendrecv, Exchange, the collectives and Barrier, and the
//! Multi- version of each (`-multi`). This crate only declares the benchmarks and implements
//! one repetition of each pattern; imb-core runs them. It is a library (so the overhead
//! benchmark in `examples/` can drive the real kernels) with a one-line binary.

#![allow(non_camel_case_types)] // benchmark types carry the guide's names (Reduce_scatter)

mod coll;
mod ffi;
mod jacobi;
mod latency;
mod p2p;

use imb_core::kernel::Benchmark;
use imb_core::kernel::{Hooks, Suite};
use imb_core::settings::Kind;

/// Every benchmark, in IMB 3.0's default run order.
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &p2p::PingPong,
    &p2p::PingPing,
    &p2p::Sendrecv,
    &p2p::Exchange,
    &coll::Allreduce,
    &coll::Reduce,
    &coll::Reduce_scatter,
    &coll::Allgather,
    &coll::Allgatherv,
    &coll::Alltoall,
    &coll::Alltoallv,
    &coll::Bcast,
    &coll::Barrier,
    // Run only when named:
    &latency::Bcast_latency,
    &latency::Reduce_latency,
    &jacobi::Jacobi2D,
];

/// The imb-mpi1 executable.
pub static SUITE: Suite = Suite {
    exe: "imb-mpi1",
    part: "MPI-1 part",
    settings: Kind::Mpi1,
    npmin: 2,
    benchmarks: BENCHMARKS,
    hooks: Hooks::IMB,
};

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::bench::{Class, Procs};
    use imb_core::table;

    const GUIDE_NAMES: [&str; 13] = [
        "PingPong",
        "PingPing",
        "Sendrecv",
        "Exchange",
        "Allreduce",
        "Reduce",
        "Reduce_scatter",
        "Allgather",
        "Allgatherv",
        "Alltoall",
        "Alltoallv",
        "Bcast",
        "Barrier",
    ];

    #[test]
    fn every_guide_name_once_in_default_order() {
        assert_eq!(SUITE.names()[..SUITE.defaults()], GUIDE_NAMES);
    }

    #[test]
    fn classes_units_and_factors() {
        for b in BENCHMARKS {
            let i = b.info();
            let unit8 = i.name == "Jacobi2D";
            let reduction = matches!(
                i.name,
                "Allreduce" | "Reduce" | "Reduce_scatter" | "Reduce_latency"
            );
            let unit = match (reduction, unit8) {
                (true, _) => 4,
                (_, true) => 8,
                _ => 1,
            };
            assert_eq!(i.unit, unit, "{}", i.name);
            assert_eq!(i.checked, i.class != Class::Sync, "{}", i.name);
            match i.name {
                "PingPong" | "PingPing" => {
                    assert_eq!(
                        (i.class, i.procs, i.table),
                        (Class::SingleTransfer, Procs::Pair, &table::SINGLE)
                    )
                }
                "Sendrecv" | "Exchange" => assert_eq!(i.table, &table::PARALLEL),
                "Barrier" => assert_eq!(i.table, &table::SYNC),
                "Jacobi2D" => {
                    assert_eq!(
                        (i.table.name, i.procs, i.unit),
                        ("white-box", Procs::AtLeastTwo, 8)
                    );
                    assert!(i.on_request && i.max_x < usize::MAX);
                }
                "Bcast_latency" | "Reduce_latency" => {
                    // The collective's columns, with the latency notes of its own kind.
                    assert_eq!(i.table.titles, table::COLLECTIVE.titles);
                    assert_eq!((i.table.name, i.procs), (i.name, Procs::AtLeastTwo));
                    assert!(i.on_request && i.min_x > 0);
                }
                _ => assert_eq!(i.table, &table::COLLECTIVE),
            }
        }
        let f = |n: &str| SUITE.info(SUITE.find(n).unwrap());
        assert_eq!(f("pingpong").scale_time, 0.5);
        assert_eq!((f("Sendrecv").scale_bw, f("Exchange").scale_bw), (2.0, 4.0));
    }
}
