//! imb-nbc: the non-blocking collectives of the Intel MPI Benchmarks methodology (IMB 2021's
//! IMB-NBC; guide 3.3.4 for the patterns): Ibcast, Iallgather, Iallgatherv, Igather, Igatherv,
//! Iscatter, Iscatterv, Ialltoall, Ialltoallv, Ireduce, Ireduce_scatter, Iallreduce and
//! Ibarrier measure how much of a collective's time a process can spend computing (t_ovrl,
//! t_pure, t_CPU, overlap[%]); each `_pure` variant, run only when named, times the operation
//! alone as a Collective (Ibarrier_pure: Sync) table. imb-core runs them; this crate declares the
//! benchmarks and starts one operation of each pattern (`ops`, through imb-mpi's checked
//! wrappers, `imb_mpi::nonblocking`); the overlap loops and table, the CPU work and its
//! calibration, which reaches every kernel through the suite's `Hooks::run_state`, are
//! imb-overlap's, which imb-mpi4 shares; its options and settings file are imb-refusals'.

#![allow(non_upper_case_globals)] // benchmark statics carry IMB's names (Ibcast_pure)

pub mod ops;

use imb_core::bench::{BufShape, Class};
use imb_core::kernel::{Benchmark, Hooks, Suite};
use imb_overlap::overlap::Nbc;
use imb_overlap::{calibrate_for, info, Root};
use std::marker::PhantomData;

/// Declare the overlap benchmark `$id` and its `_pure` variant `$pure` of pattern `$p`.
macro_rules! nbc {
    ($id:ident, $pure:ident, $p:ident, $class:ident, $bufs:ident, $unit:literal, $root:ident) => {
        pub static $id: Nbc<ops::$p> = Nbc {
            info: &info(
                stringify!($id),
                Class::$class,
                BufShape::$bufs,
                $unit,
                false,
                Root::$root,
            ),
            pure: false,
            pattern: PhantomData,
        };
        pub static $pure: Nbc<ops::$p> = Nbc {
            info: &info(
                stringify!($pure),
                Class::$class,
                BufShape::$bufs,
                $unit,
                true,
                Root::$root,
            ),
            pure: true,
            pattern: PhantomData,
        };
    };
}

// Scatters and Ireduce_scatter send NP·X and receive X: IMB 2021's receive length for them,
// so that `-off_cache` spaces their receive copies as it does. (Its Ireduce_scatter spaces the
// send copies by X too, so its NP·X-byte messages overlap; here they lie NP·X apart.)
nbc!(Ibcast, Ibcast_pure, Bcast, Collective, Plain, 1, Both);
nbc!(
    Iallgather,
    Iallgather_pure,
    Allgather,
    Collective,
    GatherRecv,
    1,
    None
);
nbc!(
    Iallgatherv,
    Iallgatherv_pure,
    Allgatherv,
    Collective,
    GatherRecv,
    1,
    None
);
nbc!(
    Igather,
    Igather_pure,
    Gather,
    Collective,
    GatherRecv,
    1,
    Both
);
nbc!(
    Igatherv,
    Igatherv_pure,
    Gatherv,
    Collective,
    GatherRecv,
    1,
    Both
);
nbc!(
    Iscatter,
    Iscatter_pure,
    Scatter,
    Collective,
    ScatterSend,
    1,
    Both
);
nbc!(
    Iscatterv,
    Iscatterv_pure,
    Scatterv,
    Collective,
    ScatterSend,
    1,
    Both
);
nbc!(
    Ialltoall,
    Ialltoall_pure,
    Alltoall,
    Collective,
    AllToAll,
    1,
    None
);
nbc!(
    Ialltoallv,
    Ialltoallv_pure,
    Alltoallv,
    Collective,
    AllToAll,
    1,
    None
);
nbc!(Ireduce, Ireduce_pure, Reduce, Collective, Plain, 4, Overlap);
nbc!(
    Ireduce_scatter,
    Ireduce_scatter_pure,
    ReduceScatter,
    Collective,
    ScatterSend,
    4,
    None
);
nbc!(
    Iallreduce,
    Iallreduce_pure,
    Allreduce,
    Collective,
    Plain,
    4,
    None
);
nbc!(Ibarrier, Ibarrier_pure, Barrier, Sync, Plain, 1, None);

/// Every benchmark: the overlap ones in IMB 2021's order, then the `_pure` variants (run only
/// when named).
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &Ibcast,
    &Iallgather,
    &Iallgatherv,
    &Igather,
    &Igatherv,
    &Iscatter,
    &Iscatterv,
    &Ialltoall,
    &Ialltoallv,
    &Ireduce,
    &Ireduce_scatter,
    &Iallreduce,
    &Ibarrier,
    &Ibcast_pure,
    &Iallgather_pure,
    &Iallgatherv_pure,
    &Igather_pure,
    &Igatherv_pure,
    &Iscatter_pure,
    &Iscatterv_pure,
    &Ialltoall_pure,
    &Ialltoallv_pure,
    &Ireduce_pure,
    &Ireduce_scatter_pure,
    &Iallreduce_pure,
    &Ibarrier_pure,
];

/// The imb-nbc executable.
pub static SUITE: Suite = Suite {
    exe: "imb-nbc",
    part: "MPI-NBC part",
    settings: &imb_refusals::SETTINGS,
    npmin: 2,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &imb_refusals::WITHOUT_AGGREGATE,
    hooks: Hooks {
        run_state: calibrate_for,
        ..Hooks::IMB
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::bench::{Mode, Procs};
    use imb_core::method::Compat;
    use imb_core::table;
    use imb_overlap::overlap::{OVERLAP, OVERLAP_SYNC};
    use imb_overlap::{cpu, cpu2021};

    /// IMB 2021 has its datatype options only in IMB-MPI1: refused, naming imb-mpi1.
    #[test]
    fn datatype_options_are_imb_mpi1s() {
        for (o, what) in [
            ("data_type", "imb-nbc moves MPI_BYTE"),
            ("red_data_type", "imb-nbc sums MPI_FLOAT"),
            ("contig_type", "imb-nbc's messages are contiguous"),
        ] {
            let args = [format!("-{o}"), "int".to_string()];
            let e = imb_core::driver::parse(&SUITE, &args, 2)
                .unwrap_err()
                .to_string();
            assert_eq!(
                e,
                format!(
                    "-{o}: IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {}",
                    what
                ),
            );
        }
    }

    #[test]
    fn thirteen_defaults_then_their_pure_variants() {
        let names = SUITE.names();
        assert_eq!(names.len(), 26);
        assert_eq!(SUITE.defaults(), 13);
        for (k, n) in names[..13].iter().enumerate() {
            assert_eq!(names[13 + k], format!("{n}_pure"));
        }
        assert_eq!(names[0], "Ibcast");
        assert_eq!(names[12], "Ibarrier");
    }

    #[test]
    fn tables_classes_and_units() {
        for b in BENCHMARKS {
            let i = b.info();
            let n = i.name;
            let pure = n.ends_with("_pure");
            let sync = n.starts_with("Ibarrier");
            let want = match (pure, sync) {
                (true, true) => &table::SYNC,
                (true, false) => &table::COLLECTIVE,
                (false, true) => &OVERLAP_SYNC,
                (false, false) => &OVERLAP,
            };
            assert_eq!(i.table, want, "{n}");
            assert_eq!((i.procs, i.modes), (Procs::Any, &[Mode::Plain][..]), "{n}");
            assert_eq!(i.checked, !sync, "{n}");
            assert_eq!(i.on_request, pure, "{n}");
            let reduction = n.contains("reduce");
            assert_eq!(i.unit, if reduction { 4 } else { 1 }, "{n}");
        }
        assert_eq!(Iscatter.info.bufs, BufShape::ScatterSend);
        assert_eq!(Ireduce_scatter_pure.info.bufs, BufShape::ScatterSend);
        assert_eq!(Igather_pure.info.bufs, BufShape::GatherRecv);
        let Ok(imb_core::cli::Action::Run(o)) = imb_core::driver::parse(&SUITE, &[], 2) else {
            panic!("no options")
        };
        assert!(calibrate_for(&[Iallreduce_pure.info], &o).is_none());
        assert!(calibrate_for(&[Ibarrier.info], &o).is_some());
    }

    /// The benchmarks IMB 2021 flags as rooted, which `-iter_policy auto` counts in multiples
    /// of NP: not Ireduce_pure, whose root `-root_shift` moves all the same.
    #[test]
    fn rooted_as_imb_2021() {
        let rooted: Vec<&str> = BENCHMARKS
            .iter()
            .map(|b| b.info())
            .filter(|i| i.rooted)
            .map(|i| i.name)
            .collect();
        assert_eq!(
            rooted,
            [
                "Ibcast",
                "Igather",
                "Igatherv",
                "Iscatter",
                "Iscatterv",
                "Ireduce",
                "Ibcast_pure",
                "Igather_pure",
                "Igatherv_pure",
                "Iscatter_pure",
                "Iscatterv_pure",
            ]
        );
    }

    /// The default profile measures its rate before the run; `-compat 2021` leaves its
    /// calibration to the first call that needs it.
    #[test]
    fn each_profile_gets_its_own_calibration() {
        use imb_core::method::{Given, Method};
        let Ok(imb_core::cli::Action::Run(mut o)) = imb_core::driver::parse(&SUITE, &[], 2) else {
            panic!("no options")
        };
        let (state, note) = calibrate_for(&[Ibcast.info], &o).expect("overlap selected");
        assert!(note.is_none());
        assert!(state.downcast_ref::<cpu::Calibration>().is_some());
        o.method = Method::resolve(&Given {
            compat: Some(Compat::V2021),
            ..Given::default()
        });
        assert!(calibrate_for(&[Ibcast_pure.info], &o).is_none());
        let (state, note) = calibrate_for(&[Ibcast.info], &o).expect("overlap selected");
        assert!(note.is_none());
        let cal = state
            .downcast_ref::<cpu2021::Calibration>()
            .expect("2021's");
        assert!(cal.0.get().is_none());
    }
}

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
        accepted("Ibcast_pure Ialltoall_pure Ibarrier_pure -multi 1", 64);
    }

    /// An overlap benchmark times the operation alone and with CPU work, each call after a
    /// barrier of its own.
    #[test]
    fn both_loops_and_their_barriers_count() {
        refused("Ibcast -iter 2000000000,1000000 -msglog 4", 2);
        accepted("Ibcast_pure -iter 2000000000,1000000 -msglog 4", 2);
    }

    /// Every process of the all-to-all kinds moves NP blocks of X. A rooted operation's root
    /// does so only while it is the root, every NP-th call under `-root_shift on`, so its
    /// bound counts X: a run that only root 0 could not finish in time is not refused.
    #[test]
    fn every_block_counts() {
        refused("Ialltoall -npmin 1024 -iter 1000,1000000 -msglog 27", 1024);
        for rooted in ["Igather", "Iscatterv_pure"] {
            for shift in ["on", "off"] {
                accepted(
                    &format!(
                        "{rooted} -npmin 1024 -iter 1000,1000000 -msglog 27 -root_shift {shift}"
                    ),
                    1024,
                );
            }
        }
        accepted("Ialltoall Igather -iter 1000,1000000 -msglog 22", 64);
    }
}
