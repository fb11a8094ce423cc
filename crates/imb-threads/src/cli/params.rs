//! The run's parameters for the `-json` provenance, each with its origin as the merge recorded
//! it (`Options::origins`): the command line over a `-settings` file over the built-in
//! defaults (settings/threads.toml).

use super::settings::Defaults;
use super::{parse_binds, parse_list, Options, MAX_THREADS};
use imb_core::provenance::Param;
use imb_harness::binding::Bind;

/// `bind` as the settings file writes it.
fn bind_names(b: &[Bind]) -> Vec<&'static str> {
    b.iter().map(Bind::name).collect()
}

/// Every parameter of `o`: the settings keys (standard: the built-in `std`), then the options
/// without a settings key.
pub(super) fn parameters(o: &Options, std: &Defaults) -> Vec<Param> {
    let origin = |key: &str| o.origins.of(key);
    let std_binds = parse_binds(std.bind.get_ref()).unwrap_or_default();
    let std_threads = parse_list(std.threads.get_ref(), 1, MAX_THREADS).unwrap_or_default();
    vec![
        Param::new(
            "CUTOFF_PCT",
            o.cutoff_pct,
            std.cutoff_pct.get_ref(),
            origin("CUTOFF_PCT"),
        ),
        Param::new(
            "MIN_REPS",
            o.min_reps,
            std.min_reps.get_ref(),
            origin("MIN_REPS"),
        ),
        Param::new(
            "MAX_REPS",
            o.max_reps,
            std.max_reps.get_ref(),
            origin("MAX_REPS"),
        ),
        Param::new(
            "BIND",
            bind_names(&o.binds),
            bind_names(&std_binds),
            origin("BIND"),
        ),
        Param::new("THREADS", &o.threads, std_threads, origin("THREADS")),
        Param::new(
            "CORRECT",
            o.correct,
            std.correct.get_ref(),
            origin("CORRECT"),
        ),
        Param::new(
            "-cpus",
            o.cpus.as_ref().map(|(_, v)| v),
            (),
            origin("-cpus"),
        ),
        Param::new("-settings", &o.settings, (), origin("-settings")),
        Param::new(
            "-json",
            o.json.as_ref().map(|f| &f.shown),
            (),
            origin("-json"),
        ),
        Param::new("-force", o.force, (), origin("-force")),
        Param::new("-progress", o.progress, "auto", origin("-progress")),
    ]
}
