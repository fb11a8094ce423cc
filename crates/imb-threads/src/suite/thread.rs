//! The paper's scheduler benchmarks: thread creation, yield and time slice.

use super::{pair, paired, per_binding, scaled, Env, Row, Table, CREATE_MIN_TIMING};
use crate::pair::{lockstep, Run};
use crate::pt::{self, Detach};
use imb_harness::adaptive::{self, Policy};
use imb_harness::binding::Bind;
use std::sync::atomic::{AtomicU64, Ordering};

/// Time_Slice needs both threads on one CPU.
pub(super) const TIME_SLICE_BINDS: &[Bind] = &[Bind::Same];

pub(super) fn thread_create(env: &Env) -> Result<Table, String> {
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

pub(super) fn yield_(env: &Env) -> Result<Table, String> {
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

pub(super) fn time_slice(env: &Env) -> Result<Table, String> {
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
