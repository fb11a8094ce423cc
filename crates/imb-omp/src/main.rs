//! imb-omp: what OpenMP constructs cost in the runtime a compiler ships (libgomp, or LLVM's
//! libomp with `--features libomp`), by the EPCC microbenchmark method v2 (Reid and Bull).
//! The timed constructs are real OpenMP in C (`kernels/epcc.c`, built by `cc`); the harness,
//! statistics and output are Rust, on imb-core. Rust-native rows (std::thread::scope,
//! Barrier, Mutex, atomics) stand beside the sync family for comparison. Runs without MPI.

mod constructs;
mod ffi;
mod method;
mod native;
mod output;

use constructs::{Family, Kind, CONSTRUCTS};
use imb_core::cli::table::{self, Opt, Takes};
use imb_core::cli::ProgressMode;
use imb_core::report::{grid_rule, grid_text, suite_head, RowProgress, PROGRESS_INTERVAL};
use output::{finish, out};
use std::process::ExitCode;

/// The options, in `-help` order; `-help` and the argv normaliser come from this table.
const OPTS: &[Opt] = &[
    Opt::row("help", Takes::Help, (0, 0, "[-h{elp}]"), ""),
    Opt::row("list", Takes::Flag, (0, 1, "[-list]"), ""),
    Opt::row(
        "threads",
        Takes::Value,
        (0, 2, "[-threads LIST]"),
        "- -threads LIST: thread counts, e.g. 4, 1,2,4 or 1-4 (default 1, 2, 4, ... up to the runtime's\n  \
maximum, which always comes last; at most 4096 and the runtime's thread limit).\n",
    ),
    Opt::row(
        "outer_reps",
        Takes::Value,
        (0, 3, "[-outer_reps N]"),
        "- -outer_reps N: measurements per data point (default 20, 2..10000).\n",
    ),
    Opt::row(
        "test_time",
        Takes::Value,
        (0, 4, "[-test_time USEC]"),
        "- -test_time USEC: innerreps doubles until one test lasts this long (default 1000, at most\n  \
10 s).\n",
    ),
    Opt::row(
        "delay_time",
        Takes::Value,
        (1, 0, "[-delay_time USEC]"),
        "- -delay_time USEC: the calibrated delay in each construct (default 0.1, at most 1000); the\n  \
schedule family uses a body of about 100 cycles instead.\n",
    ),
    Opt::row(
        "force",
        Takes::Flag,
        (1, 2, "[-force]"),
        "- -force: run even when the data points asked for need more than an hour at the least.\n",
    ),
    Opt::row(
        "progress",
        Takes::Value,
        (1, 2, "[-progress on|off|auto]"),
        "- -progress on|off|auto: lines on stderr saying which family, team and data point the run\n  \
is at, the time elapsed and an estimate of the time left; never on stdout. auto (default):\n  \
only when stderr is a terminal.\n",
    ),
    Opt::row(
        "cutoff",
        Takes::Value,
        (1, 1, "[-cutoff PCT]"),
        "- -cutoff PCT: a data point whose test times spread more than PCT % of their mean, or with more\n  \
than a quarter outliers, is flagged UNSETTLED (default 10).\n",
    ),
    Opt::row(
        "names",
        Takes::Names,
        (1, 3, "[family | construct ...]"),
        "- family: sync, sched or array; construct: a name from -list, any case. Default: all.\n",
    ),
];
const EXIT_USAGE: u8 = 2;
/// A failure while measuring, or a failed write to stdout.
const EXIT_RUNTIME: u8 = 3;

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
/// A run whose least possible duration exceeds this is refused unless `-force` is given.
const LONG_RUN_SECS: f64 = 3600.0;

struct Options {
    /// Indices into CONSTRUCTS, in run order.
    constructs: Vec<usize>,
    threads: Vec<i32>,
    params: method::Params,
    /// Target of the delay loop (seconds); the schedule family uses ~100 cycles instead.
    delay_time: f64,
    /// `-force`: run even when the run cannot finish within an hour.
    force: bool,
    progress: ProgressMode,
}

/// What the command line asks for.
enum Action {
    Run(Options),
    Print(String),
}

/// Target of the schedule family's loop body: about 100 cycles (EPCC) at 3 GHz.
const SCHED_DELAY: f64 = 0.033e-6;

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
    let v = table::number_list(s, num).map_err(|e| format!("-threads {s}: {e}"))?;
    // Each is at most `limit`, an i32.
    Ok(v.into_iter().map(|t| t as i32).collect())
}

/// A whole number `min..=max` for option `opt`.
fn count(opt: &str, v: &str, min: usize, max: usize) -> Result<usize, String> {
    table::whole(v, min, max).map_err(|e| format!("-{opt} {v}: {e}"))
}

fn parse(args: &[String], max_threads: i32, thread_limit: i32) -> Result<Action, String> {
    let m = table::dash_matches("imb-omp", args, OPTS)?;
    if m.get_flag("help") {
        return Ok(Action::Print(help()));
    }
    if m.get_flag("list") {
        return Ok(Action::Print(list()));
    }
    let threads = match m.get_one::<String>("threads") {
        Some(s) => parse_threads(s, thread_limit)?,
        // 1, 2, 4, … up to the runtime's maximum (within its thread limit), which always
        // comes last.
        None => {
            let top = max_threads.min(thread_limit).clamp(1, MAX_THREADS);
            let mut v: Vec<i32> = std::iter::successors(Some(1), |&t| Some(t * 2))
                .take_while(|&t| t < top)
                .collect();
            v.push(top);
            v
        }
    };
    // At least 2: one outer repetition has no spread.
    let outer = m
        .get_one::<String>("outer_reps")
        .map_or(Ok(20), |v| count("outer_reps", v, 2, MAX_OUTER_REPS))?;
    let usec = |name: &str, d: f64, max: f64| -> Result<f64, String> {
        let v: f64 = m
            .get_one::<String>(name)
            .map_or(Ok(d), |v| number(name, v))?;
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
    let test_time = usec("test_time", 1000.0, MAX_TEST_TIME_USEC)?;
    let delay_time = usec("delay_time", 0.1, MAX_DELAY_TIME_USEC)?;
    let cutoff_pct: f64 = m
        .get_one::<String>("cutoff")
        .map_or(Ok(10.0), |v| number("cutoff", v))?;
    if !(cutoff_pct.is_finite() && cutoff_pct >= 0.0) {
        return Err(format!("-cutoff {cutoff_pct}: must be a percentage >= 0"));
    }
    let progress = m
        .get_one::<String>("progress")
        .map(|s| ProgressMode::parse(s).map_err(|e| format!("-progress {s}: {e}")))
        .transpose()?
        .unwrap_or_default();
    let mut constructs = Vec::new();
    for n in m.get_many::<String>("names").into_iter().flatten() {
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
        force: m.get_flag("force"),
        progress,
    };
    let least = least_secs(&o);
    if least > LONG_RUN_SECS && !o.force {
        return Err(format!(
            "this run needs at least {:.0} min ({} data points x {} outer repetitions x a test \
             of at least -test_time); lower -outer_reps, -test_time or -threads, or pass -force \
             to run it anyway",
            (least / 60.0).ceil(),
            points(&o),
            o.params.outer
        ));
    }
    Ok(Action::Run(o))
}

/// Data points of a run: every variant (chunk, array size) of every construct, per thread count.
fn points(o: &Options) -> usize {
    o.constructs.iter().map(|&i| variants(i)).sum::<usize>() * o.threads.len()
}

/// Data points of construct `i` per thread count: its chunks or array sizes, or 1.
fn variants(i: usize) -> usize {
    match CONSTRUCTS[i].kind {
        Kind::Sched(ffi::Sched::Static) => 1,
        Kind::Sched(_) => constructs::CHUNKS.len(),
        Kind::Array(_) => constructs::array_sizes().len(),
        _ => 1,
    }
}

/// The least time a run can take: each data point times outer_reps tests of at least
/// -test_time each (innerreps grows until they last that long); the references, the tuning of
/// innerreps and the delay's calibration come on top.
fn least_secs(o: &Options) -> f64 {
    points(o) as f64 * o.params.outer as f64 * o.params.test_time
}

fn help() -> String {
    let mut s = String::from("\nCalling sequence:\n\n");
    s.push_str(&table::synopsis(OPTS, |_| true, "imb-omp ", &" ".repeat(8)));
    s.push('\n');
    s.push_str(&table::help_text(OPTS, |_| true, str::to_string));
    s
}

fn list() -> String {
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

fn header(o: &Options, d: &method::Delay, sd: &method::Delay) -> String {
    // vars_os: an unrelated variable that is not UTF-8 must not end the run (env::vars
    // panics on one); a listed variable's value is shown with its bytes escaped.
    let env: Vec<String> = std::env::vars_os()
        .filter_map(|(k, v)| {
            let k = k.into_string().ok()?;
            let ours = k.starts_with("OMP_") || k.starts_with("GOMP_") || k.starts_with("KMP_");
            ours.then(|| format!("{k}={}", imb_core::safefile::shown(&v)))
        })
        .collect();
    let threads: Vec<String> = o.threads.iter().map(|t| t.to_string()).collect();
    let mut s = suite_head(env!("CARGO_PKG_VERSION"), "OpenMP part");
    s.push_str(&format!(
        "# OpenMP runtime        : {} (OpenMP {}), compiled by {}\n\
# Threads               : {} (runtime maximum {}, {}), proc_bind {}, {} places\n\
# OMP environment       : {}\n\
# Clock                 : omp_get_wtime, tick {:.2} nsec\n\
# Delay                 : delaylength {} = {:.4} usec (target {:.4}); schedule body {} = {:.4} usec\n\
# Method                : EPCC v2: {} outer repetitions, tests of >= {:.0} usec, overhead =\n\
#                         (test - reference) / innerreps; UNSETTLED above {} % spread\n\
#\n",
        ffi::runtime(),
        ffi::openmp_version(),
        ffi::compiler(),
        threads.join(","),
        ffi::max_threads(),
        match ffi::thread_limit() {
            i32::MAX => "no thread limit".to_string(),
            l => format!("thread limit {l}"),
        },
        ffi::proc_bind(),
        ffi::num_places(),
        if env.is_empty() { "(none set)".to_string() } else { env.join(" ") },
        ffi::wtick() * 1e9,
        d.len,
        d.secs * 1e6,
        o.delay_time * 1e6,
        sd.len,
        sd.secs * 1e6,
        o.params.outer,
        o.params.test_time * 1e6,
        o.params.cutoff_pct,
    ));
    let allowed = imb_harness::binding::allowed_cpus().map_or(0, |c| c.len());
    s.push_str(&oversubscribed(&o.threads, allowed));
    s.push_str("\n# List of constructs to run:\n\n");
    for &i in &o.constructs {
        s.push_str(&format!("# {}\n", CONSTRUCTS[i].name));
    }
    s
}

/// The header's `# !!` line when a team has more threads than the CPUs the process may use
/// (`allowed`; 0 when unknown), else nothing.
fn oversubscribed(threads: &[i32], allowed: usize) -> String {
    let most = threads.iter().copied().max().unwrap_or(1).max(1) as usize;
    if allowed == 0 || most <= allowed {
        return String::new();
    }
    let s_ = |k: usize| if k == 1 { "" } else { "s" };
    format!(
        "# !! up to {most} threads on {allowed} CPU{}: teams of more than {allowed} thread{} share \
         CPUs (oversubscribed), their overheads measure the scheduler, they are not results\n#\n",
        s_(allowed),
        s_(allowed),
    )
}

const COLUMNS: &[&str] = &[
    "threads",
    "time[usec]",
    "reference[usec]",
    "overhead[usec]",
    "+-CI95[usec]",
    "median_ovh[usec]",
    "#outer",
    "#inner",
    "outliers",
    "flags",
];

fn table(family: Family, threads: i32, rows: &[(Vec<String>, method::Point)]) -> String {
    let vars: &[&str] = match family {
        Family::Sync => &["construct"],
        Family::Sched => &["schedule", "chunk"],
        Family::Array => &["clause", "size"],
    };
    let titles: Vec<&str> = vars.iter().chain(COLUMNS).copied().collect();
    let us = |v: f64| format!("{:.4}", v * 1e6);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(v, p)| {
            let mut r = v.clone();
            let flags = p.flags.label();
            r.extend([
                threads.to_string(),
                us(p.test.mean),
                us(p.reference.mean),
                us(p.overhead.mean),
                us(p.overhead.ci95),
                us(p.overhead.median),
                p.overhead.n.to_string(),
                p.inner.to_string(),
                p.test.outliers.to_string(),
                if flags.is_empty() { "-".into() } else { flags },
            ]);
            r
        })
        .collect();
    let rule = grid_rule(&titles, &cells);
    format!(
        "\n{rule}\n# Benchmarking {} \n# #threads = {threads} \n{rule}\n{}",
        family.name(),
        grid_text(&titles, &cells)
    )
}

fn main() -> ExitCode {
    let (args, bad_arg) = imb_core::cli::utf8_args(std::env::args_os().skip(1));
    if let Some(e) = bad_arg {
        eprintln!("imb-omp: error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    let o = match parse(&args, ffi::max_threads(), ffi::thread_limit()) {
        Ok(Action::Run(o)) => o,
        Ok(Action::Print(t)) => return finish(out(&t)),
        Err(e) => {
            eprintln!("imb-omp: error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // Every team forms before anything is measured (a count the runtime refuses is named).
    if let Some(&t) = o.threads.iter().find(|&&t| !ffi::team_ok(t)) {
        eprintln!(
            "imb-omp: error: -threads {t}: the OpenMP runtime will not form a team of {t} \
             threads (its maximum is {}, its thread limit {})",
            ffi::max_threads(),
            ffi::thread_limit()
        );
        return ExitCode::from(EXIT_RUNTIME);
    }
    let delay = method::calibrate(o.delay_time);
    let sched_delay = method::calibrate(SCHED_DELAY);
    if let Err(e) = out(&header(&o, &delay, &sched_delay)) {
        return finish(Err(e));
    }
    let families: Vec<(Family, Vec<usize>)> = [Family::Sync, Family::Sched, Family::Array]
        .into_iter()
        .map(|f| {
            let chosen = o.constructs.iter().copied();
            (f, chosen.filter(|&i| CONSTRUCTS[i].family == f).collect())
        })
        .filter(|(_, chosen): &(_, Vec<usize>)| !chosen.is_empty())
        .collect();
    // -progress: a family is a benchmark, every data point weighs the same (doc/OMP.md).
    let mut progress = o.progress.wanted().then(|| {
        let (n, total) = (families.len(), points(&o) as f64);
        RowProgress::new(std::io::stderr(), "imb-omp", n, total, PROGRESS_INTERVAL)
    });
    for (k, (family, chosen)) in families.iter().enumerate() {
        let family = *family;
        for &t in &o.threads {
            if let Some(p) = progress.as_mut() {
                let s = if t == 1 { "" } else { "s" };
                let team = format!("{} on {t} thread{s}", family.name());
                p.table(
                    k + 1,
                    &team,
                    vec![1.0; chosen.iter().map(|&i| variants(i)).sum()],
                );
            }
            let mut rows = Vec::new();
            for &i in chosen {
                let c = &CONSTRUCTS[i];
                let vars: Vec<(Vec<String>, i32)> = match c.kind {
                    Kind::Sched(ffi::Sched::Static) => vec![(vec![c.name.into(), "-".into()], 0)],
                    Kind::Sched(_) => constructs::CHUNKS
                        .iter()
                        .map(|&k| (vec![c.name.into(), k.to_string()], k))
                        .collect(),
                    Kind::Array(a) => {
                        let mut v = Vec::new();
                        for n in constructs::array_sizes() {
                            // The results of these clauses are checked, not only timed.
                            let ok = match a {
                                ffi::Array::Reduction => ffi::check_reduction(n, t),
                                ffi::Array::CopyPrivate => ffi::check_copyprivate(n, t),
                                _ => true,
                            };
                            if !ok {
                                eprintln!("imb-omp: error: {} on {n} elements with {t} threads gave a wrong result", c.name);
                                return ExitCode::from(EXIT_RUNTIME);
                            }
                            v.push((vec![c.name.to_string(), n.to_string()], n));
                        }
                        v
                    }
                    _ => vec![(vec![c.name.into()], 0)],
                };
                for (v, var) in vars {
                    // A reader that went away (`| head`): stop before the next row, quietly.
                    if output::reader_gone() {
                        return finish(Err(None));
                    }
                    if let Some(p) = progress.as_mut() {
                        p.rows_done(rows.len());
                    }
                    let (mut test, mut reference) =
                        constructs::run(c.kind, t, delay.len, sched_delay.len, var);
                    rows.push((v, method::measure(&o.params, &mut *test, &mut *reference)));
                }
            }
            // A full stdout ends the run before the next table is measured.
            if let Err(e) = out(&table(family, t, &rows)) {
                return finish(Err(e));
            }
        }
    }
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    finish(out("\n\n# All constructs measured\n\n"))
}

#[cfg(test)]
mod tests;
