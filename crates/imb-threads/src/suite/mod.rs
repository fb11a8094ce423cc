//! The benchmarks: those of "Benchmarking Pthreads Performance" (de Supinski and May, 1999)
//! — thread creation, yield, time slice, condition-variable and mutex ping-pongs and overheads —
//! then the paper's future work (broadcast, semaphores, barriers, rwlocks, spinlocks, mutex
//! protocols), and Rust `std::sync` equivalents for comparison. Each benchmark turns the
//! options into rows: independent variables, a harness measurement and the binding verdict.
//!
//! This module holds what every benchmark shares: the types of a table, the plan of its rows,
//! and the helpers that time a row; the benchmarks live in one file per family.

mod cond;
mod list;
mod mutex;
mod std_prims;
mod sync;
mod thread;

pub use list::BENCHMARKS;

use crate::pair::{lockstep, Run};
use imb_harness::adaptive::{self, Measurement, Policy};
use imb_harness::binding::{self, Bind, Placement};

/// What every benchmark gets.
pub struct Env<'a> {
    pub policy: Policy,
    pub allowed: &'a [usize],
    /// Binding scenarios to sweep (for benchmarks with two or more threads).
    pub binds: &'a [Bind],
    /// Thread counts to sweep (broadcast and barrier benchmarks).
    pub threads: &'a [usize],
    /// Subtract the harness's own cost (an empty action) from every mean.
    pub correct: bool,
    /// Asked before each row with the number of rows the table has so far: true ends the
    /// benchmark early (the reader of stdout went away, so nobody would see the rest). The
    /// `-progress` lines count rows here, between timings.
    pub stop: &'a dyn Fn(usize) -> bool,
}

/// One row of a table.
pub struct Row {
    /// Values of the independent variables, in the table's column order.
    pub vars: Vec<String>,
    pub m: Measurement,
    /// Where the threads ran ("cpu0,cpu1", "unbound"), and whether the OS honoured it.
    pub placements: String,
    pub honoured: bool,
}

/// A table: rows, and `#` notes for what could not be measured here.
#[derive(Default)]
pub struct Table {
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

pub struct Bench {
    pub name: &'static str,
    /// Titles of the independent-variable columns.
    pub vars: &'static [&'static str],
    pub what: &'static str,
    /// Its rows and their threads, known before it runs.
    pub team: Team,
    pub run: fn(&Env) -> Result<Table, String>,
}

/// The rows of a benchmark and how many threads each runs: the run-time estimate and the
/// oversubscription line of the header come from it before anything is measured.
#[derive(Debug, Clone, Copy)]
pub enum Team {
    /// This many rows on the main thread alone.
    Solo(usize),
    /// Thread_Create: two chains (detached, joinable), one new thread running at a time while
    /// the main thread waits.
    Create,
    /// Two threads, one row per binding scenario (only these scenarios when given).
    Pair(Option<&'static [Bind]>),
    /// One row per binding scenario and `-threads` count N, each with N + this many threads.
    Sweep(usize),
}

/// One row the benchmark will measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlannedRow {
    pub threads: usize,
    /// The shortest timing the harness accepts for it (seconds), at least the policy's.
    pub min_timing: f64,
}

impl Bench {
    /// The rows this benchmark measures with these options on these CPUs (a scenario the CPUs
    /// cannot place becomes a note, not a row).
    pub fn planned_rows(
        &self,
        binds: &[Bind],
        threads: &[usize],
        cpus: &[usize],
        policy_min_timing: f64,
    ) -> Vec<PlannedRow> {
        let paired = policy_min_timing.max(PAIRED_MIN_TIMING);
        let row = |threads, min_timing| PlannedRow {
            threads,
            min_timing,
        };
        let placeable = |b: Bind, n: usize| binding::plan(b, n, cpus).is_ok();
        match self.team {
            Team::Solo(n) => vec![row(1, policy_min_timing); n],
            Team::Create => vec![row(1, policy_min_timing.max(CREATE_MIN_TIMING)); 2],
            Team::Pair(only) => binds
                .iter()
                .filter(|&&b| {
                    let meaningful = match only {
                        Some(o) => o.contains(&b),
                        None => true,
                    };
                    meaningful && placeable(b, 2)
                })
                .map(|_| row(2, paired))
                .collect(),
            Team::Sweep(extra) => binds
                .iter()
                .flat_map(|&b| threads.iter().map(move |&n| (b, n + extra)))
                .filter(|&(b, total)| placeable(b, total))
                .map(|(_, total)| row(total, paired))
                .collect(),
        }
    }
}

/// Shortest timing of benchmarks with client threads (see `paired`).
pub const PAIRED_MIN_TIMING: f64 = 10e-3;
/// Shortest timing of Thread_Create: a chain of threads pays its start and end once per timing.
pub const CREATE_MIN_TIMING: f64 = 50e-3;

fn row(vars: Vec<String>, r: Run) -> Row {
    Row {
        vars,
        placements: r
            .placements
            .iter()
            .map(|p| p.label())
            .collect::<Vec<_>>()
            .join(","),
        honoured: r.honoured,
        m: r.m,
    }
}

/// A single-thread action on the (unbound) main thread. Generic, so the action is inlined
/// into the timed loop and the loop costs what a hand-written C loop costs.
fn solo<F: FnMut()>(env: &Env, mut f: F) -> Row {
    let mut timing = |k: u64| adaptive::time_calls(k, &mut f);
    Row {
        vars: vec![],
        m: adaptive::measure_corrected(&env.policy, &mut timing, env.correct),
        placements: "unbound".into(),
        honoured: true,
    }
}

/// Binding scenario × thread count, the two independent variables of the N-thread benchmarks.
fn sweep(env: &Env) -> Vec<(Bind, usize)> {
    env.binds
        .iter()
        .flat_map(|&b| env.threads.iter().map(move |&n| (b, n)))
        .collect()
}

/// Placements for `total` threads, or a note saying why this machine cannot place them.
fn plan_or_note(
    t: &mut Table,
    b: Bind,
    n: usize,
    total: usize,
    env: &Env,
) -> Option<Vec<Placement>> {
    match binding::plan(b, total, env.allowed) {
        Ok(p) => Some(p),
        Err(e) => {
            t.notes.push(format!("binding {} with {n}: {e}", b.name()));
            None
        }
    }
}

/// The policy of benchmarks with client threads: timings of at least 10 ms, so the wake-up of
/// the clients at the start of each timing (they wait between timings) is amortised over
/// hundreds of rounds, as in a long-running loop.
fn paired(env: &Env) -> Policy {
    Policy {
        min_timing: env.policy.min_timing.max(PAIRED_MIN_TIMING),
        ..env.policy
    }
}

/// `lockstep` for clients that need no set-up or tear-down, with the paired policy.
fn pair(
    env: &Env,
    p: &[Placement],
    client: impl Fn(usize, u64) + Sync,
    main: &mut dyn FnMut(u64),
) -> Result<Run, String> {
    lockstep(
        &paired(env),
        env.allowed,
        p,
        |_| {},
        client,
        |_| {},
        main,
        env.correct,
    )
}

/// Per-round times scaled to the unit the table reports (e.g. a round of four ping-pongs).
fn scaled(mut m: Measurement, by: f64) -> Measurement {
    for v in [
        &mut m.mean,
        &mut m.raw_mean,
        &mut m.stddev,
        &mut m.median,
        &mut m.min,
        &mut m.max,
    ] {
        *v *= by;
    }
    m.overhead = m.overhead.map(|o| o * by);
    m
}

/// Sweep the binding scenarios for `n` threads; scenarios this machine cannot place become notes.
fn per_binding(
    env: &Env,
    n: usize,
    only: Option<&[Bind]>,
    mut one: impl FnMut(&[Placement]) -> Result<Run, String>,
) -> Result<Table, String> {
    let mut t = Table::default();
    for &b in env.binds {
        if (env.stop)(t.rows.len()) {
            break;
        }
        if only.is_some_and(|o| !o.contains(&b)) {
            t.notes.push(format!(
                "binding {}: not meaningful for this benchmark",
                b.name()
            ));
            continue;
        }
        match binding::plan(b, n, env.allowed) {
            Ok(p) => t.rows.push(row(vec![b.name().into()], one(&p)?)),
            Err(e) => t.notes.push(format!("binding {}: {e}", b.name())),
        }
    }
    Ok(t)
}
