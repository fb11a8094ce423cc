//! Holding a criterion against a new run (and the baseline): the runs checked comparable,
//! whole and not oversubscribed first, then every size it covers to an interval, then the
//! family-wise rule over its sizes (the module's rule, [`super`]).

use super::criterion::{false_fail_rate, Acceptance, Criterion, Reference};
use super::outcome::{reason, Outcome, Reason, Verdict};
use super::rule::{decide, LaunchValues};
use super::sizes::{check_sizes, covers, figures};
use crate::conditions::{self, Difference, Kind};
use crate::read::key::{world_counts, TableKey};
use crate::read::sides::Side;
use std::collections::{BTreeMap, BTreeSet};

/// Why the judged runs cannot be compared: the conditions some of them do not record and the
/// user did not accept (`--accept-unrecorded`), one phrase a condition naming every run that
/// lacks it, in the report's order.
fn unrecorded(judged: &[(&Side, &str)], acc: &Acceptance) -> Option<Reason> {
    let mut missing: Vec<(Kind, &'static str, &str)> = Vec::new();
    for (s, _) in judged {
        for (kind, what) in conditions::unrecorded_by(s) {
            if !acc.unrecorded.contains(&kind) {
                missing.push((kind, what, s.label.as_str()));
            }
        }
    }
    let mut kinds: Vec<Kind> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for (kind, what, _) in &missing {
        if kinds.contains(kind) {
            continue;
        }
        kinds.push(*kind);
        let who: Vec<&str> = missing
            .iter()
            .filter(|m| m.0 == *kind)
            .map(|m| m.2)
            .collect();
        texts.push(format!("{what} not recorded by {}", who.join(", ")));
    }
    if kinds.is_empty() {
        return None;
    }
    let kinds: Vec<&str> = kinds.iter().map(|k| k.key()).collect();
    reason(
        "unrecorded",
        format!(
            "{}: unknown is not equal (keep -json files with provenance, or --accept-unrecorded \
             {} judges them anyway)",
            texts.join("; "),
            kinds.join(",")
        ),
    )
}

/// Hold `c` against `new` (and `base` where its reference is the baseline), step by step:
/// the runs comparable ([`differences`]), whole and not oversubscribed ([`gate`]), then every
/// size it covers ([`check_sizes`]) and the rule over them ([`conclude`]).
///
/// `tests` is the number of tests of the whole references file ([`super::tests_in`]): the
/// file's chance of a false FAIL is split among them.
pub fn evaluate(
    c: &Criterion,
    base: Option<&Side>,
    new: &Side,
    acc: &Acceptance,
    confidence: f64,
    tests: usize,
) -> Outcome {
    let base = base.filter(|_| c.reference == Reference::Baseline);
    let mut out = Outcome {
        criterion: c.clone(),
        side: new.label.clone(),
        verdict: Verdict::Fail,
        blocked: None,
        sizes: Vec::new(),
        launches: (new.runs.len(), base.map_or(0, |b| b.runs.len())),
        differences: Vec::new(),
        accepted: Vec::new(),
        confidence,
        tests: tests.max(1),
    };
    if c.reference == Reference::Baseline && base.is_none() {
        return blocked(
            out,
            Verdict::Fail,
            reason(
                "no-baseline",
                "reference \"baseline\" but no BASE given".into(),
            ),
        );
    }
    let mut judged: Vec<(&Side, &str)> = vec![(new, "new")];
    judged.extend(base.map(|b| (b, "base")));
    let mut sides: Vec<&Side> = vec![new];
    sides.extend(base);
    let world = world_counts(&sides);
    let fnew = figures(new, c.metric, &world);
    let fbase = base
        .map(|b| figures(b, c.metric, &world))
        .unwrap_or_default();
    let keys: BTreeSet<&TableKey> = fnew
        .keys()
        .filter(|(k, _, b)| covers(c, k, *b))
        .map(|(k, ..)| k)
        .collect();
    let diffs = differences(base, new, &world, &keys);
    let (accepted, refused): (Vec<Difference>, Vec<Difference>) = diffs
        .iter()
        .cloned()
        .partition(|d| acc.differences.contains(&d.kind));
    out.differences = diffs;
    out.accepted = accepted;
    if let Some(why) = not_comparable(&refused) {
        return blocked(out, Verdict::Fail, Some(why));
    }
    if let Some((verdict, why)) = gate(&judged, base.is_some(), acc) {
        return blocked(out, verdict, Some(why));
    }
    let (sizes, values) = check_sizes(c, (&fnew, &fbase), new, acc, confidence);
    out.sizes = sizes;
    conclude(c, out, &values, new)
}

/// `o` with its verdict given before any size was judged, and why.
fn blocked(mut o: Outcome, v: Verdict, r: Option<Reason>) -> Outcome {
    o.verdict = v;
    o.blocked = r;
    o
}

/// Comparable first: every difference of conditions between the runs judged, and among each
/// run's launches, on the tables (`keys`) the criterion covers.
fn differences(
    base: Option<&Side>,
    new: &Side,
    world: &BTreeMap<String, usize>,
    keys: &BTreeSet<&TableKey>,
) -> Vec<Difference> {
    let (a, b) = match base {
        Some(b) => ((b, "base"), (new, "new")),
        None => ((new, "new"), (new, "new")),
    };
    let mut diffs = if base.is_some() {
        conditions::run_differences(a, b)
    } else {
        conditions::side_differences(a)
    };
    let (pa, pb) = (
        conditions::Placements::of(a.0, world),
        conditions::Placements::of(b.0, world),
    );
    for k in keys {
        if base.is_some() {
            diffs.extend(conditions::table_differences(
                k,
                (a.0, a.1, &pa),
                (b.0, b.1, &pb),
            ));
        } else {
            diffs.extend(conditions::table_side_differences(k, (a.0, a.1, &pa)));
        }
    }
    diffs.sort();
    diffs.dedup();
    diffs
}

/// The differences the user did not accept, as the reason the runs are not comparable.
fn not_comparable(refused: &[Difference]) -> Option<Reason> {
    if refused.is_empty() {
        return None;
    }
    let mut kinds: Vec<&str> = refused.iter().map(|d| d.kind.key()).collect();
    kinds.dedup();
    let texts: Vec<&str> = refused.iter().map(|d| d.text.as_str()).collect();
    reason(
        "conditions",
        format!(
            "conditions differ: {} (not comparable; --accept-difference {} judges them \
             anyway)",
            texts.join("; "),
            kinds.join(",")
        ),
    )
}

/// Whether the runs judged may be judged at all, unless accepted by name: none oversubscribed,
/// every condition recorded (against a baseline), none cut short.
fn gate(
    judged: &[(&Side, &str)],
    against_base: bool,
    acc: &Acceptance,
) -> Option<(Verdict, Reason)> {
    if !acc.oversubscribed {
        if let Some(why) = oversubscribed(judged) {
            return Some((Verdict::Fail, why));
        }
    }
    // Unknown is not equal: against a baseline, a condition that a run does not record could
    // differ unseen. Judged only when accepted by name.
    if against_base {
        if let Some(why) = unrecorded(judged, acc) {
            return Some((Verdict::Inconclusive, why));
        }
    }
    if !acc.incomplete {
        if let Some(why) = cut_short(judged) {
            return Some((Verdict::Inconclusive, why));
        }
    }
    None
}

/// The first run judged that ran oversubscribed: its times measure the scheduler.
fn oversubscribed(judged: &[(&Side, &str)]) -> Option<Reason> {
    let (s, why) = judged.iter().find_map(|(s, _)| {
        s.runs
            .iter()
            .find_map(|r| r.oversubscribed.clone())
            .map(|w| (s, w))
    })?;
    reason(
        "oversubscribed",
        format!(
            "{} ran oversubscribed ({}): its times measure the scheduler \
             (--accept-oversubscribed judges them anyway)",
            s.label,
            why.split(" (oversubscribed)").next().unwrap_or(&why)
        ),
    )
}

/// The first launch judged that was cut short, by its file.
fn cut_short(judged: &[(&Side, &str)]) -> Option<Reason> {
    let (file, why) = judged.iter().find_map(|(s, _)| {
        s.runs
            .iter()
            .zip(&s.files)
            .find_map(|(r, f)| r.status.cut_short().map(|w| (f.clone(), w.to_string())))
            .or_else(|| {
                s.runs.iter().find_map(|r| {
                    r.status
                        .cut_short()
                        .map(|w| (s.label.clone(), w.to_string()))
                })
            })
    })?;
    reason(
        "cut-short",
        format!(
            "{file} was cut short ({why}): its figures are not a whole run \
             (--accept-incomplete judges what it has)"
        ),
    )
}

/// The rule over the sizes judged, then the criterion's verdict: the worst of its sizes, or a
/// FAIL when no size it covers has a figure to judge.
fn conclude(
    c: &Criterion,
    mut out: Outcome,
    values: &[(LaunchValues, LaunchValues)],
    new: &Side,
) -> Outcome {
    let tail = false_fail_rate(out.confidence) / out.tests as f64;
    decide(c, &mut out.sizes, values, out.launches, tail);
    if out.sizes.is_empty() {
        return blocked(
            out,
            Verdict::Fail,
            reason(
                "no-rows",
                format!("no row of {} matches the criterion", new.label),
            ),
        );
    }
    out.verdict = match out.judged().map(|s| s.verdict).max().flatten() {
        Some(v) => v,
        // Every size left out: nothing was shown to hold.
        None => {
            out.blocked = reason("no-rows", "no size it covers has a figure to judge".into());
            Verdict::Fail
        }
    };
    out
}
