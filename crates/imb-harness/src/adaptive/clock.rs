//! The clock the harness sets results against: its resolution and the cost of one read.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// What the clock can resolve and what reading it costs, both in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    pub resolution: f64,
    pub read_cost: f64,
}

/// Tries for the resolution: enough to see the true tick past scheduler noise.
const RESOLUTION_TRIES: u32 = 1000;
/// A bound on the resolution search, so a coarse clock (one tick per millisecond or worse) does
/// not turn 1000 tries into seconds of start-up.
const RESOLUTION_BUDGET: Duration = Duration::from_millis(50);
/// Reads averaged for the read cost: many, because one read is tens of nanoseconds.
const READ_COST_READS: u32 = 100_000;

impl Clock {
    /// Calibrate `Instant` once, so results can be set against what the clock can see.
    pub fn measure() -> Clock {
        Clock {
            resolution: resolution(),
            read_cost: read_cost(),
        }
    }
}

/// The smallest non-zero step between consecutive readings. The minimum, not the mean, because
/// preemption only ever makes a step look longer.
fn resolution() -> f64 {
    let start = Instant::now();
    let mut best = Duration::MAX;
    for _ in 0..RESOLUTION_TRIES {
        let a = Instant::now();
        let step = loop {
            let b = Instant::now();
            if b > a {
                break b - a;
            }
        };
        best = best.min(step);
        if start.elapsed() > RESOLUTION_BUDGET {
            break;
        }
    }
    best.as_secs_f64()
}

/// The average cost of one `Instant::now()`; `black_box` keeps the reads from being elided.
fn read_cost() -> f64 {
    let start = Instant::now();
    for _ in 0..READ_COST_READS {
        black_box(Instant::now());
    }
    start.elapsed().as_secs_f64() / f64::from(READ_COST_READS)
}
