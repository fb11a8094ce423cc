//! imb-omp's command line: the option table (from which `-help` and the argv normaliser come),
//! the options' limits, and the least time a run can take (refused above an hour unless
//! `-force`).

use crate::constructs::{self, Kind, CONSTRUCTS};
use crate::{ffi, json, method};
use imb_core::cli::record::{HasShared, Named, Shared};
use imb_core::cli::shared;
use imb_core::cli::table::{self, Dashed, Opt, Takes};
use imb_core::cli::value::{number_list, whole};
use imb_core::cli::ProgressMode;
use imb_core::settings::{Origin, Origins};

/// The command line as typed: each option's text, read when the runtime's limits are known
/// (`parse_args`), and the shared rows' values.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Raw {
    shared: Shared,
    threads: Option<String>,
    outer_reps: Option<String>,
    test_time: Option<String>,
    delay_time: Option<String>,
    cutoff: Option<String>,
}

impl HasShared for Raw {
    fn shared(&mut self) -> &mut Shared {
        &mut self.shared
    }
}

type Why = Result<(), String>;

/// The options, in `-help` order; `-help` and the argv reader come from this table.
pub(crate) const OPTS: &[Opt<Raw>] = &[
    shared::help((0, 0, "[-h{elp}]"), ""),
    shared::list((0, 1, "[-list]"), ""),
    Opt::row(
        "threads",
        Takes::Value,
        |r, v| -> Why {
            r.threads = Some(v.to_string());
            Ok(())
        },
        (0, 2, "[-threads LIST]"),
        "- -threads LIST: thread counts, e.g. 4, 1,2,4 or 1-4 (default 1, 2, 4, ... up to the runtime's\n  \
maximum, which always comes last; at most 4096 and the runtime's thread limit).\n",
    ),
    Opt::row(
        "outer_reps",
        Takes::Value,
        |r, v| -> Why {
            r.outer_reps = Some(v.to_string());
            Ok(())
        },
        (0, 3, "[-outer_reps N]"),
        "- -outer_reps N: measurements per data point (default 20, 2..10000).\n",
    ),
    Opt::row(
        "test_time",
        Takes::Value,
        |r, v| -> Why {
            r.test_time = Some(v.to_string());
            Ok(())
        },
        (0, 4, "[-test_time USEC]"),
        "- -test_time USEC: innerreps doubles until one test lasts this long (default 1000, at most\n  \
10 s).\n",
    ),
    Opt::row(
        "delay_time",
        Takes::Value,
        |r, v| -> Why {
            r.delay_time = Some(v.to_string());
            Ok(())
        },
        (1, 0, "[-delay_time USEC]"),
        "- -delay_time USEC: the calibrated delay in each construct (default 0.1, at most 1000); the\n  \
schedule family uses a body of about 100 cycles instead.\n",
    ),
    shared::json(
        (1, 2, "[-json FILE]"),
        "- -json FILE: the results as data (doc/OUTPUT.md, \"JSON\"): provenance, header facts and\n  \
every table, rewritten after each table; FILE must be a regular file or not exist yet.\n",
    ),
    shared::force(
        (1, 3, "[-force]"),
        "- -force: run even when the data points asked for need more than an hour at the least.\n",
    ),
    shared::progress(
        (2, 0, "[-progress on|off|auto]"),
        "- -progress on|off|auto: lines on stderr saying which family, team and data point the run\n  \
is at, the time elapsed and an estimate of the time left; never on stdout. auto (default):\n  \
only when stderr is a terminal.\n",
    ),
    Opt::row(
        "cutoff",
        Takes::Value,
        |r, v| -> Why {
            r.cutoff = Some(v.to_string());
            Ok(())
        },
        (1, 1, "[-cutoff PCT]"),
        "- -cutoff PCT: a data point whose test times spread more than PCT % of their mean, or with more\n  \
than a quarter outliers, is flagged UNSETTLED (default 10).\n",
    ),
    shared::names(
        (2, 1, "[family | construct ...]"),
        "- family: sync, sched or array; construct: a name from -list, any case. Default: all.\n",
    ),
];

/// Limits of the options (doc/OMP.md, "Output"): far above any useful value, low enough that a
/// slip of the keyboard cannot ask for days. The runtime's own `omp_get_thread_limit()` may
/// lower the thread count further.
const MAX_THREADS: i32 = 4096;
const MAX_OUTER_REPS: usize = 10_000;
/// 10 s: ten thousand times the default test.
const MAX_TEST_TIME_USEC: f64 = 10e6;
/// 1 ms: ten thousand times the default delay. A longer delay buries a construct's overhead
/// (0.1 to a few usec) in the delay's own jitter, and calibrating it would take minutes.
const MAX_DELAY_TIME_USEC: f64 = 1e3;

pub(crate) struct Options {
    /// Indices into CONSTRUCTS, in run order.
    pub(crate) constructs: Vec<usize>,
    pub(crate) threads: Vec<i32>,
    pub(crate) params: method::Params,
    /// Target of the delay loop (seconds); the schedule family uses ~100 cycles instead.
    pub(crate) delay_time: f64,
    /// `-force`: run even when the run cannot finish within an hour.
    pub(crate) force: bool,
    /// `-json FILE`, checked before the run.
    pub(crate) json: Option<imb_core::safefile::OutFile>,
    /// Every option with its origin, for the `-json` provenance.
    pub(crate) params_with_origin: Vec<imb_core::provenance::Param>,
    /// `-progress`: where the run is, on stderr.
    pub(crate) progress: ProgressMode,
}

/// What the command line asks for.
pub(crate) enum Action {
    Run(Options),
    Print(String),
}

fn number<T: std::str::FromStr>(opt: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("-{opt} {v}: expected a number"))
}

/// `4`, `1,2,4`, `1-4`: thread counts of 1..=`limit`; `runtime_limit` is the OpenMP runtime's
/// (named in the error when it is the lower one).
fn parse_threads(s: &str, runtime_limit: i32) -> Result<Vec<i32>, String> {
    let limit = MAX_THREADS.min(runtime_limit.max(1));
    let why = if limit < MAX_THREADS {
        format!("the OpenMP runtime's thread limit (omp_get_thread_limit(), OMP_THREAD_LIMIT) is {limit}")
    } else {
        format!("imb-omp takes at most {MAX_THREADS}")
    };
    let num = |x: &str| -> Result<usize, String> {
        let x = x.trim();
        match x.parse::<i64>() {
            Ok(n) if (1..=i64::from(limit)).contains(&n) => Ok(n as usize),
            Ok(n) if n < 1 => Err("thread counts start at 1".to_string()),
            _ if !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()) => {
                Err(format!("{x} threads: {why}"))
            }
            _ => Err("expected thread counts like 4, 1,2,4 or 1-4".to_string()),
        }
    };
    let v = number_list(s, num).map_err(|e| format!("-threads {s}: {e}"))?;
    // Each is at most `limit`, an i32.
    Ok(v.into_iter().map(|t| t as i32).collect())
}

/// A whole number `min..=max` for option `opt`.
fn count(opt: &str, v: &str, min: usize, max: usize) -> Result<usize, String> {
    whole(v, min, max).map_err(|e| format!("-{opt} {v}: {e}"))
}

/// The options of argv for a runtime of `max_threads` and `thread_limit`; an error is one line
/// with the control characters of an argument shown escaped (`imb_core::error::plain`).
pub(crate) fn parse(
    args: &[String],
    max_threads: i32,
    thread_limit: i32,
) -> Result<Action, String> {
    parse_args(args, max_threads, thread_limit).map_err(|e| imb_core::error::plain(&e).into_owned())
}

fn parse_args(args: &[String], max_threads: i32, thread_limit: i32) -> Result<Action, String> {
    let r = match table::read_dashes(args, OPTS)? {
        Dashed::Help => return Ok(Action::Print(help())),
        Dashed::List => return Ok(Action::Print(list())),
        Dashed::Run(r) => r,
    };
    // 1, 2, 4, … up to the runtime's maximum (within its thread limit), which always comes
    // last.
    let std_threads = {
        let top = max_threads.min(thread_limit).clamp(1, MAX_THREADS);
        let mut v: Vec<i32> = std::iter::successors(Some(1), |&t| Some(t * 2))
            .take_while(|&t| t < top)
            .collect();
        v.push(top);
        v
    };
    let threads = match &r.threads {
        Some(s) => parse_threads(s, thread_limit)?,
        None => std_threads.clone(),
    };
    // At least 2: one outer repetition has no spread.
    let outer = r
        .outer_reps
        .as_ref()
        .map_or(Ok(20), |v| count("outer_reps", v, 2, MAX_OUTER_REPS))?;
    let usec = |name: &str, given: &Option<String>, d: f64, max: f64| -> Result<f64, String> {
        let v: f64 = given.as_ref().map_or(Ok(d), |v| number(name, v))?;
        if !(v.is_finite() && v > 0.0) {
            return Err(format!(
                "-{name} {v}: must be a positive number of microseconds"
            ));
        }
        if v > max {
            return Err(format!(
                "-{name} {v}: at most {max} microseconds ({} s)",
                max / 1e6
            ));
        }
        Ok(v * 1e-6)
    };
    let test_time = usec("test_time", &r.test_time, 1000.0, MAX_TEST_TIME_USEC)?;
    let delay_time = usec("delay_time", &r.delay_time, 0.1, MAX_DELAY_TIME_USEC)?;
    let cutoff_pct: f64 = r
        .cutoff
        .as_ref()
        .map_or(Ok(10.0), |v| number("cutoff", v))?;
    if !(cutoff_pct.is_finite() && cutoff_pct >= 0.0) {
        return Err(format!("-cutoff {cutoff_pct}: must be a percentage >= 0"));
    }
    r.shared.check("progress")?;
    let progress: ProgressMode = r.shared.progress.unwrap_or_default();
    let mut constructs = Vec::new();
    for n in r.shared.names.iter().filter_map(|n| match n {
        Named::Name(n) => Some(n),
        Named::Input(_) => None,
    }) {
        let fam: Vec<usize> = (0..CONSTRUCTS.len())
            .filter(|&i| CONSTRUCTS[i].family.name().eq_ignore_ascii_case(n))
            .collect();
        if !fam.is_empty() {
            constructs.extend(fam);
        } else if let Some(i) = CONSTRUCTS
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(n))
        {
            constructs.push(i);
        } else if n.eq_ignore_ascii_case("workshare")
            || n.eq_ignore_ascii_case("parallel_workshare")
        {
            return Err(format!(
                "{n}: WORKSHARE is a Fortran-only directive; there is nothing to measure from C"
            ));
        } else {
            return Err(format!(
                "{n}: unknown construct; give a family (sync, sched, array) or a name from -list"
            ));
        }
    }
    if constructs.is_empty() {
        constructs = (0..CONSTRUCTS.len()).collect();
    }
    let o = Options {
        constructs,
        threads,
        params: method::Params {
            outer,
            test_time,
            cutoff_pct,
        },
        delay_time,
        force: r.shared.force,
        // Fail before measuring; nothing is created yet.
        json: r
            .shared
            .json
            .as_ref()
            .map(|f| imb_core::safefile::OutFile::check("-json", f).map_err(|e| e.to_string()))
            .transpose()?,
        params_with_origin: Vec::new(),
        progress,
    };
    // The command line over the built-in values: the merge's record, as every suite keeps it.
    let mut origins = Origins::default();
    for o in OPTS.iter().filter(|o| r.shared.was_given(o.name)) {
        origins.set(&format!("-{}", o.name), Origin::CommandLine);
    }
    let o = Options {
        params_with_origin: json::parameters(&o, &origins, &std_threads),
        ..o
    };
    let least = least_secs(&o);
    // The MPI suites' limit and wording (doc/ReadMe_IMB.md, "Robustness").
    if least > imb_core::plan::LONG_RUN_SECS && !o.force {
        return Err(imb_core::plan::refusal(
            least,
            &format!(
                "{} data points x ({} outer repetitions + 1 that tunes innerreps) x a test of at \
                 least -test_time",
                points(&o),
                o.params.outer
            ),
            "-outer_reps, -test_time or -threads",
        ));
    }
    Ok(Action::Run(o))
}

/// Data points of a run: every variant (chunk, array size) of every construct, per thread count.
pub(crate) fn points(o: &Options) -> usize {
    o.constructs.iter().map(|&i| variants(i)).sum::<usize>() * o.threads.len()
}

/// Data points of construct `i` per thread count: its chunks or array sizes, or 1.
pub(crate) fn variants(i: usize) -> usize {
    match CONSTRUCTS[i].kind {
        Kind::Sched(ffi::Sched::Static) => 1,
        Kind::Sched(_) => constructs::CHUNKS.len(),
        Kind::Array(_) => constructs::array_sizes().len(),
        _ => 1,
    }
}

/// The least time a run can take: each data point times outer_reps tests of at least
/// -test_time each, after the test that first lasted that long (innerreps doubles until one
/// does); the references, the shorter tuning tests and the delay's calibration come on top.
pub(crate) fn least_secs(o: &Options) -> f64 {
    points(o) as f64 * (o.params.outer + 1) as f64 * o.params.test_time
}

pub(crate) fn help() -> String {
    let mut s = String::from("\nCalling sequence:\n\n");
    s.push_str(&table::synopsis(OPTS, |_| true, "imb-omp ", &" ".repeat(8)));
    s.push('\n');
    s.push_str(&table::help_text(OPTS, |_| true, str::to_string));
    s
}

pub(crate) fn list() -> String {
    let mut s = String::from("# Constructs of imb-omp (default run order), by family:\n");
    for c in CONSTRUCTS {
        s.push_str(&format!(
            "# {:<6} {:<16} {}\n",
            c.family.name(),
            c.name,
            c.what
        ));
    }
    s.push_str(
        "# (WORKSHARE and PARALLEL WORKSHARE are Fortran-only directives: not measurable from C)\n",
    );
    s
}
