//! The benchmarks: those of "Benchmarking Pthreads Performance" (de Supinski and May, 1999)
//! — thread creation, yield, time slice, condition-variable and mutex ping-pongs and overheads —
//! then the paper's future work (broadcast, semaphores, barriers, rwlocks, spinlocks, mutex
//! protocols), and Rust `std::sync` equivalents for comparison. Each benchmark turns the
//! options into rows: independent variables, a harness measurement and the binding verdict.

use crate::pair::{lockstep, Run};
use crate::pt::{self, Barrier, Cond, Detach, Mutex, Protocol, RwLock, Sem, Spin};
use imb_harness::adaptive::{self, Measurement, Policy};
use imb_harness::binding::{self, Bind, Placement};
use std::sync::atomic::{AtomicU64, Ordering};

/// Ordering for state that a mutex already orders.
const R: Ordering = Ordering::Relaxed;

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

/// Time_Slice needs both threads on one CPU.
const TIME_SLICE_BINDS: &[Bind] = &[Bind::Same];
/// Cond_Wakeup: the signaller must run on another CPU, or this measures a time slice (paper).
const WAKEUP_BINDS: &[Bind] = &[Bind::Different, Bind::None];

/// Shortest timing of benchmarks with client threads (see `paired`).
pub const PAIRED_MIN_TIMING: f64 = 10e-3;
/// Shortest timing of Thread_Create: a chain of threads pays its start and end once per timing.
pub const CREATE_MIN_TIMING: f64 = 50e-3;

/// Every benchmark, in run order.
pub static BENCHMARKS: &[Bench] = &[
    Bench {
        name: "Thread_Create",
        vars: &["detach", "scope"],
        what: "recursive pthread_create of M threads, per thread",
        team: Team::Create,
        run: thread_create,
    },
    Bench {
        name: "Yield",
        vars: &["binding"],
        what: "two threads calling sched_yield; same CPU approximates a context switch",
        team: Team::Pair(None),
        run: yield_,
    },
    Bench {
        name: "Time_Slice",
        vars: &["binding"],
        what: "two threads on one CPU spinning on a shared flag: half a round is one time slice",
        team: Team::Pair(Some(TIME_SLICE_BINDS)),
        run: time_slice,
    },
    Bench {
        name: "Cond_PingPong",
        vars: &["binding"],
        what: "condition-variable ping-pong (wait/signal), per round trip",
        team: Team::Pair(None),
        run: cond_pingpong,
    },
    Bench {
        name: "Cond_Signal",
        vars: &[],
        what: "pthread_cond_signal with no waiter (the send overhead)",
        team: Team::Solo(1),
        run: cond_signal,
    },
    Bench {
        name: "Cond_Wakeup",
        vars: &["binding"],
        what: "wait on a condition another CPU signals continually (the receive overhead)",
        team: Team::Pair(Some(WAKEUP_BINDS)),
        run: cond_wakeup,
    },
    Bench {
        name: "Mutex_PingPong",
        vars: &["binding"],
        what: "four-mutex ping-pong (Figure 1), per ping-pong",
        team: Team::Pair(None),
        run: mutex_pingpong,
    },
    Bench {
        name: "Mutex_NoContention",
        vars: &[],
        what: "the ping-pong's lock/unlock operations in the main thread alone, per ping-pong",
        team: Team::Solo(1),
        run: mutex_nocontention,
    },
    Bench {
        name: "Mutex_LockUnlock",
        vars: &[],
        what: "pthread_mutex_lock + unlock of one mutex",
        team: Team::Solo(1),
        run: mutex_lockunlock,
    },
    Bench {
        name: "Mutex_Lock",
        vars: &[],
        what: "pthread_mutex_lock over a mutex array",
        team: Team::Solo(1),
        run: mutex_lock_array,
    },
    Bench {
        name: "Mutex_Unlock",
        vars: &[],
        what: "pthread_mutex_unlock over a mutex array",
        team: Team::Solo(1),
        run: mutex_unlock_array,
    },
    Bench {
        name: "Mutex_Protocol",
        vars: &["protocol"],
        what: "lock + unlock under PTHREAD_PRIO_NONE / INHERIT / PROTECT",
        team: Team::Solo(3),
        run: mutex_protocol,
    },
    Bench {
        name: "Cond_Broadcast",
        vars: &["binding", "waiters"],
        what: "pthread_cond_broadcast until every waiter has woken, per broadcast",
        team: Team::Sweep(1),
        run: cond_broadcast,
    },
    Bench {
        name: "Sem_PingPong",
        vars: &["binding"],
        what: "POSIX semaphore ping-pong (sem_post/sem_wait), per round trip",
        team: Team::Pair(None),
        run: sem_pingpong,
    },
    Bench {
        name: "Barrier",
        vars: &["binding", "threads"],
        what: "pthread_barrier_wait with N threads, per barrier",
        team: Team::Sweep(0),
        run: barrier,
    },
    Bench {
        name: "RWLock",
        vars: &["access"],
        what: "pthread_rwlock rdlock + unlock, wrlock + unlock",
        team: Team::Solo(2),
        run: rwlock,
    },
    Bench {
        name: "Spin_LockUnlock",
        vars: &[],
        what: "pthread_spin_lock + unlock",
        team: Team::Solo(1),
        run: spin,
    },
    Bench {
        name: "Std_Mutex",
        vars: &[],
        what: "Rust std::sync::Mutex lock + unlock",
        team: Team::Solo(1),
        run: std_mutex,
    },
    Bench {
        name: "Std_Condvar_PingPong",
        vars: &["binding"],
        what: "Rust std::sync::Condvar ping-pong, per round trip",
        team: Team::Pair(None),
        run: std_condvar,
    },
    Bench {
        name: "Std_Barrier",
        vars: &["binding", "threads"],
        what: "Rust std::sync::Barrier with N threads, per barrier",
        team: Team::Sweep(0),
        run: std_barrier,
    },
];

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

fn thread_create(env: &Env) -> Result<Table, String> {
    let mut t = Table::default();
    for (d, label) in [
        (Detach::Detached, "detached"),
        (Detach::Joinable, "joinable"),
    ] {
        if (env.stop)(t.rows.len()) {
            break;
        }
        let mut failure = None;
        let mut timing = |k: u64| match pt::create_chain(k, d) {
            Ok(s) => s,
            Err(e) => {
                failure = Some(e);
                0.0
            }
        };
        // Chains of at least 50 ms: starting and ending a chain (the first create, the main
        // thread's wake-up) is then a small part of the per-thread time.
        let p = Policy {
            min_timing: env.policy.min_timing.max(CREATE_MIN_TIMING),
            max_iterations: env.policy.max_iterations.min(1 << 16),
            ..env.policy
        };
        let m = adaptive::measure(&p, &mut timing, None);
        if let Some(e) = failure {
            return Err(e);
        }
        t.rows.push(Row {
            vars: vec![label.into(), "system".into()],
            m,
            placements: "unbound".into(),
            honoured: true,
        });
    }
    if !pt::process_scope_supported() {
        t.notes.push("scope process: not supported here (pthread_attr_setscope(PTHREAD_SCOPE_PROCESS) fails; Linux has system scope only)".into());
    }
    Ok(t)
}

fn yield_(env: &Env) -> Result<Table, String> {
    per_binding(env, 2, None, |p| {
        let mut main = |k: u64| (0..k).for_each(|_| pt::yield_now());
        pair(
            env,
            p,
            |_, k| (0..k).for_each(|_| pt::yield_now()),
            &mut main,
        )
    })
}

fn time_slice(env: &Env) -> Result<Table, String> {
    // 1: the client's value. The main thread writes 0 and spins until the client has written
    // 1; the client spins until it sees 0 and writes 1. On one CPU each spin lasts until the
    // scheduler switches threads, so a round is two time slices, and both threads end a
    // timing after exactly k rounds with the flag back at 1.
    let flag = AtomicU64::new(1);
    per_binding(env, 2, Some(TIME_SLICE_BINDS), |p| {
        let mut main = |k: u64| {
            for _ in 0..k {
                flag.store(0, Ordering::Release);
                while flag.load(Ordering::Acquire) == 0 {
                    std::hint::spin_loop();
                }
            }
        };
        let client = |_: usize, k: u64| {
            for _ in 0..k {
                while flag.load(Ordering::Acquire) == 1 {
                    std::hint::spin_loop();
                }
                flag.store(1, Ordering::Release);
            }
        };
        lockstep(
            &paired(env),
            env.allowed,
            p,
            |_| {},
            client,
            |_| {},
            &mut main,
            false,
        )
        .map(|r| Run {
            m: scaled(r.m, 0.5),
            ..r
        })
    })
}

/// Shared state of the condition-variable ping-pong: whose turn it is (read and written with
/// `m` held, which orders it; atomic only so it can be shared without `unsafe`).
struct Turn {
    m: Mutex,
    c: Cond,
    turn: AtomicU64,
}

fn cond_pingpong(env: &Env) -> Result<Table, String> {
    let s = Turn {
        m: Mutex::new(),
        c: Cond::new(),
        turn: AtomicU64::new(0),
    };
    per_binding(env, 2, None, |p| {
        let mut main = |k: u64| {
            for _ in 0..k {
                s.m.lock();
                s.turn.store(1, Ordering::Relaxed);
                s.c.signal();
                while s.turn.load(Ordering::Relaxed) == 1 {
                    s.c.wait(&s.m);
                }
                s.m.unlock();
            }
        };
        let client = |_: usize, k: u64| {
            for _ in 0..k {
                s.m.lock();
                while s.turn.load(Ordering::Relaxed) == 0 {
                    s.c.wait(&s.m);
                }
                s.turn.store(0, Ordering::Relaxed);
                s.c.signal();
                s.m.unlock();
            }
        };
        pair(env, p, client, &mut main)
    })
}

fn cond_signal(env: &Env) -> Result<Table, String> {
    let c = Cond::new();
    Ok(Table {
        rows: vec![solo(env, || c.signal())],
        notes: vec![],
    })
}

fn cond_wakeup(env: &Env) -> Result<Table, String> {
    let m = Mutex::new();
    let c = Cond::new();
    let generation = AtomicU64::new(0);
    per_binding(env, 2, Some(WAKEUP_BINDS), |p| {
        let mut main = |k: u64| {
            for _ in 0..k {
                m.lock();
                c.wait(&m);
                m.unlock();
            }
            generation.fetch_add(1, Ordering::AcqRel);
        };
        let client = |_: usize, _k: u64| {
            let g = generation.load(Ordering::Acquire);
            while generation.load(Ordering::Acquire) == g {
                c.signal();
            }
        };
        pair(env, p, client, &mut main)
    })
}

fn mutex_pingpong(env: &Env) -> Result<Table, String> {
    let mx: [Mutex; 4] = std::array::from_fn(|_| Mutex::new());
    per_binding(env, 2, None, |p| {
        // The main thread holds 0 and 2, the client 1 and 3; each lock waits for the other
        // thread's unlock, and a round leaves every lock where it started: four ping-pongs.
        mx[0].lock();
        mx[2].lock();
        let mut main = |k: u64| {
            for _ in 0..k {
                for (u, l) in [(0, 1), (2, 3), (1, 0), (3, 2)] {
                    mx[u].unlock();
                    mx[l].lock();
                }
            }
        };
        let client = |_: usize, k: u64| {
            for _ in 0..k {
                for (l, u) in [(0, 1), (2, 3), (1, 0), (3, 2)] {
                    mx[l].lock();
                    mx[u].unlock();
                }
            }
        };
        let setup = |_: usize| {
            mx[1].lock();
            mx[3].lock();
        };
        let teardown = |_: usize| {
            mx[1].unlock();
            mx[3].unlock();
        };
        let r = lockstep(
            &paired(env),
            env.allowed,
            p,
            setup,
            client,
            teardown,
            &mut main,
            env.correct,
        );
        mx[0].unlock();
        mx[2].unlock();
        r.map(|r| Run {
            m: scaled(r.m, 0.25),
            ..r
        })
    })
}

fn mutex_nocontention(env: &Env) -> Result<Table, String> {
    let mx: [Mutex; 4] = std::array::from_fn(|_| Mutex::new());
    let mut r = solo(env, || {
        for m in &mx {
            m.lock();
            m.unlock();
        }
    });
    r.m = scaled(r.m, 0.25);
    Ok(Table {
        rows: vec![r],
        notes: vec![],
    })
}

fn mutex_lockunlock(env: &Env) -> Result<Table, String> {
    let m = Mutex::new();
    Ok(Table {
        rows: vec![solo(env, || {
            m.lock();
            m.unlock();
        })],
        notes: vec![],
    })
}

/// Mutexes in the array benchmarks; larger counts cycle through it.
const ARRAY: usize = 4096;

fn mutex_array(env: &Env, time_lock: bool) -> Result<Table, String> {
    let mx: Vec<Mutex> = (0..ARRAY).map(|_| Mutex::new()).collect();
    let mut timing = |k: u64| {
        let mut left = k as usize;
        let mut secs = 0.0;
        while left > 0 {
            let n = left.min(ARRAY);
            let t0 = std::time::Instant::now();
            mx[..n].iter().for_each(Mutex::lock);
            let t1 = std::time::Instant::now();
            mx[..n].iter().for_each(Mutex::unlock);
            let t2 = std::time::Instant::now();
            secs += if time_lock { t1 - t0 } else { t2 - t1 }.as_secs_f64();
            left -= n;
        }
        secs
    };
    let m = adaptive::measure(&env.policy, &mut timing, None);
    Ok(Table {
        rows: vec![Row {
            vars: vec![],
            m,
            placements: "unbound".into(),
            honoured: true,
        }],
        notes: vec![],
    })
}

fn mutex_lock_array(env: &Env) -> Result<Table, String> {
    mutex_array(env, true)
}

fn mutex_unlock_array(env: &Env) -> Result<Table, String> {
    mutex_array(env, false)
}

fn mutex_protocol(env: &Env) -> Result<Table, String> {
    let mut t = Table::default();
    for (p, label) in [
        (Protocol::Default, "none"),
        (Protocol::Inherit, "inherit"),
        (Protocol::Protect, "protect"),
    ] {
        match Mutex::with_protocol(p) {
            Ok(m) => {
                let mut r = solo(env, || {
                    m.lock();
                    m.unlock();
                });
                r.vars = vec![label.into()];
                t.rows.push(r);
            }
            Err(e) => t
                .notes
                .push(format!("protocol {label}: not supported here ({e})")),
        }
    }
    Ok(t)
}

/// Broadcast state: a generation number the waiters follow, and how many have woken.
struct Bcast {
    m: Mutex,
    go: Cond,
    back: Cond,
    generation: AtomicU64,
    /// The generation at the end of the last timing: where a client starts counting (it may
    /// take the lock only after the main thread has broadcast the first round).
    base: AtomicU64,
    woken: AtomicU64,
}

fn cond_broadcast(env: &Env) -> Result<Table, String> {
    let mut t = Table::default();
    for (bind, n) in sweep(env) {
        if (env.stop)(t.rows.len()) {
            break;
        }
        let Some(p) = plan_or_note(&mut t, bind, n, n + 1, env) else {
            continue;
        };
        let s = Bcast {
            m: Mutex::new(),
            go: Cond::new(),
            back: Cond::new(),
            generation: AtomicU64::new(0),
            base: AtomicU64::new(0),
            woken: AtomicU64::new(0),
        };
        let mut main = |k: u64| {
            for _ in 0..k {
                s.m.lock();
                s.woken.store(0, R);
                s.generation.fetch_add(1, R);
                s.go.broadcast();
                while s.woken.load(R) < n as u64 {
                    s.back.wait(&s.m);
                }
                s.m.unlock();
            }
            s.m.lock();
            s.base.store(s.generation.load(R), R);
            s.m.unlock();
        };
        let client = |_: usize, k: u64| {
            s.m.lock();
            let mut seen = s.base.load(R);
            for _ in 0..k {
                while s.generation.load(R) == seen {
                    s.go.wait(&s.m);
                }
                seen = s.generation.load(R);
                if s.woken.fetch_add(1, R) + 1 == n as u64 {
                    s.back.signal();
                }
            }
            s.m.unlock();
        };
        let r = pair(env, &p, client, &mut main)?;
        t.rows.push(row(vec![bind.name().into(), n.to_string()], r));
    }
    Ok(t)
}

fn sem_pingpong(env: &Env) -> Result<Table, String> {
    let (a, b) = (Sem::new()?, Sem::new()?);
    per_binding(env, 2, None, |p| {
        let mut main = |k: u64| {
            for _ in 0..k {
                a.post();
                b.wait();
            }
        };
        let client = |_: usize, k: u64| {
            for _ in 0..k {
                a.wait();
                b.post();
            }
        };
        pair(env, p, client, &mut main)
    })
}

fn barrier(env: &Env) -> Result<Table, String> {
    let mut t = Table::default();
    for (bind, n) in sweep(env) {
        if (env.stop)(t.rows.len()) {
            break;
        }
        let Some(p) = plan_or_note(&mut t, bind, n, n, env) else {
            continue;
        };
        let b = Barrier::new(n as u32)?;
        let mut main = |k: u64| (0..k).for_each(|_| b.wait());
        let r = pair(env, &p, |_, k| (0..k).for_each(|_| b.wait()), &mut main)?;
        t.rows.push(row(vec![bind.name().into(), n.to_string()], r));
    }
    Ok(t)
}

fn rwlock(env: &Env) -> Result<Table, String> {
    let l = RwLock::new();
    let mut read = solo(env, || l.read_unlock());
    read.vars = vec!["read".into()];
    let mut write = solo(env, || l.write_unlock());
    write.vars = vec!["write".into()];
    Ok(Table {
        rows: vec![read, write],
        notes: vec![],
    })
}

fn spin(env: &Env) -> Result<Table, String> {
    let s = Spin::new()?;
    Ok(Table {
        rows: vec![solo(env, || s.lock_unlock())],
        notes: vec![],
    })
}

fn std_mutex(env: &Env) -> Result<Table, String> {
    let m = std::sync::Mutex::new(0u64);
    Ok(Table {
        rows: vec![solo(env, || {
            let mut g = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *g = g.wrapping_add(1);
        })],
        notes: vec![],
    })
}

fn std_condvar(env: &Env) -> Result<Table, String> {
    let s = (std::sync::Mutex::new(0u8), std::sync::Condvar::new());
    per_binding(env, 2, None, |p| {
        let mut main = |k: u64| {
            for _ in 0..k {
                let mut g =
                    s.0.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                *g = 1;
                s.1.notify_one();
                while *g == 1 {
                    g =
                        s.1.wait(g)
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            }
        };
        let client = |_: usize, k: u64| {
            for _ in 0..k {
                let mut g =
                    s.0.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                while *g == 0 {
                    g =
                        s.1.wait(g)
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
                *g = 0;
                s.1.notify_one();
            }
        };
        pair(env, p, client, &mut main)
    })
}

fn std_barrier(env: &Env) -> Result<Table, String> {
    let mut t = Table::default();
    for (bind, n) in sweep(env) {
        if (env.stop)(t.rows.len()) {
            break;
        }
        let Some(p) = plan_or_note(&mut t, bind, n, n, env) else {
            continue;
        };
        let b = std::sync::Barrier::new(n);
        let mut main = |k: u64| {
            (0..k).for_each(|_| {
                b.wait();
            })
        };
        let client = |_: usize, k: u64| {
            (0..k).for_each(|_| {
                b.wait();
            })
        };
        let r = pair(env, &p, client, &mut main)?;
        t.rows.push(row(vec![bind.name().into(), n.to_string()], r));
    }
    Ok(t)
}
