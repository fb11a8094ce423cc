//! The run's parameters for the `-json` provenance, each with its origin: the command line over
//! a `-settings` file over the built-in defaults (settings/threads.toml).

use super::{parse_binds, parse_list, Defaults, Options, MAX_THREADS};
use imb_core::provenance::{Origin, Param};
use imb_harness::binding::Bind;

/// `bind` as the settings file writes it.
fn bind_names(b: &[Bind]) -> Vec<&'static str> {
    b.iter().map(Bind::name).collect()
}

/// Every parameter of `o`: the settings keys (standard: the built-in `std`), then the options
/// without a settings key. `given(opt)`: the option was on the command line; `file`: a
/// settings file gave the defaults.
pub(super) fn parameters(
    o: &Options,
    std: &Defaults,
    given: impl Fn(&str) -> bool,
    file: bool,
) -> Vec<Param> {
    let origin = |opt: &str| {
        if given(opt) {
            Origin::CommandLine
        } else if file {
            Origin::SettingsFile
        } else {
            Origin::Standard
        }
    };
    let std_binds = parse_binds(std.bind.get_ref()).unwrap_or_default();
    let std_threads = parse_list(std.threads.get_ref(), 1, MAX_THREADS).unwrap_or_default();
    let plain = |opt: &str| {
        if given(opt) {
            Origin::CommandLine
        } else {
            Origin::Standard
        }
    };
    vec![
        Param::new(
            "CUTOFF_PCT",
            o.cutoff_pct,
            std.cutoff_pct.get_ref(),
            origin("cutoff"),
        ),
        Param::new(
            "MIN_REPS",
            o.min_reps,
            std.min_reps.get_ref(),
            origin("min_reps"),
        ),
        Param::new(
            "MAX_REPS",
            o.max_reps,
            std.max_reps.get_ref(),
            origin("max_reps"),
        ),
        Param::new(
            "BIND",
            bind_names(&o.binds),
            bind_names(&std_binds),
            origin("bind"),
        ),
        Param::new("THREADS", &o.threads, std_threads, origin("threads")),
        Param::new(
            "CORRECT",
            o.correct,
            std.correct.get_ref(),
            origin("correct"),
        ),
        Param::new("-cpus", o.cpus.as_ref().map(|(_, v)| v), (), plain("cpus")),
        Param::new("-settings", &o.settings, (), plain("settings")),
        Param::new(
            "-json",
            o.json.as_ref().map(|f| &f.shown),
            (),
            plain("json"),
        ),
        Param::new("-force", o.force, (), plain("force")),
        Param::new("-progress", o.progress, "auto", plain("progress")),
    ]
}
