//! Mutex benchmarks: the paper's four-mutex ping-pong and its lock/unlock overheads, then the
//! mutex arrays and priority protocols of its future work.

use super::{paired, per_binding, scaled, solo, Env, Row, Table};
use crate::pair::{lockstep, Run};
use crate::pt::{Mutex, Protocol};
use imb_harness::adaptive;

pub(super) fn mutex_pingpong(env: &Env) -> Result<Table, String> {
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

pub(super) fn mutex_nocontention(env: &Env) -> Result<Table, String> {
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

pub(super) fn mutex_lockunlock(env: &Env) -> Result<Table, String> {
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

pub(super) fn mutex_lock_array(env: &Env) -> Result<Table, String> {
    mutex_array(env, true)
}

pub(super) fn mutex_unlock_array(env: &Env) -> Result<Table, String> {
    mutex_array(env, false)
}

pub(super) fn mutex_protocol(env: &Env) -> Result<Table, String> {
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
