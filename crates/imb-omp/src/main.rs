//! imb-omp: what OpenMP constructs cost in the runtime a compiler ships (libgomp, or LLVM's
//! libomp with `--features libomp`), by the EPCC microbenchmark method v2 (Reid and Bull).
//! The timed constructs are real OpenMP in C (`kernels/epcc.c`, built by `cc`); the harness,
//! statistics and output are Rust, on imb-core. Rust-native rows (std::thread::scope,
//! Barrier, Mutex, atomics) stand beside the sync family for comparison. Runs without MPI.

mod constructs;
mod ffi;
mod method;
mod native;

use constructs::{Family, Kind, CONSTRUCTS};
use imb_core::report::{grid_rule, grid_text, suite_head};
use std::process::ExitCode;

const VALUE_OPTS: &[&str] = &["threads", "outer_reps", "test_time", "delay_time", "cutoff"];
const FLAG_OPTS: &[&str] = &["help", "h", "list", "force"];
const EXIT_USAGE: u8 = 2;
/// A failure while measuring, or a failed write to stdout.
const EXIT_RUNTIME: u8 = 3;

/// Limits of the options (doc/OMP.md, "Limits"): far above any useful value, low enough that a
/// slip of the keyboard cannot ask for days.
const MAX_THREADS: i32 = 4096;
const MAX_OUTER_REPS: usize = 10_000;
const MAX_TEST_TIME_USEC: f64 = 10e6;
const MAX_DELAY_TIME_USEC: f64 = 1e6;
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

fn parse(args: &[String], max_threads: i32) -> Result<Action, String> {
    let m = imb_core::cli::dash_matches("imb-omp", args, VALUE_OPTS, FLAG_OPTS)?;
    if m.get_flag("help") || m.get_flag("h") {
        return Ok(Action::Print(help()));
    }
    if m.get_flag("list") {
        return Ok(Action::Print(list()));
    }
    let threads = match m.get_one::<String>("threads") {
        Some(s) => {
            let mut v = Vec::new();
            for part in s.split(',') {
                let (a, b) = part.split_once('-').unwrap_or((part, part));
                let (a, b): (i32, i32) =
                    (number("threads", a.trim())?, number("threads", b.trim())?);
                if a < 1 || b < a || b > MAX_THREADS {
                    return Err(format!(
                        "-threads {s}: thread counts must be 1..{MAX_THREADS} (e.g. 1,2,4 or 1-4)"
                    ));
                }
                v.extend(a..=b);
            }
            v
        }
        // 1, 2, 4, … up to the runtime's maximum, which always comes last.
        None => {
            let mut v: Vec<i32> = std::iter::successors(Some(1), |&t| Some(t * 2))
                .take_while(|&t| t < max_threads)
                .collect();
            v.push(max_threads.max(1));
            v
        }
    };
    let outer: usize = m
        .get_one::<String>("outer_reps")
        .map_or(Ok(20), |v| number("outer_reps", v))?;
    if outer < 2 {
        return Err(format!(
            "-outer_reps {outer}: at least 2 outer repetitions are needed for a spread"
        ));
    }
    if outer > MAX_OUTER_REPS {
        return Err(format!("-outer_reps {outer}: at most {MAX_OUTER_REPS}"));
    }
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
            return Err(format!("-{name} {v}: at most {max} microseconds"));
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
    };
    let least = least_secs(&o);
    if least > LONG_RUN_SECS && !o.force {
        return Err(format!(
            "this run needs at least {:.0} min ({} data points x {} outer repetitions x a test \
             and a reference of -test_time each); lower -outer_reps or -test_time, or pass \
             -force to run it anyway",
            (least / 60.0).ceil(),
            points(&o),
            o.params.outer
        ));
    }
    Ok(Action::Run(o))
}

/// Data points of a run: every variant (chunk, array size) of every construct, per thread count.
fn points(o: &Options) -> usize {
    let variants: usize = o
        .constructs
        .iter()
        .map(|&i| match CONSTRUCTS[i].kind {
            Kind::Sched(ffi::Sched::Static) => 1,
            Kind::Sched(_) => constructs::CHUNKS.len(),
            Kind::Array(_) => constructs::array_sizes().len(),
            _ => 1,
        })
        .sum();
    variants * o.threads.len()
}

/// The least time a run can take: each data point times outer_reps tests and references of at
/// least -test_time each (innerreps grows until they do).
fn least_secs(o: &Options) -> f64 {
    points(o) as f64 * o.params.outer as f64 * 2.0 * o.params.test_time
}

fn help() -> String {
    "\nCalling sequence:\n\n\
imb-omp [-h{elp}] [-list] [-threads LIST] [-outer_reps N] [-test_time USEC]\n\
        [-delay_time USEC] [-cutoff PCT] [-force] [family | construct ...]\n\n\
- -threads LIST: thread counts, e.g. 4, 1,2,4 or 1-4 (default 1, 2, 4, ... up to the runtime's\n  \
maximum, which always comes last; at most 4096).\n\
- -outer_reps N: measurements per data point (default 20, 2..10000).\n\
- -test_time USEC: innerreps doubles until one test lasts this long (default 1000, at most\n  \
10 s).\n\
- -delay_time USEC: the calibrated delay in each construct (default 0.1, at most 1 s); the\n  \
schedule family uses a body of about 100 cycles instead.\n\
- -force: run even when the data points asked for need more than an hour.\n\
- -cutoff PCT: a data point whose test times spread more than PCT % of their mean, or with more\n  \
than a quarter outliers, is flagged UNSETTLED (default 10).\n\
- family: sync, sched or array; construct: a name from -list, any case. Default: all.\n"
        .to_string()
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

/// Print and flush at once. Err(None): stdout was closed by its reader; Err(Some(line)): any
/// other failure (a full disk).
fn out(s: &str) -> Result<(), Option<String>> {
    imb_core::safefile::print_all(s)
}

/// The exit status after the last output (`imb_core::safefile::exit_after`).
fn finish(r: Result<(), Option<String>>) -> ExitCode {
    imb_core::safefile::exit_after("imb-omp", r)
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
# Threads               : {} (runtime maximum {}), proc_bind {}, {} places\n\
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
    let allowed = imb_core::binding::allowed_cpus().map_or(0, |c| c.len());
    let most = o.threads.iter().copied().max().unwrap_or(1) as usize;
    if allowed > 0 && most > allowed {
        s.push_str(&format!(
            "# !! teams of more than {allowed} thread{} share {allowed} CPU{} (oversubscribed): \
             their overheads measure the scheduler, they are not results\n#\n",
            if allowed == 1 { "" } else { "s" },
            if allowed == 1 { "" } else { "s" },
        ));
    }
    s.push_str("\n# List of constructs to run:\n\n");
    for &i in &o.constructs {
        s.push_str(&format!("# {}\n", CONSTRUCTS[i].name));
    }
    s
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
    let o = match parse(&args, ffi::max_threads()) {
        Ok(Action::Run(o)) => o,
        Ok(Action::Print(t)) => return finish(out(&t)),
        Err(e) => {
            eprintln!("imb-omp: error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let delay = method::calibrate(o.delay_time);
    let sched_delay = method::calibrate(SCHED_DELAY);
    if let Err(e) = out(&header(&o, &delay, &sched_delay)) {
        return finish(Err(e));
    }
    for family in [Family::Sync, Family::Sched, Family::Array] {
        let chosen: Vec<usize> = o
            .constructs
            .iter()
            .copied()
            .filter(|&i| CONSTRUCTS[i].family == family)
            .collect();
        if chosen.is_empty() {
            continue;
        }
        for &t in &o.threads {
            if !ffi::team_ok(t) {
                eprintln!(
                    "imb-omp: error: -threads {t}: the OpenMP runtime will not form a team of {t} \
                     threads (see OMP_THREAD_LIMIT and the runtime maximum, {})",
                    ffi::max_threads()
                );
                return ExitCode::from(EXIT_RUNTIME);
            }
            let mut rows = Vec::new();
            for &i in &chosen {
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
                    let (mut test, mut reference) =
                        constructs::run(c.kind, t, delay.len, sched_delay.len, var);
                    rows.push((v, method::measure(&o.params, &mut *test, &mut *reference)));
                }
            }
            // A closed or full stdout ends the run before the next table is measured.
            if let Err(e) = out(&table(family, t, &rows)) {
                return finish(Err(e));
            }
        }
    }
    finish(out("\n\n# All constructs measured\n\n"))
}
