//! imb-io: the MPI-IO part of the Intel MPI Benchmarks methodology (IMB 3.0 user guide,
//! section 4.2.5–4.2.6): S_, P_ and C_ Write and Read with individual, explicit and shared
//! positioning and private files, their non-blocking I-versions with CPU overlap, Open_Close, and
//! the Multi- version of each. imb-core runs them; this crate declares the 37 benchmarks and
//! implements one access of each pattern. Files go to `-dir` (default the current directory),
//! are prepared once per process count and are removed when the benchmark ends, also after an
//! error or a signal (`files`). All MPI-IO calls go through imb-mpi's checked wrappers
//! (`imb_mpi::io`).
//! What IMB-IO does differently from the other suites reaches the engine through the suite:
//! its options and settings file (`options`: `-dir`, `-overwrite`, FILENAME), and its `Hooks`
//! (the file guardian, the buffer contents, no warm-up, its header, the CPU_Exploit
//! calibration).

#![allow(non_upper_case_globals)] // benchmark statics carry the guide's names (S_Write_Indv)

mod access;
pub mod cpu;
pub mod files;
mod layout;
mod open_close;
pub mod options;
#[cfg(test)]
mod options_tests;
mod overlap;
mod prep;

pub use overlap::overlap_pct;

use imb_core::bench::{BufShape, Class, Effort, Info, Mode, Procs};
use imb_core::buffers::Buffer;
use imb_core::cli::{Lengths, Options};
use imb_core::header::Header;
use imb_core::kernel::{Benchmark, Ctx, Prep, Timed};
use imb_core::kernel::{Hooks, RunState, Suite};
use imb_core::note::Note;
use imb_core::table;
use layout::{Family, Pos, Scope};
use std::any::Any;

/// One IO benchmark: its metadata and family (None: Open_Close).
pub struct Io {
    info: &'static Info,
    fam: Option<Family>,
}

/// The metadata of an S_/P_/C_ benchmark (doc/METHODOLOGY.md, "Repetitions" and "imb-io").
const fn info(name: &'static str, f: Family) -> Info {
    let (class, procs) = match f.scope {
        Scope::S => (Class::SingleTransfer, Procs::One),
        Scope::P => (Class::ParallelTransfer, Procs::Any),
        Scope::C => (Class::Collective, Procs::Any),
    };
    let table = match (f.nonblocking, f.scope) {
        (true, _) => &overlap::NONBLOCKING,
        (false, Scope::S) => &table::SINGLE,
        (false, _) => &table::PARALLEL,
    };
    Info {
        procs,
        table,
        // Non-blocking reads land in disjoint blocks of the receive buffer.
        bufs: if f.nonblocking && !f.write {
            BufShape::Window
        } else {
            BufShape::Plain
        },
        // Only blocking writes have a NON-AGGREGATE table (3.0).
        modes: if f.write && !f.nonblocking {
            &[Mode::Aggregate, Mode::NonAggregate]
        } else {
            &[Mode::Aggregate]
        },
        effort: if f.nonblocking {
            overlap::effort
        } else {
            imb_core::bench::one_call
        },
        ..Info::mpi1(name, class)
    }
}

impl Benchmark for Io {
    fn info(&self) -> &'static Info {
        self.info
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        match self.fam {
            None => Box::new(open_close::OpenClose::new(c)),
            Some(f) if f.nonblocking => Box::new(overlap::Overlap::new(c, f)),
            Some(f) => Box::new(access::Access::new(c, f)),
        }
    }
    fn prepare(&self, p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
        prep::prepare(self.fam.as_ref(), p)
    }
}

macro_rules! io {
    ($id:ident, $name:literal, $scope:ident, $write:literal, $pos:ident, $nb:literal) => {
        pub static $id: Io = Io {
            info: &info(
                $name,
                Family {
                    scope: Scope::$scope,
                    write: $write,
                    pos: Pos::$pos,
                    nonblocking: $nb,
                },
            ),
            fam: Some(Family {
                scope: Scope::$scope,
                write: $write,
                pos: Pos::$pos,
                nonblocking: $nb,
            }),
        };
    };
}

io!(S_Write_Indv, "S_Write_Indv", S, true, Indv, false);
io!(S_IWrite_Indv, "S_IWrite_Indv", S, true, Indv, true);
io!(S_Write_Expl, "S_Write_Expl", S, true, Expl, false);
io!(S_IWrite_Expl, "S_IWrite_Expl", S, true, Expl, true);
io!(P_Write_Indv, "P_Write_Indv", P, true, Indv, false);
io!(P_IWrite_Indv, "P_IWrite_Indv", P, true, Indv, true);
io!(P_Write_Shared, "P_Write_Shared", P, true, Shared, false);
io!(P_IWrite_Shared, "P_IWrite_Shared", P, true, Shared, true);
io!(P_Write_Priv, "P_Write_Priv", P, true, Priv, false);
io!(P_IWrite_Priv, "P_IWrite_Priv", P, true, Priv, true);
io!(P_Write_Expl, "P_Write_Expl", P, true, Expl, false);
io!(P_IWrite_Expl, "P_IWrite_Expl", P, true, Expl, true);
io!(C_Write_Indv, "C_Write_Indv", C, true, Indv, false);
io!(C_IWrite_Indv, "C_IWrite_Indv", C, true, Indv, true);
io!(C_Write_Shared, "C_Write_Shared", C, true, Shared, false);
io!(C_IWrite_Shared, "C_IWrite_Shared", C, true, Shared, true);
io!(C_Write_Expl, "C_Write_Expl", C, true, Expl, false);
io!(C_IWrite_Expl, "C_IWrite_Expl", C, true, Expl, true);
io!(S_Read_Indv, "S_Read_Indv", S, false, Indv, false);
io!(S_IRead_Indv, "S_IRead_Indv", S, false, Indv, true);
io!(S_Read_Expl, "S_Read_Expl", S, false, Expl, false);
io!(S_IRead_Expl, "S_IRead_Expl", S, false, Expl, true);
io!(P_Read_Indv, "P_Read_Indv", P, false, Indv, false);
io!(P_IRead_Indv, "P_IRead_Indv", P, false, Indv, true);
io!(P_Read_Shared, "P_Read_Shared", P, false, Shared, false);
io!(P_IRead_Shared, "P_IRead_Shared", P, false, Shared, true);
io!(P_Read_Priv, "P_Read_Priv", P, false, Priv, false);
io!(P_IRead_Priv, "P_IRead_Priv", P, false, Priv, true);
io!(P_Read_Expl, "P_Read_Expl", P, false, Expl, false);
io!(P_IRead_Expl, "P_IRead_Expl", P, false, Expl, true);
io!(C_Read_Indv, "C_Read_Indv", C, false, Indv, false);
io!(C_IRead_Indv, "C_IRead_Indv", C, false, Indv, true);
io!(C_Read_Shared, "C_Read_Shared", C, false, Shared, false);
io!(C_IRead_Shared, "C_IRead_Shared", C, false, Shared, true);
io!(C_Read_Expl, "C_Read_Expl", C, false, Expl, false);
io!(C_IRead_Expl, "C_IRead_Expl", C, false, Expl, true);

/// Open_Close: a Sync-class benchmark with one row of MSGS_NONAGGR repetitions.
pub static Open_Close: Io = Io {
    info: &Info {
        nonaggr_cap: true,
        // The open and the close wait for the whole group; the write moves one byte.
        effort: |_| Effort {
            calls: 2.0,
            ..Effort::call(1)
        },
        ..Info::mpi1("Open_Close", Class::Sync)
    },
    fam: None,
};

/// Every benchmark in IMB 3.0's default run order (`BENCHMARKS`), and the same list with
/// their families for the checks of the whole plan (`IO`).
macro_rules! benchmarks {
    ($($id:ident),* $(,)?) => {
        pub static BENCHMARKS: &[&dyn Benchmark] = &[$(&$id),*];
        static IO: &[&Io] = &[$(&$id),*];
    };
}

benchmarks!(
    S_Write_Indv,
    S_IWrite_Indv,
    S_Write_Expl,
    S_IWrite_Expl,
    P_Write_Indv,
    P_IWrite_Indv,
    P_Write_Shared,
    P_IWrite_Shared,
    P_Write_Priv,
    P_IWrite_Priv,
    P_Write_Expl,
    P_IWrite_Expl,
    C_Write_Indv,
    C_IWrite_Indv,
    C_Write_Shared,
    C_IWrite_Shared,
    C_Write_Expl,
    C_IWrite_Expl,
    S_Read_Indv,
    S_IRead_Indv,
    S_Read_Expl,
    S_IRead_Expl,
    P_Read_Indv,
    P_IRead_Indv,
    P_Read_Shared,
    P_IRead_Shared,
    P_Read_Priv,
    P_IRead_Priv,
    P_Read_Expl,
    P_IRead_Expl,
    C_Read_Indv,
    C_IRead_Indv,
    C_Read_Shared,
    C_IRead_Shared,
    C_Read_Expl,
    C_IRead_Expl,
    Open_Close,
);

/// The family of a benchmark of this suite (None: Open_Close, or not ours).
fn family(info: &Info) -> Option<Family> {
    IO.iter()
        .find(|b| std::ptr::eq(b.info, info))
        .and_then(|b| b.fam)
}

/// The imb-io executable.
pub static SUITE: Suite = Suite {
    exe: "imb-io",
    part: "MPI-IO part",
    settings: &options::SETTINGS,
    npmin: 1,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &options::OPTIONS,
    hooks: Hooks {
        before_mpi: guard_files,
        // IMB-IO has no warm-up (doc/METHODOLOGY.md, "Warm-up").
        warm_up: false,
        fill: Buffer::fill_io,
        header: io_header,
        run_state: calibrate_for,
        before_run: |plan, opts| prep::room_for_plan(plan, opts, family),
        ..Hooks::IMB
    },
};

/// Before MPI starts: if this process is a file guardian, be one; else start this rank's. The
/// guardian must not inherit MPI's state, and it removes the rank's files however the rank
/// ends (SIGKILL and MPI_Abort included).
fn guard_files(exe: &str) -> Option<u8> {
    if let Some(code) = files::guardian_main() {
        return Some(code);
    }
    files::ignore_sigxfsz();
    match files::start_guardian() {
        Ok(()) => None,
        Err(e) => {
            eprintln!("{exe}: error: {e}");
            Some(imb_core::driver::EXIT_RUNTIME)
        }
    }
}

/// IMB-IO's header (doc/OUTPUT.md, "Header"): "io portion" lines, printed with `-msglen` too
/// (0 to 2^MAXMSGLOG), and no datatype lines.
fn io_header(h: &mut Header, o: &Options) {
    h.io = true;
    if !matches!(o.lengths, Lengths::Ladder) {
        h.min_max = Some((0, 1usize << o.params.maxmsglog));
    }
}

/// When a non-blocking benchmark is selected, every rank calibrates its own CPU (IMB 3.0 sizes
/// the CPU work from rank 0 alone); the output shows rank 0's figure.
fn calibrate_for(selected: &[&'static Info], _: &Options) -> Option<RunState> {
    selected
        .iter()
        .any(|i| *i.table == overlap::NONBLOCKING)
        .then(|| {
            let c = cpu::Calibration::measure();
            (
                Box::new(c) as Box<dyn Any>,
                Some(Note::of(&cpu::Speed { mflops: c.mflops })),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_seven_in_3_0_order() {
        let names = SUITE.names();
        assert_eq!(names.len(), 37);
        assert_eq!(
            &names[..4],
            [
                "S_Write_Indv",
                "S_IWrite_Indv",
                "S_Write_Expl",
                "S_IWrite_Expl"
            ]
        );
        assert_eq!(names[18], "S_Read_Indv");
        assert_eq!(names[36], "Open_Close");
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 37);
    }

    #[test]
    fn tables_modes_and_classes() {
        for b in BENCHMARKS {
            let i = b.info();
            let n = i.name;
            let nb = n.contains("_IWrite") || n.contains("_IRead");
            match () {
                _ if n == "Open_Close" => {
                    assert_eq!(
                        (i.table, i.modes, i.nonaggr_cap),
                        (&table::SYNC, &[Mode::Plain][..], true)
                    )
                }
                _ if nb => assert_eq!(
                    (i.table, i.modes),
                    (&overlap::NONBLOCKING, &[Mode::Aggregate][..])
                ),
                _ if n.starts_with("S_") => {
                    assert_eq!((i.table, i.procs), (&table::SINGLE, Procs::One))
                }
                _ => assert_eq!(i.table, &table::PARALLEL, "{n}"),
            }
            if !nb && n.contains("Write") {
                assert_eq!(i.modes, [Mode::Aggregate, Mode::NonAggregate], "{n}");
            }
            if n.contains("Read") && !nb {
                assert_eq!(i.modes, [Mode::Aggregate], "{n}");
            }
            assert_eq!((i.unit, i.second_min), (1, 0), "{n}");
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
    }

    /// A non-blocking benchmark times two loops of accesses (t_pure and t_ovrl).
    #[test]
    fn nonblocking_counts_both_loops() {
        refused("P_IWrite_Indv -iter 2000000000,1000000 -msglog 9", 2);
        accepted("P_Write_Indv -iter 2000000000,1000000 -msglog 9", 2);
    }

    /// Open_Close's repetition opens and closes the file on the whole group.
    #[test]
    fn open_close_counts_both_calls() {
        refused("Open_Close -iter 1000,40,2000000000", 1024);
        accepted("Open_Close -iter 1000,40,2000000000", 64);
    }

    /// Non-blocking reads land in a buffer of OVERALL_VOL bytes, cleared before every loop.
    #[test]
    fn read_buffers_are_cleared_before_every_loop() {
        refused("P_IRead_Indv -iter 1000,100000 -adaptive -min_reps 100", 2);
        accepted("P_IRead_Indv -iter 1000,100000", 2);
    }
}
