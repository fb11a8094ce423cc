//! imb-ext: the MPI-2 one-sided part of the Intel MPI Benchmarks methodology (IMB 3.0 user
//! guide, section 4): Window, Unidir_Get, Unidir_Put, Bidir_Get, Bidir_Put and Accumulate, the
//! Multi- version of each (`-multi`), in AGGREGATE and NON-AGGREGATE mode (`-aggregate_mode`).
//! Windows are created with the MPI_Info hints of the settings file's `[info]` table (the
//! guide's User_Set_Info, 5.2.3.3) and completed with MPI_Win_fence. This crate only declares
//! the benchmarks and implements one repetition of each pattern; imb-core runs them. All calls
//! rsmpi does not wrap go through imb-mpi's checked wrappers (`imb_mpi::window`); the set-up
//! and `-off_cache`'s copies it shares with imb-rma are imb-onesided's, its options and
//! settings file imb-refusals'.

#![allow(non_camel_case_types)] // benchmark types carry the guide's names (Unidir_Put)

mod accumulate;
mod epoch;
mod onesided;
mod window;

use imb_core::kernel::Benchmark;
use imb_core::kernel::{Hooks, Suite};

/// Every benchmark, in IMB 3.0's default run order.
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &window::Window,
    &onesided::Unidir_Get,
    &onesided::Unidir_Put,
    &onesided::Bidir_Get,
    &onesided::Bidir_Put,
    &accumulate::Accumulate,
];

/// The imb-ext executable.
pub static SUITE: Suite = Suite {
    exe: "imb-ext",
    part: "MPI-2 part",
    settings: &imb_refusals::SETTINGS,
    npmin: 2,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &imb_refusals::OPTIONS,
    hooks: Hooks::IMB,
};

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::bench::{BufShape, Class, Mode, Procs};
    use imb_core::table;

    /// IMB 2021 has its datatype options only in IMB-MPI1: refused, naming imb-mpi1.
    #[test]
    fn datatype_options_are_imb_mpi1s() {
        for (o, what) in [
            ("data_type", "imb-ext moves MPI_BYTE"),
            ("red_data_type", "imb-ext sums MPI_FLOAT"),
            ("contig_type", "imb-ext's messages are contiguous"),
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
    fn every_guide_name_once_in_default_order() {
        assert_eq!(
            SUITE.names(),
            [
                "Window",
                "Unidir_Get",
                "Unidir_Put",
                "Bidir_Get",
                "Bidir_Put",
                "Accumulate"
            ]
        );
    }

    #[test]
    fn units_classes_and_modes() {
        for b in BENCHMARKS {
            let i = b.info();
            assert_eq!((i.unit, i.second_min), (4, 4), "{}", i.name);
            assert_eq!((i.scale_time, i.scale_bw), (1.0, 1.0), "{}", i.name);
            match i.name {
                "Window" => {
                    assert_eq!(
                        (i.class, i.procs, i.table),
                        (Class::Collective, Procs::Any, &table::COLLECTIVE)
                    );
                    assert_eq!(
                        (i.modes, i.nonaggr_cap, i.checked),
                        (&[Mode::Plain][..], true, false)
                    );
                    assert_eq!(i.bufs, BufShape::Plain);
                }
                "Accumulate" => {
                    assert_eq!(
                        (i.class, i.procs, i.table),
                        (Class::Collective, Procs::Any, &table::COLLECTIVE)
                    );
                    assert_eq!(i.modes, [Mode::Aggregate, Mode::NonAggregate]);
                    assert_eq!(
                        (i.bufs, i.checked, i.nonaggr_cap),
                        (BufShape::Window, true, false)
                    );
                }
                _ => {
                    assert_eq!(
                        (i.class, i.procs, i.table),
                        (Class::SingleTransfer, Procs::Pair, &table::SINGLE)
                    );
                    assert_eq!(i.modes, [Mode::Aggregate, Mode::NonAggregate]);
                    assert_eq!(
                        (i.bufs, i.checked, i.nonaggr_cap),
                        (BufShape::Window, true, false)
                    );
                }
            }
        }
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
        accepted("-multi 0", 64);
        accepted("-aggregate_mode both -multi 1", 64);
    }

    /// Window's repetition creates, fences twice and frees a window: four steps that wait.
    #[test]
    fn window_counts_its_four_collective_steps() {
        refused("Window -iter 1000,1000000,2000000000 -msglog 5", 2);
        accepted("Window -iter 1000,1000000,400000000 -msglog 5", 2);
    }

    /// A window of OVERALL_VOL bytes is cleared before every timed loop, and -adaptive runs
    /// at least -min_reps of them per size.
    #[test]
    fn windows_are_cleared_before_every_loop() {
        refused("Unidir_Put -iter 1000,100000 -adaptive -min_reps 100", 2);
        accepted("Unidir_Put -iter 1000,100000", 2);
    }
}
