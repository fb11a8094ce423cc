//! What reading the run's clock costs and how fine it is, measured once per host before the
//! first benchmark: the mean time of a read over consecutive reads, and the smallest step
//! between two reads that differ, beside the tick the library claims (`MPI_Wtick`). The
//! figures describe the clock; nothing judges them.

use serde::{Deserialize, Serialize};

/// Consecutive reads for the cost.
pub const READS: usize = 1000;
/// Steps to see for the resolution, and the most reads spent looking for them.
const STEPS: usize = 16;
const MAX_READS: usize = 200_000;

/// A clock's cost and resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClockFacts {
    /// The clock read, e.g. `MPI_Wtime`.
    pub clock: String,
    /// Consecutive reads behind `overhead_ns`.
    pub reads: usize,
    /// The mean time of one read, in nanoseconds.
    pub overhead_ns: Option<f64>,
    /// The smallest non-zero difference between two consecutive reads, in nanoseconds; None
    /// when no read differed from the one before within the reads spent looking.
    pub min_step_ns: Option<f64>,
    /// The tick the library claims, in seconds (`MPI_Wtick`).
    pub tick_s: Option<f64>,
}

/// Measure `now` (seconds): `READS` reads in a row for the cost, then reads until `STEPS`
/// steps are seen (at most `MAX_READS`) for the smallest step.
pub fn measure(name: &str, now: &dyn Fn() -> f64, tick_s: Option<f64>) -> ClockFacts {
    let mut t = vec![0.0f64; READS];
    for x in t.iter_mut() {
        *x = now();
    }
    let span = t[READS - 1] - t[0];
    let overhead_ns = (span.is_finite() && span >= 0.0).then(|| span / (READS - 1) as f64 * 1e9);
    let mut min_step = steps(&t);
    let mut seen = t.windows(2).filter(|w| w[1] > w[0]).count();
    let mut reads = READS;
    let mut last = t[READS - 1];
    while seen < STEPS && reads < MAX_READS {
        let x = now();
        reads += 1;
        if x > last {
            let d = x - last;
            min_step = Some(min_step.map_or(d, |m: f64| m.min(d)));
            seen += 1;
        }
        last = x;
    }
    ClockFacts {
        clock: name.to_string(),
        reads: READS,
        overhead_ns,
        min_step_ns: min_step.map(|s| s * 1e9),
        tick_s,
    }
}

/// The smallest positive difference of consecutive values, in the values' unit.
pub fn steps(t: &[f64]) -> Option<f64> {
    t.windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .fold(None, |m: Option<f64>, d| Some(m.map_or(d, |m| m.min(d))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A clock that advances 1 µs every 10 reads: reads cost 0.1 µs, steps are 1 µs.
    #[test]
    fn a_coarse_clock() {
        let n = Cell::new(0u64);
        let now = || {
            n.set(n.get() + 1);
            (n.get() / 10) as f64 * 1e-6
        };
        let f = measure("fake", &now, Some(1e-6));
        assert_eq!(f.reads, READS);
        let o = f.overhead_ns.unwrap();
        assert!((o - 100.0).abs() < 1.0, "{o}");
        assert!((f.min_step_ns.unwrap() - 1000.0).abs() < 1e-6);
        assert_eq!(f.tick_s, Some(1e-6));
    }

    /// A clock that never moves has no step; the search for one is bounded.
    #[test]
    fn a_stopped_clock() {
        let f = measure("stopped", &|| 5.0, None);
        assert_eq!(f.overhead_ns, Some(0.0));
        assert_eq!(f.min_step_ns, None);
        assert_eq!(steps(&[1.0, 1.0, 3.0, 3.5]), Some(0.5));
        assert_eq!(steps(&[2.0, 1.0]), None);
    }
}
