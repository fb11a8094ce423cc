//! A figure's axes: the size axis's and the value axis's ticks and labels, the value axis's
//! range, and the SVG file's name.

use crate::read::key::TableKey;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use std::ops::Range;

/// The SVG file's name for a table.
pub fn file_name(k: &TableKey) -> String {
    let mut n = match k.processes {
        Some(p) => format!("{}-np{p}", k.benchmark),
        None => k.benchmark.clone(),
    };
    if k.groups > 1 {
        n.push_str(&format!("-g{}", k.groups));
    }
    if !k.mode.is_empty() {
        n.push_str(&format!("-{}", k.mode.to_lowercase()));
    }
    let n: String = n
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{n}.svg")
}

/// A tick of the log2 size axis: "1", "512", "64K", "4M"; nothing between powers of two.
pub(super) fn size_label(x: f64) -> String {
    if (x - x.round()).abs() > 1e-6 || x < 0.0 {
        return String::new();
    }
    let b = 1u64 << (x.round() as u32).min(62);
    match b {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}K", b >> 10),
        b => b.to_string(),
    }
}

/// The size axis of a panel: log2 of the size, so that its ticks fall on IMB's powers of two.
/// A logarithmic axis has no place for 0 bytes, which IMB measures first (the latency of an
/// empty message); when a panel has it, it is drawn at `zero`, two steps left of the smallest
/// other size, and the axis is broken between them (a mark at [`SizeAxis::gap`]): the distance
/// across the break means nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SizeAxis {
    /// log2 of the smallest and the largest size above 0; `None` when 0 bytes is all there is.
    sizes: Option<(f64, f64)>,
    /// Where 0 bytes is drawn, when the panel has it.
    pub(super) zero: Option<f64>,
}

impl SizeAxis {
    /// The axis for `sizes`; `None` when there are none.
    pub(super) fn new(sizes: impl Iterator<Item = u64>) -> Option<SizeAxis> {
        let (mut lo, mut hi, mut zero, mut any) = (f64::MAX, f64::MIN, false, false);
        for b in sizes {
            any = true;
            if b == 0 {
                zero = true;
            } else {
                let x = (b as f64).log2();
                (lo, hi) = (lo.min(x), hi.max(x));
            }
        }
        if !any {
            return None;
        }
        let sizes = (lo <= hi).then_some((lo, hi));
        let zero = zero.then(|| sizes.map_or(0.0, |(lo, _)| lo.floor() - 2.0));
        Some(SizeAxis { sizes, zero })
    }

    /// Where size `b` is drawn.
    pub(super) fn x(&self, b: u64) -> f64 {
        match (b, self.zero) {
            (0, Some(z)) => z,
            _ => (b as f64).log2(),
        }
    }

    /// The axis's range, half a step beyond the outermost sizes.
    pub(super) fn range(&self) -> (f64, f64) {
        match (self.sizes, self.zero) {
            (Some((lo, hi)), z) => (z.unwrap_or(lo.floor()) - 0.5, hi.ceil() + 0.5),
            (None, z) => {
                let z = z.unwrap_or(0.0);
                (z - 0.5, z + 0.5)
            }
        }
    }

    /// Where the axis is broken: between 0 bytes and the smallest other size.
    pub(super) fn gap(&self) -> Option<f64> {
        self.zero.zip(self.sizes).map(|(z, _)| z + 1.0)
    }

    /// The labelled ticks and the grid-only ones: 0 bytes, and the powers of two from the
    /// smallest size to the largest, every one up to 12 of them, else every k-th.
    pub(super) fn ticks(&self) -> (Vec<f64>, Vec<f64>) {
        let (mut bold, mut light) = (Vec::new(), Vec::new());
        bold.extend(self.zero);
        if let Some((lo, hi)) = self.sizes {
            let (first, last) = (lo.floor() as i64, hi.ceil() as i64);
            let step = ((last - first + 1) as f64 / 12.0).ceil().max(1.0) as i64;
            for k in first..=last {
                if (k - first) % step == 0 {
                    bold.push(k as f64);
                } else {
                    light.push(k as f64);
                }
            }
        }
        (bold, light)
    }

    /// A tick's label: "0" at 0 bytes, else [`size_label`].
    pub(super) fn label(&self, x: f64) -> String {
        match self.zero {
            Some(z) if (x - z).abs() < 1e-6 => "0".to_string(),
            _ if self.zero.is_some_and(|z| x < z + 1.5) => String::new(),
            _ => size_label(x),
        }
    }
}

/// A [`SizeAxis`] as plotters draws it: its ticks where [`SizeAxis::ticks`] puts them.
/// plotters' own f64 axis picks round numbers of its choosing, which need not fall on 0 bytes'
/// place; its `with_key_points` would, but then takes no label formatter.
pub(super) struct SizeCoord {
    linear: RangedCoordf64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl SizeCoord {
    pub(super) fn of(axis: &SizeAxis) -> SizeCoord {
        let (x0, x1) = axis.range();
        let (bold, light) = axis.ticks();
        SizeCoord {
            linear: (x0..x1).into(),
            bold,
            light,
        }
    }
}

impl Ranged for SizeCoord {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.linear.range()
    }
}

/// The figure axis's ticks over `y0..y1`, labelled ones and grid-only ones. plotters' own
/// log ticks are the powers of ten alone, which leaves a latency panel spanning one or two
/// decades with a label or two; so: over three decades or fewer 1, 2 and 5 × 10^k labelled and
/// the other digits as grid, up to six decades the powers of ten labelled and the digits as
/// grid, beyond that the powers of ten only. At least two labels where the axis holds two.
pub(super) fn figure_ticks(y0: f64, y1: f64) -> (Vec<f64>, Vec<f64>) {
    let decades = (y1 / y0).log10();
    let (first, last) = (y0.log10().floor() as i32, y1.log10().ceil() as i32);
    let labelled: &[f64] = if decades <= 3.0 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let digits: &[f64] = if decades <= 6.0 {
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    } else {
        &[1.0]
    };
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    for e in first..=last {
        let p = 10f64.powi(e);
        for &d in digits {
            let v = d * p;
            if (y0..=y1).contains(&v) {
                if labelled.contains(&d) {
                    bold.push(v);
                } else {
                    light.push(v);
                }
            }
        }
    }
    if bold.len() < 2 {
        bold.append(&mut light);
        bold.sort_by(f64::total_cmp);
    }
    (bold, light)
}

/// A tick of the figure axis: "0.2", "5", "2000", "1e-5".
pub(super) fn figure_label(y: f64) -> String {
    if !(1e-3..1e6).contains(&y) {
        return format!("{y:.0e}");
    }
    let decimals = (2 - y.log10().floor() as i32).max(0) as usize;
    let t = format!("{y:.decimals$}");
    if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        t
    }
}

/// The value axis over `ys` (the positive finite ones), with room above and below. At most
/// 12 decades below the largest: a wider axis shows nothing more, and absurd figures (1e-300)
/// must not stretch it; figures below are drawn at its floor.
pub(super) fn y_range(ys: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for y in ys.filter(|y| y.is_finite() && *y > 0.0) {
        (lo, hi) = (lo.min(y), hi.max(y));
    }
    if hi == 0.0 {
        return None;
    }
    let hi = hi.clamp(1e-280, 1e300);
    let lo = lo.clamp(hi * 1e-12, hi);
    Some((lo / 1.5, hi * 1.5))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::key::Metric;
    use crate::render::plot::data::collect;
    use crate::render::plot::draw::svg;
    use crate::render::plot::fixtures::{key, side_of, table};

    #[test]
    fn absurd_figures_keep_a_finite_axis() {
        let t = table(
            "PingPong",
            &["bytes", "repetitions", "t", "mbytes"],
            &[
                &[1.0, 1.0, 1e-300, f64::MAX],
                &[2.0, 1.0, 1e300, f64::MIN_POSITIVE],
                &[4.0, 1.0, f64::INFINITY, f64::NAN],
                &[f64::MAX, 1.0, 1.0, 1.0],
            ],
        );
        let s = side_of("base", vec![vec![t]]);
        let f = collect(&[&s], Metric::T);
        let doc = svg(&key("PingPong"), &f[&key("PingPong")], &[&s], &[]).unwrap();
        assert!(roxmltree::Document::parse(&doc).is_ok());
        let (lo, hi) = y_range([1e-300, 1e300].into_iter()).unwrap();
        assert!(lo > 0.0 && hi.is_finite() && (hi / lo).log10() < 13.0);
        assert_eq!(y_range([0.0, f64::NAN].into_iter()), None);
    }

    #[test]
    fn ticks_and_file_names() {
        assert_eq!(
            [0.0, 9.0, 16.0, 22.0].map(size_label),
            ["1", "512", "64K", "4M"]
        );
        assert_eq!(size_label(2.5), "");
        assert_eq!(
            [0.2, 5.0, 2000.0, 1e-5, 2e7, 0.05].map(figure_label),
            ["0.2", "5", "2000", "1e-5", "2e7", "0.05"]
        );
        // Two decades: 1, 2, 5 labelled; seven: the powers of ten alone.
        let (bold, light) = figure_ticks(0.15, 12.0);
        assert_eq!(bold, [0.2, 0.5, 1.0, 2.0, 5.0, 10.0]);
        assert!(light.contains(&3.0) && !light.contains(&2.0));
        let (bold, light) = figure_ticks(0.5, 5e6);
        assert_eq!(bold, [1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6]);
        assert!(light.is_empty());
        // Too narrow for two labels: every digit is one.
        assert_eq!(figure_ticks(2.1, 4.7).0, [3.0, 4.0]);
        // 0 bytes two steps left of the smallest size, past a break; ticks at both.
        let a = SizeAxis::new([0, 4, 8, 1 << 20].into_iter()).unwrap();
        assert_eq!((a.x(0), a.x(4), a.x(8)), (0.0, 2.0, 3.0));
        assert_eq!((a.gap(), a.range()), (Some(1.0), (-0.5, 20.5)));
        assert_eq!(
            a.ticks().0,
            [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0]
        );
        assert_eq!([0.0, 2.0, 20.0].map(|x| a.label(x)), ["0", "4", "1M"]);
        let a = SizeAxis::new([0, 1, 2].into_iter()).unwrap();
        assert_eq!(
            (a.x(0), a.gap(), a.range()),
            (-2.0, Some(-1.0), (-2.5, 1.5))
        );
        assert_eq!(a.ticks().0, [-2.0, 0.0, 1.0]);
        // Without 0 bytes the axis is as before; with 0 bytes alone, one tick.
        let a = SizeAxis::new([4, 8].into_iter()).unwrap();
        assert_eq!((a.zero, a.gap(), a.range()), (None, None, (1.5, 3.5)));
        let a = SizeAxis::new([0].into_iter()).unwrap();
        assert_eq!((a.x(0), a.gap(), a.ticks().0), (0.0, None, vec![0.0]));
        assert_eq!(SizeAxis::new(std::iter::empty()), None);
        let mut k = key("Multi-PingPong");
        (k.groups, k.mode) = (2, "AGGREGATE".into());
        assert_eq!(file_name(&k), "Multi-PingPong-np2-g2-aggregate.svg");
    }
}
