//! Condition-variable benchmarks: the paper's ping-pong and its send and receive overheads,
//! and the broadcast of its future work.

use super::{pair, per_binding, plan_or_note, row, solo, sweep, Env, Table};
use crate::pt::{Cond, Mutex};
use imb_harness::binding::Bind;
use std::sync::atomic::{AtomicU64, Ordering};

/// Ordering for state that a mutex already orders.
const R: Ordering = Ordering::Relaxed;

/// Cond_Wakeup: the signaller must run on another CPU, or this measures a time slice (paper).
pub(super) const WAKEUP_BINDS: &[Bind] = &[Bind::Different, Bind::None];

/// Shared state of the condition-variable ping-pong: whose turn it is (read and written with
/// `m` held, which orders it; atomic only so it can be shared without `unsafe`).
struct Turn {
    m: Mutex,
    c: Cond,
    turn: AtomicU64,
}

pub(super) fn cond_pingpong(env: &Env) -> Result<Table, String> {
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

pub(super) fn cond_signal(env: &Env) -> Result<Table, String> {
    let c = Cond::new();
    Ok(Table {
        rows: vec![solo(env, || c.signal())],
        notes: vec![],
    })
}

pub(super) fn cond_wakeup(env: &Env) -> Result<Table, String> {
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

pub(super) fn cond_broadcast(env: &Env) -> Result<Table, String> {
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
