//! The path from argv to printed rows, shared by every MPI executable (ARCHITECTURE.md, "Data
//! flow"): parse on rank 0 and broadcast, plan, then for each step split the communicators,
//! prepare buffers, warm up, time n_sample repetitions, gather, reduce and report.

use crate::bench::{Class, Info, Mode, Table};
use crate::buffers::{Buffer, TOL};
use crate::cli::{self, Action, Lengths, Multi, Options, ThreadLevel};
use crate::comm;
use crate::cpu::Calibration;
use crate::error::{Error, Result};
use crate::files;
use crate::hostcheck::Host;
use crate::kernel::Suite;
use crate::kernel::{Benchmark, Comm, Ctx, Prep, Sample};
use crate::lengths::{self, Len};
use crate::plan::{self, Layout, Step};
use crate::report::{self, Banner, Columns, Failure, Header, Json, Row, Sink, Text, Verdict};
use crate::settings::{self, Kind, Params};
use crate::stats::{self, RankResult, Usec};
use crate::sysinfo;
use mpi::traits::*;
use mpi::Threading;
use std::process::ExitCode;

/// Exit status of a run whose check mode found a defect.
pub const EXIT_DEFECT: u8 = 1;
/// Exit status of a command-line or input-file error.
pub const EXIT_USAGE: u8 = 2;
/// Exit status of a run-time failure (e.g. buffers that cannot be allocated, a failed write).
pub const EXIT_RUNTIME: u8 = 3;
/// Exit status when standard output was closed by its reader (`| head`).
pub const EXIT_CLOSED: u8 = crate::safefile::EXIT_CLOSED;

/// A run whose lower-bound estimate exceeds this is refused unless `-force` is given.
pub const LONG_RUN_SECS: f64 = 3600.0;

/// "2 h 05 min", "7 min", for an estimate.
fn duration_text(secs: f64) -> String {
    let min = (secs / 60.0).ceil() as u64;
    if min >= 60 {
        format!("{} h {:02} min", min / 60, min % 60)
    } else {
        format!("{min} min")
    }
}

fn threading(t: ThreadLevel) -> Threading {
    match t {
        ThreadLevel::Single => Threading::Single,
        ThreadLevel::Funneled => Threading::Funneled,
        ThreadLevel::Serialized => Threading::Serialized,
        ThreadLevel::Multiple => Threading::Multiple,
    }
}

/// Run an executable: the whole `main` of imb-mpi1, imb-ext and imb-io.
pub fn main(suite: &Suite) -> ExitCode {
    if let Some(code) = files::guardian_main() {
        return ExitCode::from(code);
    }
    if suite.settings == Kind::Io {
        // Before MPI starts: the guardian must not inherit MPI's state, and it removes this
        // rank's files however the rank ends (SIGKILL and MPI_Abort included).
        files::ignore_sigxfsz();
        if let Err(e) = files::start_guardian() {
            eprintln!("{}: error: {e}", suite.exe);
            return ExitCode::from(EXIT_RUNTIME);
        }
    }
    let (args, bad_arg) = cli::utf8_args(std::env::args_os().skip(1));
    let level = cli::prescan_thread_level(&args);
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
    let names = suite.names();
    let spec = cli::Spec {
        exe: suite.exe,
        names: &names,
        defaults: suite.defaults(),
        kind: suite.settings,
        npmin: suite.npmin,
        aggregate: suite
            .benchmarks
            .iter()
            .any(|b| b.info().modes.contains(&Mode::Aggregate)),
    };
    let parsed = (rank == 0).then(|| match bad_arg {
        Some(e) => Err(e),
        None => cli::parse(&spec, args, np),
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
        Ok(Action::Run(opts)) => {
            // Every rank has the same options, so every rank reaches the same verdict.
            if let Err(e) = crate::hints::validate(&opts.settings.info) {
                if rank == 0 {
                    let f = opts.settings.source.as_deref().unwrap_or("settings");
                    eprintln!("{}: error: -settings {f}: {e}", suite.exe);
                }
                return EXIT_USAGE;
            }
            let sinks = if rank == 0 {
                sinks(suite, &opts)
            } else {
                Vec::new()
            };
            let mut r = Runner {
                suite,
                world,
                host: Host::new(world),
                rank,
                np,
                opts: *opts,
                sinks,
                verdicts: Vec::new(),
                cpu: None,
            };
            // Every rank computes the same bound from the same options, so all leave together.
            let least = r.least_secs();
            if least > LONG_RUN_SECS && !r.opts.force {
                if rank == 0 {
                    eprintln!(
                        "{}: error: this run needs at least {} on any machine (its repetition \
                         counts at 0.1 usec plus 20 usec per MiB each); lower MSGSPERSAMPLE or \
                         OVERALL_VOL (-iter), MAXMSGLOG (-msglog), or cap each size with -time, \
                         or pass -force to run it anyway",
                        suite.exe,
                        duration_text(least)
                    );
                }
                return EXIT_USAGE;
            }
            let result = r.run(granted);
            let mut code = match &result {
                Ok(()) => {
                    let failed = r.verdicts.iter().any(|v| !v.ok);
                    if failed {
                        EXIT_DEFECT
                    } else {
                        0
                    }
                }
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
    }
}

/// Rank 0's outputs: the IMB tables on stdout (always first), and the `-json` file if asked for.
fn sinks(suite: &Suite, opts: &Options) -> Vec<Box<dyn Sink>> {
    let mut v: Vec<Box<dyn Sink>> = vec![Box::new(Text::new(std::io::stdout()))];
    if let Some(f) = &opts.json {
        v.push(Box::new(Json::new(f.clone(), suite.exe)));
    }
    v
}

struct Runner<'a> {
    suite: &'a Suite,
    world: &'a Comm,
    host: Host,
    rank: usize,
    np: usize,
    opts: Options,
    /// Only rank 0 has sinks.
    sinks: Vec<Box<dyn Sink>>,
    verdicts: Vec<Verdict>,
    /// CPU_Exploit's calibration on this rank (when a non-blocking benchmark is selected).
    cpu: Option<Calibration>,
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
    }

    /// Whether the tables can still reach anyone: false on every rank once rank 0's stdout has
    /// failed (closed pipe, full disk), so the run ends after the step in progress. A failed
    /// `-json` alone does not stop the tables; it makes the exit status non-zero at the end.
    fn output_alive(&self) -> bool {
        let dead = self.sinks.first().is_some_and(|s| s.failure().is_some());
        comm::bcast_code(self.world, u8::from(dead)) == 0
    }

    fn run(&mut self, granted: Threading) -> Result<()> {
        let oversubscribed = self.host.oversubscription(self.world);
        if self.rank == 0 {
            let mut h = self.header(granted);
            h.warnings.extend(oversubscribed);
            let names: Vec<&str> = self
                .opts
                .benchmarks
                .iter()
                .map(|&b| self.suite.info(b).name)
                .collect();
            let multi = self.opts.multi.is_some();
            self.emit(|s| {
                s.header(&h);
                s.list(&names, multi);
            });
        }
        let nonblocking = self
            .opts
            .benchmarks
            .iter()
            .any(|&b| self.suite.info(b).table == Table::NonBlocking);
        if !self.output_alive() {
            return Ok(());
        }
        if nonblocking {
            // Every rank calibrates its own CPU (IMB 3.0 sizes the CPU work from rank 0 alone).
            let c = Calibration::measure();
            self.cpu = Some(c);
            self.emit(|s| s.cpu_exploit(c.mflops));
        }
        for k in 0..self.opts.benchmarks.len() {
            let bench = self.suite.benchmarks[self.opts.benchmarks[k]];
            let info = bench.info();
            let mut outcome = Outcome::default();
            if (info.min_x, info.max_x) != (0, usize::MAX) && self.rank == 0 {
                let outside = self.outside(bench);
                if !outside.is_empty() {
                    let note = report::range_note(info.name, info.min_x, info.max_x, &outside);
                    self.emit(|s| s.note(&note));
                }
            }
            for step in self.steps(info) {
                match step {
                    Step::Invalid { np } => self.emit(|s| s.invalid(info.name, np)),
                    Step::Run(layout) => self.run_step(bench, &layout, &mut outcome)?,
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
        let verdicts = self.opts.check.then(|| self.verdicts.clone());
        self.emit(|s| s.finish(verdicts.as_deref()));
        Ok(())
    }

    fn header(&self, granted: Threading) -> Header {
        let (machine, system, release, uversion) = sysinfo::uname();
        let p = &self.opts.params;
        let min_max = match &self.opts.lengths {
            Lengths::Ladder => Some((
                if self.opts.zero_size {
                    0
                } else {
                    1 << p.minmsglog
                },
                1usize << p.maxmsglog,
            )),
            // IMB-IO prints its io portion lines whatever -msglen says (doc/OUTPUT.md, "Header").
            Lengths::File { .. } if self.suite.settings == Kind::Io => {
                Some((0, 1usize << p.maxmsglog))
            }
            Lengths::File { .. } => None,
        };
        Header {
            version: env!("CARGO_PKG_VERSION").to_string(),
            part: self.suite.part.to_string(),
            date: sysinfo::date(),
            machine,
            system,
            release,
            uversion,
            mpi_version: sysinfo::mpi_version(),
            thread_env: sysinfo::thread_name(granted).to_string(),
            io: self.suite.settings == settings::Kind::Io,
            min_max,
            optional: self.optional_lines(),
            info: self.opts.settings.info.clone(),
            warnings: Vec::new(),
        }
    }

    /// The header lines that say a run is not in standard mode, and why.
    fn optional_lines(&self) -> Vec<String> {
        let std = settings::standard(self.suite.settings);
        let p = &self.opts.params;
        let mut diffs: Vec<String> = settings::differences(p, &std)
            .into_iter()
            .map(|(key, v, s)| format!("  {key} = {v} (standard {s})"))
            .collect();
        if let Some(t) = self.opts.time {
            diffs.push(format!(
                "  repetitions capped by -time {t} s per message size"
            ));
        }
        if let Some(a) = self.opts.adaptive {
            diffs.push(format!(
                "  -adaptive: each size's n_sample loop is split into {} timings, and timings are \
                 added (at most {}) until the 95 % confidence interval of their median is within \
                 +-{} %; rows show each rank's median",
                a.min_reps, a.max_reps, a.cutoff_pct
            ));
        }
        if diffs.is_empty() {
            return diffs;
        }
        let by_cli = self.opts.params != self.opts.settings.params
            || self.opts.time.is_some()
            || self.opts.adaptive.is_some();
        let from = match (&self.opts.settings.source, self.opts.settings.optional) {
            (Some(f), true) if by_cli => {
                format!("the [optional] block of {f} and the command line")
            }
            (Some(f), true) => format!("the [optional] block of {f}"),
            _ => "the command line".to_string(),
        };
        let mut v = vec![
            "Results from OPTIONAL mode, not standard mode:".to_string(),
            format!("parameters set by {from}:"),
        ];
        v.extend(diffs);
        v
    }

    /// The plan steps (process counts and layouts) of one benchmark.
    fn steps(&self, info: &Info) -> Vec<Step> {
        plan::steps(
            self.np,
            self.opts.npmin,
            info.procs,
            self.opts.map,
            self.opts.multi.is_some(),
        )
    }

    /// A lower bound of the run's time on any machine: every repetition costs at least 0.1 µs
    /// plus its bytes at 50 GB/s, every barrier 0.1 µs; warm-up, idle ranks, set-up and MPI's
    /// own costs are left out. Only a bound this far below reality can refuse a run safely.
    fn least_secs(&self) -> f64 {
        let p = &self.opts.params;
        let per = |x: usize| 1e-7 + x as f64 / 5e10;
        // -adaptive splits the n_sample loop, so its least cost is the standard run's.
        let rounds = 1.0;
        let mut total = 0.0;
        for &b in &self.opts.benchmarks {
            let bench = self.suite.benchmarks[b];
            let info = bench.info();
            let steps = self
                .steps(info)
                .iter()
                .filter(|s| matches!(s, Step::Run(_)))
                .count() as f64;
            let mut one = 0.0;
            for &mode in info
                .modes
                .iter()
                .filter(|&&m| self.opts.aggregate_mode.runs(m))
            {
                let cap = if mode == Mode::NonAggregate {
                    p.msgs_nonaggr
                } else {
                    p.msgspersample
                };
                for len in self.lengths(bench) {
                    let mut n = lengths::n_sample((info.sample_bytes)(len.x), cap, p.overall_vol);
                    if let Some(t) = self.opts.time {
                        n = n.min(((t / per(len.x)) as usize).max(1));
                    }
                    one += rounds * (n as f64 * per(len.x) + p.n_barr as f64 * 1e-7);
                }
            }
            total += steps * one;
        }
        total
    }

    /// The sizes the ladder or `-msglen` asks of a benchmark, before its own range applies.
    fn requested(&self, info: &Info) -> Vec<Len> {
        let p = &self.opts.params;
        let values = match &self.opts.lengths {
            Lengths::Ladder => lengths::default_ladder(p, info.unit, info.second_min),
            Lengths::File { values, .. } => values.clone(),
        };
        lengths::resolve(&values, p, info.unit, info.second_min)
    }

    /// The sizes the run asked for that are outside the benchmark's `min_x..=max_x` (a 0 that
    /// `-zero_size off` removes anyway is not mentioned).
    fn outside(&self, bench: &dyn Benchmark) -> Vec<usize> {
        let info = bench.info();
        self.requested(info)
            .into_iter()
            .map(|l| l.x)
            .filter(|&x| !(info.min_x..=info.max_x).contains(&x))
            .filter(|&x| x != 0 || self.opts.zero_size)
            .collect()
    }

    /// The lengths of one benchmark's tables.
    fn lengths(&self, bench: &dyn Benchmark) -> Vec<Len> {
        let info = bench.info();
        let mut lens = self.requested(info);
        lens.retain(|l| (info.min_x..=info.max_x).contains(&l.x));
        if info.class == Class::Sync {
            // One row, whose repetition count comes from the first length (3.0: with the
            // ladder that is 0; with -msglen, the file's first entry). -zero_size is about
            // message sizes, which Sync benchmarks do not have.
            lens.truncate(1);
        } else if !self.opts.zero_size {
            lens.retain(|l| l.x != 0);
        }
        lens
    }

    fn run_step(
        &mut self,
        bench: &dyn Benchmark,
        layout: &Layout,
        outcome: &mut Outcome,
    ) -> Result<()> {
        let info = bench.info();
        let lens = self.lengths(bench);
        if lens.is_empty() {
            let note = report::no_lengths_note(info.name);
            self.emit(|s| s.note(&note));
            return Ok(());
        }
        let role = layout.role(self.rank);
        let comm = comm::split(self.world, role);
        let step = StepPlan::new(&self.opts, info, layout, lens);
        let mut bufs = self.buffers(info, layout, role, step.buf_x)?;
        let prep = self.prepare(bench, layout, role, comm.as_ref(), &step)?;
        let table = match (info.table, self.opts.multi) {
            (Table::Single, Some(Multi::Merged)) => Table::Parallel,
            (t, _) => t,
        };
        let cols = Columns {
            table,
            group: self.opts.multi == Some(Multi::PerGroup),
            defects: self.opts.check && info.checked,
        };
        let agg = self.opts.aggregate_mode;
        for &mode in info.modes.iter().filter(|&&m| agg.runs(m)) {
            self.emit(|s| {
                s.banner(&Banner {
                    name: info.name,
                    layout,
                    mode,
                    cols,
                })
            });
            let mut table_out = TableOut::default();
            for (k, len) in step.lens.iter().enumerate() {
                if !step.measured[k] {
                    table_out.skipped.push(len.x);
                    continue;
                }
                let mut n = lengths::n_sample(
                    (info.sample_bytes)(len.x),
                    step.cap(mode),
                    self.opts.params.overall_vol,
                );
                let mut active = match (&comm, bufs.as_mut(), role) {
                    (Some(c), Some((s, r)), Some((_, pos))) => Some(Active {
                        bench,
                        comm: c,
                        pos,
                        np: layout.np,
                        send: s,
                        recv: r,
                        params: &self.opts.params,
                        info_hints: &self.opts.settings.info,
                        prep: prep.as_deref(),
                        cpu: self.cpu.as_ref(),
                    }),
                    _ => None,
                };
                // IMB-IO has no warm-up (doc/METHODOLOGY.md, "Warm-up").
                let warm = self.suite.settings != Kind::Io && self.opts.params.n_warmup > 0;
                if k == step.first && warm {
                    if let Some(a) = active.as_mut() {
                        a.time(
                            step.warm_x,
                            step.warm_mode,
                            self.opts.params.n_warmup,
                            false,
                        );
                    }
                }
                if let Some(limit) = self.opts.time {
                    // The better of two single repetitions, so one cold outlier does not
                    // decide the count; the slowest rank decides for all.
                    let probe = active.as_mut().map_or(0.0, |a| {
                        let t1 = a.time(step.x(len), mode, 1, false).secs;
                        let t2 = a.time(step.x(len), mode, 1, false).secs;
                        t1.min(t2)
                    });
                    let worst = comm::max_all(self.world, probe);
                    n = n.min(((limit / worst.max(1e-9)) as usize).max(1));
                }
                let x = step.x(len);
                let check = self.opts.check;
                let mine = match self.opts.adaptive {
                    None => active.as_mut().map_or(RankResult::default(), |a| {
                        rank_result(&[a.time(x, mode, n, check)], info.scale_time)
                    }),
                    Some(ad) => {
                        let (r, note, reps) = adaptive_size(
                            self.world,
                            &mut active,
                            ad,
                            (x, mode, n, check),
                            info.scale_time,
                        );
                        table_out.adaptive.push(if info.class == Class::Sync {
                            format!("adaptive: {note}")
                        } else {
                            format!("adaptive: {} bytes: {note}", len.x)
                        });
                        n = reps;
                        r
                    }
                };
                // Idle ranks wait here too (IMB's MPI_Barrier on MPI_COMM_WORLD).
                self.world.barrier();
                if let Some(all) = comm::gather(self.world, mine) {
                    self.report_size(info, layout, cols, len, n, &all, &mut table_out);
                }
            }
            let notes = table_out.notes(info, self.opts.mem, layout.np);
            outcome.defect |= table_out.unsuccessful;
            let bad = table_out.unsuccessful;
            self.emit(|s| s.table_end(&notes, bad));
        }
        // Every rank lets go of the step's files before any rank prepares the next step's,
        // which may carry the same names.
        drop(prep);
        self.world.barrier();
        Ok(())
    }

    /// `Benchmark::prepare` on the active ranks; an error on any rank ends the run on all.
    fn prepare(
        &self,
        bench: &dyn Benchmark,
        layout: &Layout,
        role: Option<(usize, usize)>,
        comm: Option<&Comm>,
        step: &StepPlan,
    ) -> Result<Option<Box<dyn std::any::Any>>> {
        let info = bench.info();
        let p = &self.opts.params;
        let agg = self.opts.aggregate_mode;
        let volume = step
            .lens
            .iter()
            .zip(&step.measured)
            .filter(|(_, &m)| m)
            .flat_map(|(l, _)| {
                info.modes
                    .iter()
                    .filter(move |&&m| agg.runs(m))
                    .map(move |&m| {
                        lengths::n_sample((info.sample_bytes)(l.x), step.cap(m), p.overall_vol)
                            * l.x
                    })
            })
            .max()
            .unwrap_or(0);
        let base =
            std::path::Path::new(&self.opts.dir).join(p.filename.as_deref().unwrap_or("IMB_out"));
        let mut out = None;
        let mut why = None;
        if let (Some(c), Some((g, pos))) = (comm, role) {
            let prep = Prep {
                comm: c,
                rank: pos,
                size: layout.np,
                world_rank: self.rank,
                group: layout.multi.then(|| layout.index_group[g]),
                groups: layout.groups.len(),
                volume,
                params: p,
                info: &self.opts.settings.info,
                base: &base,
                overwrite: self.opts.overwrite,
            };
            match bench.prepare(&prep) {
                Ok(v) => out = v,
                Err(e) => why = Some(e),
            }
        }
        match comm::first_error(self.world, why) {
            None => Ok(out),
            Some(e) => Err(Error::Run(format!("{}: {e}", info.name))),
        }
    }

    /// Send buffer filled with BUF_VALUE, receive buffer zeroed; every rank learns whether every
    /// active rank got its buffers, so a failure ends the run everywhere at once.
    fn buffers(
        &self,
        info: &Info,
        layout: &Layout,
        role: Option<(usize, usize)>,
        buf_x: usize,
    ) -> Result<Option<(Buffer, Buffer)>> {
        let (slen, rlen) = info
            .bufs
            .lens(buf_x, layout.np, self.opts.params.overall_vol);
        let mut bufs = None;
        let mut why = None;
        if let Some(short) = role.and_then(|_| self.host.memory_short((slen + rlen) as u64)) {
            // Mapping would succeed and filling would end in the OOM killer: refuse first.
            why = Some(short);
        } else if let Some((_, pos)) = role {
            match (Buffer::new(slen), Buffer::new(rlen)) {
                (Ok(mut s), Ok(r)) => {
                    if self.suite.settings == Kind::Io {
                        s.fill_io(pos);
                    } else {
                        s.fill(pos);
                    }
                    bufs = Some((s, r));
                }
                (Err(e), _) | (_, Err(e)) => why = Some(e.to_string()),
            }
        }
        if comm::agree(self.world, why.is_none()) {
            return Ok(bufs);
        }
        Err(Error::Run(format!(
            "{}: cannot allocate {slen} + {rlen} bytes of buffers per process on {} processes{}",
            info.name,
            layout.np,
            why.map(|e| format!(" ({e})")).unwrap_or_default()
        )))
    }

    /// Rank 0: turn the gathered results of one size into rows and check-mode notes.
    #[allow(clippy::too_many_arguments)]
    fn report_size(
        &mut self,
        info: &Info,
        layout: &Layout,
        cols: Columns,
        len: &Len,
        n: usize,
        all: &[RankResult],
        out: &mut TableOut,
    ) {
        let sync = info.class == Class::Sync;
        let members = |g: Option<usize>| -> Vec<usize> {
            match g {
                Some(g) => layout.groups[g].clone(),
                None => layout.groups.iter().flatten().copied().collect(),
            }
        };
        let rows: Vec<Row> = stats::rows(all, &layout.groups, self.opts.multi)
            .into_iter()
            .map(|(g, st)| {
                let mbps = stats::mbytes_per_sec(info.scale_bw, len.x, st.t_max);
                let mut values = match cols.table {
                    Table::Single => vec![st.t_max.0, mbps],
                    Table::Parallel => vec![st.t_min.0, st.t_max.0, st.t_avg.0, mbps],
                    Table::NonBlocking => vec![
                        st.t_max.0,
                        st.pure_max.0,
                        st.cpu_max.0,
                        stats::overlap_pct(st.t_max, st.pure_max, st.cpu_max),
                    ],
                    Table::WhiteBox => crate::whitebox::row_values(all, &members(g)),
                    _ => vec![st.t_min.0, st.t_max.0, st.t_avg.0],
                };
                if cols.defects {
                    values.push(st.defect);
                }
                Row {
                    group: g,
                    bytes: (!sync).then_some(len.x),
                    reps: n,
                    values,
                }
            })
            .collect();
        if let Some(who) = info.latency {
            out.latency.extend(report::latency_notes(
                who,
                len.x,
                all,
                layout,
                self.opts.multi,
            ));
        }
        if cols.table == Table::WhiteBox {
            let members: Vec<usize> = layout.groups.iter().flatten().copied().collect();
            out.sections
                .push(crate::whitebox::sections_row(len.x, all, &members));
        }
        for (w, r) in all.iter().enumerate() {
            if r.defect > TOL && layout.role(w).is_some() {
                out.unsuccessful = true;
                out.defects
                    .push(report::defect_note(len.x, w, r.pos.unwrap_or(0)));
            }
        }
        let attention = len.truncated_from.map(|from| {
            format!(
                "Attention, msg size {from} truncated to {}",
                lengths::maxmsg(&self.opts.params, info.unit)
            )
        });
        self.emit(|s| {
            if let Some(a) = &attention {
                s.attention(a);
            }
            if cols.group {
                s.size_block();
            }
            for r in &rows {
                s.row(r);
            }
        });
    }
}

/// The sizes of one plan step and how they are run.
struct StepPlan {
    lens: Vec<Len>,
    /// Whether each size is measured (false: skipped by `-mem`).
    measured: Vec<bool>,
    /// The first measured size: warm-up happens before it.
    first: usize,
    /// Warm-up size: 2^MAXMSGLOG (guide 5.2.6), or the largest size that fits `-mem`.
    warm_x: usize,
    warm_mode: Mode,
    /// Buffers are sized for this message length.
    buf_x: usize,
    sync: bool,
    msgspersample: usize,
    msgs_nonaggr: usize,
    nonaggr_cap: bool,
}

impl StepPlan {
    fn new(opts: &Options, info: &Info, layout: &Layout, lens: Vec<Len>) -> Self {
        let sync = info.class == Class::Sync;
        let need = |x: usize| {
            let (s, r) = info.bufs.lens(x, layout.np, opts.params.overall_vol);
            (s + r) as f64
        };
        let fits = |x: usize| {
            sync || ((info.min_x..=info.max_x).contains(&x)
                && opts.mem.is_none_or(|m| need(x) <= m))
        };
        let measured: Vec<bool> = lens.iter().map(|l| fits(l.x)).collect();
        let top = lengths::maxmsg(&opts.params, info.unit);
        let warm_x = if sync {
            0
        } else if fits(top) {
            top
        } else {
            lens.iter()
                .map(|l| l.x)
                .filter(|&x| fits(x))
                .max()
                .unwrap_or(0)
        };
        let buf_x = lens
            .iter()
            .filter(|l| !sync && fits(l.x))
            .map(|l| l.x)
            .chain([warm_x])
            .max()
            .unwrap_or(0);
        StepPlan {
            first: measured.iter().position(|&m| m).unwrap_or(0),
            measured,
            lens,
            warm_x,
            // Warm-up always uses the aggregate variant where one exists (doc/METHODOLOGY.md,
            // "Warm-up").
            warm_mode: if info.modes.contains(&Mode::Aggregate) {
                Mode::Aggregate
            } else {
                info.modes[0]
            },
            buf_x,
            sync,
            msgspersample: opts.params.msgspersample,
            msgs_nonaggr: opts.params.msgs_nonaggr,
            nonaggr_cap: info.nonaggr_cap,
        }
    }
    /// The repetition cap x of a mode (doc/METHODOLOGY.md, "Repetitions").
    fn cap(&self, mode: Mode) -> usize {
        if self.nonaggr_cap || mode == Mode::NonAggregate {
            self.msgs_nonaggr
        } else {
            self.msgspersample
        }
    }
    /// The size handed to the kernel (Sync benchmarks move no data).
    fn x(&self, len: &Len) -> usize {
        if self.sync {
            0
        } else {
            len.x
        }
    }
}

/// An active rank's view of one step: builds a kernel for a size and times it.
struct Active<'a> {
    bench: &'a dyn Benchmark,
    comm: &'a Comm,
    pos: usize,
    np: usize,
    send: &'a Buffer,
    recv: &'a mut Buffer,
    params: &'a Params,
    info_hints: &'a [(String, String)],
    prep: Option<&'a dyn std::any::Any>,
    cpu: Option<&'a Calibration>,
}

impl Active<'_> {
    fn time(&mut self, x: usize, mode: Mode, n: usize, check: bool) -> Sample {
        let info = self.bench.info();
        self.recv
            .zero(info.bufs.lens(x, self.np, self.params.overall_vol).1);
        let mut k = self.bench.kernel(Ctx {
            comm: self.comm,
            rank: self.pos,
            size: self.np,
            x,
            mode,
            send: self.send.bytes(),
            recv: self.recv.bytes_mut(),
            params: self.params,
            info: self.info_hints,
            prep: self.prep,
            cpu: self.cpu,
        });
        k.run(self.comm, self.params.n_barr, n, check)
    }
}

/// One rank's result from its samples of one size: the single sample outside `-adaptive`, the
/// median one under it (`imb_core::settle` says why the median), with the worst check of all.
/// The median is one whole sample, not a median of each field, so t_ovrl, t_pure and t_CPU of
/// a non-blocking IO row (and white-box sections) still come from one measurement and add up.
fn rank_result(samples: &[Sample], scale_time: f64) -> RankResult {
    let Some(mid) = crate::settle::median_index(samples.len(), |a, b| {
        samples[a].secs.total_cmp(&samples[b].secs)
    }) else {
        return RankResult::default();
    };
    let s = &samples[mid];
    let defect = samples
        .iter()
        .fold(crate::buffers::Defect::NONE, |d, s| d.max(s.defect));
    let mut parts = [0.0; crate::kernel::PARTS];
    for (p, v) in parts.iter_mut().zip(s.parts) {
        *p = v * 1e6;
    }
    RankResult {
        t: Usec::from_secs(s.secs * scale_time),
        defect: defect.value,
        pos: defect.pos,
        pure: Usec::from_secs(s.pure),
        cpu: Usec::from_secs(s.cpu),
        excluded: samples.iter().any(|s| s.excluded),
        parts,
    }
}

/// `-adaptive`: the n_sample loop split into `min_reps` timings of `ceil(n / min_reps)`
/// repetitions, more added under `imb_core::settle`'s rule. Every world rank takes part in
/// every timing (idle ranks with 0), and the rule is applied to the slowest rank's time, which
/// all ranks share, so all ranks stop together. Returns this rank's median result, the note
/// for the size (median of the slowest rank's timings, interval, count) and the repetitions
/// timed in all.
fn adaptive_size(
    world: &Comm,
    active: &mut Option<Active>,
    ad: cli::Adaptive,
    (x, mode, n, check): (usize, Mode, usize, bool),
    scale_time: f64,
) -> (RankResult, String, usize) {
    let rule = crate::settle::Rule {
        cutoff_pct: ad.cutoff_pct,
        min_timings: ad.min_reps,
        max_timings: ad.max_reps,
    };
    let per = n.div_ceil(ad.min_reps.max(1)).max(1);
    let mut own = Vec::with_capacity(ad.max_reps);
    let mut scratch = Vec::with_capacity(ad.max_reps);
    let mut timing = || {
        let secs = match active.as_mut() {
            Some(a) => {
                let s = a.time(x, mode, per, check);
                own.push(s);
                s.secs
            }
            None => 0.0,
        };
        comm::max_all(world, secs)
    };
    let e = crate::settle::run(&rule, &mut timing, &mut scratch);
    let us = |s: f64| s * scale_time * 1e6;
    let mut note = format!(
        "median {:.2} usec, {:.0} % interval {:.2}..{:.2}, {} timings of {per} (slowest rank)",
        us(e.median),
        100.0 * e.coverage,
        us(e.lo),
        us(e.hi),
        e.timings
    );
    if !e.settled {
        note.push_str(&format!(
            ": UNSETTLED (half-width {:.1} % of the median, cut-off {} %)",
            50.0 * (e.hi - e.lo) / e.median,
            ad.cutoff_pct
        ));
    }
    let r = if own.is_empty() {
        RankResult::default()
    } else {
        rank_result(&own, scale_time)
    };
    (r, note, e.timings * per)
}

/// What one table collected besides its rows.
#[derive(Default)]
struct TableOut {
    skipped: Vec<usize>,
    defects: Vec<String>,
    unsuccessful: bool,
    /// `-adaptive`: one line per size (its median, interval and timings).
    adaptive: Vec<String>,
    /// Sphinx latencies: the slowest rank of each size, and UNRELIABLE corrections.
    latency: Vec<String>,
    /// White-box: the section timers' min/max/avg of each size.
    sections: Vec<crate::whitebox::SectionsRow>,
}

impl TableOut {
    fn notes(&self, info: &Info, mem: Option<f64>, np: usize) -> Vec<String> {
        let mut notes = self.defects.clone();
        notes.extend(self.latency.iter().cloned());
        notes.extend(crate::whitebox::sections_notes(
            info.sections,
            &self.sections,
        ));
        notes.extend(self.adaptive.iter().cloned());
        if !self.skipped.is_empty() {
            notes.push(report::mem_note(&self.skipped, mem.unwrap_or(0.0), np));
        }
        notes
    }
}
