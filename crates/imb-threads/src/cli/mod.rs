//! The command line, in the suite's style: IMB-like single-dash options (`-cutoff 2`, also
//! `--cutoff=2`), benchmark names in any case, defaults from `settings/threads.toml` (embedded,
//! or `-settings FILE`). Every error is one line naming the option, file or line.

use crate::suite::BENCHMARKS;
use imb_core::cli::record::{HasShared, Named, Shared};
use imb_core::cli::shared;
use imb_core::cli::table::{self, Dashed, Opt, Takes};
use imb_core::cli::value::{number_list, whole};
use imb_core::cli::ProgressMode;
use imb_core::settings::{Origin, Origins};
use imb_harness::binding::{self, Bind};
use settings::{check_cutoff, Defaults};
#[cfg(test)]
use settings::{defaults, DEFAULTS};

/// The command line as typed: each option's text, read when the settings are known
/// (`parse_args`), and the shared rows' values.
#[derive(Debug, Clone, Default, PartialEq)]
struct Raw {
    shared: Shared,
    cutoff: Option<String>,
    min_reps: Option<String>,
    max_reps: Option<String>,
    bind: Option<String>,
    threads: Option<String>,
    cpus: Option<String>,
    correct: bool,
}

impl HasShared for Raw {
    fn shared(&mut self) -> &mut Shared {
        &mut self.shared
    }
}

type Why = Result<(), String>;

/// The options, in `-help` order; `-help` and the argv reader come from this table.
const OPTS: &[Opt<Raw>] = &[
    shared::help((0, 0, "[-h{elp}]"), ""),
    shared::list((0, 1, "[-list]"), ""),
    Opt::row(
        "cutoff",
        Takes::Value,
        |r, v| -> Why {
            r.cutoff = Some(v.to_string());
            Ok(())
        },
        (0, 2, "[-cutoff PCT]"),
        "- -cutoff PCT: a data point settles when the standard deviation of its timings is at most\n  \
PCT % of their mean (default 5, any finite PCT >= 0), after at least -min_reps timings\n  \
(default 5); after -max_reps timings (default 100) it stops and is flagged UNSETTLED.\n  \
Both are 2..1000000.\n",
    ),
    Opt::row(
        "min_reps",
        Takes::Value,
        |r, v| -> Why {
            r.min_reps = Some(v.to_string());
            Ok(())
        },
        (0, 3, "[-min_reps N]"),
        "",
    ),
    Opt::row(
        "max_reps",
        Takes::Value,
        |r, v| -> Why {
            r.max_reps = Some(v.to_string());
            Ok(())
        },
        (0, 4, "[-max_reps N]"),
        "",
    ),
    Opt::row(
        "bind",
        Takes::Value,
        |r, v| -> Why {
            r.bind = Some(v.to_string());
            Ok(())
        },
        (1, 0, "[-bind same|different|none|all]"),
        "- -bind same|different|none|all: where the threads of multi-thread benchmarks run: all on\n  \
one CPU, each on its own, left to the OS, or all three (default). A comma list works\n  \
(same,none).\n",
    ),
    Opt::row(
        "threads",
        Takes::Value,
        |r, v| -> Why {
            r.threads = Some(v.to_string());
            Ok(())
        },
        (1, 1, "[-threads LIST]"),
        "- -threads LIST: thread counts of Cond_Broadcast, Barrier and Std_Barrier (default 2,4),\n  \
e.g. 4, 1,2,4 or 1-4; each 1..1024.\n",
    ),
    Opt::row(
        "cpus",
        Takes::Value,
        |r, v| -> Why {
            r.cpus = Some(v.to_string());
            Ok(())
        },
        (1, 2, "[-cpus LIST]"),
        "- -cpus LIST: bind only to these CPUs (they must be in the process's affinity mask; none\n  \
twice with -bind different).\n",
    ),
    Opt::row(
        "correct",
        Takes::Flag,
        |r, _| -> Why {
            r.correct = true;
            Ok(())
        },
        (1, 3, "[-correct]"),
        "- -correct: subtract the harness's own cost (an empty action) from every mean; a row whose\n  \
correction is anomalous is flagged UNRELIABLE.\n",
    ),
    shared::settings(
        (2, 0, "[-settings FILE.toml]"),
        "- -settings FILE: defaults from a file like settings/threads.toml (a regular file).\n",
    ),
    shared::json(
        (2, 1, "[-json FILE]"),
        "- -json FILE: the results as data (doc/OUTPUT.md, \"JSON\"): provenance, header facts and\n  \
every table, rewritten after each table; FILE must be a regular file or not exist yet.\n",
    ),
    shared::force(
        (2, 2, "[-force]"),
        "- -force: run even when the rows asked for need more than an hour at the least.\n",
    ),
    shared::progress(
        (3, 0, "[-progress on|off|auto]"),
        "- -progress on|off|auto: lines on stderr saying which benchmark and row the run is at, the\n  \
time elapsed and an estimate of the time left; never on stdout. auto (default): only when\n  \
stderr is a terminal.\n",
    ),
    shared::names(
        (3, 1, "[benchmark1 [benchmark2 ...]]"),
        "- benchmarki: names in any case; default all, in the order below.\n",
    ),
];

/// Most threads a row may be asked for (`-threads`): far above any CPU count this suite is meant
/// for, low enough that creating them stays within the default thread limits of Linux
/// (`ulimit -u`, kernel.threads-max); a thread the system still refuses ends the run with exit
/// status 3 naming the benchmark.
pub const MAX_THREADS: usize = 1024;

/// Highest CPU number `-cpus` takes: an affinity mask (`cpu_set_t`) holds CPUs 0..1023.
pub const MAX_CPU: usize = 1023;

/// Most timings per data point (`-min_reps`, `-max_reps`): the harness's own limit.
pub const MAX_REPS: usize = imb_harness::adaptive::MAX_REPS_LIMIT;

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Indices into BENCHMARKS, in run order.
    pub benchmarks: Vec<usize>,
    pub cutoff_pct: f64,
    pub min_reps: usize,
    pub max_reps: usize,
    pub binds: Vec<Bind>,
    pub threads: Vec<usize>,
    /// CPUs to bind to (a subset of the inherited mask) as written, or None for the whole mask.
    pub cpus: Option<(String, Vec<usize>)>,
    pub correct: bool,
    pub settings: Option<String>,
    /// `-force`: run even when the run cannot finish within an hour.
    pub force: bool,
    /// `-json FILE`, checked before the run.
    pub json: Option<imb_core::safefile::OutFile>,
    /// Every parameter with its origin, for the `-json` provenance.
    pub params: Vec<imb_core::provenance::Param>,
    pub progress: ProgressMode,
    /// Where each settings key's value came from, and which options were given (`-name`).
    pub origins: Origins,
}

pub enum Action {
    Run(Box<Options>),
    Help,
    List,
}

/// `same`, `all`, `same,none`, … in a fixed order without repeats. The error says what is
/// wrong and lists every valid value; the caller names the option or the file.
pub fn parse_binds(s: &str) -> Result<Vec<Bind>, String> {
    let mut v = Vec::new();
    for w in s.split(',') {
        if w.trim().eq_ignore_ascii_case("all") {
            v.extend([Bind::None, Bind::Same, Bind::Different]);
        } else {
            v.push(Bind::parse(w.trim()).map_err(|_| {
                format!(
                    "unknown value {:?} (valid: same, different, none, all, or a comma list \
                     of them such as same,none)",
                    w.trim()
                )
            })?);
        }
    }
    let mut out = Vec::new();
    for b in [Bind::None, Bind::Same, Bind::Different] {
        if v.contains(&b) {
            out.push(b);
        }
    }
    Ok(out)
}

/// `4`, `1,2,4`, `1-4`: numbers `min..=max`; the error says why (the caller names the option
/// or the file).
pub fn parse_list(s: &str, min: usize, max: usize) -> Result<Vec<usize>, String> {
    let shape = || format!("expected numbers like 4, 1,2,4 or 1-4 (each {min}..{max})");
    number_list(s, |x| match whole(x, min, max) {
        Ok(n) => Ok(n),
        Err(_) if x.trim().bytes().all(|b| b.is_ascii_digit()) && !x.trim().is_empty() => {
            Err(format!("{} is outside {min}..{max}", x.trim()))
        }
        Err(_) => Err(shape()),
    })
}

/// The options of argv; an error is one line with the control characters of an argument or
/// the settings file shown escaped (`imb_core::error::plain`).
pub fn parse(args: &[String]) -> Result<Action, String> {
    parse_args(args).map_err(|e| imb_core::error::plain(&e).into_owned())
}

fn parse_args(args: &[String]) -> Result<Action, String> {
    let r = match table::read_dashes(args, OPTS)? {
        Dashed::Help => return Ok(Action::Help),
        Dashed::List => return Ok(Action::List),
        Dashed::Run(r) => r,
    };
    let std = settings::built_in()?;
    let file = r
        .shared
        .settings
        .as_deref()
        .map(settings::read)
        .transpose()?;
    let mut origins = Origins::default();
    let cutoff = r
        .cutoff
        .as_ref()
        .map(|s| {
            let v = s
                .parse::<f64>()
                .map_err(|_| format!("-cutoff {s}: expected a percentage"))?;
            check_cutoff(v).map_err(|e| format!("-cutoff {s}: {e}"))
        })
        .transpose()?;
    let cutoff_pct = merged_key(&mut origins, "CUTOFF_PCT", &std, &file, cutoff, |d| {
        *d.cutoff_pct.get_ref()
    });
    let reps = |name: &str, given: &Option<String>| -> Result<Option<usize>, String> {
        given
            .as_ref()
            .map(|s| whole(s, 2, MAX_REPS).map_err(|e| format!("-{name} {s}: {e}")))
            .transpose()
    };
    let (min, max) = (
        reps("min_reps", &r.min_reps)?,
        reps("max_reps", &r.max_reps)?,
    );
    let min_reps = merged_key(&mut origins, "MIN_REPS", &std, &file, min, |d| {
        *d.min_reps.get_ref()
    });
    let max_reps = merged_key(&mut origins, "MAX_REPS", &std, &file, max, |d| {
        *d.max_reps.get_ref()
    });
    if max_reps < min_reps {
        return Err(format!(
            "-max_reps {max_reps}: must be at least -min_reps ({min_reps})"
        ));
    }
    let bind = r
        .bind
        .as_ref()
        .map(|s| parse_binds(s).map_err(|e| format!("-bind {s}: {e}")))
        .transpose()?;
    // The files' values were checked when they were read.
    let binds = merged_key(&mut origins, "BIND", &std, &file, bind, |d| {
        parse_binds(d.bind.get_ref()).unwrap_or_default()
    });
    let threads = r
        .threads
        .as_ref()
        .map(|s| parse_list(s, 1, MAX_THREADS).map_err(|e| format!("-threads {s}: {e}")))
        .transpose()?;
    let threads = merged_key(&mut origins, "THREADS", &std, &file, threads, |d| {
        parse_list(d.threads.get_ref(), 1, MAX_THREADS).unwrap_or_default()
    });
    r.shared.check("progress")?;
    let progress = r.shared.progress.unwrap_or_default();
    let cpus = r
        .cpus
        .as_ref()
        .map(|s| {
            parse_list(s, 0, MAX_CPU)
                .map(|v| (s.clone(), v))
                .map_err(|e| format!("-cpus {s}: {e}"))
        })
        .transpose()?;
    let mut benchmarks = Vec::new();
    for n in r.shared.names.iter().filter_map(|n| match n {
        Named::Name(n) => Some(n),
        Named::Input(_) => None,
    }) {
        match BENCHMARKS
            .iter()
            .position(|b| b.name.eq_ignore_ascii_case(n))
        {
            Some(i) => benchmarks.push(i),
            None => {
                let names: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
                return Err(format!(
                    "{n}: unknown benchmark; valid names: {}",
                    names.join(", ")
                ));
            }
        }
    }
    if benchmarks.is_empty() {
        benchmarks = (0..BENCHMARKS.len()).collect();
    }
    // Fail before measuring; nothing is created yet.
    let json = r
        .shared
        .json
        .as_ref()
        .map(|f| imb_core::safefile::OutFile::check("-json", f).map_err(|e| e.to_string()))
        .transpose()?;
    let correct = merged_key(
        &mut origins,
        "CORRECT",
        &std,
        &file,
        r.correct.then_some(true),
        |d| *d.correct.get_ref(),
    );
    for name in ["cpus", "settings", "json", "force", "progress"] {
        if r.shared.was_given(name) {
            origins.set(&format!("-{name}"), Origin::CommandLine);
        }
    }
    let mut o = Options {
        benchmarks,
        cutoff_pct,
        min_reps,
        max_reps,
        binds,
        threads,
        cpus,
        correct,
        force: r.shared.force,
        json,
        params: Vec::new(),
        settings: r.shared.settings.clone(),
        progress,
        origins,
    };
    o.params = params::parameters(&o, &std);
    Ok(Action::Run(Box::new(o)))
}

/// `key`'s value: the command line's (`cli`) over the settings file's over the built-in one,
/// read from a `[defaults]` block by `get`; `origins` records where it came from.
fn merged_key<T>(
    origins: &mut Origins,
    key: &str,
    std: &Defaults,
    file: &Option<Defaults>,
    cli: Option<T>,
    get: impl Fn(&Defaults) -> T,
) -> T {
    let mut v = get(std);
    origins.layer(key, Origin::SettingsFile, file.as_ref().map(&get), &mut v);
    origins.layer(key, Origin::CommandLine, cli, &mut v);
    v
}

/// Checks that need the CPUs and the harness, before anything is measured: duplicate CPUs
/// cannot give `-bind different` its distinct CPUs, and a run that needs more than an hour at
/// the least is refused unless `-force`.
pub fn check_run(
    o: &Options,
    cpus: &[usize],
    p: &imb_harness::adaptive::Policy,
) -> Result<(), String> {
    if let Some((written, list)) = &o.cpus {
        if o.binds.contains(&Bind::Different) {
            let mut seen = std::collections::BTreeSet::new();
            if let Some(c) = list.iter().find(|&&c| !seen.insert(c)) {
                return Err(format!(
                    "-cpus {}: CPU {c} is listed twice; -bind different needs distinct CPUs \
                     (list each once, or use -bind same or none)",
                    imb_core::error::plain(written)
                ));
            }
        }
    }
    let (rows, least) = least_secs(o, cpus, p);
    // The MPI suites' limit and wording (doc/ReadMe_IMB.md, "Robustness").
    if least > imb_core::plan::LONG_RUN_SECS && !o.force {
        return Err(imb_core::plan::refusal(
            least,
            &format!(
                "{rows} rows of {} timings and one to tune each, every timing at least the \
                 harness's minimum: {:.0} usec, 10 ms with client threads, 50 ms for \
                 Thread_Create",
                p.min_reps,
                p.min_timing * 1e6,
            ),
            "-min_reps, -threads or the -bind scenarios",
        ));
    }
    Ok(())
}

/// Each benchmark's rows, in run order.
pub fn planned(
    o: &Options,
    cpus: &[usize],
    p: &imb_harness::adaptive::Policy,
) -> Vec<Vec<crate::suite::PlannedRow>> {
    o.benchmarks
        .iter()
        .map(|&i| BENCHMARKS[i].planned_rows(&o.binds, &o.threads, cpus, p.min_timing))
        .collect()
}

/// The rows of the run and the least time they can take: every row takes at least min_reps
/// timings of at least its minimum timing, and the last timing of its tuning (the one that
/// first lasted the minimum) before them; the shorter tuning timings and `-correct`'s series
/// of the empty action (not every row has one) come on top.
pub fn least_secs(o: &Options, cpus: &[usize], p: &imb_harness::adaptive::Policy) -> (usize, f64) {
    let rows: Vec<_> = planned(o, cpus, p).into_iter().flatten().collect();
    let secs = rows
        .iter()
        .map(|r| (p.min_reps + 1) as f64 * r.min_timing)
        .sum();
    (rows.len(), secs)
}

/// The most threads any row of the run has (for the oversubscription line of the header).
pub fn most_threads(o: &Options, cpus: &[usize], p: &imb_harness::adaptive::Policy) -> usize {
    planned(o, cpus, p)
        .iter()
        .flatten()
        .map(|r| r.threads)
        .max()
        .unwrap_or(1)
}

/// The CPUs to bind to: `-cpus` (each must be in the inherited mask) or the whole mask.
pub fn cpus(o: &Options, allowed: &[usize]) -> Result<Vec<usize>, String> {
    match &o.cpus {
        None => Ok(allowed.to_vec()),
        Some((_, v)) => {
            for &c in v {
                binding::check_allowed(c, allowed)?;
            }
            Ok(v.clone())
        }
    }
}

pub fn help() -> String {
    let mut s = String::from("\nCalling sequence:\n\n");
    s.push_str(&table::synopsis(
        OPTS,
        |_| true,
        "imb-threads ",
        &" ".repeat(12),
    ));
    s.push('\n');
    s.push_str(&table::help_text(OPTS, |_| true, str::to_string));
    s.push_str("\nBenchmarks:\n");
    for b in BENCHMARKS {
        s.push_str(&format!("{:<22}{}\n", b.name, b.what));
    }
    s
}

pub fn list() -> String {
    let mut s = String::from("# Benchmarks of imb-threads (default run order):\n");
    for b in BENCHMARKS {
        s.push_str(&format!("# {}\n", b.name));
    }
    s.push_str("# (Rust std::sync equivalents are the Std_ rows; WORKSHARE-like constructs do not exist here)\n");
    s
}

#[cfg(test)]
mod corpus;
mod params;
mod settings;
#[cfg(test)]
mod tests;
