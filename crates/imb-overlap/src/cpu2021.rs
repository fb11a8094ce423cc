//! The CPU work of the overlap benchmarks under `-compat 2021`: IMB 2021's own, sized and timed
//! as IMB 2021 sizes and times it, so that t_CPU/t_pure and overlap[%] compare with IMB-NBC's by
//! construction (doc/METHODOLOGY.md, "imb-nbc"). The default profile keeps `cpu`'s kernel and
//! calibration; the two differ in four ways, each of which moves t_CPU:
//!
//! - **One calibration run, at the first need.** The rate is the passes of one timed run of
//!   50 Mflop (no best of several), taken on each process the first time an overlap benchmark
//!   has a t_pure above zero, that is between the t_pure loop and the overlap loop of the run's
//!   first call, and kept for the rest of the process. A run slowed by another process gives a
//!   rate that is too low for the whole run, and t_CPU reads short of t_pure everywhere; that is
//!   IMB 2021's behaviour on a loaded machine, and this profile keeps it.
//! - **Whole passes in single precision.** IMB 2021 multiplies t_pure, narrowed to `f32`, by
//!   the integer rate in `f32` and truncates, with one pass at least; a small t_pure then gets
//!   one pass, or loses up to one, so t_CPU/t_pure depends on how long a pass takes.
//! - **A sequential pass of the same kind.** IMB 2021 is built without optimisation: every
//!   step of `x[i] += a[i][j]·y[j]` loads its counters, addresses and `x[i]` from memory and
//!   stores `x[i]` back, so a pass is a hundred dependent steps through memory (a few hundred
//!   ns), not a vectorised loop (tens of ns). `Work::run` keeps that shape under any
//!   optimisation, so a pass costs the same kind and about the same time, and the truncation
//!   above weighs the same. The calibration cancels the absolute speed only because it times
//!   this very loop in the same way (one run, `MPI_Wtime`), which is why it is this kernel too.
//! - **One untimed run per call.** Every call of an overlap benchmark, once its t_pure is known,
//!   sizes the work to it and runs it once before the overlap loop's barriers (IMB 2021's
//!   initialising call), then runs the same number of passes in every repetition.

use std::cell::OnceCell;
use std::hint::black_box;

/// Matrix order (IMB 2021's value).
const N: usize = 10;
/// Flops of one pass: a multiply and an add per matrix element.
const FLOPS_PER_PASS: usize = 2 * N * N;
/// Passes of the calibration run: 50 Mflop, plus one.
pub const CALIBRATION_PASSES: usize = 50_000_000 / FLOPS_PER_PASS + 1;

/// A process's rate: whole passes per second, as IMB 2021 keeps it (an `int`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub passes_per_sec: i32,
}

impl Rate {
    /// The rate from the seconds the calibration run took: `⌊CALIBRATION_PASSES / secs⌋` in
    /// double precision. The conversion saturates, so a clock too coarse to see the run gives
    /// the largest rate rather than a panic.
    pub fn from_calibration(secs: f64) -> Rate {
        Rate {
            passes_per_sec: (1.0 / secs * CALIBRATION_PASSES as f64) as i32,
        }
    }

    /// Time one calibration run on `work`, with the MPI clock.
    pub fn measure(work: &mut Work) -> Rate {
        let t0 = mpi::time();
        work.run(CALIBRATION_PASSES);
        Rate::from_calibration(mpi::time() - t0)
    }

    /// Passes for `t_pure` seconds: none when t_pure, narrowed to `f32`, is not above zero
    /// (IMB 2021 then returns before it calibrates or computes); else the truncated `f32`
    /// product with the rate, one at least.
    pub fn passes(self, t_pure: f64) -> usize {
        target(t_pure).map_or(0, |secs| self.passes_for(secs))
    }

    fn passes_for(self, secs: f32) -> usize {
        ((secs * self.passes_per_sec as f32) as i32).max(1) as usize
    }
}

/// t_pure as IMB 2021 receives it (`f32`), if it asks for any work.
fn target(t_pure: f64) -> Option<f32> {
    let secs = t_pure as f32;
    // NaN is not ≤ 0, so it asks for work, as in IMB 2021 (and gets one pass).
    (secs > 0.0 || secs.is_nan()).then_some(secs)
}

/// The run's calibration under `-compat 2021`: empty until the first call that needs it fills
/// it (`Hooks::run_state` builds it, every kernel sees it).
#[derive(Debug, Default)]
pub struct Calibration(pub OnceCell<Rate>);

/// The working set: a 10×10 matrix of ones, a result and an operand vector of zeros (IMB 2021's
/// values; every sum stays 0, so the work never meets a denormal or an overflow).
#[derive(Debug, Clone)]
pub struct Work {
    a: [[f32; N]; N],
    x: [f32; N],
    y: [f32; N],
}

impl Default for Work {
    fn default() -> Self {
        Work {
            a: [[1.0; N]; N],
            x: [0.0; N],
            y: [0.0; N],
        }
    }
}

impl Work {
    /// `passes` passes of `x[i] += a[i][j]·y[j]`, row by row.
    ///
    /// An unoptimised build keeps every variable in memory: it loads the counters, the array
    /// addresses and `x[i]` at each step and stores the counters and `x[i]` back. Passing each
    /// of them through `black_box` at each step does the same here under any optimisation, so
    /// the additions stay one dependent chain through memory, nothing is vectorised, kept in a
    /// register or hoisted out of the pass loop, and a step carries the same kind of
    /// bookkeeping.
    #[inline(always)]
    pub fn run(&mut self, passes: usize) {
        for _ in 0..passes {
            let mut i = 0;
            while black_box(i) < N {
                let mut j = 0;
                while black_box(j) < N {
                    let (a, y) = (black_box(&self.a), black_box(&self.y));
                    let x = black_box(&mut self.x);
                    x[i] += a[i][j] * y[j];
                    j = black_box(j) + 1;
                }
                i = black_box(i) + 1;
            }
        }
    }

    /// The result vector: it shows the work was done.
    pub fn result(&self) -> &[f32; N] {
        &self.x
    }
}

/// One overlap kernel's CPU work: the run's calibration (or, if the kernel was built without
/// one, its own) and a working set.
pub struct Cpu<'a> {
    shared: Option<&'a Calibration>,
    own: Calibration,
    work: Work,
}

impl<'a> Cpu<'a> {
    pub fn new(shared: Option<&'a Calibration>) -> Self {
        Cpu {
            shared,
            own: Calibration::default(),
            work: Work::default(),
        }
    }

    /// Untimed, once t_pure is known: calibrate if this process has not yet, size the work,
    /// run it once; the passes each repetition of the overlap loop then runs.
    pub fn prepare(&mut self, t_pure: f64) -> usize {
        let Some(secs) = target(t_pure) else {
            return 0;
        };
        let cell = &self.shared.unwrap_or(&self.own).0;
        let work = &mut self.work;
        let passes = cell.get_or_init(|| Rate::measure(work)).passes_for(secs);
        work.run(passes);
        passes
    }

    #[inline(always)]
    pub fn run(&mut self, passes: usize) {
        self.work.run(passes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_passes_are_fifty_megaflop() {
        assert_eq!(CALIBRATION_PASSES, 250_001);
        assert_eq!(FLOPS_PER_PASS, 200);
    }

    #[test]
    fn rate_truncates_passes_per_second() {
        // 250 001 passes in 0.1 s: 2 500 010 a second.
        assert_eq!(Rate::from_calibration(0.1).passes_per_sec, 2_500_010);
        // 250 001 / 0.3 = 833 336.67.
        assert_eq!(Rate::from_calibration(0.3).passes_per_sec, 833_336);
        assert_eq!(Rate::from_calibration(0.0).passes_per_sec, i32::MAX);
    }

    #[test]
    fn passes_truncate_in_single_precision_with_one_at_least() {
        let r = Rate {
            passes_per_sec: 3_000_000,
        };
        assert_eq!(r.passes(1e-6), 3);
        assert_eq!(r.passes(0.9e-6), 2);
        assert_eq!(r.passes(0.1e-6), 1);
        assert_eq!(r.passes(1e-3), 3000);
        // No time, or a time below f32's range: no work.
        assert_eq!(r.passes(0.0), 0);
        assert_eq!(r.passes(-1.0), 0);
        assert_eq!(r.passes(1e-50), 0);
        assert_eq!(r.passes(f64::NAN), 1);
        // The product is single precision: 16 777 217 is not an f32.
        let big = Rate {
            passes_per_sec: 16_777_217,
        };
        assert_eq!(big.passes(1.0), 16_777_216);
    }

    #[test]
    fn work_keeps_imb_2021s_values() {
        let mut w = Work::default();
        w.run(0);
        w.run(5);
        assert_eq!(w.result(), &[0.0; N]);
        w.y = [1.0; N];
        w.run(3);
        assert_eq!(w.result(), &[30.0; N]);
    }

    #[test]
    fn prepare_calibrates_once_and_only_when_asked_for_work() {
        let cal = Calibration::default();
        let mut a = Cpu::new(Some(&cal));
        assert_eq!(a.prepare(0.0), 0);
        assert!(cal.0.get().is_none());
        let p = a.prepare(1e-6);
        let rate = *cal.0.get().expect("calibrated");
        assert!(rate.passes_per_sec > 0);
        assert_eq!(p, rate.passes(1e-6));
        // A second kernel of the run reuses the rate.
        let mut b = Cpu::new(Some(&cal));
        assert_eq!(b.prepare(1e-6), p);
        assert_eq!(*cal.0.get().unwrap(), rate);
        // Without the run's calibration a kernel calibrates for itself.
        let mut c = Cpu::new(None);
        assert!(c.prepare(1e-6) >= 1);
        assert!(c.own.0.get().is_some());
    }
}
