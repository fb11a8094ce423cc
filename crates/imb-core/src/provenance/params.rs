//! The parameters of an MPI executable's run, each with its origin: the settings parameters
//! (guide 5.2.1) after the one settings merge, then the options of the command line.

use super::{to_json, Origin, Param};
use crate::cli::{AggregateMode, Lengths, Multi, Options, ThreadLevel};
use crate::settings::{self, Spec};
use serde_json::Value;

/// Every parameter of a run of an executable with settings file `spec` (`aggregate`: it has
/// AGGREGATE/NON-AGGREGATE tables): the settings parameters by name, with their standard
/// values, then the options by `-name`, the family's own after `-aggregate_mode`; an option's
/// value is what the run used, given or not.
pub fn mpi_parameters(o: &Options, spec: &Spec, aggregate: bool) -> Vec<Param> {
    let mut v = Vec::new();
    let std = to_json(settings::standard(spec));
    if let (Value::Object(now), Value::Object(std)) = (to_json(&o.params), std) {
        for (key, value) in now {
            let standard = std.get(&key).cloned().unwrap_or(Value::Null);
            let origin = o.origins.of(&key);
            v.push(Param::new(&key, value, standard, origin));
        }
    }
    let given = |names: &[&str]| {
        if names.iter().any(|n| o.given.iter().any(|g| g == n)) {
            Origin::CommandLine
        } else {
            Origin::Standard
        }
    };
    let mut opt = |name: &str, value: Value, also: &[&str]| {
        let mut names = vec![name];
        names.extend_from_slice(also);
        v.push(Param::new(
            &format!("-{name}"),
            value,
            Value::Null,
            given(&names),
        ));
    };
    opt("npmin", to_json(o.npmin), &[]);
    // As typed: -multi 0|1, -map PxQ, -thread_level single, -aggregate_mode both.
    let multi = o.multi.map(|m| u8::from(m == Multi::PerGroup));
    opt("multi", to_json(multi), &[]);
    opt(
        "map",
        to_json(o.map.map(|m| format!("{}x{}", m.p, m.q))),
        &[],
    );
    let (msglen, msgsize) = match &o.lengths {
        Lengths::File { file, .. } => (Value::from(file.as_str()), Value::Null),
        Lengths::List { values } => (Value::Null, to_json(values)),
        Lengths::Ladder => (Value::Null, Value::Null),
    };
    opt("msglen", msglen, &[]);
    opt("msgsize", msgsize, &[]);
    opt("time", to_json(o.time), &[]);
    // As typed: GiB per process.
    opt("mem", to_json(o.mem.map(|b| b / (1u64 << 30) as f64)), &[]);
    opt("zero_size", to_json(o.zero_size), &[]);
    opt("check", to_json(o.check), &[]);
    let level = match o.thread_level {
        ThreadLevel::Single => "single",
        ThreadLevel::Funneled => "funneled",
        ThreadLevel::Serialized => "serialized",
        ThreadLevel::Multiple => "multiple",
    };
    opt("thread_level", to_json(level), &[]);
    if aggregate {
        let mode = match o.aggregate_mode {
            AggregateMode::Aggregate => "aggregate",
            AggregateMode::NonAggregate => "non_aggregate",
            AggregateMode::Both => "both",
        };
        opt("aggregate_mode", to_json(mode), &[]);
    }
    for (name, value) in o.family.iter() {
        opt(name, to_json(value), &[]);
    }
    opt(
        "adaptive",
        to_json(o.adaptive),
        &["cutoff", "min_reps", "max_reps"],
    );
    // The method as used: -compat's profile with the options that refined it.
    let m = &o.method;
    opt("compat", to_json(m.compat), &[]);
    opt("iter_policy", to_json(m.iter_policy), &[]);
    opt("warm_up", to_json(m.warm_up), &[]);
    // -sync: on/off under call-by-call timing, null under IMB 3.0's one timer.
    let sync = match m.timing {
        crate::method::Timing::PerCall { sync } => Some(if sync { "on" } else { "off" }),
        crate::method::Timing::Loop => None,
    };
    opt("sync", to_json(sync), &[]);
    // null: not given, each family's own default (doc/ReadMe_IMB.md, "IMB 2021 options").
    opt("root_shift", to_json(m.root_shift), &[]);
    opt("imb_barrier", to_json(m.imb_barrier), &[]);
    opt("msg_pause", to_json(m.msg_pause), &[]);
    opt("off_cache", to_json(m.off_cache), &[]);
    opt("settings", to_json(&o.settings.source), &[]);
    opt("json", to_json(o.json.as_ref().map(|f| &f.shown)), &[]);
    opt("force", to_json(o.force), &[]);
    opt("summary", to_json(o.summary), &[]);
    opt("progress", to_json(o.progress), &[]);
    v
}
