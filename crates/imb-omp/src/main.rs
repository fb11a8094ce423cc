//! imb-omp: what OpenMP constructs cost in the runtime a compiler ships (libgomp, or LLVM's
//! libomp with `--features libomp`), by the EPCC microbenchmark method v2 (Reid and Bull).
//! The timed constructs are real OpenMP in C (`kernels/epcc.c`, built by `cc`); the harness,
//! statistics and output are Rust, on imb-core. Rust-native rows (std::thread::scope,
//! Barrier, Mutex, atomics) stand beside the sync family for comparison. Runs without MPI.

mod cli;
mod constructs;
mod ffi;
mod json;
mod method;
mod native;
mod output;

use cli::{parse, points, variants, Action, Options};
use constructs::{Family, Kind, CONSTRUCTS};
use imb_core::report::close;
use imb_core::report::{grid_rule, grid_text, suite_head, RowProgress, PROGRESS_INTERVAL};
use output::{finish, out};
use std::process::ExitCode;

const EXIT_USAGE: u8 = 2;
/// A failure while measuring, or a failed write to stdout.
const EXIT_RUNTIME: u8 = 3;
/// Target of the schedule family's loop body: about 100 cycles (EPCC) at 3 GHz.
const SCHED_DELAY: f64 = 0.033e-6;

/// The OpenMP runtimes' variables that are set (`OMP_`, `GOMP_`, `KMP_`), as `NAME=value`.
fn omp_env() -> Vec<String> {
    // vars_os: an unrelated variable that is not UTF-8 must not end the run (env::vars
    // panics on one); a listed variable's value is shown with its bytes escaped.
    std::env::vars_os()
        .filter_map(|(k, v)| {
            let k = k.into_string().ok()?;
            let ours = k.starts_with("OMP_") || k.starts_with("GOMP_") || k.starts_with("KMP_");
            ours.then(|| format!("{k}={}", imb_core::safefile::shown(&v)))
        })
        .collect()
}

/// The error when the runtime forms a smaller team than `-threads` asks for. The count has
/// passed `parse`, so it is within imb-omp's limit and the runtime's thread limit: the line
/// says so instead of naming either as the cause, and it does not call
/// `omp_get_max_threads()` a maximum (it is only the default team size; larger teams form).
/// What is left that can shrink a team with dynamic sizing off is the runtime's environment
/// (`OMP_MAX_ACTIVE_LEVELS=0`, libomp's `KMP_` limits), so the line shows it.
fn team_refused(t: i32, thread_limit: i32, env: &[String]) -> String {
    let limit = match thread_limit {
        i32::MAX => "none".to_string(),
        l => l.to_string(),
    };
    let env = if env.is_empty() {
        "no OMP_, GOMP_ or KMP_ variable is set".to_string()
    } else {
        format!("OMP environment: {}", env.join(" "))
    };
    format!(
        "-threads {t}: the OpenMP runtime would not form a team of {t} threads, although {t} is \
         within its thread limit ({limit}); {env}"
    )
}

fn header(o: &Options, d: &method::Delay, sd: &method::Delay) -> String {
    let env = omp_env();
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

/// The titles of a family's variable columns.
fn vars_of(family: Family) -> &'static [&'static str] {
    match family {
        Family::Sync => &["construct"],
        Family::Sched => &["schedule", "chunk"],
        Family::Array => &["clause", "size"],
    }
}

fn table(family: Family, threads: i32, rows: &[(Vec<String>, method::Point)]) -> String {
    let vars = vars_of(family);
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
    imb_core::provenance::started();
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
            "imb-omp: error: {}",
            team_refused(t, ffi::thread_limit(), &omp_env())
        );
        return ExitCode::from(EXIT_RUNTIME);
    }
    let delay = method::calibrate(o.delay_time);
    let sched_delay = method::calibrate(SCHED_DELAY);
    let mut json = json::start(&o, &delay, &sched_delay);
    if let Err(e) = out(&header(&o, &delay, &sched_delay)) {
        return close(json, "imb-omp", Err(e));
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
                                let error = format!(
                                    "{} on {n} elements with {t} threads gave a wrong result",
                                    c.name
                                );
                                eprintln!("imb-omp: error: {error}");
                                if let Some(j) = &mut json {
                                    j.end(imb_core::provenance::Status::Failed { error });
                                }
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
                        return close(json, "imb-omp", Err(None));
                    }
                    if let Some(p) = progress.as_mut() {
                        p.rows_done(rows.len());
                    }
                    let (mut test, mut reference) =
                        constructs::run(c.kind, t, delay.len, sched_delay.len, var);
                    rows.push((v, method::measure(&o.params, &mut *test, &mut *reference)));
                }
            }
            if let Some(j) = &mut json {
                j.table(json::table(family, t, &rows));
            }
            // A full stdout ends the run before the next table is measured.
            if let Err(e) = out(&table(family, t, &rows)) {
                return close(json, "imb-omp", Err(e));
            }
        }
    }
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    close(json, "imb-omp", out("\n\n# All constructs measured\n\n"))
}

#[cfg(test)]
mod corpus;
#[cfg(test)]
mod tests;
