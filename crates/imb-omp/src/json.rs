//! `-json FILE` of imb-omp (doc/OUTPUT.md, "imb-threads and imb-omp"): the parameters with
//! their origins, the runtime and method facts of the header, and every table as data, in the
//! document `imb_core::report::SuiteJson` keeps. Times are microseconds at full precision.

use crate::{constructs::Family, ffi, method, Options, CONSTRUCTS};
use imb_core::provenance::{Local, Param, Provenance};
use imb_core::report::SuiteJson;
use imb_core::settings::Origins;
use serde_json::{json, Map, Value};

/// The machine keys of the columns after a table's variables (`COLUMNS` less `threads`, which
/// the table holds once).
const KEYS: &[&str] = &[
    "time_us",
    "reference_us",
    "overhead_us",
    "ci95_us",
    "median_overhead_us",
    "outer",
    "inner",
    "outliers",
    "flags",
];

/// Every option with its origin (imb-omp has no settings file): the values as typed, times in
/// microseconds. `origins`: the merge's record, by `-name`; `std_threads`: the thread counts
/// without `-threads`.
pub fn parameters(o: &Options, origins: &Origins, std_threads: &[i32]) -> Vec<Param> {
    let origin = |opt: &str| origins.of(&format!("-{opt}"));
    let p = &o.params;
    vec![
        Param::new("-threads", &o.threads, std_threads, origin("threads")),
        Param::new("-outer_reps", p.outer, 20, origin("outer_reps")),
        Param::new("-test_time", p.test_time * 1e6, 1000.0, origin("test_time")),
        Param::new("-delay_time", o.delay_time * 1e6, 0.1, origin("delay_time")),
        Param::new("-cutoff", p.cutoff_pct, 10.0, origin("cutoff")),
        Param::new(
            "-json",
            o.json.as_ref().map(|f| &f.shown),
            (),
            origin("json"),
        ),
        Param::new("-force", o.force, false, origin("force")),
        Param::new("-progress", o.progress, "auto", origin("progress")),
    ]
}

/// The document, written at once, or None without `-json`.
pub fn start(o: &Options, d: &method::Delay, sd: &method::Delay) -> Option<SuiteJson> {
    let file = o.json.clone()?;
    let allowed = imb_harness::binding::allowed_cpus().map_or(0, |c| c.len());
    let most = o.threads.iter().copied().max().unwrap_or(1).max(1) as usize;
    let header = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "part": "OpenMP part",
        "runtime": ffi::runtime(),
        "openmp_version": ffi::openmp_version(),
        "compiler": ffi::compiler(),
        "threads": o.threads,
        "max_threads": ffi::max_threads(),
        "thread_limit": (ffi::thread_limit() != i32::MAX).then(ffi::thread_limit),
        "proc_bind": ffi::proc_bind(),
        "places": ffi::num_places(),
        "wtick_ns": ffi::wtick() * 1e9,
        "delay": {"length": d.len, "us": d.secs * 1e6, "target_us": o.delay_time * 1e6},
        "schedule_delay": {"length": sd.len, "us": sd.secs * 1e6},
        "method": {
            "outer_reps": o.params.outer,
            "test_time_us": o.params.test_time * 1e6,
            "cutoff_pct": o.params.cutoff_pct,
        },
        "oversubscribed": (allowed > 0 && most > allowed)
            .then(|| json!({"threads": most, "cpus": allowed})),
    });
    let names = o
        .constructs
        .iter()
        .map(|&i| CONSTRUCTS[i].name.to_string())
        .collect();
    let prov = Provenance::new(
        o.params_with_origin.clone(),
        None,
        None,
        vec![Local::here(Some(ffi::wtick()), None).with_host_detail(None)],
    );
    Some(SuiteJson::new(file, "imb-omp", prov, header, names))
}

/// One table (a family at one thread count) as data.
pub fn table(family: Family, threads: i32, rows: &[(Vec<String>, method::Point)]) -> Value {
    let vars = crate::vars_of(family);
    let rows: Vec<Value> = rows
        .iter()
        .map(|(v, p)| {
            let mut m = Map::new();
            for (k, x) in vars.iter().zip(v) {
                m.insert(k.to_string(), Value::from(x.as_str()));
            }
            m.insert("threads".into(), Value::from(threads));
            let flags: Vec<&str> = [
                (p.flags.unsettled, "UNSETTLED"),
                (p.flags.unreliable, "UNRELIABLE"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
            let us = |s: f64| Value::from(s * 1e6);
            for (k, x) in KEYS.iter().zip([
                us(p.test.mean),
                us(p.reference.mean),
                us(p.overhead.mean),
                us(p.overhead.ci95),
                us(p.overhead.median),
                Value::from(p.overhead.n),
                Value::from(p.inner),
                Value::from(p.test.outliers),
                Value::from(flags),
            ]) {
                m.insert(k.to_string(), x);
            }
            Value::Object(m)
        })
        .collect();
    let columns: Vec<&str> = vars.iter().chain(crate::COLUMNS).copied().collect();
    let keys: Vec<&str> = vars
        .iter()
        .chain(&["threads"])
        .chain(KEYS)
        .copied()
        .collect();
    json!({
        "benchmark": family.name(),
        "threads": threads,
        "columns": columns,
        "keys": keys,
        "rows": rows,
    })
}
