//! imb-mpi4: the persistent collectives of MPI 4.0 as IMB 2021's IMB-MPI4 measures them:
//! Bcast, Allgather, Allgatherv, Gather, Gatherv, Scatter, Scatterv, Alltoall, Alltoallv,
//! Reduce, Reduce_scatter, Allreduce and Barrier, each as `<Op>_persist`, which measures how
//! much of the collective's time a process can spend computing (t_ovrl, t_pure, t_CPU,
//! overlap[%]), and `<Op>_persist_pure`, run only when named, which times the operation alone
//! as a Collective (Barrier_persist_pure: Sync) table.
//!
//! The method is IMB-NBC's with a persistent request in place of the non-blocking call: the
//! request is initialised once per size before the timer (`MPI_<Op>_init`), each repetition is
//! MPI_Start and MPI_Wait (with the CPU work between them in the overlap loop), and the request
//! is freed after the loops. So this crate declares the benchmarks and the requests (`ops`,
//! through imb-mpi's wrappers, `imb_mpi::persistent`, which finds the MPI 4.0 functions at run
//! time), and imb-overlap, which imb-nbc shares, brings the rest: the loops and table
//! (`imb_overlap::overlap`), the CPU work and its calibration (`imb_overlap::calibrate_for`,
//! through `Hooks::run_state`).

#![allow(non_upper_case_globals)] // benchmark statics carry IMB's names (Bcast_persist_pure)

pub mod ops;
pub mod options;

use imb_core::bench::{BufShape, Class, Info};
use imb_core::cli::Options;
use imb_core::header::Header;
use imb_core::kernel::{Benchmark, Hooks, RunState, Suite};
use imb_core::note::{Note, Remark};
use imb_mpi::persistent;
use imb_overlap::overlap::Nbc;
use imb_overlap::Root;
use serde::Serialize;
use std::marker::PhantomData;

/// IMB 2021's metadata for an overlap benchmark or its `_pure` variant: imb-nbc's, as IMB
/// 2021 flags its persistent benchmarks as its non-blocking ones, but that Allgather_persist
/// runs only when named (IMB 2021's IMB-MPI4 leaves it out of its default list).
const fn info(
    name: &'static str,
    class: Class,
    bufs: BufShape,
    unit: usize,
    pure: bool,
    root: Root,
    default: bool,
) -> Info {
    let i = imb_overlap::info(name, class, bufs, unit, pure, root);
    Info {
        on_request: i.on_request || !default,
        ..i
    }
}

/// Declare the overlap benchmark `$id` and its `_pure` variant `$pure` of pattern `$p`.
macro_rules! persist {
    ($id:ident, $pure:ident, $p:ident, $class:ident, $bufs:ident, $unit:literal, $root:ident,
     $default:literal) => {
        pub static $id: Nbc<ops::$p> = Nbc {
            info: &info(
                stringify!($id),
                Class::$class,
                BufShape::$bufs,
                $unit,
                false,
                Root::$root,
                $default,
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
                false,
            ),
            pure: true,
            pattern: PhantomData,
        };
    };
}

// Buffer shapes, units and rooted flags as imb-nbc's (its lib.rs says why).
#[rustfmt::skip]
mod declared {
    use super::*;
    persist!(Bcast_persist, Bcast_persist_pure, Bcast, Collective, Plain, 1, Both, true);
    persist!(Allgather_persist, Allgather_persist_pure, Allgather, Collective, GatherRecv, 1, None, false);
    persist!(Allgatherv_persist, Allgatherv_persist_pure, Allgatherv, Collective, GatherRecv, 1, None, true);
    persist!(Gather_persist, Gather_persist_pure, Gather, Collective, GatherRecv, 1, Both, true);
    persist!(Gatherv_persist, Gatherv_persist_pure, Gatherv, Collective, GatherRecv, 1, Both, true);
    persist!(Scatter_persist, Scatter_persist_pure, Scatter, Collective, ScatterSend, 1, Both, true);
    persist!(Scatterv_persist, Scatterv_persist_pure, Scatterv, Collective, ScatterSend, 1, Both, true);
    persist!(Alltoall_persist, Alltoall_persist_pure, Alltoall, Collective, AllToAll, 1, None, true);
    persist!(Alltoallv_persist, Alltoallv_persist_pure, Alltoallv, Collective, AllToAll, 1, None, true);
    persist!(Reduce_persist, Reduce_persist_pure, Reduce, Collective, Plain, 4, Overlap, true);
    persist!(Reduce_scatter_persist, Reduce_scatter_persist_pure, ReduceScatter, Collective, ScatterSend, 4, None, true);
    persist!(Allreduce_persist, Allreduce_persist_pure, Allreduce, Collective, Plain, 4, None, true);
    persist!(Barrier_persist, Barrier_persist_pure, Barrier, Sync, Plain, 1, None, true);
}
pub use declared::*;

/// Every benchmark: IMB 2021's default list in its order, then what runs only when named:
/// Allgather_persist and the `_pure` variants.
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &Bcast_persist,
    &Allgatherv_persist,
    &Gather_persist,
    &Gatherv_persist,
    &Scatter_persist,
    &Scatterv_persist,
    &Alltoall_persist,
    &Alltoallv_persist,
    &Reduce_persist,
    &Reduce_scatter_persist,
    &Allreduce_persist,
    &Barrier_persist,
    &Allgather_persist,
    &Bcast_persist_pure,
    &Allgather_persist_pure,
    &Allgatherv_persist_pure,
    &Gather_persist_pure,
    &Gatherv_persist_pure,
    &Scatter_persist_pure,
    &Scatterv_persist_pure,
    &Alltoall_persist_pure,
    &Alltoallv_persist_pure,
    &Reduce_persist_pure,
    &Reduce_scatter_persist_pure,
    &Allreduce_persist_pure,
    &Barrier_persist_pure,
];

/// The imb-mpi4 executable.
pub static SUITE: Suite = Suite {
    exe: "imb-mpi4",
    part: "MPI-4 part",
    settings: &imb_refusals::SETTINGS,
    npmin: 2,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &options::OPTIONS,
    hooks: Hooks {
        header,
        run_state,
        ..Hooks::IMB
    },
};

/// The header's note of which functions the run uses: MPI 4.0's, or Open MPI's extension.
#[derive(Debug, Serialize)]
pub struct Persistent {
    /// `MPI_` or `MPIX_` (`mixed` if the library had some of each).
    pub prefix: &'static str,
    /// Every function, under the name it was found.
    pub functions: Vec<&'static str>,
}

impl Persistent {
    pub fn of(api: &persistent::Api) -> Persistent {
        let all = |p: &str| api.names.iter().all(|n| n.starts_with(p));
        Persistent {
            prefix: if all("MPI_") {
                "MPI_"
            } else if all("MPIX_") {
                "MPIX_"
            } else {
                "mixed"
            },
            functions: api.names.to_vec(),
        }
    }
}

impl Remark for Persistent {
    const KIND: &'static str = "persistent_collectives";
    fn lines(&self) -> Vec<String> {
        vec![match self.prefix {
            "MPI_" => "Persistent collectives: MPI_<Op>_init (MPI 4.0)".to_string(),
            "MPIX_" => "Persistent collectives: MPIX_<Op>_init (Open MPI's pcollreq extension; \
                        the library has no MPI 4.0 MPI_<Op>_init)"
                .to_string(),
            _ => format!("Persistent collectives: {}", self.functions.join(", ")),
        }]
    }
}

/// IMB's header, and the note of the functions found (rank 0 found them in `resolve`).
fn header(h: &mut Header, o: &Options) {
    (Hooks::IMB.header)(h, o);
    if let Ok(api) = persistent::api() {
        h.notes.push(Note::of(&Persistent::of(api)));
    }
}

/// Every rank looks the functions up here, before the first table (rank 0 did in
/// `resolve`), then gets the CPU calibration when an overlap benchmark is selected.
fn run_state(selected: &[&'static Info], opts: &Options) -> Option<RunState> {
    if let Err(e) = persistent::api() {
        imb_mpi::rc::abort(&e.to_string(), 1);
    }
    imb_overlap::calibrate_for(selected, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::bench::{Mode, Procs};
    use imb_core::table;
    use imb_overlap::overlap::{OVERLAP, OVERLAP_SYNC};

    const DEFAULTS: [&str; 12] = [
        "Bcast_persist",
        "Allgatherv_persist",
        "Gather_persist",
        "Gatherv_persist",
        "Scatter_persist",
        "Scatterv_persist",
        "Alltoall_persist",
        "Alltoallv_persist",
        "Reduce_persist",
        "Reduce_scatter_persist",
        "Allreduce_persist",
        "Barrier_persist",
    ];

    /// IMB 2021's default list (all overlap benchmarks but Allgather_persist), then
    /// Allgather_persist and the thirteen `_pure` variants in IMB 2021's order.
    #[test]
    fn defaults_then_allgather_then_pure_variants() {
        let names = SUITE.names();
        assert_eq!(names.len(), 26);
        assert_eq!(SUITE.defaults(), 12);
        assert_eq!(names[..12], DEFAULTS);
        assert_eq!(names[12], "Allgather_persist");
        let overlap = ["Bcast_persist", "Allgather_persist"]
            .into_iter()
            .chain(DEFAULTS[1..].iter().copied());
        for (k, n) in overlap.enumerate() {
            assert_eq!(names[13 + k], format!("{n}_pure"));
        }
    }

    #[test]
    fn tables_classes_and_units() {
        for b in BENCHMARKS {
            let i = b.info();
            let n = i.name;
            let pure = n.ends_with("_pure");
            let sync = n.starts_with("Barrier");
            let want = match (pure, sync) {
                (true, true) => &table::SYNC,
                (true, false) => &table::COLLECTIVE,
                (false, true) => &OVERLAP_SYNC,
                (false, false) => &OVERLAP,
            };
            assert_eq!(i.table, want, "{n}");
            assert_eq!((i.procs, i.modes), (Procs::Any, &[Mode::Plain][..]), "{n}");
            assert_eq!(i.checked, !sync, "{n}");
            assert_eq!(i.on_request, pure || n == "Allgather_persist", "{n}");
            assert_eq!(i.unit, if n.contains("educe") { 4 } else { 1 }, "{n}");
        }
        assert_eq!(Scatter_persist.info.bufs, BufShape::ScatterSend);
        assert_eq!(Reduce_scatter_persist_pure.info.bufs, BufShape::ScatterSend);
        assert_eq!(Gather_persist_pure.info.bufs, BufShape::GatherRecv);
    }

    /// The benchmarks IMB 2021's IMB-MPI4 flags as rooted: not Reduce_persist_pure.
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
                "Bcast_persist",
                "Gather_persist",
                "Gatherv_persist",
                "Scatter_persist",
                "Scatterv_persist",
                "Reduce_persist",
                "Bcast_persist_pure",
                "Gather_persist_pure",
                "Gatherv_persist_pure",
                "Scatter_persist_pure",
                "Scatterv_persist_pure",
            ]
        );
    }

    /// `-root_shift` and `-off_cache` are refused with the reason, as are the other
    /// executables' options.
    #[test]
    fn refused_options_say_why() {
        for (args, start) in [
            (
                "-root_shift on",
                "-root_shift: a persistent collective's root is fixed",
            ),
            (
                "-off_cache -1",
                "-off_cache: a persistent collective's buffers are fixed",
            ),
            (
                "-aggregate_mode both",
                "-aggregate_mode: imb-mpi4 has no AGGREGATE",
            ),
            (
                "-data_type int",
                "-data_type: IMB 2021 has it only in IMB-MPI1",
            ),
            ("-dir /tmp", "-dir: only imb-io creates files"),
        ] {
            let args: Vec<String> = args.split(' ').map(String::from).collect();
            let e = imb_core::driver::parse(&SUITE, &args, 2)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(start), "{e}");
        }
        assert!(imb_core::driver::parse(&SUITE, &["-sync".into(), "off".into()], 2).is_ok());
    }

    /// The header note names the prefix, and `-json` keeps every function's name.
    #[test]
    fn the_note_names_the_functions_found() {
        let api = persistent::api().expect("the test's MPI library has them");
        let p = Persistent::of(api);
        assert!(["MPI_", "MPIX_"].contains(&p.prefix), "{}", p.prefix);
        let line = &p.lines()[0];
        assert!(line.starts_with(&format!("Persistent collectives: {}<Op>_init", p.prefix)));
        let v = serde_json::to_value(&p).expect("plain data");
        assert_eq!(v["functions"].as_array().map(Vec::len), Some(13));
        let mixed = Persistent {
            prefix: "mixed",
            functions: vec!["MPI_Bcast_init", "MPIX_Barrier_init"],
        };
        assert_eq!(
            mixed.lines(),
            ["Persistent collectives: MPI_Bcast_init, MPIX_Barrier_init"]
        );
    }
}

/// The run-time bound: imb-nbc's terms, so the standard runs stay far below it.
#[cfg(test)]
mod bound {
    use super::*;

    #[test]
    fn standard_runs_are_not_refused() {
        for np in [2, 64] {
            imb_core::driver::assert_accepted(&SUITE, "", np);
        }
        imb_core::driver::assert_accepted(&SUITE, "Bcast_persist_pure Barrier_persist_pure", 64);
    }

    #[test]
    fn both_loops_count() {
        imb_core::driver::assert_refused(
            &SUITE,
            "Bcast_persist -iter 2000000000,1000000 -msglog 4",
            2,
        );
    }
}
