//! Acceptance criteria (`--references FILE.toml`), in ReFrame's manner: per benchmark (or `*`),
//! process count and size range, a metric, a statistic over the launches (the median unless
//! said), a reference (a number, or the baseline's own figure at the same size) and lower and
//! upper tolerances as fractions of the reference. The file's layout is in doc/ACCEPTANCE.md;
//! `settings/acceptance.toml` is an example.
//!
//! The rule, for every launch count (doc/ACCEPTANCE.md, "The rule"): per size, the interval of
//! the ratio figure/reference at the chosen confidence ([`crate::judge::stats`]). A size passes when
//! its interval lies inside the bounds; it fails only when it is shown beyond a bound: its own
//! interval wholly beyond, and a test whose null hypothesis is the bound itself rejecting it
//! with the criterion's sizes and the file's other bounds taken together (against a baseline by
//! permuting whole launches, [`crate::judge::family`]; against a number by Bonferroni over the sizes;
//! exactly for `min` and `max` against a number). The file's chance of any false FAIL is one
//! tail of the intervals, split evenly among its bound tests ([`tests_in`]). Anything else is
//! inconclusive (an interval across a bound, too few launches for one, a zero where a figure
//! belongs). A criterion fails when a size fails, is inconclusive when none fails and one is,
//! and passes when every size it covers passes. Before any figure, the runs must be comparable
//! ([`crate::conditions`]: a difference fails, a condition a run does not record is
//! inconclusive), complete and not oversubscribed, unless the user accepts each of those by
//! name.

mod criterion;
mod evaluate;
mod file;
mod outcome;
mod rule;
mod sizes;
#[cfg(test)]
mod tests;

pub use criterion::{
    false_fail_rate, percent, tests_in, Acceptance, Criterion, Reference, Statistic,
};
pub use evaluate::evaluate;
pub use file::{parse, REFERENCE_RANGE};
pub use outcome::{size_text, Outcome, Reason, SizeCheck, Verdict};
