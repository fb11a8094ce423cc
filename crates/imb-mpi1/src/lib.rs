//! imb-mpi1: the MPI-1 part of the Intel MPI Benchmarks methodology (IMB 3.0 user guide,
//! section 3): PingPong, PingPing, Sendrecv, Exchange, the collectives and Barrier, and the
//! Multi- version of each (`-multi`), then benchmarks run only when named (the Sphinx
//! latencies, Jacobi2D and IMB 2021's additions). This crate only declares the benchmarks and implements
//! one repetition of each pattern; imb-core runs them. It is a library (so the overhead
//! benchmark in `examples/` can drive the real kernels) with a one-line binary.

#![allow(non_camel_case_types)] // benchmark types carry the guide's names (Reduce_scatter)

mod band;
#[macro_use]
mod coll;
mod coll2021;
mod elems;
mod jacobi;
mod latency;
mod latency_notes;
pub mod options;
#[cfg(test)]
mod options_tests;
mod p2p;
mod source;
mod types;

use imb_core::cli::Options;
use imb_core::header::Header;
use imb_core::kernel::Benchmark;
use imb_core::kernel::{Hooks, Suite};
use imb_core::note::Note;

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
    &source::PingPongSpecificSource,
    &source::PingPongAnySource,
    &source::PingPingSpecificSource,
    &source::PingPingAnySource,
];

/// The imb-mpi1 executable.
pub static SUITE: Suite = Suite {
    exe: "imb-mpi1",
    part: "MPI-1 part",
    settings: &options::SETTINGS,
    npmin: 2,
    benchmarks: BENCHMARKS,
    defaults_2021: &[
        "PingPong",
        "PingPing",
        "Sendrecv",
        "Exchange",
        "Allreduce",
        "Reduce",
        "Reduce_local",
        "Reduce_scatter",
        "Reduce_scatter_block",
        "Allgather",
        "Allgatherv",
        "Gather",
        "Gatherv",
        "Scatter",
        "Scatterv",
        "Alltoall",
        "Alltoallv",
        "Bcast",
        "Barrier",
    ],
    options: &options::OPTIONS,
    hooks: Hooks {
        header,
        ..Hooks::IMB
    },
};

/// IMB's header, its datatype lines naming the run's types where `-data_type` or
/// `-red_data_type` chose others than MPI_BYTE and MPI_FLOAT (IMB 2021 prints the base type's
/// name whatever `-contig_type` says; the optional-mode block names all three keys).
fn header(h: &mut Header, o: &Options) {
    (Hooks::IMB.header)(h, o);
    let t = options::types(&o.params);
    if (t.data, t.red) != (options::Types::IMB.data, options::Types::IMB.red) {
        h.notes.push(Note::Datatypes {
            data: t.data.mpi_name().into(),
            reductions: t.red.mpi_name().into(),
        });
    }
}

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
    const IMB2021: [&str; 12] = [
        "Uniband",
        "Biband",
        "Reduce_local",
        "Reduce_scatter_block",
        "Gather",
        "Gatherv",
        "Scatter",
        "Scatterv",
        "PingPongSpecificSource",
        "PingPongAnySource",
        "PingPingSpecificSource",
        "PingPingAnySource",
    ];

    #[test]
    fn every_guide_name_once_in_default_order() {
        assert_eq!(SUITE.names()[..SUITE.defaults()], GUIDE_NAMES);
    }

    /// IMB 2021's additions close the list, the Source variants last.
    #[test]
    fn imb2021_additions_last() {
        let names = SUITE.names();
        assert_eq!(names[names.len() - IMB2021.len()..], IMB2021);
    }

    /// The collectives with a root, which IMB 2021's `-iter_policy auto` counts in multiples
    /// of NP and whose root `-root_shift` moves: as IMB 2021 lists them.
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
            ["Reduce", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv"]
        );
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
                "PingPong"
                | "PingPing"
                | "PingPongSpecificSource"
                | "PingPongAnySource"
                | "PingPingSpecificSource"
                | "PingPingAnySource" => {
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
                    assert_eq!(i.table.columns, table::COLLECTIVE.columns);
                    assert_eq!((i.table.name, i.procs), (i.name, Procs::AtLeastTwo));
                    assert!(i.on_request && i.min_x > 0);
                }
                "Uniband" | "Biband" => {
                    assert_eq!((i.table, i.procs), (&band::MSG_RATE, Procs::Pairs));
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
        assert_eq!(f("pingpongspecificsource").scale_time, 0.5);
        assert_eq!(f("PingPongAnySource").scale_time, 0.5);
        assert_eq!(f("PingPingSpecificSource").scale_time, 1.0);
        assert_eq!(f("PingPingAnySource").scale_time, 1.0);
        assert_eq!((f("Sendrecv").scale_bw, f("Exchange").scale_bw), (2.0, 4.0));
        assert_eq!((f("Uniband").scale_bw, f("Biband").scale_bw), (1.0, 2.0));
        assert_eq!(f("Scatter").bufs.lens(3, 4, 0), (12, 3));
        assert_eq!(f("Gatherv").bufs.lens(3, 4, 0), (3, 12));
        assert_eq!(f("Reduce_scatter_block").bufs.lens(4, 4, 0), (16, 4));
        // IMB 2021's Reduce_scatter reduces an NP·X vector under -compat 2021 only.
        use imb_core::method::Compat;
        assert_eq!(
            f("Reduce_scatter").bufs_for(Compat::V30).lens(4, 4, 0),
            (4, 4)
        );
        assert_eq!(
            f("Reduce_scatter").bufs_for(Compat::V2021).lens(4, 4, 0),
            (16, 4)
        );
    }
}

/// The run-time bound of imb-mpi1's own terms (`bench::Effort`, `plan::least`): legal option
/// sets that need hours are refused before anything runs, `-force` lets them run, and the
/// standard runs stay far below the limit.
#[cfg(test)]
mod bound {
    use super::*;
    use imb_core::driver;

    /// The least time of `args` on `np` processes, and the refusal if any.
    pub(crate) fn least(args: &str, np: usize) -> (f64, Option<String>) {
        let a: Vec<&str> = args.split_whitespace().collect();
        driver::bound_of(&SUITE, &a, np).unwrap().unwrap()
    }

    /// Refused before anything runs with the one-line message, which names `lever` first
    /// among the remedies if given; `-force` lets the same run go.
    pub(crate) fn refused(args: &str, np: usize, lever: Option<&str>) {
        let (secs, line) = least(args, np);
        let line = line.unwrap_or_else(|| panic!("{args} on {np}: {secs:.0} s, not refused"));
        assert!(
            line.starts_with("this run needs at least ")
                && line.ends_with(", or pass -force to run it anyway")
                && !line.contains('\n'),
            "{line}"
        );
        if let Some(l) = lever {
            assert!(line.contains(&format!("; lower {l}, ")), "{line}");
        }
        assert_eq!(
            least(&format!("{args} -force"), np).1,
            None,
            "{args} -force"
        );
    }

    /// Not refused.
    pub(crate) fn accepted(args: &str, np: usize) {
        let (secs, line) = least(args, np);
        assert_eq!(line, None, "{args} on {np}: {secs:.0} s");
    }

    #[test]
    fn standard_runs_are_not_refused() {
        accepted("", 2);
        accepted("", 64);
        accepted(
            "Bcast_latency Reduce_latency Jacobi2D Uniband Biband Reduce_local \
             Reduce_scatter_block Gather Gatherv Scatter Scatterv PingPongSpecificSource \
             PingPongAnySource PingPingSpecificSource PingPingAnySource",
            64,
        );
    }

    /// A repetition of Uniband and Biband is a window of -window_size messages: the documented
    /// largest window with the standard counts is refused, naming -window_size first.
    #[test]
    fn windows_count_their_messages() {
        refused("Uniband -window_size 1048576", 2, Some("-window_size"));
        refused("Biband -window_size 1048576", 4, Some("-window_size"));
        accepted("Uniband Biband -window_size 4096", 4);
    }

    /// A Sphinx latency's repetition is 2·ROUNDS·(NP−1) timed loops at the root.
    #[test]
    fn sphinx_latencies_count_every_receiver() {
        refused("Bcast_latency -iter 20000000,1000", 64, None);
        refused("Reduce_latency -iter 20000000,1000", 64, None);
        accepted("Bcast_latency Reduce_latency -iter 20000000,1000", 2);
    }

    /// Jacobi2D's repetition is twelve loops, four of which sweep the tile twice.
    #[test]
    fn jacobi_counts_its_kernels_and_tiles() {
        refused("Jacobi2D Jacobi2D Jacobi2D -iter 1000000,1000000", 4, None);
        accepted("Jacobi2D -iter 1000000,1000000", 4);
    }

    /// Allgather and Alltoall move NP blocks of X per process and repetition.
    #[test]
    fn gathers_count_every_block() {
        refused(
            "Allgather -npmin 1024 -iter 1000,1000000 -msglog 27",
            1024,
            None,
        );
        refused(
            "Alltoall -npmin 1024 -iter 1000,1000000 -msglog 27",
            1024,
            None,
        );
        accepted("Allgather -npmin 1024 -iter 1000,1000000 -msglog 22", 1024);
    }

    /// Warm-up runs N_WARMUP repetitions of the largest size before each table, at most the
    /// volume rule's count there (`plan::Sizes::warm_n`): the bound counts what runs, so a
    /// settings file's N_WARMUP of 10^8 adds a few repetitions of 4 MiB to PingPong, not
    /// hours (it was refused while the bound counted N_WARMUP itself).
    #[test]
    fn warm_up_counts() {
        let std = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../settings/settings.toml"
        ))
        .unwrap();
        let file = std::env::temp_dir().join(format!("imb-warmup-{}.toml", std::process::id()));
        let with = |n: &str| {
            let text = std
                .replace("IMB_OPTIONAL = false", "IMB_OPTIONAL = true")
                .replace("# N_WARMUP = 2", &format!("N_WARMUP = {n}"));
            std::fs::write(&file, text).unwrap();
            format!("PingPong -settings {}", file.display())
        };
        let (two, _) = least(&with("2"), 2);
        let args = with("100000000");
        let (many, _) = least(&args, 2);
        assert!(many > two, "{many} {two}");
        accepted(&args, 2);
        std::fs::remove_file(&file).unwrap();
    }
}
