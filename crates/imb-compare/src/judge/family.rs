//! The family-wise test behind a FAIL (doc/ACCEPTANCE.md, "The rule"): is some size of a
//! criterion (or of a table) beyond a bound, with all its sizes taken together?
//!
//! A criterion covers many sizes; at 95 % each, one of twenty sizes of the same machine would
//! look beyond a bound by chance. The launch is the unit that repeats (a slow launch is slow at
//! every size), so the test permutes whole launches between the two runs, keeping each
//! launch's sizes together, and compares each size's statistic with the permutation
//! distribution of the largest statistic over all sizes (Westfall and Young's single-step
//! max-T). Its adjusted p-values hold the chance of any false FAIL in the family at the level,
//! without Bonferroni's price for sizes that move together: 5 launches against 5 can show a
//! separation at every size, whatever the number of sizes.
//!
//! The statistic of a size is the share of launch pairs (new, base) in which the new launch,
//! divided by the bound, is still above the base launch (below it, for a lower bound): the rank
//! test's U over its pairs, so the test assumes only that at the bound one run's launches are
//! the other's scaled. Its null hypothesis is "new / base is at the bound", not "nothing
//! changed": the new launches are divided by the bound before the launches are permuted, so a
//! run 7 % slower is never shown beyond a +20 % bound however many launches it has, and at the
//! bound itself a size is called beyond it at most at the level's rate.
//!
//! At most [`MAX_SPLITS`] splits are used: all of them when there are no more, else that many
//! drawn with a fixed seed, so a verdict is the same on every run. The
//! work is bounded: with very many launches (more than [`WORK`] pair comparisons for 1000
//! splits) the test falls back to Bonferroni over the sizes' own rank tests (normal
//! approximation), which many launches make nearly as strong.

/// Splits of the launches examined at most; above, as many are drawn at random (seeded).
pub const MAX_SPLITS: usize = 20_000;

/// The fewest splits drawn: p-values to 0.001, fine against a level of 0.025.
const MIN_SPLITS: usize = 1_000;

/// Launch-pair comparisons the test may make in all (about a second).
pub const WORK: f64 = 4e8;

/// Launch × size figures of one run; NaN where a launch has no figure at a size.
pub type Launches = Vec<Vec<f64>>;

/// Which way a bound is crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// new / base above the bound.
    Above,
    /// new / base below the bound.
    Below,
}

/// Per size, the share of (new, base) launch pairs beyond `bound` on `side` (ties half), among
/// the launches `is_new` marks; NaN where a size has no pair.
fn shares(units: &[&Vec<f64>], is_new: &[bool], bound: f64, side: Side, sizes: usize) -> Vec<f64> {
    let pick = |new: bool| -> Vec<&Vec<f64>> {
        units
            .iter()
            .zip(is_new)
            .filter(|(_, m)| **m == new)
            .map(|(u, _)| *u)
            .collect()
    };
    let (news, bases) = (pick(true), pick(false));
    (0..sizes)
        .map(|s| {
            let (mut count, mut pairs) = (0.0, 0usize);
            for x in news.iter().map(|u| u[s]).filter(|x| x.is_finite()) {
                for y in bases.iter().map(|u| u[s] * bound).filter(|y| y.is_finite()) {
                    pairs += 1;
                    let beyond = match side {
                        Side::Above => x.total_cmp(&y),
                        Side::Below => y.total_cmp(&x),
                    };
                    count += match beyond {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                }
            }
            if pairs == 0 {
                f64::NAN
            } else {
                count / pairs as f64
            }
        })
        .collect()
}

/// C(n, k) as a float (for the split count).
fn choose(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

/// Every way to mark `k` of `n` units, in lexicographic order, or at most `limit` of them
/// drawn with a fixed seed (xorshift64*): the observed split is always the first.
fn splits(n: usize, k: usize, limit: usize) -> Vec<Vec<bool>> {
    let observed: Vec<bool> = (0..n).map(|i| i < k).collect();
    if choose(n, k) <= limit as f64 {
        let mut out = Vec::new();
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            let mut mark = vec![false; n];
            for &i in &idx {
                mark[i] = true;
            }
            out.push(mark);
            // The next combination: the rightmost index that can move, moved, the rest after it.
            let Some(p) = (0..k).rev().find(|&p| idx[p] < n - k + p) else {
                break;
            };
            idx[p] += 1;
            for q in p + 1..k {
                idx[q] = idx[q - 1] + 1;
            }
        }
        return out;
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut out = vec![observed];
    while out.len() < limit {
        // A random k-subset: a partial Fisher-Yates shuffle of the unit indices.
        let mut order: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let j = i + (next() % (n - i) as u64) as usize;
            order.swap(i, j);
        }
        let mut mark = vec![false; n];
        for &i in &order[..k] {
            mark[i] = true;
        }
        out.push(mark);
    }
    out
}

/// Per size, the family-wise adjusted p-value that new / base lies beyond `bound` on `side`
/// (NaN for a size with no launch pair): the share of launch splits whose largest statistic
/// over all sizes reaches the size's observed one. `new` and `base` are launch × size (the
/// same sizes, in the same order).
pub fn adjusted(new: &Launches, base: &Launches, bound: f64, side: Side) -> Vec<f64> {
    let sizes = new.first().or(base.first()).map_or(0, Vec::len);
    if new.is_empty() || base.is_empty() || sizes == 0 {
        return vec![f64::NAN; sizes];
    }
    let pairs = (new.len() * base.len() * sizes) as f64;
    if pairs * MIN_SPLITS as f64 > WORK {
        return bonferroni(new, base, bound, side, sizes);
    }
    let limit = ((WORK / pairs) as usize).clamp(MIN_SPLITS, MAX_SPLITS);
    // The null hypothesis is "at the bound": new = bound × base in distribution. Only then are
    // new / bound and base exchangeable, so it is those that are permuted. (Permuting the raw
    // launches tests "no change", and a run 7 % slower failed a +20 % bound that way.)
    let scaled: Launches = new
        .iter()
        .map(|l| l.iter().map(|x| x / bound).collect())
        .collect();
    let units: Vec<&Vec<f64>> = scaled.iter().chain(base).collect();
    let all = splits(units.len(), new.len(), limit);
    let observed = shares(&units, &all[0], 1.0, side, sizes);
    let maxima: Vec<f64> = all
        .iter()
        .map(|mark| {
            shares(&units, mark, 1.0, side, sizes)
                .into_iter()
                .filter(|v| v.is_finite())
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    observed
        .iter()
        .map(|&t| {
            if !t.is_finite() {
                return f64::NAN;
            }
            // A little slack: shares are sums of halves over the same pair counts.
            let reach = maxima.iter().filter(|&&m| m >= t - 1e-12).count();
            reach as f64 / maxima.len() as f64
        })
        .collect()
}

/// Per size, k times its own one-sided rank test's p-value (normal approximation, ties half),
/// at most 1: the family-wise test for launch counts too large to permute.
fn bonferroni(new: &Launches, base: &Launches, bound: f64, side: Side, sizes: usize) -> Vec<f64> {
    let units: Vec<&Vec<f64>> = new.iter().chain(base).collect();
    let mark: Vec<bool> = (0..units.len()).map(|i| i < new.len()).collect();
    let observed = shares(&units, &mark, bound, side, sizes);
    (0..sizes)
        .map(|s| {
            let m = new.iter().filter(|l| l[s].is_finite()).count() as f64;
            let n = base.iter().filter(|l| l[s].is_finite()).count() as f64;
            let t = observed[s];
            if !t.is_finite() || m == 0.0 || n == 0.0 {
                return f64::NAN;
            }
            let sd = (m * n * (m + n + 1.0) / 12.0).sqrt();
            let z = (t * m * n - m * n / 2.0 - 0.5) / sd;
            (sizes as f64 * crate::judge::stats::normal_upper(z)).min(1.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(base: &[f64], factor: &[f64], sizes: usize) -> (Launches, Launches) {
        let b: Launches = base.iter().map(|&x| vec![x; sizes]).collect();
        let n: Launches = base
            .iter()
            .zip(factor.iter().cycle())
            .map(|(&x, f)| vec![x * f; sizes])
            .collect();
        (n, b)
    }

    #[test]
    fn every_split_or_a_seeded_draw() {
        assert_eq!(splits(10, 5, MAX_SPLITS).len(), 252);
        let s = splits(4, 2, MAX_SPLITS);
        assert_eq!(s.len(), 6);
        assert_eq!(s[0], [true, true, false, false]);
        assert!(s.iter().all(|m| m.iter().filter(|x| **x).count() == 2));
        let drawn = splits(40, 20, 100);
        assert_eq!(drawn.len(), 100);
        assert_eq!(drawn, splits(40, 20, 100), "the same draw every time");
        assert!(drawn[0][..20].iter().all(|x| *x));
    }

    #[test]
    fn a_clear_shift_fails_at_5_and_5_whatever_the_sizes() {
        let base = [1.0, 1.02, 0.98, 1.01, 0.99];
        // Every new launch 3 times slower at every size: beyond a +25 % bound, with 1 size or
        // with 30, since the sizes move together (2 of the 252 splits are as extreme).
        for sizes in [1, 30] {
            let (n, b) = runs(&base, &[3.0], sizes);
            let p = adjusted(&n, &b, 1.25, Side::Above);
            assert!(p.iter().all(|&p| (p - 1.0 / 252.0).abs() < 1e-12), "{p:?}");
        }
        // Within the bound: nothing.
        let (n, b) = runs(&base, &[1.1], 12);
        let p = adjusted(&n, &b, 1.25, Side::Above);
        assert!(p.iter().all(|&p| p > 0.5), "{p:?}");
        // Below a lower bound (a bandwidth halved).
        let (n, b) = runs(&base, &[0.5], 3);
        let p = adjusted(&n, &b, 0.9, Side::Below);
        assert!(p.iter().all(|&p| p < 0.025), "{p:?}");
        // Too few launches can never reach 2.5 %: 3 and 3 give 1 split in 20.
        let (n, b) = runs(&base[..3], &[3.0], 4);
        assert!(adjusted(&n, &b, 1.25, Side::Above)
            .iter()
            .all(|&p| (p - 0.05).abs() < 1e-12));
    }

    /// The null hypothesis is the bound, not "no change": a run clearly 7 % slower is never
    /// beyond +20 %, at any launch count; at exactly the bound the rate of a call stays at
    /// the level.
    #[test]
    fn the_null_is_the_bound() {
        let mut state: u64 = 11;
        let mut noise = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            1.0 + (state % 1000) as f64 / 20_000.0
        };
        for launches in [5, 10, 20, 40] {
            let b: Launches = (0..launches).map(|_| vec![noise(); 3]).collect();
            let n: Launches = (0..launches).map(|_| vec![1.07 * noise(); 3]).collect();
            let p = adjusted(&n, &b, 1.2, Side::Above);
            assert!(p.iter().all(|&p| p > 0.5), "{launches}: {p:?}");
            // ... while "no change" would be rejected: it is beyond 1.
            let p = adjusted(&n, &b, 1.0, Side::Above);
            assert!(p.iter().all(|&p| p < 0.025), "{launches}: {p:?}");
        }
        let mut calls = 0;
        let tries = 400;
        for _ in 0..tries {
            let b: Launches = (0..6).map(|_| vec![noise()]).collect();
            let n: Launches = (0..6).map(|_| vec![1.2 * noise()]).collect();
            calls += usize::from(adjusted(&n, &b, 1.2, Side::Above)[0] <= 0.025);
        }
        // At most the level (2.5 %, 10 of 400) and a binomial margin.
        assert!(calls <= 20, "{calls} of {tries} at the bound");
    }

    /// Pure noise over 20 sizes (independent, the worst case for a maximum): some size looks
    /// beyond the bound on its own rank test, none is a family-wise failure.
    #[test]
    fn noise_over_many_sizes_is_not_a_failure() {
        let mut state: u64 = 7;
        let mut noise = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            1.0 + (state % 1000) as f64 / 1000.0
        };
        let mut draw =
            || -> Launches { (0..5).map(|_| (0..20).map(|_| noise()).collect()).collect() };
        let (n, b) = (draw(), draw());
        let family = adjusted(&n, &b, 1.0, Side::Above);
        let alone: Vec<f64> = (0..20)
            .map(|s| {
                let col = |r: &Launches| r.iter().map(|l| vec![l[s]]).collect::<Launches>();
                adjusted(&col(&n), &col(&b), 1.0, Side::Above)[0]
            })
            .collect();
        assert!(family.iter().all(|&p| p > 0.025), "{family:?}");
        assert!(family.iter().zip(&alone).all(|(f, a)| f >= a));
        assert!(alone.iter().any(|&p| p <= 0.025), "{alone:?}");
    }

    /// Many launches: the work stays bounded (Bonferroni), and a clear shift still fails.
    #[test]
    fn many_launches_fall_back_to_bonferroni() {
        let base: Vec<f64> = (0..700).map(|i| 1.0 + 0.001 * f64::from(i % 50)).collect();
        let (n, b) = runs(&base, &[1.5, 1.6], 2);
        assert!((n.len() * b.len() * 2) as f64 * MIN_SPLITS as f64 > WORK);
        let p = adjusted(&n, &b, 1.25, Side::Above);
        assert!(p.iter().all(|&p| p < 1e-6), "{p:?}");
        let (n, b) = runs(&base, &[1.0], 2);
        assert!(adjusted(&n, &b, 1.25, Side::Above).iter().all(|&p| p > 0.5));
    }

    #[test]
    fn missing_figures_are_skipped() {
        let base = [1.0, 1.02, 0.98, 1.01, 0.99];
        let (mut n, b) = runs(&base, &[3.0], 2);
        n[0][1] = f64::NAN;
        let p = adjusted(&n, &b, 1.25, Side::Above);
        assert!(p[0] < 0.025 && p[1] < 0.05, "{p:?}");
        assert!(adjusted(&Vec::new(), &b, 1.25, Side::Above)
            .iter()
            .all(|p| p.is_nan()));
    }
}
