//! imb-mpi1: the MPI-1 part of the Intel MPI Benchmarks methodology (IMB 3.0 user guide,
//! section 3): PingPong, PingPing, Sendrecv, Exchange, the collectives and Barrier, and the
//! Multi- version of each (`-multi`). This crate only declares the benchmarks and implements
//! one repetition of each pattern; imb-core runs them. It is a library (so the overhead
//! benchmark in `examples/` can drive the real kernels) with a one-line binary.

#![allow(non_camel_case_types)] // benchmark types carry the guide's names (Reduce_scatter)

mod band;
#[macro_use]
mod coll;
mod coll2021;
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
    // IMB 2021's additions, also only when named:
    &band::Uniband,
    &band::Biband,
    &coll2021::Reduce_local,
    &coll2021::Reduce_scatter_block,
    &coll2021::Gather,
    &coll2021::Gatherv,
    &coll2021::Scatter,
    &coll2021::Scatterv,
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

    /// IMB 2021's additions, run only when named.
    const IMB2021: [&str; 8] = [
        "Uniband",
        "Biband",
        "Reduce_local",
        "Reduce_scatter_block",
        "Gather",
        "Gatherv",
        "Scatter",
        "Scatterv",
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
                "Allreduce"
                    | "Reduce"
                    | "Reduce_scatter"
                    | "Reduce_latency"
                    | "Reduce_scatter_block"
                    | "Reduce_local"
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
                "Uniband" | "Biband" => {
                    assert_eq!((i.table, i.procs), (&table::MSG_RATE, Procs::Pairs));
                    assert!(i.on_request);
                }
                _ => assert_eq!(i.table, &table::COLLECTIVE),
            }
        }
        for n in IMB2021 {
            let i = SUITE.info(SUITE.find(n).unwrap());
            assert!(i.on_request && i.checked, "{n}");
        }
        let f = |n: &str| SUITE.info(SUITE.find(n).unwrap());
        assert_eq!(f("pingpong").scale_time, 0.5);
        assert_eq!((f("Sendrecv").scale_bw, f("Exchange").scale_bw), (2.0, 4.0));
        assert_eq!((f("Uniband").scale_bw, f("Biband").scale_bw), (1.0, 2.0));
        assert_eq!(f("Scatter").bufs.lens(3, 4, 0), (12, 3));
        assert_eq!(f("Gatherv").bufs.lens(3, 4, 0), (3, 12));
        assert_eq!(f("Reduce_scatter_block").bufs.lens(4, 4, 0), (16, 4));
    }
}
