//! The Sphinx/SKaMPI adaptive measurement harness, for suites whose actions are too short or too
//! noisy for IMB's fixed repetition count (the thread and OpenMP suites).
//!
//! IMB times a fixed number of repetitions and trusts the mean. Sphinx instead asks the data
//! whether it is good enough: it first picks how many back-to-back *iterations* one *timing*
//! must cover so the clock's granularity is negligible, then repeats timings until their standard
//! deviation falls below a percentage of their mean (results that never get there are labelled
//! UNSETTLED rather than silently accepted), and can subtract the cost of an empty action run
//! through the same path (corrections that make no sense are labelled UNRELIABLE rather than
//! clipped). Following Sphinx rather than SKaMPI, the cut-off uses the standard deviation, not
//! the standard error, because the number of timings is already bounded and the stricter test
//! is the honest one.
//!
//! The caller owns the clock reads around the action (`timing(iterations) -> seconds`), because
//! some actions must coordinate client threads before and after the timed region. This module
//! only decides how often to call it and what the numbers mean; it prints nothing and needs no
//! MPI.

use std::hint::black_box;
use std::time::Instant;

mod clock;
pub use clock::Clock;

/// How a measurement decides it has seen enough.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// Stop once the standard deviation is at most this percentage of the mean.
    pub cutoff_pct: f64,
    /// Timings taken at least, so a lucky first pair cannot settle a measurement.
    pub min_reps: usize,
    /// Timings taken at most; reaching it means UNSETTLED.
    pub max_reps: usize,
    /// seconds a timing must last at least
    pub min_timing: f64,
    /// The ceiling on iterations per timing, so a free action cannot double forever.
    pub max_iterations: u64,
}

/// Upper bound on `max_reps`: the samples are pre-allocated, and a mistyped huge value must be
/// an error message, not an allocation failure.
pub const MAX_REPS_LIMIT: usize = 1_000_000;

/// A timing must cover at least this many clock ticks, so one tick is at most 0.1 % of it.
const TICKS_PER_TIMING: f64 = 1000.0;
/// ... and at least this long, so even a fine clock leaves the timing well above the cost of
/// the clock reads and of the caller's coordination around them.
const MIN_TIMING_FLOOR: f64 = 1e-4;

impl Policy {
    /// The defaults above, with min_timing from the clock.
    pub fn new(clock: &Clock) -> Policy {
        Policy {
            cutoff_pct: 5.0,
            min_reps: 5,
            max_reps: 100,
            // `f64::max` ignores a NaN resolution, leaving the floor.
            min_timing: (TICKS_PER_TIMING * clock.resolution).max(MIN_TIMING_FLOOR),
            max_iterations: 1 << 30,
        }
    }

    /// Check user values: cutoff_pct finite and >= 0; min_reps >= 2; max_reps >= min_reps (and at
    /// most [`MAX_REPS_LIMIT`]); min_timing finite and > 0; max_iterations >= 1. The error names
    /// the offending value, e.g. "-cutoff -1: must be a percentage >= 0".
    pub fn validate(&self) -> Result<(), String> {
        if !(self.cutoff_pct.is_finite() && self.cutoff_pct >= 0.0) {
            return Err(format!(
                "-cutoff {}: must be a percentage >= 0",
                self.cutoff_pct
            ));
        }
        if self.min_reps < 2 {
            // One timing has no standard deviation to test.
            return Err(format!("-min_reps {}: must be at least 2", self.min_reps));
        }
        if self.max_reps < self.min_reps {
            return Err(format!(
                "-max_reps {}: must be at least -min_reps ({})",
                self.max_reps, self.min_reps
            ));
        }
        if self.max_reps > MAX_REPS_LIMIT {
            return Err(format!(
                "-max_reps {}: must be at most {MAX_REPS_LIMIT}",
                self.max_reps
            ));
        }
        if !(self.min_timing.is_finite() && self.min_timing > 0.0) {
            return Err(format!(
                "-min_timing {}: must be a number of seconds > 0",
                self.min_timing
            ));
        }
        if self.max_iterations == 0 {
            return Err("-max_iterations 0: must be at least 1".to_string());
        }
        Ok(())
    }

    /// The nearest usable policy. `measure` does not return errors, so rather than panic on a
    /// policy that skipped `validate` it bends each value to the closest one that works.
    fn sanitized(&self) -> Policy {
        let min_reps = self.min_reps.clamp(2, MAX_REPS_LIMIT);
        Policy {
            // NaN and negatives become the strictest cut-off (`f64::max` drops the NaN).
            cutoff_pct: self.cutoff_pct.max(0.0),
            min_reps,
            max_reps: self.max_reps.clamp(min_reps, MAX_REPS_LIMIT),
            // A non-positive or NaN minimum means "any timing will do".
            min_timing: self.min_timing.max(0.0),
            max_iterations: self.max_iterations.max(1),
        }
    }
}

/// Why a result should be read with care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags {
    /// The cut-off was never met; the result is the mean of `max_reps` timings.
    pub unsettled: bool,
    /// The overhead correction is anomalous (overhead ≥ measurement, negative, or unsettled).
    pub unreliable: bool,
}

impl Flags {
    /// "UNSETTLED", "UNRELIABLE", "UNSETTLED,UNRELIABLE" or "" (the Sphinx annotations).
    pub fn label(&self) -> String {
        let names = [
            (self.unsettled, "UNSETTLED"),
            (self.unreliable, "UNRELIABLE"),
        ];
        let set: Vec<&str> = names
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        set.join(",")
    }
}

/// One measured action, all times in seconds per iteration.
///
/// With an overhead correction, `mean`, `median`, `min` and `max` are all corrected (shifted by
/// `overhead`) so they stay on one scale and can be printed side by side; `raw_mean` keeps the
/// uncorrected mean and `stddev` is the spread of the action's own timings.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub mean: f64,
    pub raw_mean: f64,
    pub stddev: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Timings of the action that went into the statistics.
    pub timings: usize,
    /// Back-to-back iterations in each timing.
    pub iterations: u64,
    /// The mean cost of the empty action, when a correction was asked for.
    pub overhead: Option<f64>,
    pub flags: Flags,
}

/// Mean, sample standard deviation (n−1), median, min and max of `samples`.
///
/// An empty slice gives NaN everywhere and a single sample a deviation of 0, so no input can
/// panic; a NaN gets a place from `total_cmp` instead of breaking the sort.
pub fn summary(samples: &[f64]) -> (f64, f64, f64, f64, f64) {
    if samples.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN, f64::NAN, f64::NAN);
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    // Two passes rather than the running sums, for the most accurate reported spread.
    let stddev = if samples.len() < 2 {
        0.0
    } else {
        let ss: f64 = samples.iter().map(|x| (x - mean) * (x - mean)).sum();
        (ss / (n - 1.0)).sqrt()
    };
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    // The two middle elements, which are the same one when the length is odd.
    let len = sorted.len();
    let median = (sorted[(len - 1) / 2] + sorted[len / 2]) / 2.0;
    (mean, stddev, median, sorted[0], sorted[sorted.len() - 1])
}

/// Running mean and spread (Welford), so the stop test after each timing costs O(1) and keeps
/// the gap between timings short and constant while client threads wait.
#[derive(Debug, Clone, Copy, Default)]
struct Running {
    n: usize,
    mean: f64,
    m2: f64,
}

impl Running {
    fn push(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// The Sphinx cut-off: sample deviation at most `cutoff_pct` % of the mean. Written so a
    /// zero cut-off demands exactly identical timings.
    fn within(&self, cutoff_pct: f64) -> bool {
        if self.n < 2 {
            return false;
        }
        let stddev = (self.m2 / (self.n - 1) as f64).sqrt();
        stddev <= cutoff_pct / 100.0 * self.mean
    }
}

/// Where one series of timings stands. Each step calls `timing` exactly once, so the whole
/// procedure reads as check → tune → collect instead of nested loops.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Doubling the count until one timing lasts `min_timing`; these timings are discarded.
    Tune {
        iterations: u64,
    },
    /// Keeping timings until the cut-off or `max_reps`.
    Collect {
        iterations: u64,
        running: Running,
    },
    Done {
        iterations: u64,
        settled: bool,
    },
}

impl Phase {
    fn step(
        self,
        policy: &Policy,
        timing: &mut dyn FnMut(u64) -> f64,
        samples: &mut Vec<f64>,
    ) -> Phase {
        match self {
            Phase::Tune { iterations } => {
                let t = timing(iterations);
                // A NaN timing can never reach the minimum; moving on stops it from doubling
                // the count up to `max_iterations` on a broken clock.
                let long_enough = t.is_nan() || t >= policy.min_timing;
                if long_enough || iterations >= policy.max_iterations {
                    Phase::Collect {
                        iterations,
                        running: Running::default(),
                    }
                } else {
                    Phase::Tune {
                        iterations: iterations.saturating_mul(2).min(policy.max_iterations),
                    }
                }
            }
            Phase::Collect {
                iterations,
                mut running,
            } => {
                let per_iteration = timing(iterations) / iterations as f64;
                // Within the capacity reserved up front: no allocation between timings.
                samples.push(per_iteration);
                running.push(per_iteration);
                if running.n >= policy.min_reps && running.within(policy.cutoff_pct) {
                    Phase::Done {
                        iterations,
                        settled: true,
                    }
                } else if running.n >= policy.max_reps {
                    Phase::Done {
                        iterations,
                        settled: false,
                    }
                } else {
                    Phase::Collect {
                        iterations,
                        running,
                    }
                }
            }
            done @ Phase::Done { .. } => done,
        }
    }
}

/// Runs one series from `start` to the end; returns (iterations, settled) with the
/// per-iteration times left in `samples`.
fn series(
    policy: &Policy,
    timing: &mut dyn FnMut(u64) -> f64,
    start: Phase,
    samples: &mut Vec<f64>,
) -> (u64, bool) {
    samples.clear();
    let mut phase = start;
    loop {
        phase = phase.step(policy, timing, samples);
        if let Phase::Done {
            iterations,
            settled,
        } = phase
        {
            return (iterations, settled);
        }
    }
}

/// Measure `timing` (and correct by `overhead` when given).
///
/// `timing(n)` runs the action `n` times back to back and returns the elapsed seconds. The
/// overhead closure has the same shape and runs an empty action through the same harness path;
/// its iteration count starts at the action's and doubles until a timing lasts `min_timing`
/// too, and it follows the same repetition rules. A policy that fails [`Policy::validate`] is bent to the nearest usable
/// one rather than rejected here.
pub fn measure(
    policy: &Policy,
    timing: &mut dyn FnMut(u64) -> f64,
    overhead: Option<&mut dyn FnMut(u64) -> f64>,
) -> Measurement {
    let policy = policy.sanitized();
    let mut samples = Vec::with_capacity(policy.max_reps);

    let (iterations, settled) =
        series(&policy, timing, Phase::Tune { iterations: 1 }, &mut samples);
    let (raw_mean, stddev, median, min, max) = summary(&samples);
    let timings = samples.len();

    let correction = overhead.map(|empty| {
        // Tuned on its own, from the action's count up: an empty action at a slow action's
        // count (a few iterations) would be timed at the clock's resolution and never settle.
        let (_, empty_settled) = series(&policy, empty, Phase::Tune { iterations }, &mut samples);
        let (empty_mean, ..) = summary(&samples);
        (empty_mean, empty_settled)
    });

    let (mean, shift, unreliable) = match correction {
        None => (raw_mean, 0.0, false),
        Some((empty_mean, empty_settled)) => {
            let corrected = raw_mean - empty_mean;
            // The Sphinx anomalies, stated as what a sane correction looks like so that any
            // NaN also lands on the unreliable side.
            let sane = empty_mean < raw_mean && corrected >= 0.0 && empty_settled;
            (corrected, empty_mean, !sane)
        }
    };

    Measurement {
        mean,
        raw_mean,
        stddev,
        median: median - shift,
        min: min - shift,
        max: max - shift,
        timings,
        iterations,
        overhead: correction.map(|(empty_mean, _)| empty_mean),
        flags: Flags {
            unsettled: !settled,
            unreliable,
        },
    }
}

/// Time `iterations` calls of `f` back to back (seconds). Generic, so `f` is inlined into the
/// loop: a call through `dyn FnMut` cost 1 ns per iteration, 8 % of a mutex lock+unlock.
#[inline(always)]
pub fn time_calls<F: FnMut()>(iterations: u64, mut f: F) -> f64 {
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed().as_secs_f64()
}

/// The empty action: what `time_calls` costs with nothing to call (the overhead correction's
/// reference for actions timed that way).
pub fn time_empty(iterations: u64) -> f64 {
    time_calls(iterations, || black_box(()))
}

/// `measure`, with the overhead correction against `time_empty` when `correct` is set.
pub fn measure_corrected(
    policy: &Policy,
    timing: &mut dyn FnMut(u64) -> f64,
    correct: bool,
) -> Measurement {
    if correct {
        measure(policy, timing, Some(&mut time_empty))
    } else {
        measure(policy, timing, None)
    }
}

#[cfg(test)]
mod tests;
