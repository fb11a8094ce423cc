//! The statistics of a comparison: medians, launch-to-launch spread, and the rank test that
//! decides whether two sides' launches differ beyond their noise.

/// Median of a non-empty slice (the mean of the two middle values for an even count), from the
/// engine's `adaptive::summary`.
pub fn median(xs: &[f64]) -> f64 {
    imb_harness::adaptive::summary(xs).2
}

/// Sample standard deviation over the mean; NaN below two values or for a zero mean.
pub fn cv(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return f64::NAN;
    }
    let (mean, sd, ..) = imb_harness::adaptive::summary(xs);
    sd / mean
}

/// The per-cell significance level.
pub const ALPHA: f64 = 0.01;

/// Above this many launch pairs the rank statistic is taken as normal (exact counts would cost
/// (m n)^2 steps).
const EXACT_PAIRS: usize = 2500;

/// How many orderings of m + n distinct values give each U = 0 ..= m n (U: pairs with the
/// first sample's value below the second's).
fn u_counts(m: usize, n: usize) -> Vec<f64> {
    let top = m * n;
    // f[j][u] for the current i: arrangements of i values of the first sample and j of the
    // second with statistic u. Adding the i-th first-sample value as the largest puts it above
    // all j second-sample values: f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u).
    let mut prev = vec![vec![0.0; top + 1]; n + 1];
    for row in prev.iter_mut() {
        row[0] = 1.0;
    }
    for _ in 1..=m {
        let mut cur = vec![vec![0.0; top + 1]; n + 1];
        cur[0][0] = 1.0;
        for j in 1..=n {
            for u in 0..=top {
                let a = if u >= j { prev[j][u - j] } else { 0.0 };
                cur[j][u] = a + cur[j - 1][u];
            }
        }
        prev = cur;
    }
    prev.swap_remove(n)
}

/// The two-sided p-value of the Mann-Whitney test of `a` against `b` (ties count one half).
pub fn mann_whitney_p(a: &[f64], b: &[f64]) -> f64 {
    let (m, n) = (a.len(), b.len());
    // Twice U, so ties stay integral: pairs with a below b count 2, ties 1.
    let u2: usize = a
        .iter()
        .map(|x| {
            b.iter()
                .map(|y| match x.total_cmp(y) {
                    std::cmp::Ordering::Less => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 0,
                })
                .sum::<usize>()
        })
        .sum();
    let mean2 = m * n; // E[2U]
    let dist2 = u2.abs_diff(mean2); // |2U - E[2U]|
    if m * n <= EXACT_PAIRS {
        let counts = u_counts(m, n);
        let total: f64 = counts.iter().sum();
        // P(|2U' - mn| >= dist2) under the null, U' over the no-ties distribution.
        let tail: f64 = counts
            .iter()
            .enumerate()
            .filter(|(u, _)| (2 * u).abs_diff(mean2) >= dist2)
            .map(|(_, c)| c)
            .sum();
        (tail / total).min(1.0)
    } else {
        let (mf, nf) = (m as f64, n as f64);
        let sd = (mf * nf * (mf + nf + 1.0) / 12.0).sqrt();
        // Continuity-corrected normal tail, both sides.
        let z = ((dist2 as f64 / 2.0) - 0.5).max(0.0) / sd;
        (2.0 * normal_upper(z)).min(1.0)
    }
}

/// P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26 for erfc, |error| < 1.5e-7).
fn normal_upper(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    0.5 * poly * (-x * x).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mann_whitney() {
        // 5 against 5, all apart: 2 of the 252 orderings are as extreme.
        let lo = [1.0, 2.0, 3.0, 4.0, 5.0];
        let hi = [6.0, 7.0, 8.0, 9.0, 10.0];
        assert!((mann_whitney_p(&lo, &hi) - 2.0 / 252.0).abs() < 1e-12);
        assert!((mann_whitney_p(&hi, &lo) - 2.0 / 252.0).abs() < 1e-12);
        assert!((mann_whitney_p(&lo, &lo) - 1.0).abs() < 1e-12);
        // One launch of each side swapped: no longer below 1 %.
        let a = [1.0, 2.0, 3.0, 4.0, 6.0];
        let b = [5.0, 7.0, 8.0, 9.0, 10.0];
        assert!(mann_whitney_p(&a, &b) > ALPHA);
        // Counts add up to C(m + n, m).
        let c = u_counts(3, 4);
        assert_eq!(c.iter().sum::<f64>(), 35.0);
        assert_eq!((c[0], c[12]), (1.0, 1.0));
        // The normal approximation takes over for many launches and agrees in size.
        let big_a: Vec<f64> = (0..60).map(f64::from).collect();
        let big_b: Vec<f64> = (0..60).map(|x| f64::from(x) + 30.0).collect();
        let p = mann_whitney_p(&big_a, &big_b);
        assert!(p > 0.0 && p < 1e-6, "{p}");
        assert!((normal_upper(1.959_964) - 0.025).abs() < 1e-6);
    }

    #[test]
    fn statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(cv(&[1.0]).is_nan());
        assert!((cv(&[1.0, 3.0]) - 2f64.sqrt() / 2.0).abs() < 1e-12);
    }
}
