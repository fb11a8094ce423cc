//! `--json FILE`: the whole comparison as one versioned JSON document for machines
//! (doc/ACCEPTANCE.md, "Outputs for machines"): the runs with their conditions, every
//! difference, per table and size base/new/ratio/interval/change, and per criterion its
//! reference, bounds, unit, statistic, worst margin, verdict and every size it judged.

use super::words::unit;
use crate::conditions::Difference;
use crate::judge::comparison::Comparison;
use crate::judge::criteria::{Outcome, Reference, SizeCheck};
use crate::read::run::Run;
use crate::read::sides::Side;
use serde::Serialize;
use serde_json::{json, Value};

/// The document's schema; bumped when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Doc {
    schema: &'static str,
    schema_version: u32,
    imb_compare_version: &'static str,
    metric: &'static str,
    confidence: f64,
    runs: Vec<Value>,
    notes: Vec<String>,
    unrecorded: Vec<String>,
    comparisons: Vec<Value>,
    criteria: Option<Value>,
    exit_status: u8,
}

fn differences(d: &[Difference]) -> Vec<Value> {
    d.iter()
        .map(|d| json!({"kind": d.kind.key(), "text": d.text}))
        .collect()
}

fn launch(r: &Run, file: &str) -> Value {
    let c = &r.conditions;
    json!({
        "file": file,
        "title": r.title,
        "date": r.identity.date,
        "start": r.identity.start,
        "status": match &r.status {
            crate::read::run::Status::Complete => json!({"state": "complete"}),
            crate::read::run::Status::Unknown => json!({"state": "unknown"}),
            crate::read::run::Status::CutShort(why) => json!({"state": "cut_short", "reason": why}),
        },
        "oversubscribed": r.oversubscribed,
        "conditions": {
            "program": c.program,
            "mpi_library": c.mpi_library,
            "mpi_standard": c.mpi_standard,
            "thread_level": c.thread_level,
            "parameters": c.parameters,
            "layout": c.layout,
            "hosts": c.hosts,
        },
    })
}

fn run(s: &Side, role: &str) -> Value {
    json!({
        "role": role,
        "label": s.label,
        "launches": s.runs.iter().zip(&s.files).map(|(r, f)| launch(r, f)).collect::<Vec<_>>(),
        "repeats": s.repeats.iter().map(|(l, k)| json!({"left_out": l, "kept": k})).collect::<Vec<_>>(),
    })
}

/// A number, or null for none (NaN: no figure).
fn n(x: Option<f64>) -> Value {
    x.filter(|v| v.is_finite()).map_or(Value::Null, Value::from)
}

fn pair(iv: Option<(f64, f64)>) -> Value {
    iv.map_or(Value::Null, |(a, b)| json!([n(Some(a)), n(Some(b))]))
}

fn size(o: &Outcome, z: &SizeCheck) -> Value {
    let bound = |t: Option<f64>| t.and_then(|t| z.reference.map(|r| r * (1.0 + t)));
    json!({
        "benchmark": z.table.benchmark,
        "processes": z.table.processes,
        "groups": z.table.groups,
        "mode": if z.table.mode.is_empty() { Value::Null } else { json!(z.table.mode) },
        "group": z.group,
        "bytes": z.bytes,
        "value": n(z.value),
        "reference": n(z.reference),
        "ratio": n(z.ratio),
        "interval": pair(z.interval),
        "lower_bound": n(bound(o.criterion.lower)),
        "upper_bound": n(bound(o.criterion.upper)),
        "margin": n(z.margin),
        "verdict": z.verdict.map(|v| v.key()),
        "reason": z.reason.as_ref().map(|r| json!({"code": r.code, "text": r.text})),
    })
}

fn outcome(o: &Outcome) -> Value {
    let k = &o.criterion;
    json!({
        "name": k.name,
        "run": o.side,
        "line": k.line,
        "verdict": o.verdict.key(),
        "reason": o.blocked.as_ref().map(|r| json!({"code": r.code, "text": r.text})),
        "detail": o.detail(),
        "benchmark": k.benchmark,
        "processes": k.processes,
        "mode": k.mode,
        "bytes": k.bytes.map(|(a, b)| [a, b]),
        "metric": k.metric.key(),
        "statistic": k.statistic.key(),
        "unit": unit(k.metric),
        "reference": match k.reference {
            Reference::Value(v) => json!(v),
            Reference::Baseline => json!("baseline"),
        },
        "lower": k.lower,
        "upper": k.upper,
        "launches": {"new": o.launches.0, "base": o.launches.1},
        "differences": differences(&o.differences),
        "accepted_differences": differences(&o.accepted),
        "worst": o.worst().map(|z| size(o, z)),
        "sizes": o.sizes.iter().map(|z| size(o, z)).collect::<Vec<_>>(),
    })
}

/// The JSON document, pretty-printed.
pub fn render(c: &Comparison) -> String {
    let mut runs = Vec::new();
    if let Some(b) = c.base {
        runs.push(run(b, "base"));
    }
    runs.extend(c.news.iter().map(|s| run(s, "new")));
    let comparisons = c
        .compared
        .iter()
        .map(|cmp| {
            let tables: Vec<Value> = cmp
                .tables
                .iter()
                .map(|t| {
                    let s = t.summary(c.metric);
                    json!({
                        "benchmark": t.key.benchmark,
                        "processes": t.key.processes,
                        "groups": t.key.groups,
                        "mode": if t.key.mode.is_empty() { Value::Null } else { json!(t.key.mode) },
                        "launches": {"base": t.launches.0, "new": t.launches.1},
                        "differences": differences(&t.differences),
                        "summary": {
                            "geometric_mean_ratio": n(s.geo_mean),
                            "worst": s.worst.map(|(b, q)| json!({"bytes": b, "ratio": n(Some(q))})),
                            "worse": s.worse,
                            "better": s.better,
                            "undecided": s.undecided,
                            "sizes": s.sizes,
                        },
                        "rows": t.rows.iter().map(|r| json!({
                            "group": r.group,
                            "bytes": r.bytes,
                            "base": n(Some(r.base)),
                            "new": n(Some(r.new)),
                            "ratio": n(r.ratio),
                            "interval": pair(r.interval),
                            "change": r.change.key(),
                            "flags": r.flags.iter().map(|(f, who)| json!({"flag": f.name(), "side": who})).collect::<Vec<_>>(),
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "base": c.base.map(|b| b.label.clone()),
                "new": cmp.new.label,
                "differences": differences(&cmp.differences),
                "notes": cmp.notes,
                "tables": tables,
            })
        })
        .collect();
    let criteria = c.criteria.as_ref().map(|cr| {
        json!({
            "file": cr.file,
            "false_fail_rate": cr.false_fail_rate,
            "tests": cr.tests,
            "test_level": cr.false_fail_rate / cr.tests as f64,
            "passed": cr.count(crate::judge::criteria::Verdict::Pass),
            "failed": cr.count(crate::judge::criteria::Verdict::Fail),
            "inconclusive": cr.count(crate::judge::criteria::Verdict::Inconclusive),
            "outcomes": cr.outcomes.iter().map(outcome).collect::<Vec<_>>(),
        })
    });
    let doc = Doc {
        schema: "imb-compare",
        schema_version: SCHEMA_VERSION,
        imb_compare_version: env!("CARGO_PKG_VERSION"),
        metric: c.metric.key(),
        confidence: c.confidence,
        runs,
        notes: c.notes.clone(),
        unrecorded: c.unrecorded.clone(),
        comparisons,
        criteria,
        exit_status: c.exit_status(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
