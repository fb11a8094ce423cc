//! The timing contract between the engine and a benchmark (guide 5.2.7, 5.2.8).
//!
//! A benchmark builds a `Kernel` for one message size (untimed) and implements one repetition
//! of its pattern in `step`. The loop around it (barriers, MPI_Wtime, n_sample repetitions,
//! check mode) is the blanket `Measure` impl below: monomorphised per kernel, so `step` is
//! inlined into the timed loop and the only dynamic call is one per sample (`Timed`, the face
//! the driver holds). A family whose loops are its own implements `Measure` itself and reports
//! its own figures in a typed `table::Record`.

pub use crate::barrier::Barriers;
use crate::bench::{Info, Mode};
use crate::buffers::{Buffer, Defect};
use crate::cli::{Family, Options};
use crate::header::Header;
use crate::method::Timing;
use crate::note::Note;
use crate::plan::Plan;
use crate::settings::Params;
use crate::table::{Record, Wire};
use crate::values::Values;
use crate::vocab::Layout;
use mpi::topology::SimpleCommunicator;
use std::any::{Any, TypeId};

/// The communicator a benchmark runs on.
pub type Comm = SimpleCommunicator;

/// What a benchmark sees when it builds a kernel: its communicator, buffers and size.
pub struct Ctx<'a> {
    pub comm: &'a Comm,
    /// Rank in the benchmark communicator (in the group under Multi).
    pub rank: usize,
    /// Processes in the benchmark communicator (NP).
    pub size: usize,
    /// Message size in bytes.
    pub x: usize,
    pub mode: Mode,
    /// Send buffer (BUF_VALUE of `rank`), at least as long as the benchmark needs.
    pub send: &'a [u8],
    /// Receive buffer, zeroed for this size.
    pub recv: &'a mut [u8],
    /// The run's parameters (OVERALL_VOL, TARGET_CPU_SECS, the suite's own keys, ...).
    pub params: &'a Params,
    /// How the run measures (`-compat`, `-root_shift`, `-off_cache`, ...).
    pub method: &'a crate::method::Method,
    /// `-off_cache`: where repetition i's messages lie in `send` and `recv`
    /// (`rot.send.offset(i)`), every copy holding the same message. One copy without it.
    /// A pattern IMB 2021 moves through its copies does the same; one it does not (Barrier,
    /// imb-ext's Window) keeps offset 0.
    pub rot: crate::method::Rotations,
    /// MPI_Info hints from the settings file's `[info]` table, for windows and files.
    pub info: &'a [(String, String)],
    /// What `Benchmark::prepare` returned for this process count (IO: the prepared files).
    pub prep: Option<&'a dyn Any>,
    /// What the suite's `Hooks::run_state` built for the whole run (IO: CPU_Exploit's
    /// calibration, when a non-blocking benchmark is selected).
    pub run: Option<&'a dyn Any>,
}

/// What a benchmark sees when it prepares a process count (once, before the first size).
pub struct Prep<'a> {
    pub comm: &'a Comm,
    pub rank: usize,
    pub size: usize,
    pub world_rank: usize,
    /// The index-based group number under `-multi` (e.g. for file names of its own), else None.
    pub group: Option<usize>,
    /// Groups running this step at once (1 without `-multi`): each may need resources of its
    /// own (files, say, whose free space adds up).
    pub groups: usize,
    /// The largest n_sample·X of the step's sizes and modes (e.g. bytes a file must hold).
    pub volume: usize,
    /// The run's parameters, the suite's own settings keys among them (`Params::family`).
    pub params: &'a Params,
    pub info: &'a [(String, String)],
    /// What the family's own options resolved to (`Options::family`), read through its slots.
    pub family: &'a Values,
}

/// One repetition of a pattern, plus optional hooks around the loop.
pub trait Kernel {
    /// Repetition `i` (0-based) of the pattern. Called n_sample times between the timer reads.
    fn step(&mut self, i: usize);
    /// Check mode: verify what repetition `i` received (called right after `step(i)`).
    fn check(&mut self, _i: usize) -> Defect {
        Defect::NONE
    }
    /// Check mode: verify what the whole loop produced, after `complete` (e.g. a window's
    /// contents once the closing fence has made them visible). Untimed.
    fn verify(&mut self, _n: usize) -> Defect {
        Defect::NONE
    }
    /// Untimed, before the barriers (e.g. an opening fence).
    fn before(&mut self) {}
    /// Timed, after the last repetition (e.g. a closing fence or a file sync).
    fn complete(&mut self) {}
    /// Whether N_BARR barriers precede the timer (EXT non-aggregate Accumulate has none).
    fn barriers(&self) -> bool {
        true
    }
    /// Whether IMB 2021 times each call of this pattern on its own (its collectives): the
    /// loop is then call by call when the run's method asks for it (`-sync`, `-compat 2021`).
    fn per_call(&self) -> bool {
        false
    }
    /// Untimed, after the timed region and before `verify` (e.g. closing a passive-target
    /// epoch, then the barrier after which a target's window holds its final data).
    fn after(&mut self) {}
    /// Whether this rank's time is left out of the row: an RMA target that only waits has
    /// no time of its own (IMB drops such ranks' times).
    fn excluded(&self) -> bool {
        false
    }
}

/// The result of one timed loop on one rank.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sample<R = ()> {
    /// Seconds per repetition (non-blocking IO: t_ovrl).
    pub secs: f64,
    pub defect: Defect,
    /// This rank's time is not part of the row (a Sphinx latency's root, which only measures).
    pub excluded: bool,
    /// The family's own figures, read by its table kind (white-box: the kernels' and
    /// sections' times; the non-blocking overlaps: t_pure and t_CPU). Plain `Copy` data,
    /// filled after the timed region.
    pub rec: R,
}

impl<R: Record> Sample<R> {
    /// The sample as the driver carries it: its record encoded in the fixed wire record.
    #[inline]
    pub fn erase(self) -> Sample<Wire> {
        Sample {
            secs: self.secs,
            defect: self.defect,
            excluded: self.excluded,
            rec: Wire::encode(&self.rec),
        }
    }
}

/// A kernel ready to be timed, reporting the record `Rec` besides its time. Every `Kernel`
/// is one through the engine's loop below (reporting `()`); a family whose loops are its own
/// (the white-box kernels, the Sphinx latencies, the overlaps, Uniband's message count)
/// implements it with the record its table kind reads.
pub trait Measure {
    type Rec: Record;
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<Self::Rec>;
}

/// How the driver runs a timed loop: the barriers before the timer, and for the benchmarks
/// IMB 2021 times call by call (its collectives), whether they are (`method::Timing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loop {
    pub barriers: Barriers,
    pub timing: Timing,
}

impl Loop {
    /// `n_barr` MPI barriers, one timer around the loop: IMB 3.0's loop.
    pub const fn imb30(n_barr: usize) -> Loop {
        Loop {
            barriers: Barriers::mpi(n_barr),
            timing: Timing::Loop,
        }
    }
    /// The barrier after each call under `Timing::PerCall { sync: true }`, of the same kind.
    pub fn sync(self) -> Barriers {
        match self.timing {
            Timing::PerCall { sync: true } => self.barriers.times(1),
            _ => Barriers::NONE,
        }
    }
}

/// What `Benchmark::kernel` returns and the driver runs: any `Measure`, its record carried
/// encoded, so one driver runs every family.
pub trait Timed {
    fn run(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<Wire>;
    /// The record type the kernel reports: the driver checks it against the table kind's in
    /// debug builds, since the compiler cannot see the two meet.
    fn record(&self) -> TypeId;
}

impl<M: Measure> Timed for M {
    fn run(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<Wire> {
        self.measure(comm, lp, n, check).erase()
    }
    fn record(&self) -> TypeId {
        TypeId::of::<M::Rec>()
    }
}

impl<K: Kernel> Measure for K {
    type Rec = ();
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample {
        let n = n.max(1);
        self.before();
        let barriers = if self.barriers() {
            lp.barriers
        } else {
            Barriers::NONE
        };
        let (secs, mut defect) = match lp.timing {
            Timing::PerCall { .. } if self.per_call() => {
                per_call(self, comm, barriers, lp.sync(), n, check)
            }
            _ => bracket(comm, barriers, n, || {
                let mut defect = Defect::NONE;
                if check {
                    for i in 0..n {
                        self.step(i);
                        defect = defect.max(self.check(i));
                    }
                } else {
                    for i in 0..n {
                        self.step(i);
                    }
                }
                self.complete();
                defect
            }),
        };
        self.after();
        if check {
            defect = defect.max(self.verify(n));
        }
        Sample {
            secs,
            defect,
            excluded: self.excluded(),
            rec: (),
        }
    }
}

/// IMB 2021's loop for its collectives: every call timed on its own and the times summed,
/// `sync` (untimed) after each call, seconds per call. `complete` is timed with the last call.
#[inline(always)]
fn per_call<K: Kernel>(
    k: &mut K,
    comm: &Comm,
    barriers: Barriers,
    sync: Barriers,
    n: usize,
    check: bool,
) -> (f64, Defect) {
    barriers.wait(comm);
    let mut total = 0.0;
    let mut defect = Defect::NONE;
    for i in 0..n {
        let t0 = mpi::time();
        k.step(i);
        if i + 1 == n {
            k.complete();
        }
        total += mpi::time() - t0;
        if check {
            defect = defect.max(k.check(i));
        }
        sync.wait(comm);
    }
    (total / n as f64, defect)
}

/// The barriers on `comm`, then `MPI_Wtime` around `body`, which runs `n` repetitions:
/// seconds per repetition, and what `body` returned. `Measure::measure` and every benchmark that
/// times its own loops (the white-box kernels, the Sphinx latencies, IMB-IO's overlap) start
/// and stop the clock through this one place (guide 5.2.7), so none of them can time its
/// barriers or its set-up by accident. Inlined, so `body` is compiled into the caller's loop.
#[inline(always)]
pub fn bracket<R>(comm: &Comm, barriers: Barriers, n: usize, body: impl FnOnce() -> R) -> (f64, R) {
    barriers.wait(comm);
    let t0 = mpi::time();
    let r = body();
    let t1 = mpi::time();
    ((t1 - t0) / n.max(1) as f64, r)
}

/// A benchmark: what it is, and how to build its kernel for one size.
pub trait Benchmark: Sync {
    fn info(&self) -> &'static Info;
    /// Build the kernel for `ctx.x` (untimed: counts, views, windows, files).
    fn kernel<'a>(&self, ctx: Ctx<'a>) -> Box<dyn Timed + 'a>;
    /// Once per process count on the active ranks, before the first size (e.g. create and
    /// fill files). Untimed. The value is handed to every kernel of the step as `Ctx::prep` and
    /// dropped after the step's last table on every rank, or when the step ends in an error
    /// (e.g. removes the files; `Hooks` says what covers a rank that dies). An error is one
    /// line; every rank then ends the run.
    fn prepare(&self, _p: &Prep) -> std::result::Result<Option<Box<dyn Any>>, String> {
        Ok(None)
    }
}

/// What a family adds to the engine's run, registered once in its `Suite`: a guardian of its
/// resources, buffer contents, header facts and a calibration come in through these, so the
/// driver never asks which executable it runs. `Hooks::IMB` is the plain IMB behaviour.
///
/// Resources a family creates (files, say) are cleaned up through two of them together, and
/// no third is needed: `Benchmark::prepare` creates them, and the engine drops its value after
/// the step on every rank, also when the step ends in an error; for a rank that dies (a signal,
/// `MPI_Abort`, `panic = "abort"`) nothing in the rank can run, so `before_mpi`, which runs
/// before MPI starts and so is inherited by no MPI state, starts a process that outlives the
/// rank and removes what the rank registered with it (imb-io's file guardian, `files.rs`).
#[derive(Clone, Copy)]
pub struct Hooks {
    /// First thing in `main`, before MPI starts; `Some(status)` ends the program there with
    /// that exit status (e.g. this process is a guardian, or the guardian could not start).
    pub before_mpi: fn(exe: &str) -> Option<u8>,
    /// Whether each step is warmed up before its first size (doc/METHODOLOGY.md, "Warm-up").
    pub warm_up: bool,
    /// How group rank `pos` fills its send buffer.
    pub fill: fn(&mut Buffer, usize),
    /// The family's own header facts, set on the engine's (doc/OUTPUT.md, "Header"; e.g. the
    /// lengths as an io portion, also with `-msglen`, and no datatype lines).
    pub header: fn(&mut Header, &Options),
    /// Once on every rank after the header, given the selected benchmarks: state for the
    /// whole run, handed to every kernel as `Ctx::run`, and a block for the output if the
    /// suite prints one (imb-io: CPU_Exploit's calibration and its block when a non-blocking
    /// benchmark runs; imb-nbc: its calibration, with no block, as IMB 2021 prints none).
    pub run_state: fn(&[&'static Info], &Options) -> Option<RunState>,
    /// On rank 0 after the run-time bound and before the header: a cheap check of the whole
    /// plan that would otherwise fail only when its step comes, maybe hours in (e.g. that a
    /// file system can hold the largest step's files). The error is one line;
    /// every rank ends the run with exit status 3 and no table.
    pub before_run: fn(&Plan, &Options) -> std::result::Result<(), String>,
    /// The `#bytes` a row shows for messages of X bytes (the JSON row's `bytes`, `-summary`'s
    /// and the progress line's too): X for most; imb-mt shows what all of a rank's threads
    /// move, X times the threads.
    pub row_bytes: fn(usize, &Options) -> usize,
    /// Lines (without the leading `# `) that stand for the engine's process block under a
    /// table's `# Benchmarking` line; None keeps the engine's (imb-mt: `#processes = 2
    /// (threads: 4)` and, for its windowed benchmarks, `window_size = 64`).
    pub process_block: fn(&Info, &Layout, &Options) -> Option<Vec<String>>,
    /// What the family's kernels sleep around every loop of a size, whatever the machine, and
    /// the option that sets it (imb-p2p: `-pause`): the run-time bound counts it
    /// (`plan::size_least`). None: no sleep.
    pub sleep: fn(&Options) -> Option<crate::plan::Sleep>,
}

/// What `Hooks::run_state` builds: the state every kernel sees as `Ctx::run`, and the block
/// the output shows for it, if any.
pub type RunState = (Box<dyn Any>, Option<Note>);

fn nothing_before_mpi(_: &str) -> Option<u8> {
    None
}

fn no_run_state(_: &[&'static Info], _: &Options) -> Option<RunState> {
    None
}

fn nothing_to_check(_: &Plan, _: &Options) -> std::result::Result<(), String> {
    Ok(())
}

fn imb_header(_: &mut Header, _: &Options) {}

fn message_bytes(x: usize, _: &Options) -> usize {
    x
}

fn no_sleep(_: &Options) -> Option<crate::plan::Sleep> {
    None
}

fn engine_process_block(_: &Info, _: &Layout, _: &Options) -> Option<Vec<String>> {
    None
}

impl Hooks {
    /// IMB's MPI-1 and EXT behaviour: warm-up, BUF_VALUE buffers, the MPI-1 header.
    pub const IMB: Hooks = Hooks {
        before_mpi: nothing_before_mpi,
        warm_up: true,
        fill: Buffer::fill,
        header: imb_header,
        run_state: no_run_state,
        before_run: nothing_to_check,
        row_bytes: message_bytes,
        process_block: engine_process_block,
        sleep: no_sleep,
    };
}

/// A binary's description of itself.
pub struct Suite {
    /// Executable name as the user types it, e.g. `imb-mpi1`.
    pub exe: &'static str,
    /// Title part, e.g. `MPI-1 part`.
    pub part: &'static str,
    /// Its settings file: the file's name, its built-in text, its own keys.
    pub settings: &'static crate::settings::Spec,
    /// Default `-npmin`.
    pub npmin: usize,
    /// Benchmarks in default run order.
    pub benchmarks: &'static [&'static dyn Benchmark],
    /// IMB 2021's default list, by name in its order, which `-compat 2021` runs when no name
    /// is given (empty: the same as `benchmarks`' defaults).
    pub defaults_2021: &'static [&'static str],
    /// Its options beyond the engine's, what they mean, and other executables' it refuses.
    pub options: &'static Family,
    pub hooks: Hooks,
}

impl Suite {
    /// Find a benchmark by case-insensitive name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.benchmarks
            .iter()
            .position(|b| b.info().name.eq_ignore_ascii_case(name))
    }
    pub fn info(&self, i: usize) -> &'static Info {
        self.benchmarks[i].info()
    }
    pub fn names(&self) -> Vec<&'static str> {
        self.benchmarks.iter().map(|b| b.info().name).collect()
    }
    /// How many benchmarks run by default: those before the first `on_request` one (the
    /// suite lists its on-request benchmarks last).
    pub fn defaults(&self) -> usize {
        let k = self
            .benchmarks
            .iter()
            .position(|b| b.info().on_request)
            .unwrap_or(self.benchmarks.len());
        debug_assert!(self.benchmarks[k..].iter().all(|b| b.info().on_request));
        k
    }
}
