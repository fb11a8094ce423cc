//! Statistics over a few outer repetitions (EPCC's method: 20 measurements per data point):
//! mean, median, extremes, standard deviation, a 95 % confidence interval of the mean from
//! Student's t, and outliers by Tukey's fences (beyond 1.5 interquartile ranges from the
//! quartiles). EPCC v2 counted values more than 3σ above the mean as outliers, but with n
//! samples no value can lie further than (n−1)/√n σ from the mean, so for n ≤ 10 that rule can
//! never fire; fences built from quartiles do not have that blind spot.

/// A summary of repeated measurements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Sample standard deviation (n − 1).
    pub stddev: f64,
    /// Half-width of the 95 % confidence interval of the mean.
    pub ci95: f64,
    /// Values outside [Q1 − 1.5·IQR, Q3 + 1.5·IQR].
    pub outliers: usize,
}

/// Two-sided 95 % quantiles of Student's t for 1..=30 degrees of freedom; 1.96 beyond.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

fn t95(dof: usize) -> f64 {
    match dof {
        0 => f64::NAN,
        d if d <= T95.len() => T95[d - 1],
        _ => 1.96,
    }
}

/// Quantile q of sorted data by linear interpolation between closest ranks.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Summarise `samples` (any order; NaNs are not expected and sort last).
pub fn summarize(samples: &[f64]) -> Summary {
    let n = samples.len();
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let mean = s.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let stddev = var.sqrt();
    let (q1, q3) = (quantile(&s, 0.25), quantile(&s, 0.75));
    let iqr = q3 - q1;
    let (lo, hi) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    Summary {
        n,
        mean,
        median: quantile(&s, 0.5),
        min: s.first().copied().unwrap_or(f64::NAN),
        max: s.last().copied().unwrap_or(f64::NAN),
        stddev,
        ci95: if n > 1 {
            t95(n - 1) * stddev / (n as f64).sqrt()
        } else {
            f64::NAN
        },
        outliers: s.iter().filter(|&&x| x < lo || x > hi).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_data() {
        let s = summarize(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(
            (s.n, s.mean, s.median, s.min, s.max),
            (8, 5.0, 4.5, 2.0, 9.0)
        );
        assert!((s.stddev - 2.138).abs() < 1e-3);
        // t(7) = 2.365
        assert!((s.ci95 - 2.365 * s.stddev / 8f64.sqrt()).abs() < 1e-12);
        // Q1 = 4, Q3 = 5.5: the fences are 1.75 and 7.75, so 9 is out.
        assert_eq!(s.outliers, 1);
    }

    #[test]
    fn fences_find_outliers_that_3_sigma_cannot() {
        // Ten samples, one far off: 3σ above the mean is unreachable for n = 10, the fences
        // still catch it.
        let mut v = vec![1.0; 9];
        v.push(100.0);
        let s = summarize(&v);
        assert!(v.iter().all(|&x| x <= s.mean + 3.0 * s.stddev));
        assert_eq!(s.outliers, 1);
    }

    #[test]
    fn degenerate_inputs() {
        let s = summarize(&[3.0]);
        assert_eq!((s.mean, s.median, s.stddev, s.outliers), (3.0, 3.0, 0.0, 0));
        assert!(s.ci95.is_nan());
        assert_eq!(t95(40), 1.96);
    }
}
