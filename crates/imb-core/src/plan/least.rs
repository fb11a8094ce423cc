//! The run-time bound (`-force`; doc/ReadMe_IMB.md, "Robustness"): the least time a run can
//! take on any machine, read off the plan before anything runs, and the one-line refusal that
//! names it. Each benchmark counts what one repetition does (`bench::Effort`); every item is
//! priced at what it costs at the least on the fastest machine there is, and the repetitions,
//! warm-up, barriers, buffer clearing, `-time` probes and `-adaptive` timings are added the way
//! the driver runs them. Set-up (windows, files, calibrations), idle ranks and MPI's own costs
//! are left out: only a bound this far below reality can refuse a run safely. imb-threads and
//! imb-omp refuse with the same limit and wording (`refusal`).

use super::{Layout, Plan, Sizes, StepPlan};
use crate::bench::{Effort, Info, Mode, Shape};
use crate::cli::Options;
use crate::method::{IterPolicy, WarmUp, DYNAMIC_SECS};
use crate::settings::Params;

/// A run whose least time exceeds this is refused unless `-force` is given.
pub const LONG_RUN_SECS: f64 = 3600.0;

/// A step that waits for another process or the system (a blocking call, a round trip, a
/// barrier, a fence): 0.1 µs, below any MPI's latency.
pub const CALL_SECS: f64 = 1e-7;

/// A message in flight together with others (a window's, an aggregate epoch's): 20 ns, 50
/// million messages per second from one process, several times any single process's message
/// rate (Open MPI's shared memory here: 6.5 million with windows of 1024).
pub const MSG_SECS: f64 = 2e-8;

/// What one process moves or touches per second at the most: 50 GB/s (20 µs per MiB), a
/// whole memory bus or a 400 Gb/s link for one process.
pub const BYTES_PER_SEC: f64 = 5e10;

/// A call on one process, which waits for nobody and returns at once: 2 ns, below Open MPI
/// 4.1's MPI_Barrier on one process (5 ns a call: 2^31 of them took 11 s on the 2-core test
/// machine, where the 20 ns of a message had priced them at 43 s).
pub const LOCAL_CALL_SECS: f64 = 2e-9;

/// The least seconds of one repetition that does `e`.
pub fn effort_secs(e: &Effort) -> f64 {
    e.calls * CALL_SECS + e.msgs * MSG_SECS + e.bytes / BYTES_PER_SEC
}

/// What one measured size of a step does per repetition, and the least seconds of that. On one
/// process nothing waits for another, so its calls cost `LOCAL_CALL_SECS`.
pub(super) fn size_effort(
    info: &Info,
    x: usize,
    np: usize,
    mode: Mode,
    params: &Params,
) -> (Effort, f64) {
    let e = (info.effort)(&Shape {
        x,
        np,
        mode,
        params,
    });
    let secs = if np <= 1 {
        e.calls * LOCAL_CALL_SECS + e.msgs * MSG_SECS + e.bytes / BYTES_PER_SEC
    } else {
        effort_secs(&e)
    };
    (e, secs)
}

/// The least cost of a barrier on `np` processes.
fn barrier_secs(np: usize) -> f64 {
    if np > 1 {
        CALL_SECS
    } else {
        LOCAL_CALL_SECS
    }
}

/// Where a run's least time goes, for the refusal's remedy.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Parts {
    /// The timed repetitions (what `-iter`, `-msglog` and `-time` lower), and the untimed
    /// loop IMB 2021's `-iter_policy off` and `multiple_np` run before them.
    pub reps: f64,
    /// Warm-up: N_WARMUP repetitions of the largest size before each table's first size, or
    /// IMB 2021's n_sample/10 before every size.
    pub warm_up: f64,
    /// What every timed loop costs besides its repetitions: N_BARR barriers, clearing the
    /// receive buffer (imb-ext's windows: OVERALL_VOL bytes), the row's gather; `-adaptive`
    /// repeats it for each of its timings.
    pub per_loop: f64,
    /// Sleeps the run asks for, whatever the machine's speed: a family's pause around each
    /// loop (`Sleep`), and `-msg_pause`'s, as long as each size's timed loops.
    pub waits: f64,
}

impl Parts {
    pub fn total(&self) -> f64 {
        self.reps + self.warm_up + self.per_loop + self.waits
    }
    fn add(&mut self, o: &Parts) {
        self.reps += o.reps;
        self.warm_up += o.warm_up;
        self.per_loop += o.per_loop;
        self.waits += o.waits;
    }
}

/// A family's sleep around every loop that runs a size (timed, probe or warm-up), untimed and
/// whatever the machine (imb-p2p's `-pause`, before and after), and the option that sets it,
/// for the refusal's remedy (`kernel::Hooks::sleep`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sleep {
    pub secs: f64,
    pub option: &'static str,
}

/// What a suite does around the plan's sizes that the bound must count.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Around {
    /// The suite warms up before each table's first size (`kernel::Hooks::warm_up`).
    pub warm_up: bool,
    pub sleep: Option<Sleep>,
}

/// The least time of a run: in total, and per benchmark of the plan (in run order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Least {
    pub total: Parts,
    pub benchmarks: Vec<(&'static str, Option<&'static str>, Parts)>,
    /// The options that set `Parts::waits` (a family's sleep, `-msg_pause on`).
    pub waits_by: Vec<&'static str>,
}

impl Least {
    pub fn secs(&self) -> f64 {
        self.total.total()
    }

    /// The refusal of a run above `LONG_RUN_SECS`, without the executable's name: how long,
    /// which benchmark takes longest, and what lowers the part of the time that dominates.
    pub fn refusal(&self) -> String {
        let (name, lever, top) = self
            .benchmarks
            .iter()
            .max_by(|a, b| a.2.total().total_cmp(&b.2.total()))
            .copied()
            .unwrap_or(("the run", None, self.total));
        let t = &self.total;
        let lever = lever.map(|l| format!("{l}, ")).unwrap_or_default();
        let remedy = if t.waits >= t.reps && t.waits >= t.warm_up && t.waits >= t.per_loop {
            format!(
                "{}, or the number of sizes (-msglog, -msglen)",
                self.waits_by.join(", ")
            )
        } else if t.reps >= t.warm_up && t.reps >= t.per_loop {
            format!(
                "{lever}MSGSPERSAMPLE or OVERALL_VOL (-iter), MAXMSGLOG (-msglog), or cap each size \
                 with -time"
            )
        } else if t.warm_up >= t.per_loop {
            format!("{lever}N_WARMUP (-settings) or MAXMSGLOG (-msglog)")
        } else {
            "N_BARR (-settings), OVERALL_VOL (-iter), -min_reps, or the number of sizes (-msglog, \
             -msglen)"
                .to_string()
        };
        let waits = if t.waits > 0.0 {
            format!(", {} of it asked-for sleep", duration_text(t.waits))
        } else {
            String::new()
        };
        refusal(
            self.secs(),
            &format!(
                "{name} the longest at {}{waits}; each MPI call counted at 0.1 usec, each message \
                 of a window at 0.02 usec, each MiB at 20 usec",
                duration_text(top.total())
            ),
            &remedy,
        )
    }
}

/// The one refusal every executable prints for a run that needs more than `LONG_RUN_SECS`:
/// `this run needs at least 2 h 05 min on any machine (WHY); lower REMEDY, or pass -force to
/// run it anyway`.
pub fn refusal(secs: f64, why: &str, remedy: &str) -> String {
    format!(
        "this run needs at least {} on any machine ({why}); lower {remedy}, or pass -force to run \
         it anyway",
        duration_text(secs)
    )
}

/// "2 h 05 min", "7 min", for an estimate (rounded up to the minute).
pub fn duration_text(secs: f64) -> String {
    let min = (secs / 60.0).ceil().min(u64::MAX as f64) as u64;
    if min >= 60 {
        format!("{} h {:02} min", min / 60, min % 60)
    } else {
        format!("{min} min")
    }
}

/// One measured size of a step: the benchmark, the step's layout and sizes, the mode's and
/// the size's indices.
#[derive(Clone, Copy)]
pub struct SizeAt<'a> {
    pub info: &'static Info,
    pub layout: &'a Layout,
    pub sizes: &'a Sizes,
    pub m: usize,
    pub k: usize,
}

/// The least time of one measured size on any machine, by part, and the option that lowers
/// its effort, the way the driver runs it (`driver/measure.rs`): the warm-up before the
/// table's first size (IMB 3.0) or before every size (IMB 2021), its n repetitions at their
/// effort's least cost (under `-time` or the dynamic policy at most half the cap: the run
/// sizes the count from a measured repetition, and rounding the count down can halve it;
/// under `-adaptive`, at least `-min_reps` repetitions), the untimed loop of `-iter_policy off`
/// and `multiple_np`, and per loop (one, `-time` adds two probes, `-adaptive` runs `-min_reps`
/// at least) N_BARR barriers per loop of the effort, clearing the receive buffer and the
/// family's sleep; the barrier and gather of the row; `-msg_pause`'s sleep as long as the
/// timed loops.
pub fn size_least(at: SizeAt, opts: &Options, around: Around) -> (Parts, Option<&'static str>) {
    let SizeAt {
        info,
        layout,
        sizes,
        m,
        k,
    } = at;
    let p = &opts.params;
    let method = &opts.method;
    let np = layout.np;
    let world = layout.groups.len() * np + layout.idle;
    let sleep = around.sleep.map_or(0.0, |s| s.secs);
    // What a loop costs besides its repetitions.
    let around_loop = |e: &Effort, x: usize| {
        let zero = info.bufs_for(method.compat).lens(x, np, p.overall_vol).1 as f64 / BYTES_PER_SEC;
        e.loops * p.n_barr as f64 * barrier_secs(np) + zero
    };
    let mut parts = Parts::default();
    if k == sizes.first && around.warm_up && method.warm_up == WarmUp::Largest && sizes.warm_n > 0 {
        // Sync benchmarks warm up at 0 bytes (`Sizes::warm_x`).
        let (e, rep) = size_effort(info, sizes.warm_x, np, sizes.warm_mode, p);
        parts.warm_up += sizes.warm_n as f64 * rep;
        parts.per_loop += around_loop(&e, sizes.warm_x);
        parts.waits += sleep;
    }
    let mode = sizes.modes[m];
    let x = sizes.x(&sizes.lens[k]);
    let (e, rep) = size_effort(info, x, np, mode, p);
    let n = sizes.n_sample[m][k] as f64;
    let policy = method.iter_policy.for_bench(info.rooted);
    // The dynamic policy cuts a size to about -time's seconds, 10 by default.
    let cap = match policy {
        IterPolicy::Dynamic => Some(opts.time.unwrap_or(DYNAMIC_SECS)),
        _ => opts.time,
    };
    let mut reps = match cap {
        Some(t) => (n * rep).min(t / 2.0),
        None => n * rep,
    };
    if let Some(a) = opts.adaptive {
        reps = reps.max(a.min_reps as f64 * rep);
    }
    let mut loops =
        opts.adaptive.map_or(1, |a| a.min_reps.max(1)) + 2 * opts.time.is_some() as usize;
    let timed = reps + loops as f64 * around_loop(&e, x);
    parts.reps += reps;
    if matches!(policy, IterPolicy::Off | IterPolicy::MultipleNp) {
        // IMB 2021 runs the whole loop once, untimed, before the warm-up.
        parts.reps += reps;
        loops += 1;
    }
    if around.warm_up && method.warm_up == WarmUp::EverySize && rep > 0.0 {
        // n_sample/10 of the size, from the count the cap leaves.
        let w = ((reps / rep).floor() / 10.0).floor();
        if w >= 1.0 {
            let (we, wrep) = size_effort(info, x, np, sizes.warm_mode, p);
            parts.warm_up += w * wrep;
            parts.per_loop += around_loop(&we, x);
            loops += 1;
        }
    }
    parts.per_loop += loops as f64 * around_loop(&e, x) + 2.0 * barrier_secs(world);
    parts.waits += loops as f64 * sleep;
    if method.msg_pause {
        parts.waits += timed;
    }
    (parts, e.lever)
}

/// What a size whose least time is `least` (`size_least`) takes when a repetition of it takes
/// `rep` seconds on this machine: n of them per pass instead of their least cost, capped as
/// the run caps them (`-time`, the dynamic policy), a pass more for `-iter_policy off`'s
/// untimed loop and one for `-msg_pause`'s sleep; never below `least`.
pub fn expected(least: &Parts, info: &Info, n: usize, rep: f64, opts: &Options) -> f64 {
    let method = &opts.method;
    let policy = method.iter_policy.for_bench(info.rooted);
    let cap = match policy {
        IterPolicy::Dynamic => Some(opts.time.unwrap_or(DYNAMIC_SECS)),
        _ => opts.time,
    };
    let untimed = matches!(policy, IterPolicy::Off | IterPolicy::MultipleNp);
    let passes = 1.0 + f64::from(u8::from(untimed));
    let timed = cap.map_or(n as f64 * rep, |c| (n as f64 * rep).min(c));
    let more = (timed - least.reps / passes).max(0.0);
    least.total() + more * (passes + f64::from(u8::from(method.msg_pause)))
}

/// The least time of `plan` under `opts` on any machine: `size_least` of every measured size.
pub fn least(plan: &Plan, opts: &Options, around: Around) -> Least {
    let mut out = Least::default();
    if let Some(s) = around.sleep.filter(|s| s.secs > 0.0) {
        out.waits_by.push(s.option);
    }
    if opts.method.msg_pause {
        out.waits_by.push("-msg_pause (on)");
    }
    for bp in &plan.benchmarks {
        let mut parts = Parts::default();
        let mut lever = None;
        for step in &bp.steps {
            let StepPlan::Run { layout, sizes } = step else {
                continue;
            };
            for m in 0..sizes.modes.len() {
                for k in (0..sizes.lens.len()).filter(|&k| sizes.measured[k]) {
                    let at = SizeAt {
                        info: bp.info,
                        layout,
                        sizes,
                        m,
                        k,
                    };
                    let (size, l) = size_least(at, opts, around);
                    parts.add(&size);
                    lever = lever.or(l);
                }
            }
        }
        out.total.add(&parts);
        out.benchmarks.push((bp.info.name, lever, parts));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BufShape, Class, Procs};
    use crate::cli::raw::Raw;
    use crate::cli::table::{Opt, Takes};
    use crate::cli::{self, Action, Adaptive, Spec};
    use crate::plan::build;
    use crate::settings::{self, InStandard, Key, Type, STANDARD};
    use crate::values::{Slot, Value};

    /// A family of the tests' own: `-burst N` sets its settings key BURST (standard 256), the
    /// messages one repetition of `WINDOWED` keeps in flight.
    const BURST: Slot<usize> = Slot::new("BURST");
    static BURSTS: settings::Spec = settings::Spec {
        keys: &[Key {
            name: "BURST",
            ty: Type::Count,
            standard: InStandard::Default(|| Value::Count(256)),
            optional: false,
            check: settings::any_value,
        }],
        ..STANDARD
    };
    static FAMILY: cli::Family = cli::Family {
        rows: &[Opt::plain("burst", Takes::Value, |r: &mut Raw, v| {
            BURST.set(&mut r.family, v.parse().map_err(|_| "a count")?);
            Ok(())
        })],
        ..cli::Family::NONE
    };

    /// `imb-mpi1 ARGS` on np processes; its plan has one benchmark, `info`.
    fn run(args: &str, info: &'static Info, np: usize, warm_up: bool) -> (Options, Least) {
        let spec = Spec {
            exe: "imb-mpi1",
            names: &["PingPong"],
            defaults: 1,
            defaults_2021: &[],
            settings: &BURSTS,
            npmin: 2,
            aggregate: true,
            family: &FAMILY,
        };
        let a: Vec<String> = args.split_whitespace().map(String::from).collect();
        let Action::Run(o) = cli::parse(&spec, &a, np).unwrap() else {
            panic!("{args}")
        };
        let l = least(
            &build(&o, &[info], np),
            &o,
            Around {
                warm_up,
                sleep: None,
            },
        );
        (*o, l)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1e-9)
    }

    static PINGPONG: Info = Info::mpi1("PingPong", Class::SingleTransfer);
    static WINDOWED: Info = Info {
        procs: Procs::Pairs,
        effort: |s| Effort {
            msgs: BURST.get(&s.params.family).unwrap_or(0) as f64,
            lever: Some("-burst"),
            ..Effort::call(s.x)
        },
        ..Info::mpi1("Bursts", Class::ParallelTransfer)
    };
    static WINDOW_BUFFERS: Info = Info {
        bufs: BufShape::Window,
        ..Info::mpi1("Unidir_Put", Class::SingleTransfer)
    };

    /// One size of 8 bytes, 1000 repetitions, no warm-up: a call plus 8 bytes per repetition,
    /// and per loop N_BARR barriers, clearing 8 bytes, the row's barrier and gather.
    #[test]
    fn a_plain_repetition() {
        let (o, l) = run("-msglog 3:3 -zero_size off", &PINGPONG, 2, false);
        let (n, barr) = (o.params.msgspersample as f64, o.params.n_barr as f64);
        assert!(close(l.total.reps, n * (CALL_SECS + 8.0 / BYTES_PER_SEC)));
        assert!(close(
            l.total.per_loop,
            barr * CALL_SECS + 8.0 / BYTES_PER_SEC + 2.0 * CALL_SECS
        ));
        assert_eq!(l.total.warm_up, 0.0);
        assert_eq!(l.benchmarks, [("PingPong", None, l.total)]);
        // Warm-up: N_WARMUP repetitions of the largest size, with its loop.
        let (o, w) = run("-msglog 3:3 -zero_size off", &PINGPONG, 2, true);
        let warm = o.params.n_warmup as f64 * (CALL_SECS + 8.0 / BYTES_PER_SEC);
        assert!(close(w.total.warm_up, warm));
        assert!(w.total.per_loop > l.total.per_loop);
    }

    /// A family's effort is what a repetition costs: W messages of a window each.
    #[test]
    fn a_family_counts_its_own_effort() {
        let (o, l) = run(
            "-msglog 3:3 -zero_size off -burst 4096",
            &WINDOWED,
            2,
            false,
        );
        let n = o.params.msgspersample as f64;
        let rep = CALL_SECS + 4096.0 * MSG_SECS + 8.0 / BYTES_PER_SEC;
        assert!(close(l.total.reps, n * rep));
        assert_eq!(l.benchmarks[0].1, Some("-burst"));
    }

    /// On one process nothing waits: a call costs 2 ns, less than a message (a one-process
    /// Barrier of 5 ns was priced at a message's 20 ns, a bound above what the run took).
    #[test]
    fn a_call_on_one_process_waits_for_nobody() {
        static ALLREDUCE: Info = Info::mpi1("Allreduce", Class::Collective);
        let args = "-msglog 3:3 -zero_size off -npmin 1";
        let (o, one) = run(args, &ALLREDUCE, 1, false);
        let (_, two) = run(args, &ALLREDUCE, 2, false);
        assert!(one.total.reps < two.total.reps);
        let n = o.params.msgspersample as f64;
        assert!(close(one.total.reps, n * (2e-9 + 8.0 / BYTES_PER_SEC)));
        let barr = o.params.n_barr as f64;
        assert!(close(
            one.total.per_loop,
            (barr + 2.0) * 2e-9 + 8.0 / BYTES_PER_SEC
        ));
    }

    /// `-time` caps each size at half its limit (the count is rounded down from a measured
    /// repetition); `-adaptive` takes at least -min_reps repetitions and loops.
    #[test]
    fn time_caps_and_adaptive_timings() {
        let (o, full) = run("-msglog 3:3 -zero_size off", &WINDOWED, 2, false);
        let (_, capped) = run(
            "-msglog 3:3 -zero_size off -time 0.001",
            &WINDOWED,
            2,
            false,
        );
        assert!(close(capped.total.reps, 0.0005), "{}", capped.total.reps);
        // Two probes, each a loop of its own.
        let per_loop = o.params.n_barr as f64 * CALL_SECS + 8.0 / BYTES_PER_SEC;
        assert!(close(
            capped.total.per_loop - full.total.per_loop,
            2.0 * per_loop
        ));
        let (mut o, _) = run("-msglog 3:3 -zero_size off", &PINGPONG, 2, false);
        o.params.msgspersample = 10;
        o.adaptive = Some(Adaptive {
            cutoff_pct: 10.0,
            min_reps: 1000,
            max_reps: 1000,
        });
        let infos: [&'static Info; 1] = [&PINGPONG];
        let a = least(&build(&o, &infos, 2), &o, Around::default());
        assert!(close(
            a.total.reps,
            1000.0 * (CALL_SECS + 8.0 / BYTES_PER_SEC)
        ));
        assert!(close(a.total.per_loop, 1000.0 * per_loop + 2.0 * CALL_SECS));
    }

    /// A window buffer of OVERALL_VOL bytes is cleared before every loop; sizes -mem skips
    /// cost nothing.
    #[test]
    fn buffers_cleared_and_sizes_skipped() {
        let (o, l) = run(
            "-msglog 3:3 -zero_size off -iter 1000,1000",
            &WINDOW_BUFFERS,
            2,
            false,
        );
        let cleared = o.params.overall_vol as f64 / BYTES_PER_SEC;
        assert!(close(
            l.total.per_loop,
            o.params.n_barr as f64 * CALL_SECS + cleared + 2.0 * CALL_SECS
        ));
        let (_, all) = run("-msglog 20", &PINGPONG, 2, false);
        let (_, some) = run("-msglog 20 -mem 0.000001", &PINGPONG, 2, false);
        assert!(some.secs() < all.secs());
    }

    /// IMB 2021's method counts what it runs: `-msg_pause on` sleeps as long as the timed
    /// loop took, `-iter_policy off` runs the loop once more untimed, and `-compat 2021`'s
    /// warm-up is n/10 repetitions before every size, not N_WARMUP of the largest.
    #[test]
    fn imb_2021_options_count_what_they_run() {
        let args = "-msglog 3:3 -zero_size off";
        let (o, base) = run(args, &PINGPONG, 2, false);
        let rep = CALL_SECS + 8.0 / BYTES_PER_SEC;
        let around_loop = o.params.n_barr as f64 * CALL_SECS + 8.0 / BYTES_PER_SEC;
        let (_, paused) = run(&format!("{args} -msg_pause on"), &PINGPONG, 2, false);
        assert!(close(
            paused.total.waits,
            base.total.reps + base.total.per_loop - 2.0 * CALL_SECS
        ));
        assert_eq!(paused.waits_by, ["-msg_pause (on)"]);
        assert!(paused
            .refusal()
            .contains("; lower -msg_pause (on), or the number of sizes"));
        let (_, off) = run(&format!("{args} -iter_policy off"), &PINGPONG, 2, false);
        assert!(close(off.total.reps, 2.0 * base.total.reps));
        assert!(close(
            off.total.per_loop,
            2.0 * around_loop + 2.0 * CALL_SECS
        ));
        let (o, every) = run(&format!("{args} -compat 2021"), &PINGPONG, 2, true);
        let plan = build(&o, &[&PINGPONG], 2);
        let StepPlan::Run { sizes, .. } = &plan.benchmarks[0].steps[0] else {
            panic!("{:?}", plan.benchmarks[0].steps)
        };
        let n = sizes.n_sample[0][sizes.first] as f64;
        assert!(close(every.total.warm_up, (n / 10.0).floor() * rep));
        let (_, none) = run(
            &format!("{args} -compat 2021 -warm_up off"),
            &PINGPONG,
            2,
            true,
        );
        assert_eq!(none.total.warm_up, 0.0);
    }

    /// `-iter 2147483647` is minutes at 0 bytes on any machine: under the hour, so it runs,
    /// but the size says so before it starts (`report::long_size_line`); a `-time` cap or the
    /// dynamic policy keeps it short and quiet.
    #[test]
    fn a_huge_iteration_count_makes_a_long_size_that_says_so() {
        let line = |args: &str| {
            let (o, l) = run(args, &PINGPONG, 2, true);
            let plan = build(&o, &[&PINGPONG], 2);
            let StepPlan::Run { layout, sizes } = &plan.benchmarks[0].steps[0] else {
                panic!("{:?}", plan.benchmarks[0].steps)
            };
            let at = SizeAt {
                info: &PINGPONG,
                layout,
                sizes,
                m: 0,
                k: 0,
            };
            let (size, _) = size_least(at, &o, Around::default());
            assert!(l.secs() >= size.total());
            let bytes = Some(sizes.lens[0].x);
            let n = sizes.n_sample[0][0];
            // A machine at 1 usec a repetition: n of them, within -time's cap.
            let e = expected(&size, &PINGPONG, n, 1e-6, &o);
            assert!(e >= size.total());
            if let Some(t) = o.time {
                assert!(e <= size.total() + t, "{e}");
            }
            let said = |e| {
                crate::report::long_size_line(
                    "imb-mpi1",
                    ("PingPong", 2, bytes),
                    n,
                    size.total(),
                    e,
                )
            };
            let upper = said(Some((e, true)));
            assert_eq!(upper.is_some(), e > 60.0);
            said(None)
        };
        let huge = "-msglog 0:1 -iter 2147483647";
        let said = line(huge).expect("a long size");
        assert!(
            said.starts_with(
                "imb-mpi1: PingPong on 2 processes, 0 bytes: a long size (2147483647 \
                 repetitions): at least 3:35 on any machine"
            ),
            "{said}"
        );
        assert_eq!(line(&format!("{huge} -time 10")), None);
        // 2^31 repetitions at 1 usec, twice under -iter_policy off, once more for -msg_pause.
        let (o, _) = run(huge, &PINGPONG, 2, false);
        let plan = build(&o, &[&PINGPONG], 2);
        let StepPlan::Run { layout, sizes } = &plan.benchmarks[0].steps[0] else {
            panic!()
        };
        let at = SizeAt {
            info: &PINGPONG,
            layout,
            sizes,
            m: 0,
            k: 0,
        };
        let (size, _) = size_least(at, &o, Around::default());
        let e = expected(&size, &PINGPONG, 2147483647, 1e-6, &o);
        assert!(close(e, size.total() + 2147.483647 - size.reps), "{e}");
        assert_eq!(line(&format!("{huge} -compat 2021")), None);
        assert_eq!(line("-msglog 0:1"), None);
    }

    #[test]
    fn the_refusal_names_the_longest_benchmark_and_the_remedy_of_the_largest_part() {
        let parts = |reps, warm_up, per_loop| Parts {
            reps,
            warm_up,
            per_loop,
            waits: 0.0,
        };
        let l = |total: Parts| Least {
            total,
            benchmarks: vec![
                ("PingPong", None, parts(60.0, 0.0, 0.0)),
                ("Bursts", Some("-burst"), total),
            ],
            waits_by: Vec::new(),
        };
        assert_eq!(
            l(parts(7500.0, 1.0, 1.0)).refusal(),
            "this run needs at least 2 h 06 min on any machine (Bursts the longest at 2 h 06 \
             min; each MPI call counted at 0.1 usec, each message of a window at 0.02 usec, each \
             MiB at 20 usec); lower -burst, MSGSPERSAMPLE or OVERALL_VOL (-iter), MAXMSGLOG \
             (-msglog), or cap each size with -time, or pass -force to run it anyway"
        );
        assert!(l(parts(1.0, 7500.0, 1.0))
            .refusal()
            .contains("; lower -burst, N_WARMUP (-settings) or MAXMSGLOG (-msglog), or pass"));
        assert!(l(parts(1.0, 1.0, 7500.0))
            .refusal()
            .contains("; lower N_BARR (-settings), OVERALL_VOL (-iter), -min_reps, or the"));
        assert_eq!(duration_text(1.0), "1 min");
        assert_eq!(duration_text(3540.0), "59 min");
        assert_eq!(duration_text(3600.0), "1 h 00 min");
        assert_eq!(duration_text(3601.0), "1 h 01 min");
        assert_eq!(duration_text(f64::INFINITY), duration_text(1e300));
    }
}
