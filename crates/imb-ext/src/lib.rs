//! imb-ext: the MPI-2 one-sided part of the Intel MPI Benchmarks methodology (IMB 3.0 user
//! guide, section 4): Window, Unidir_Get, Unidir_Put, Bidir_Get, Bidir_Put and Accumulate, the
//! Multi- version of each (`-multi`), in AGGREGATE and NON-AGGREGATE mode (`-aggregate_mode`).
//! Windows are created with the MPI_Info hints of the settings file's `[info]` table (the
//! guide's User_Set_Info, 5.2.3.3) and completed with MPI_Win_fence. This crate only declares
//! the benchmarks and implements one repetition of each pattern; imb-core runs them. All calls
//! rsmpi does not wrap go through the checked wrappers of `rma`.

#![allow(non_camel_case_types)] // benchmark types carry the guide's names (Unidir_Put)

mod accumulate;
mod epoch;
mod onesided;
pub mod rma;
mod window;

use imb_core::kernel::Benchmark;
use imb_core::kernel::{Hooks, Suite};
use imb_core::settings::Kind;

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
    settings: Kind::Mpi1,
    npmin: 2,
    benchmarks: BENCHMARKS,
    hooks: Hooks::IMB,
};

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::bench::{BufShape, Class, Mode, Procs};
    use imb_core::table;

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
