//! The CPU work IMB-NBC overlaps with a non-blocking collective (IMB 2021's `CPU_Exploit`).
//!
//! The overlap question is how much of a collective's time a process can spend computing, so
//! the work must last about as long as the collective alone (t_pure), which for small messages
//! is well under a microsecond. As in IMB 2021 a pass is therefore tiny: a 10×10 `f32` matrix
//! (all ones) times a 10-vector accumulated into a result, 200 flops. The speed is calibrated
//! once per process over 50 Mflop (IMB 2021's amount); here the fastest of three runs counts, so
//! one descheduling does not halve it. The work never calls MPI: like IMB 2021 it does not test
//! the request while computing, so the overlap shows what the MPI library progresses on its
//! own (doc/METHODOLOGY.md, "imb-nbc").

use std::hint::black_box;
use std::time::Instant;

/// Matrix order of the kernel (IMB 2021's value).
const N: usize = 10;
/// Flops of one pass: one multiply and one add per matrix element.
const FLOPS_PER_PASS: f64 = (2 * N * N) as f64;
/// Passes of one calibration run: 50 Mflop, as IMB 2021.
const CALIBRATION_PASSES: usize = 50_000_000 / (2 * N * N) + 1;
/// Calibration runs; the fastest counts.
const CALIBRATION_RUNS: usize = 3;

/// This process's calibrated speed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    pub mflops: f64,
    pub passes_per_sec: f64,
}

impl Calibration {
    /// Run the calibration (three runs of tens of milliseconds each).
    pub fn measure() -> Calibration {
        Self::calibrate(CALIBRATION_PASSES, CALIBRATION_RUNS)
    }

    fn calibrate(passes: usize, runs: usize) -> Calibration {
        let mut work = Work::default();
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

    /// Passes that take about `secs` seconds: none for no time (IMB 2021 skips the work when
    /// t_pure is 0), else `max(1, ⌊secs · passes_per_sec⌋)`. The float-to-int `as` saturates
    /// and maps NaN to 0, so no input panics.
    pub fn passes_for(&self, secs: f64) -> usize {
        if secs.is_nan() || secs <= 0.0 {
            return 0;
        }
        ((secs * self.passes_per_sec) as usize).max(1)
    }
}

/// The kernel's working set; [`Work::run`] allocates nothing.
pub struct Work {
    /// Row `i` of the matrix is `a[i]`.
    a: [[f32; N]; N],
    x: [f32; N],
    y: [f32; N],
}

impl Default for Work {
    fn default() -> Self {
        Work {
            a: [[1.0; N]; N],
            x: [1.0; N],
            y: [0.0; N],
        }
    }
}

impl Work {
    /// `passes` passes of `y += A·x`. The `black_box` calls stop the compiler from hoisting
    /// the product out of the pass loop or dropping the unused result.
    #[inline(always)]
    pub fn run(&mut self, passes: usize) {
        for _ in 0..passes {
            let a: &[[f32; N]; N] = black_box(&self.a);
            let x: &[f32; N] = black_box(&self.x);
            let y: &mut [f32; N] = black_box(&mut self.y);
            for (yi, row) in y.iter_mut().zip(a) {
                for (&aij, &xj) in row.iter().zip(x) {
                    *yi += aij * xj;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_for_truncates_floors_at_one_and_skips_no_time() {
        let c = Calibration {
            mflops: 1.0,
            passes_per_sec: 1000.0,
        };
        assert_eq!(c.passes_for(0.0109), 10);
        assert_eq!(c.passes_for(0.0001), 1);
        assert_eq!(c.passes_for(0.0), 0);
        assert_eq!(c.passes_for(-1.0), 0);
        assert_eq!(c.passes_for(f64::NAN), 0);
        assert_eq!(c.passes_for(f64::INFINITY), usize::MAX);
    }

    #[test]
    fn run_accumulates() {
        let mut w = Work::default();
        w.run(0);
        assert!(w.y.iter().all(|&v| v == 0.0));
        w.run(3);
        // Ones times ones, ten per row, three times.
        assert!(w.y.iter().all(|&v| v == 30.0));
    }

    #[test]
    fn calibration_is_finite_and_positive() {
        let c = Calibration::calibrate(10_000, 2);
        assert!(c.mflops.is_finite() && c.mflops > 0.0);
        let ratio = c.mflops * 1e6 / c.passes_per_sec;
        assert!((ratio - FLOPS_PER_PASS).abs() < 1e-6 * FLOPS_PER_PASS);
    }
}
