//! The path from argv to printed rows, shared by every MPI executable (doc/ARCHITECTURE.md,
//! "Data flow"): parse on rank 0 and broadcast, plan, then for each step split the
//! communicators, prepare buffers, warm up, time n_sample repetitions, gather, reduce and
//! report. This file runs the whole; `header` describes the run, `step` runs one plan step and
//! `measure` one size.

use crate::bench::{Class, Info, Mode};
use crate::buffers::{Buffer, TOL};
use crate::cli::{self, Action, Lengths, Multi, Options, ThreadLevel};
use crate::comm;
use crate::error::{Error, Result};
use crate::header::Header;
use crate::hostcheck::Host;
use crate::kernel::Suite;
use crate::kernel::{Barriers, Benchmark, Comm, Ctx, Loop, Prep, Sample};
use crate::lengths::{self, Len};
use crate::note::{AdaptiveRule, Changed, Note, Unsettled};
use crate::plan::{self, Layout, Plan, Sizes, StepPlan};
use crate::provenance::Status;
use crate::report::{
    long_size_line, Banner, Collector, Columns, Failure, Json, Progress, Row, Sink, Text, Verdict,
};
use crate::settings::{self, Params};
use crate::stats::{self, RankResult, Usec};
use crate::sysinfo;
use crate::table::{RowIn, SizeResults, TableIn, Wire};
use mpi::traits::*;
use mpi::Threading;
use std::process::ExitCode;

mod header;
mod measure;
mod provenance;
mod step;

use measure::{StepRun, TableOut};

/// Exit status of a run whose check mode found a defect.
pub const EXIT_DEFECT: u8 = 1;
/// Exit status of a command-line or input-file error.
pub const EXIT_USAGE: u8 = 2;
/// Exit status of a run-time failure (e.g. buffers that cannot be allocated, a failed write).
pub const EXIT_RUNTIME: u8 = 3;
/// Exit status when standard output was closed by its reader (`| head`).
pub const EXIT_CLOSED: u8 = crate::safefile::EXIT_CLOSED;

/// A run whose lower-bound estimate exceeds this is refused unless `-force` is given.
pub const LONG_RUN_SECS: f64 = plan::LONG_RUN_SECS;

fn threading(t: ThreadLevel) -> Threading {
    match t {
        ThreadLevel::Single => Threading::Single,
        ThreadLevel::Funneled => Threading::Funneled,
        ThreadLevel::Serialized => Threading::Serialized,
        ThreadLevel::Multiple => Threading::Multiple,
    }
}

/// Run an executable: the whole `main` of imb-mpi1, imb-ext, imb-io, imb-rma and imb-nbc.
pub fn main(suite: &Suite) -> ExitCode {
    crate::provenance::started();
    if let Some(code) = (suite.hooks.before_mpi)(suite.exe) {
        return ExitCode::from(code);
    }
    let (args, bad_arg) = cli::utf8_args(std::env::args_os().skip(1));
    let level = cli::prescan_thread_level(&args).unwrap_or(suite.options.thread_level);
    let Some((universe, granted)) = mpi::initialize_with_threading(threading(level)) else {
        eprintln!("{}: error: MPI was already initialised", suite.exe);
        return ExitCode::from(EXIT_RUNTIME);
    };
    let world = universe.world();
    let code = match sysinfo::launcher_size(|k| std::env::var(k).ok()) {
        // A binary built against another MPI than the launcher's runs every rank as its own
        // 1-process job: say so instead of printing a valid-looking np=1 run on every rank.
        Some(n) if n > 1 && world.size() == 1 => {
            eprintln!(
                "{}: error: the launcher started {n} processes but MPI reports 1: this binary was \
                 built against a different MPI than the one that launched it (rebuild after \
                 `cargo clean -p mpi-sys`, or use the matching mpirun)",
                suite.exe
            );
            EXIT_RUNTIME
        }
        _ => run_world(suite, &world, &args, bad_arg, granted),
    };
    // MPI_Finalize happens when the universe is dropped, on every rank, before the exit status.
    drop(universe);
    ExitCode::from(code)
}

fn run_world(
    suite: &Suite,
    world: &Comm,
    args: &[String],
    bad_arg: Option<Error>,
    granted: Threading,
) -> u8 {
    let rank = world.rank() as usize;
    let np = world.size() as usize;
    let parsed = (rank == 0).then(|| match bad_arg {
        Some(e) => Err(e),
        None => parse(suite, args, np),
    });
    let action: Result<Action> = comm::bcast(world, parsed);
    match action {
        Err(e) => {
            if rank == 0 {
                eprintln!("{}: error: {e}", suite.exe);
            }
            EXIT_USAGE
        }
        Ok(Action::Help(t)) | Ok(Action::List(t)) => {
            let mut code = 0;
            if rank == 0 {
                if let Err(why) = crate::safefile::print_all(&t) {
                    code = match why {
                        Some(line) => {
                            eprintln!("{}: error: {line}", suite.exe);
                            EXIT_RUNTIME
                        }
                        None => EXIT_CLOSED,
                    };
                }
            }
            comm::bcast_code(world, code)
        }
        Ok(Action::Run(opts)) => run_options(suite, world, *opts, granted),
    }
}

/// Rank 0's reading of argv for `suite` on `np` processes (and the tests' of their option
/// sets).
pub fn parse(suite: &Suite, args: &[String], np: usize) -> Result<Action> {
    let names = suite.names();
    let spec = cli::Spec {
        exe: suite.exe,
        names: &names,
        defaults: suite.defaults(),
        defaults_2021: suite.defaults_2021,
        settings: suite.settings,
        npmin: suite.npmin,
        aggregate: suite
            .benchmarks
            .iter()
            .any(|b| b.info().modes.contains(&Mode::Aggregate)),
        family: suite.options,
    };
    cli::parse(&spec, args, np)
}

/// The refusal of a run of `plan` that needs more than `LONG_RUN_SECS` on any machine, unless
/// `-force` (doc/ReadMe_IMB.md, "Robustness"): None if it may run. Pure, so each suite's tests
/// check their hours-long option sets without running them.
pub fn long_run(suite: &Suite, opts: &Options, plan: &Plan) -> Option<String> {
    let least = plan::least(plan, opts, around(suite, opts));
    (least.secs() > LONG_RUN_SECS && !opts.force).then(|| least.refusal())
}

/// What `suite` does around the plan's sizes that the run-time bound counts.
fn around(suite: &Suite, opts: &Options) -> plan::Around {
    plan::Around {
        warm_up: suite.hooks.warm_up,
        sleep: (suite.hooks.sleep)(opts),
    }
}

/// What `suite` answers `args` on `np` processes before anything runs: the run's least time on
/// any machine (seconds), and the refusal `run_options` prints if it is too long for `-force`'s
/// limit; None for `-help` and `-list`. The tests' way to check an hours-long option set
/// without running it.
pub fn bound_of(suite: &Suite, args: &[&str], np: usize) -> Result<Option<(f64, Option<String>)>> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let Action::Run(opts) = parse(suite, &args, np)? else {
        return Ok(None);
    };
    let infos: Vec<&'static Info> = opts.benchmarks.iter().map(|&b| suite.info(b)).collect();
    let plan = plan::build(&opts, &infos, np);
    let secs = plan::least(&plan, &opts, around(suite, &opts)).secs();
    Ok(Some((secs, long_run(suite, &opts, &plan))))
}

/// For the suites' tests: `args` on `np` processes is refused before anything runs, with the
/// one-line message, and `-force` lets it go. Panics otherwise, naming the option set.
pub fn assert_refused(suite: &Suite, args: &str, np: usize) {
    let least = |a: &str| {
        let a: Vec<&str> = a.split_whitespace().collect();
        bound_of(suite, &a, np).unwrap().unwrap()
    };
    let (secs, line) = least(args);
    let line = line.unwrap_or_else(|| panic!("{args} on {np}: {secs:.0} s, not refused"));
    assert!(
        line.starts_with("this run needs at least ")
            && line.ends_with(", or pass -force to run it anyway")
            && !line.contains('\n'),
        "{line}"
    );
    assert_eq!(least(&format!("{args} -force")).1, None, "{args} -force");
}

/// For the suites' tests: `args` on `np` processes may run. Panics otherwise, with its bound.
pub fn assert_accepted(suite: &Suite, args: &str, np: usize) {
    let a: Vec<&str> = args.split_whitespace().collect();
    let (secs, line) = bound_of(suite, &a, np).unwrap().unwrap();
    assert_eq!(line, None, "{args} on {np}: {secs:.0} s");
}

/// Run what the options ask for; the exit status, the same on every rank.
fn run_options(suite: &Suite, world: &Comm, opts: Options, granted: Threading) -> u8 {
    let rank = world.rank() as usize;
    // Every rank has the same options, so every rank reaches the same verdict.
    if let Err(e) = imb_mpi::info::validate(&opts.settings.info) {
        if rank == 0 {
            let f = opts.settings.source.as_deref().unwrap_or("settings");
            eprintln!("{}: error: -settings {f}: {e}", suite.exe);
        }
        return EXIT_USAGE;
    }
    // Every rank plans the same run from the same options, so all leave together.
    let infos: Vec<&'static Info> = opts.benchmarks.iter().map(|&b| suite.info(b)).collect();
    let plan = plan::build(&opts, &infos, world.size() as usize);
    let sinks = if rank == 0 {
        sinks(suite, &opts, &plan)
    } else {
        Vec::new()
    };
    let opts_summary = opts.summary;
    let mut r = Runner {
        suite,
        world,
        host: Host::new(world),
        rank,
        opts,
        sinks,
        verdicts: Vec::new(),
        run_state: None,
        summary: (rank == 0 && opts_summary).then(Collector::default),
    };
    if let Some(line) = long_run(suite, &r.opts, &plan) {
        if rank == 0 {
            eprintln!("{}: error: {line}", suite.exe);
        }
        return EXIT_USAGE;
    }
    let unfit = (rank == 0).then(|| (suite.hooks.before_run)(&plan, &r.opts).err());
    if let Some(line) = comm::bcast(world, unfit) {
        if rank == 0 {
            eprintln!("{}: error: {line}", suite.exe);
        }
        return EXIT_RUNTIME;
    }
    let result = r.run(granted, &plan);
    let status = ended(&result, r.sinks.first().and_then(|s| s.failure()));
    r.emit(|s| s.closing(&status));
    let mut code = match result {
        Ok(()) if r.verdicts.iter().any(|v| !v.ok) => EXIT_DEFECT,
        Ok(()) => 0,
        Err(e) => {
            if rank == 0 {
                eprintln!("{}: error: {e}", suite.exe);
            }
            EXIT_RUNTIME
        }
    };
    // An output that failed outranks a defect: the results are incomplete.
    for f in r.sinks.iter().filter_map(|s| s.failure()) {
        match f {
            Failure::Closed => code = EXIT_CLOSED,
            Failure::Error(line) => {
                eprintln!("{}: error: {line}", suite.exe);
                code = EXIT_RUNTIME;
            }
        }
    }
    comm::bcast_code(world, code)
}

/// How a run ended: an error, or the tables' output failing, or (also after a run stopped
/// because stdout was closed by its reader: the sinks that saw `finish` ignore it) complete.
fn ended(result: &Result<()>, stdout: Option<Failure>) -> Status {
    match (result, stdout) {
        (Err(e), _) => Status::Failed {
            error: e.to_string(),
        },
        (Ok(()), Some(Failure::Error(line))) => Status::Failed { error: line },
        (Ok(()), Some(Failure::Closed)) => Status::Interrupted {
            reason: "standard output was closed by its reader".to_string(),
        },
        (Ok(()), None) => Status::Complete,
    }
}

/// Rank 0's outputs: the IMB tables on stdout (always first), the `-json` file if asked for,
/// and progress on stderr if asked for (or, by default, if stderr is a terminal).
fn sinks(suite: &Suite, opts: &Options, plan: &Plan) -> Vec<Box<dyn Sink>> {
    let mut v: Vec<Box<dyn Sink>> = vec![Box::new(Text::new(std::io::stdout()))];
    if let Some(f) = &opts.json {
        v.push(Box::new(Json::new(f.clone(), suite.exe)));
    }
    if opts.progress.wanted() {
        let mut work = plan::work(plan, &opts.params, opts.time);
        if let Some(s) = (suite.hooks.sleep)(opts) {
            work = plan::with_sleep(work, s.secs);
        }
        v.push(Box::new(Progress::new(
            std::io::stderr(),
            suite.exe,
            work,
            crate::report::PROGRESS_INTERVAL,
        )));
    }
    v
}

struct Runner<'a> {
    suite: &'a Suite,
    world: &'a Comm,
    host: Host,
    rank: usize,
    opts: Options,
    /// Only rank 0 has sinks.
    sinks: Vec<Box<dyn Sink>>,
    verdicts: Vec<Verdict>,
    /// What the suite's `Hooks::run_state` built on this rank, for every kernel.
    run_state: Option<Box<dyn std::any::Any>>,
    /// `-summary` on rank 0: every table's rows, for the block after the last table.
    summary: Option<Collector>,
}

/// What the steps of one benchmark found, for the check summary.
#[derive(Default)]
struct Outcome {
    defect: bool,
}

impl Runner<'_> {
    fn emit(&mut self, f: impl Fn(&mut dyn Sink)) {
        for s in self.sinks.iter_mut() {
            f(s.as_mut());
        }
        if let Some(c) = self.summary.as_mut() {
            f(c);
        }
    }

    /// Whether the tables can still reach anyone: false on every rank once rank 0's stdout has
    /// failed (closed pipe, full disk), so the run ends after the step in progress. A failed
    /// `-json` alone does not stop the tables; it makes the exit status non-zero at the end.
    fn output_alive(&self) -> bool {
        let dead = self.sinks.first().is_some_and(|s| s.failure().is_some());
        comm::bcast_code(self.world, u8::from(dead)) == 0
    }

    fn run(&mut self, granted: Threading, plan: &Plan) -> Result<()> {
        let oversubscribed = self.host.oversubscription(self.world);
        if let Some(p) = provenance::gather(self.world, self.suite, &self.opts, granted) {
            self.emit(|s| s.provenance(&p));
        }
        if self.rank == 0 {
            let mut h = self.header(granted);
            h.notes.extend(oversubscribed);
            let names: Vec<&str> = self
                .opts
                .benchmarks
                .iter()
                .map(|&b| self.suite.info(b).name)
                .collect();
            // IMB 3.0 marks the list "(Multi-)" under -multi; IMB 2021 prints the bare names.
            let multi =
                self.opts.multi.is_some() && self.opts.method.compat == crate::method::Compat::V30;
            self.emit(|s| {
                s.header(&h);
                s.list(&names, multi);
            });
        }
        if !self.output_alive() {
            return Ok(());
        }
        let selected: Vec<&'static Info> = self
            .opts
            .benchmarks
            .iter()
            .map(|&b| self.suite.info(b))
            .collect();
        if let Some((state, block)) = (self.suite.hooks.run_state)(&selected, &self.opts) {
            self.run_state = Some(state);
            if let Some(block) = block {
                self.emit(|s| s.block(&block));
            }
        }
        for (k, bp) in plan.benchmarks.iter().enumerate() {
            let bench = self.suite.benchmarks[self.opts.benchmarks[k]];
            let info = bp.info;
            let mut outcome = Outcome::default();
            if !bp.outside.is_empty() {
                let note = Note::OutOfRange {
                    benchmark: info.name.to_string(),
                    min_bytes: info.min_x,
                    max_bytes: (info.max_x != usize::MAX).then_some(info.max_x),
                    sizes: bp.outside.clone(),
                };
                self.emit(|s| s.note(&note));
            }
            for step in &bp.steps {
                match step {
                    StepPlan::Invalid { np } => self.emit(|s| s.invalid(info.name, *np)),
                    StepPlan::NoLengths => {
                        let note = Note::NoLengths {
                            benchmark: info.name.to_string(),
                        };
                        self.emit(|s| s.note(&note));
                    }
                    StepPlan::Run { layout, sizes } => {
                        self.run_step(bench, layout, sizes, &mut outcome)?
                    }
                }
                if !self.output_alive() {
                    return Ok(());
                }
            }
            self.verdicts.push(Verdict {
                name: info.name.to_string(),
                ok: !outcome.defect,
            });
        }
        if let Some(summary) = self.summary.as_ref().map(Collector::summary) {
            self.emit(|s| s.summary(&summary));
        }
        let verdicts = self.opts.check.then(|| self.verdicts.clone());
        self.emit(|s| s.finish(verdicts.as_deref()));
        Ok(())
    }
}
