//! `-json FILE` of imb-threads (doc/OUTPUT.md, "imb-threads and imb-omp"): the header's facts
//! and every table as data, in the document `imb_core::report::SuiteJson` keeps. Rows carry
//! full-precision times in microseconds, the flags as a list and whether the binding held.

use crate::{cli, suite, COLUMNS};
use imb_core::provenance::{Local, Provenance};
use imb_core::report::SuiteJson;
use imb_harness::adaptive::{Clock, Policy};
use serde_json::{json, Map, Value};

/// The machine keys of `COLUMNS`, in the same order (the variables' titles are their own keys).
const KEYS: &[&str] = &[
    "mean_us",
    "stddev_us",
    "median_us",
    "min_us",
    "timings",
    "iterations",
    "placement",
    "flags",
];

/// The document, written at once, or None without `-json`.
pub fn start(
    o: &cli::Options,
    clock: &Clock,
    p: &Policy,
    allowed: &[usize],
    cpus: &[usize],
    most: usize,
) -> Option<SuiteJson> {
    let file = o.json.clone()?;
    let header = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "part": "Pthreads part",
        "cpus_allowed": allowed,
        "cpus_used": cpus,
        "clock": {"resolution_ns": clock.resolution * 1e9, "read_cost_ns": clock.read_cost * 1e9},
        "harness": {
            "cutoff_pct": p.cutoff_pct,
            "min_reps": p.min_reps,
            "max_reps": p.max_reps,
            "min_timing_us": p.min_timing * 1e6,
        },
        "correct": o.correct,
        "oversubscribed": (most > cpus.len()).then(|| json!({"threads": most, "cpus": cpus.len()})),
    });
    let names = o
        .benchmarks
        .iter()
        .map(|&i| suite::BENCHMARKS[i].name.to_string())
        .collect();
    let prov = Provenance::new(
        o.params.clone(),
        o.settings.clone(),
        None,
        vec![Local::here(Some(clock.resolution), None).with_host_detail(None)],
    );
    Some(SuiteJson::new(file, "imb-threads", prov, header, names))
}

/// One table as data.
pub fn table(b: &suite::Bench, t: &suite::Table) -> Value {
    let rows: Vec<Value> = t
        .rows
        .iter()
        .map(|r| {
            let mut m = Map::new();
            for (k, v) in b.vars.iter().zip(&r.vars) {
                m.insert(k.to_string(), Value::from(v.as_str()));
            }
            let flags: Vec<&str> = [
                (r.m.flags.unsettled, "UNSETTLED"),
                (r.m.flags.unreliable, "UNRELIABLE"),
                (!r.honoured, "NOT_BOUND"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
            let us = |v: f64| Value::from(v * 1e6);
            for (k, v) in KEYS.iter().zip([
                us(r.m.mean),
                us(r.m.stddev),
                us(r.m.median),
                us(r.m.min),
                Value::from(r.m.timings),
                Value::from(r.m.iterations),
                Value::from(r.placements.as_str()),
                Value::from(flags),
            ]) {
                m.insert(k.to_string(), v);
            }
            m.insert("bound".into(), Value::from(r.honoured));
            m.insert("overhead_us".into(), json!(r.m.overhead.map(|v| v * 1e6)));
            Value::Object(m)
        })
        .collect();
    let columns: Vec<&str> = b.vars.iter().chain(COLUMNS).copied().collect();
    let keys: Vec<&str> = b.vars.iter().chain(KEYS).copied().collect();
    json!({
        "benchmark": b.name,
        "what": b.what,
        "columns": columns,
        "keys": keys,
        "rows": rows,
        "notes": t.notes,
    })
}
