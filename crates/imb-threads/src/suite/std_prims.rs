//! Rust `std::sync` equivalents of the Pthreads benchmarks, for comparison.

use super::{pair, per_binding, plan_or_note, row, solo, sweep, Env, Table};

pub(super) fn std_mutex(env: &Env) -> Result<Table, String> {
    let m = std::sync::Mutex::new(0u64);
    Ok(Table {
        rows: vec![solo(env, || {
            let mut g = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *g = g.wrapping_add(1);
        })],
        notes: vec![],
    })
}

pub(super) fn std_condvar(env: &Env) -> Result<Table, String> {
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

pub(super) fn std_barrier(env: &Env) -> Result<Table, String> {
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
