//! The CPU work IMB-IO overlaps with non-blocking I/O (3.0's `CPU_Exploit`).
//!
//! A non-blocking benchmark asks how much of the I/O time the processor can spend on
//! something else, so it needs work whose duration is known in advance. As in IMB 3.0 the work
//! is a dense 100×100 `f32` matrix (all ones) times a 100-vector, accumulated into a result
//! vector: 2·10^4 flops per pass, calibrated once over 2501 passes. Unlike 3.0, the caller
//! picks the number of passes for each message size from the calibration, the working set is
//! allocated up front so a call allocates nothing, and every pass does exactly the same
//! vectorisable arithmetic.

use std::hint::black_box;
use std::time::Instant;

/// Matrix order of the kernel (3.0's value).
const N: usize = 100;
/// Flops of one pass: one multiply and one add per matrix element.
const FLOPS_PER_PASS: f64 = (2 * N * N) as f64;
/// Passes of one calibration run (3.0's value).
const CALIBRATION_PASSES: usize = 2501;
/// Calibration runs; the fastest counts, so one descheduling does not halve the figure.
const CALIBRATION_RUNS: usize = 3;

/// Result of the one-off calibration (cheap to copy; serialisable is not needed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    pub mflops: f64,
    pub passes_per_sec: f64,
}

impl Calibration {
    /// Run the 2501-pass calibration, best of 3 (tens of milliseconds).
    pub fn measure() -> Calibration {
        Self::calibrate(CALIBRATION_PASSES, CALIBRATION_RUNS)
    }

    fn calibrate(passes: usize, runs: usize) -> Calibration {
        let mut work = Work::new();
        let best = (0..runs.max(1))
            .map(|_| {
                let start = Instant::now();
                work.run(passes);
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
            // A clock too coarse to see the run must not give an infinite rate.
            .max(1e-9);
        Calibration {
            mflops: passes as f64 * FLOPS_PER_PASS * 1e-6 / best,
            passes_per_sec: passes as f64 / best,
        }
    }

    /// Passes that take about `secs` seconds: `max(1, round(secs * passes_per_sec))`.
    ///
    /// The float-to-int `as` saturates (and maps NaN and negatives to 0), so no input panics.
    pub fn passes_for(&self, secs: f64) -> usize {
        ((secs * self.passes_per_sec).round() as usize).max(1)
    }
}

/// The kernel's working set, allocated once (untimed) so that [`Work::run`] allocates nothing.
pub struct Work {
    /// Column `j` of the matrix is `a[j]`, so the inner loop walks contiguous memory.
    a: Box<[[f32; N]; N]>,
    x: [f32; N],
    y: [f32; N],
}

impl Default for Work {
    fn default() -> Self {
        Self::new()
    }
}

impl Work {
    pub fn new() -> Work {
        Work {
            a: Box::new([[1.0; N]; N]),
            x: [1.0; N],
            y: [0.0; N],
        }
    }

    /// `passes` passes of `y += A·x`.
    ///
    /// Column-wise axpys keep each `y[i]` a separate sum, so the inner loop vectorises without
    /// reassociating float additions; fixed-size arrays let the bounds checks vanish. The
    /// `black_box` calls stop the compiler from hoisting the product out of the pass loop or
    /// dropping the unused result.
    pub fn run(&mut self, passes: usize) {
        for _ in 0..passes {
            let a: &[[f32; N]; N] = black_box(&self.a);
            let x: &[f32; N] = black_box(&self.x);
            let y: &mut [f32; N] = black_box(&mut self.y);
            for (col, &xj) in a.iter().zip(x) {
                for (yi, &aij) in y.iter_mut().zip(col) {
                    *yi += aij * xj;
                }
            }
        }
    }

    /// The result vector (for tests: it shows the work was done).
    #[cfg(test)]
    fn result(&self) -> &[f32; N] {
        &self.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_for_rounds_and_floors_at_one() {
        let c = Calibration {
            mflops: 1.0,
            passes_per_sec: 1000.0,
        };
        assert_eq!(c.passes_for(0.0104), 10);
        assert_eq!(c.passes_for(0.0106), 11);
        assert_eq!(c.passes_for(0.0), 1);
        assert_eq!(c.passes_for(-1.0), 1);
        assert_eq!(c.passes_for(f64::NAN), 1);
        assert_eq!(c.passes_for(f64::INFINITY), usize::MAX);
    }

    #[test]
    fn run_zero_is_a_no_op_and_run_accumulates() {
        let mut w = Work::new();
        w.run(0);
        assert!(w.result().iter().all(|&v| v == 0.0));
        w.run(3);
        // Ones times ones, three times: every element is exactly 300.
        assert!(w.result().iter().all(|&v| v == 300.0));
        w.run(1000);
        assert!(w.result().iter().all(|v| v.is_finite() && *v > 300.0));
    }

    #[test]
    fn calibration_is_finite_and_positive() {
        let c = Calibration::measure();
        assert!(c.mflops.is_finite() && c.mflops > 0.0);
        assert!(c.passes_per_sec.is_finite() && c.passes_per_sec > 0.0);
        let ratio = c.mflops * 1e6 / c.passes_per_sec;
        assert!((ratio - FLOPS_PER_PASS).abs() < 1e-6 * FLOPS_PER_PASS);
    }
}
