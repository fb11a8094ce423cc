//! Reducing per-rank times to a table row: t_min/t_max/t_avg over the ranks that took part
//! (doc/METHODOLOGY.md, "From per-rank times to a row", with our departure: `-multi 1` uses each
//! group's own members).

pub use crate::method::Megabyte;

/// A time in microseconds (what the tables print).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct Usec(pub f64);

impl Usec {
    pub fn from_secs(s: f64) -> Self {
        Usec(s * 1e6)
    }
}

/// What one rank reports for one message size: its time and check, and `rec`, its family's
/// own figures (`table::Record`; `()` for the plain IMB kinds), which only its table kind
/// reads.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RankResult<R = ()> {
    /// Time per repetition, already scaled by the benchmark's time factor.
    pub t: Usec,
    /// Check mode: the largest relative difference found (1.0 = a wrong element).
    pub defect: f64,
    /// Check mode: byte position of the first wrong element, if any.
    pub pos: Option<usize>,
    /// Not part of the row's min/max/avg (a Sphinx latency's root).
    pub excluded: bool,
    pub rec: R,
}

/// Min, max and mean over a set of ranks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub t_min: Usec,
    pub t_max: Usec,
    pub t_avg: Usec,
    pub defect: f64,
}

/// Statistics over the given world ranks (those not `excluded`; their check results count).
pub fn over<'a, R>(results: &[RankResult<R>], ranks: impl IntoIterator<Item = &'a usize>) -> Stats {
    let mut n = 0usize;
    let (mut lo, mut hi, mut sum, mut defect) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0.0f64);
    for &r in ranks {
        defect = defect.max(results[r].defect);
        if results[r].excluded {
            continue;
        }
        let t = results[r].t.0;
        lo = lo.min(t);
        // A negative time (an UNRELIABLE correction) must show as it is, not as 0.
        hi = hi.max(t);
        sum += t;
        n += 1;
    }
    if n == 0 {
        (lo, hi) = (0.0, 0.0);
    }
    Stats {
        t_min: Usec(lo),
        t_max: Usec(hi),
        t_avg: Usec(if n == 0 { 0.0 } else { sum / n as f64 }),
        defect,
    }
}

/// The member with the largest time (not `excluded`), as (world rank, time): a Sphinx
/// latency's last receiver.
pub fn slowest<'a, R>(
    results: &[RankResult<R>],
    ranks: impl IntoIterator<Item = &'a usize>,
) -> Option<(usize, Usec)> {
    ranks
        .into_iter()
        .filter(|&&r| !results[r].excluded)
        .map(|&r| (r, results[r].t))
        .fold(None, |best, (r, t)| match best {
            Some((_, b)) if b.0 >= t.0 => best,
            _ => Some((r, t)),
        })
}

/// Min, max and mean of one figure of the records (`of`) over the members not `excluded`.
pub fn figure<'a, R>(
    results: &[RankResult<R>],
    ranks: impl IntoIterator<Item = &'a usize>,
    of: impl Fn(&R) -> f64,
) -> (f64, f64, f64) {
    let (mut lo, mut hi, mut sum, mut n) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize);
    for &r in ranks {
        if results[r].excluded {
            continue;
        }
        let v = of(&results[r].rec);
        lo = lo.min(v);
        hi = hi.max(v);
        sum += v;
        n += 1;
    }
    if n == 0 {
        (0.0, 0.0, 0.0)
    } else {
        (lo, hi, sum / n as f64)
    }
}

/// Mbytes/sec: scale_bw · X / MB / t[sec], MB = 2^20 bytes in IMB 3.0 (guide 3.3.2), 10^6
/// in IMB 2021 (`-compat 2021`).
pub fn mbytes_per_sec(scale_bw: f64, x: usize, t_max: Usec, mb: Megabyte) -> f64 {
    if t_max.0 > 0.0 {
        scale_bw * x as f64 / (mb.0 / 1e6) / t_max.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rr(t: f64) -> RankResult {
        RankResult {
            t: Usec(t),
            ..RankResult::default()
        }
    }

    #[test]
    fn min_max_avg_over_members_only() {
        // world rank 3 is idle: its zero must not count
        let res = [rr(2.0), rr(4.0), rr(6.0), rr(0.0)];
        let s = over(&res, &[0, 1, 2]);
        assert_eq!((s.t_min.0, s.t_max.0, s.t_avg.0), (2.0, 6.0, 4.0));
    }

    #[test]
    fn excluded_ranks_and_negative_times() {
        let mut res = [rr(0.0), rr(-1.0), rr(3.0), rr(2.0)];
        res[0].excluded = true;
        let s = over(&res, &[0, 1, 2, 3]);
        assert_eq!((s.t_min.0, s.t_max.0, s.t_avg.0), (-1.0, 3.0, 4.0 / 3.0));
        assert_eq!(slowest(&res, &[0, 1, 2, 3]), Some((2, Usec(3.0))));
        res[1].t = Usec(-5.0);
        res[2].t = Usec(-4.0);
        res[3].t = Usec(-6.0);
        // all negative: the maximum is negative, not 0
        assert_eq!(over(&res, &[0, 1, 2, 3]).t_max.0, -4.0);
        let mut figs = [1.0, -5.0, -4.0, -6.0].map(|v| RankResult {
            rec: v,
            ..RankResult::default()
        });
        figs[0].excluded = true;
        assert_eq!(
            figure(&figs, &[0, 1, 2, 3], |&v| 2.0 * v),
            (-12.0, -8.0, -10.0)
        );
    }

    #[test]
    fn throughput_uses_mib() {
        assert_eq!(
            mbytes_per_sec(1.0, 1048576, Usec(1e6), Megabyte::IMB30),
            1.0
        );
        assert_eq!(
            mbytes_per_sec(1.0, 1_000_000, Usec(1e6), Megabyte(1e6)),
            1.0
        );
        assert_eq!(
            mbytes_per_sec(2.0, 1048576, Usec(1e6), Megabyte::IMB30),
            2.0
        );
        assert_eq!(mbytes_per_sec(1.0, 10, Usec(0.0), Megabyte::IMB30), 0.0);
    }
}
