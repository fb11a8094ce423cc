//! Rust-native equivalents of the sync family, measured the EPCC way (the same calibrated
//! delay, the same reference), so the two worlds can be compared on one machine: a fork-join
//! with `std::thread::scope` (PARALLEL), `std::sync::Barrier` (BARRIER), `std::sync::Mutex`
//! (CRITICAL) and an atomic increment (ATOMIC). Team threads are started before the timer and
//! meet at a start barrier, so only the construct is timed (plus one closing barrier per test,
//! spread over innerreps).

use crate::ffi;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Native {
    ForkJoin,
    Barrier,
    Mutex,
    Atomic,
}

/// Run `work(thread index)` on a team of `n` threads between two barriers; seconds between them.
fn team(n: usize, work: &(dyn Fn(usize) + Sync)) -> f64 {
    let gate = Barrier::new(n);
    std::thread::scope(|s| {
        for i in 1..n {
            let gate = &gate;
            s.spawn(move || {
                gate.wait();
                work(i);
                gate.wait();
            });
        }
        gate.wait();
        let t0 = ffi::wtime();
        work(0);
        gate.wait();
        ffi::wtime() - t0
    })
}

/// The test: seconds for `inner` constructs with `n` threads.
pub fn test(kind: Native, n: usize, inner: u64, delay: i32) -> f64 {
    let n = n.max(1);
    match kind {
        Native::ForkJoin => {
            let t0 = ffi::wtime();
            for _ in 0..inner {
                std::thread::scope(|s| {
                    for _ in 1..n {
                        s.spawn(|| ffi::delay(delay));
                    }
                    ffi::delay(delay);
                });
            }
            ffi::wtime() - t0
        }
        Native::Barrier => {
            let b = Barrier::new(n);
            team(n, &|_| {
                for _ in 0..inner {
                    ffi::delay(delay);
                    b.wait();
                }
            })
        }
        Native::Mutex => {
            let m = std::sync::Mutex::new(());
            let per = inner / n as u64;
            team(n, &|_| {
                for _ in 0..per {
                    let _g = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    ffi::delay(delay);
                }
            })
        }
        Native::Atomic => {
            let a = AtomicU64::new(0);
            let per = inner / n as u64;
            let t = team(n, &|_| {
                for _ in 0..per {
                    a.fetch_add(1, Ordering::SeqCst);
                }
            });
            std::hint::black_box(a.load(Ordering::Relaxed));
            t
        }
    }
}

/// The reference on one thread: the delays (or increments) alone.
pub fn reference(kind: Native, inner: u64, delay: i32) -> f64 {
    match kind {
        Native::Atomic => {
            let t0 = ffi::wtime();
            let mut x = 0u64;
            for _ in 0..inner {
                x = std::hint::black_box(x + 1);
            }
            std::hint::black_box(x);
            ffi::wtime() - t0
        }
        _ => ffi::time_delay(delay, inner.min(i64::MAX as u64) as i64),
    }
}
