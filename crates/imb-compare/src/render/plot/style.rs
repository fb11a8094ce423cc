//! The figures' palette and strokes: run colours, the colours of failed and inconclusive
//! sizes and of bounds, dash patterns, the bands' opacity, and plotters' errors in words.

use plotters::prelude::*;

/// Run colours; no red or orange, which mark failed and inconclusive sizes.
const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
    RGBColor(227, 119, 194),
];
pub(super) const FAIL: RGBColor = RGBColor(214, 0, 0);
pub(super) const UNDECIDED: RGBColor = RGBColor(255, 140, 0);
pub(super) const BOUND: RGBColor = RGBColor(64, 64, 64);
/// The line up the panel where the size axis is broken (0 bytes left of it).
pub(super) const GAP: RGBColor = RGBColor(190, 190, 190);
/// Dash and gap in pixels, one pattern a criterion so that two on a panel are told apart.
const DASHES: [(i32, i32); 4] = [(8, 4), (2, 3), (14, 4), (5, 8)];
/// A band is light enough that every line shows through it.
pub(super) const BAND_OPACITY: f64 = 0.2;

pub(super) fn colour(k: usize) -> RGBColor {
    COLOURS[k % COLOURS.len()]
}

pub(super) fn dash(j: usize) -> (i32, i32) {
    DASHES[j % DASHES.len()]
}

/// plotters' errors are generic over the backend; the user gets their words.
pub(super) fn words<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}
