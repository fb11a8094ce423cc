//! The stopping rule of `-adaptive` in the MPI suites: a size's n_sample loop is split into
//! several shorter timings, and more are added until a distribution-free confidence interval of
//! their median is narrow enough, within a fixed budget of timings.
//!
//! Why the median and not the mean (the Sphinx rule of `adaptive`, which imb-threads keeps): on
//! a shared node a timing is either clean or hit by an interruption that costs many times the
//! pattern, so the timings are skewed and the mean moves with every hit while the median does
//! not. Why an order-statistic interval: it needs no assumption about that skewed distribution
//! and no resampling (a bootstrap would draw random numbers between timings), and it is exact
//! for any count. Why a budget of timings rather than an open end: a size that never settles
//! within twice the standard run's repetitions is reported UNSETTLED, which is the finding;
//! repeating it a hundred times more only makes the run slow (doc/METHODOLOGY.md, "-adaptive").

/// Coverage the interval aims at.
pub const LEVEL: f64 = 0.95;

/// How one size is measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Settled when the interval's half-width is at most this percentage of the median.
    pub cutoff_pct: f64,
    /// Timings taken before the first test; the n_sample loop is split into this many.
    pub min_timings: usize,
    /// Timings taken at most; reaching it unsettled means UNSETTLED.
    pub max_timings: usize,
}

/// The result for one size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub median: f64,
    /// The confidence interval of the median.
    pub lo: f64,
    pub hi: f64,
    /// Its coverage: [`LEVEL`] or more, less only for fewer than 6 timings (min..max of 5 covers
    /// 93.75 %).
    pub coverage: f64,
    pub timings: usize,
    pub settled: bool,
}

/// P(X = i) for X ~ Binomial(n, 1/2), i = 0, 1, ..., in logarithms: ln C(n, i+1) =
/// ln C(n, i) + ln((n-i)/(i+1)), since 2^-n underflows past n = 1074.
fn binomial_half_pmf(n: usize) -> impl Iterator<Item = f64> {
    let base = -(n as f64) * std::f64::consts::LN_2;
    (0..=n).scan(0.0, move |ln_c: &mut f64, i| {
        let p = (*ln_c + base).exp();
        *ln_c += ((n - i) as f64 / (i + 1) as f64).ln();
        Some(p)
    })
}

/// P(X <= k) for X ~ Binomial(n, 1/2).
#[cfg(test)]
fn binomial_half_cdf(n: usize, k: usize) -> f64 {
    binomial_half_pmf(n).take(k + 1).sum::<f64>().min(1.0)
}

/// The order statistics `[x(j), x(n+1-j)]` (1-based j) that bound the median of `n` timings,
/// and their coverage: the largest j whose coverage `1 - 2 P(X <= j-1)` is still at least
/// [`LEVEL`], and j = 1 (min..max) when none is. One pass over the binomial terms, so a test
/// between timings costs microseconds even at `MAX_TIMINGS`.
pub fn ci_rank(n: usize) -> (usize, f64) {
    let tail = (1.0 - LEVEL) / 2.0;
    // After term i, cdf = P(X <= i), which is P(X <= j - 1) for rank j = i + 1: that rank is
    // valid while it stays within the tail. Rank 1 (min..max) is the fallback whatever it covers.
    let mut cdf = 0.0;
    let mut j = 1;
    let mut below = 0.0;
    for (i, p) in binomial_half_pmf(n).enumerate() {
        cdf += p;
        let rank = i + 1;
        if rank > 1 && (rank > n.div_ceil(2) || cdf > tail) {
            break;
        }
        j = rank;
        below = cdf;
    }
    (j, (1.0 - 2.0 * below).max(0.0))
}

/// The largest `-max_reps` of `-adaptive`: twenty times the default budget is already far past
/// the point where more timings change the verdict.
pub const MAX_TIMINGS: usize = 1000;

/// The index of the median of `n` items ordered by `cmp`: the lower of the two middle ones for
/// an even count, so the median is always one real timing; None for no items.
pub fn median_index(
    n: usize,
    mut cmp: impl FnMut(usize, usize) -> std::cmp::Ordering,
) -> Option<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order.get(n.checked_sub(1)? / 2).copied()
}

/// Median (the lower middle timing for an even count, as [`median_index`]) and interval of
/// `sorted` (ascending, not empty).
pub fn estimate(sorted: &[f64], cutoff_pct: f64) -> Estimate {
    let n = sorted.len();
    let median = sorted[(n - 1) / 2];
    let (j, coverage) = ci_rank(n);
    let (lo, hi) = (sorted[j - 1], sorted[n - j]);
    Estimate {
        median,
        lo,
        hi,
        coverage,
        timings: n,
        // Written so NaN timings never settle and a zero cut-off demands identical timings.
        settled: n >= 2 && (hi - lo) / 2.0 <= cutoff_pct / 100.0 * median,
    }
}

/// Take timings from `timing` under `rule`. `scratch` is cleared and must hold `max_timings`
/// values without growing, so nothing is allocated between timings.
pub fn run(rule: &Rule, timing: &mut dyn FnMut() -> f64, scratch: &mut Vec<f64>) -> Estimate {
    let min = rule.min_timings.max(2);
    let max = rule.max_timings.max(min);
    scratch.clear();
    loop {
        let t = timing();
        // Kept sorted by insertion: at most a few dozen values, and the test needs the order.
        let at = scratch.partition_point(|&x| x.total_cmp(&t).is_lt());
        scratch.insert(at, t);
        if scratch.len() >= min {
            let e = estimate(scratch, rule.cutoff_pct);
            if e.settled || scratch.len() >= max {
                return e;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tail() {
        assert!((binomial_half_cdf(5, 0) - 1.0 / 32.0).abs() < 1e-15);
        assert!((binomial_half_cdf(10, 1) - 11.0 / 1024.0).abs() < 1e-15);
        assert!((binomial_half_cdf(4, 4) - 1.0).abs() < 1e-15);
        // Large counts neither underflow nor lose the sum.
        assert!((binomial_half_cdf(2000, 2000) - 1.0).abs() < 1e-9);
        assert!((binomial_half_cdf(2000, 1000) - 0.5089).abs() < 1e-3);
    }

    #[test]
    fn ranks_and_coverage() {
        // min..max of 5 covers 1 - 2/32; from 9 timings the second-smallest bound reaches 95 %.
        assert_eq!(ci_rank(5).0, 1);
        assert!((ci_rank(5).1 - 0.9375).abs() < 1e-12);
        assert_eq!(ci_rank(8).0, 1);
        assert_eq!(ci_rank(9).0, 2);
        assert!((ci_rank(9).1 - (1.0 - 20.0 / 512.0)).abs() < 1e-12);
        assert_eq!(ci_rank(10).0, 2);
        for n in 6..=MAX_TIMINGS {
            let (j, c) = ci_rank(n);
            assert!(c >= LEVEL && j <= n.div_ceil(2), "{n}: {j} {c}");
            // The widest rank that still covers: one more would not.
            let cover = |j: usize| 1.0 - 2.0 * binomial_half_cdf(n, j - 1);
            assert!((c - cover(j)).abs() < 1e-9, "{n}");
            assert!(j == n.div_ceil(2) || cover(j + 1) < LEVEL, "{n}: {j}");
        }
        assert_eq!(ci_rank(2), (1, 0.5));
    }

    fn series(values: &[f64]) -> impl FnMut() -> f64 + '_ {
        let mut k = 0;
        move || {
            let v = values[k % values.len()];
            k += 1;
            v
        }
    }

    #[test]
    fn one_interrupted_timing_does_not_unsettle() {
        let rule = Rule {
            cutoff_pct: 5.0,
            min_timings: 5,
            max_timings: 10,
        };
        let mut scratch = Vec::with_capacity(10);
        // Four clean timings and one hit by a 3x interruption: min..max is wide, so a sixth is
        // taken; with 6 the interval is still min..max, and so on until the budget ends.
        let e = run(
            &rule,
            &mut series(&[1.0, 1.01, 3.0, 0.99, 1.0, 1.0, 1.02, 0.98, 1.0, 1.0]),
            &mut scratch,
        );
        assert_eq!(e.timings, 9, "{e:?}");
        assert!(
            e.settled && e.median == 1.0 && e.lo == 0.99 && e.hi == 1.02,
            "{e:?}"
        );
        // Clean timings settle at the minimum.
        let e = run(&rule, &mut series(&[1.0, 1.02, 0.99]), &mut scratch);
        assert_eq!((e.timings, e.settled), (5, true));
        // Two levels never settle: the budget ends it.
        let e = run(&rule, &mut series(&[1.0, 3.0]), &mut scratch);
        assert_eq!((e.timings, e.settled), (10, false));
        assert_eq!(scratch.capacity(), 10, "no growth");
    }

    #[test]
    fn the_median_is_a_real_timing() {
        let v = [3.0f64, 1.0, 4.0, 2.0];
        assert_eq!(median_index(4, |a, b| v[a].total_cmp(&v[b])), Some(3));
        assert_eq!(median_index(3, |a, b| v[a].total_cmp(&v[b])), Some(0));
        assert_eq!(median_index(0, |_, _| std::cmp::Ordering::Equal), None);
        assert_eq!(estimate(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 100.0).median, 3.0);
    }

    #[test]
    fn zero_cutoff_and_nan() {
        let rule = Rule {
            cutoff_pct: 0.0,
            min_timings: 2,
            max_timings: 3,
        };
        let mut scratch = Vec::with_capacity(3);
        assert!(run(&rule, &mut series(&[2.0]), &mut scratch).settled);
        assert!(!run(&rule, &mut series(&[f64::NAN]), &mut scratch).settled);
        let odd = Rule {
            min_timings: 0,
            max_timings: 0,
            ..rule
        };
        assert_eq!(run(&odd, &mut series(&[2.0, 3.0]), &mut scratch).timings, 2);
    }
}
