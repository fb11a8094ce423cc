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
pub(crate) fn normal_upper(z: f64) -> f64 {
    // The approximation holds for z >= 0; the other half by symmetry.
    if z < 0.0 {
        return 1.0 - normal_upper(-z);
    }
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    0.5 * poly * (-x * x).exp()
}

/// The largest `c` with P(U <= c) <= `tail` under the null hypothesis for `m` and `n` values
/// (U: pairs with the first sample's value below the second's); `None` when even U = 0 is
/// more likely than that: then no interval at that confidence exists.
fn u_critical(m: usize, n: usize, tail: f64) -> Option<usize> {
    if m == 0 || n == 0 {
        return None;
    }
    if m * n <= EXACT_PAIRS {
        let counts = u_counts(m, n);
        let total: f64 = counts.iter().sum();
        let mut cum = 0.0;
        let mut best = None;
        for (c, k) in counts.iter().enumerate() {
            cum += k;
            // A little slack for the rounding of the sum: 2/252 must count as 2/252.
            if cum / total <= tail * (1.0 + 1e-9) {
                best = Some(c);
            } else {
                break;
            }
        }
        best
    } else {
        let (mf, nf) = (m as f64, n as f64);
        let sd = (mf * nf * (mf + nf + 1.0) / 12.0).sqrt();
        let c = (mf * nf / 2.0 - normal_quantile(1.0 - tail) * sd - 0.5).floor();
        (c >= 0.0).then_some(c as usize)
    }
}

/// z with P(Z > z) = 1 - q, by bisection on [`normal_upper`].
fn normal_quantile(q: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0f64, 10.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if 1.0 - normal_upper(mid) < q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// x / y for two figures: 0 / 0 is 1 (the same figure), x / 0 is infinite.
fn ratio_of(x: f64, y: f64) -> f64 {
    if y > 0.0 {
        x / y
    } else if x == 0.0 {
        1.0
    } else {
        f64::INFINITY
    }
}

/// The distribution-free `confidence` interval of the ratio of `x`'s location to `y`'s: the
/// Hodges-Lehmann interval of the rank test on the logarithms, i.e. the order statistics
/// `c + 1` and `m n - c` of the `m n` launch-pair ratios x_i / y_j, with `c` the rank test's
/// critical value. It assumes only that one side's launches are the other's scaled (a shift on
/// a log scale). `None` when the launches are too few for any interval at that confidence
/// (one a side can never give one), or a figure is negative.
pub fn ratio_interval(x: &[f64], y: &[f64], confidence: f64) -> Option<(f64, f64)> {
    if x.iter().chain(y).any(|v| *v < 0.0 || !v.is_finite()) {
        return None;
    }
    let c = u_critical(x.len(), y.len(), (1.0 - confidence) / 2.0)?;
    let mut r: Vec<f64> = x
        .iter()
        .flat_map(|a| y.iter().map(move |b| ratio_of(*a, *b)))
        .collect();
    r.sort_by(f64::total_cmp);
    Some((r[c], r[r.len() - 1 - c]))
}

/// P(B <= k) for B ~ Binomial(n, p).
fn binomial_cdf(n: usize, p: f64, k: usize) -> f64 {
    let mut term = (1.0 - p).powi(n as i32);
    let mut sum = term;
    for i in 1..=k.min(n) {
        term *= (n - i + 1) as f64 / i as f64 * p / (1.0 - p);
        sum += term;
    }
    sum.min(1.0)
}

/// The distribution-free `confidence` interval of the `p` quantile (0.5: the median) of the
/// population `x` was drawn from: two order statistics chosen by the binomial law. `None` when
/// `x` has too few values for that confidence (a median needs 6 at 95 %, 8 at 99 %).
pub fn quantile_interval(x: &[f64], p: f64, confidence: f64) -> Option<(f64, f64)> {
    let n = x.len();
    if n == 0 || x.iter().any(|v| !v.is_finite()) || !(0.0..1.0).contains(&p) || p == 0.0 {
        return None;
    }
    let tail = (1.0 - confidence) / 2.0;
    // Lower: the largest l (1-based) with P(B <= l - 1) <= tail; upper: the smallest u with
    // P(B >= u) <= tail.
    let l = (1..=n)
        .rev()
        .find(|&l| binomial_cdf(n, p, l - 1) <= tail * (1.0 + 1e-9))?;
    let u = (1..=n).find(|&u| 1.0 - binomial_cdf(n, p, u - 1) <= tail * (1.0 + 1e-9))?;
    let mut s = x.to_vec();
    s.sort_by(f64::total_cmp);
    Some((s[l - 1], s[u - 1]))
}

/// The `p` quantile of `x` (linear between order statistics; 0 the least, 1 the largest).
pub fn quantile(x: &[f64], p: f64) -> f64 {
    let mut s = x.to_vec();
    s.sort_by(f64::total_cmp);
    let at = p.clamp(0.0, 1.0) * (s.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    s[lo] + (s[hi] - s[lo]) * (at - lo as f64)
}

/// The fewest launches a side for which [`ratio_interval`] exists at `confidence` with the
/// same count on both sides.
pub fn launches_needed(confidence: f64) -> usize {
    (1..=50)
        .find(|&k| u_critical(k, k, (1.0 - confidence) / 2.0).is_some())
        .unwrap_or(50)
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
        assert!((normal_upper(-1.959_964) - 0.975).abs() < 1e-6);
        assert_eq!(normal_upper(-40.0), 1.0);
    }

    #[test]
    fn ratio_intervals_on_known_sets() {
        let base = [1.0, 1.02, 0.98, 1.01, 0.99];
        // Every new launch 50 % slower: at 95 % with 5 + 5 the interval is the order
        // statistics 3 and 23 of the 25 pair ratios, all near 1.5.
        let slow: Vec<f64> = base.iter().map(|x| x * 1.5).collect();
        let (lo, hi) = ratio_interval(&slow, &base, 0.95).unwrap();
        assert!(lo > 1.45 && hi < 1.55, "{lo} {hi}");
        // A run against itself straddles 1.
        let (lo, hi) = ratio_interval(&base, &base, 0.95).unwrap();
        assert!(lo < 1.0 && hi > 1.0, "{lo} {hi}");
        // The critical values: 5 + 5 at 95 % is U <= 2 (P = 4/252 per side), at 99 % U <= 0.
        assert_eq!(u_critical(5, 5, 0.025), Some(2));
        assert_eq!(u_critical(5, 5, 0.005), Some(0));
        assert_eq!(u_critical(4, 4, 0.025), Some(0));
        assert_eq!(u_critical(3, 3, 0.025), None);
        // One launch a side gives no interval at all, whatever the figures.
        assert_eq!(ratio_interval(&[100.0], &[1.0], 0.95), None);
        assert_eq!(launches_needed(0.95), 4);
        assert_eq!(launches_needed(0.99), 5);
        // The normal approximation for many launches agrees with the exact count.
        let exact = u_critical(50, 50, 0.025).unwrap();
        let big = u_critical(60, 60, 0.025).unwrap();
        assert!((exact as f64 - (1250.0 - 1.96 * (2500.0f64 * 101.0 / 12.0).sqrt())).abs() < 3.0);
        assert!(big > 0);
        // Zeros: 0/0 is 1, x/0 infinite; a negative figure gives none.
        assert_eq!(ratio_of(0.0, 0.0), 1.0);
        assert_eq!(ratio_of(1.0, 0.0), f64::INFINITY);
        assert_eq!(ratio_interval(&[-1.0; 5], &[1.0; 5], 0.95), None);
    }

    #[test]
    fn quantile_intervals_on_known_sets() {
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        // n = 10, median at 95 %: order statistics 2 and 9 (coverage 97.9 %).
        assert_eq!(quantile_interval(&x, 0.5, 0.95), Some((2.0, 9.0)));
        // 5 values cannot bound a median at 95 % (the extremes cover 93.75 %); 6 can.
        assert_eq!(quantile_interval(&x[..5], 0.5, 0.95), None);
        assert_eq!(quantile_interval(&x[..6], 0.5, 0.95), Some((1.0, 6.0)));
        assert_eq!(quantile_interval(&x[..8], 0.5, 0.99), Some((1.0, 8.0)));
        assert_eq!(quantile_interval(&x[..7], 0.5, 0.99), None);
        assert_eq!(quantile(&x, 0.5), 5.5);
        assert_eq!(quantile(&x, 0.0), 1.0);
        assert_eq!(quantile(&x, 0.9), 9.1);
        assert!((binomial_cdf(10, 0.5, 1) - 11.0 / 1024.0).abs() < 1e-12);
    }

    #[test]
    fn statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(cv(&[1.0]).is_nan());
        assert!((cv(&[1.0, 3.0]) - 2f64.sqrt() / 2.0).abs() < 1e-12);
    }
}
