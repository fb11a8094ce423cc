//! The other POSIX primitives of the paper's future work: semaphores, barriers, rwlocks and
//! spinlocks.

use super::{pair, per_binding, plan_or_note, row, solo, sweep, Env, Table};
use crate::pt::{Barrier, RwLock, Sem, Spin};

pub(super) fn sem_pingpong(env: &Env) -> Result<Table, String> {
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

pub(super) fn barrier(env: &Env) -> Result<Table, String> {
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

pub(super) fn rwlock(env: &Env) -> Result<Table, String> {
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

pub(super) fn spin(env: &Env) -> Result<Table, String> {
    let s = Spin::new()?;
    Ok(Table {
        rows: vec![solo(env, || s.lock_unlock())],
        notes: vec![],
    })
}
