//! imb-threads: the Pthreads benchmark suite of "Benchmarking Pthreads Performance" (de
//! Supinski and May) and its future work, on the Sphinx-style adaptive harness of
//! `imb_core::adaptive` (timings repeat until they settle, or are flagged) with threads bound
//! by `imb_core::binding` (and the binding verified). Runs without MPI. Prints an IMB-style
//! header and one table per benchmark; `-help` lists the options.

mod cli;
mod pair;
mod pt;
mod suite;

use imb_core::adaptive::{Clock, Policy};
use imb_core::binding;
use imb_core::report::{grid_rule, grid_text, suite_head};
use std::process::ExitCode;

/// Exit status of a command-line or settings error.
const EXIT_USAGE: u8 = 2;
/// Exit status of a failure while measuring (a thread that cannot be created, …) or of a
/// failed write to stdout.
const EXIT_RUNTIME: u8 = 3;

fn main() -> ExitCode {
    let (args, bad_arg) = imb_core::cli::utf8_args(std::env::args_os().skip(1));
    if let Some(e) = bad_arg {
        eprintln!("imb-threads: error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    let opts = match cli::parse(&args) {
        Ok(cli::Action::Help) => return finish(out(&cli::help())),
        Ok(cli::Action::List) => return finish(out(&cli::list())),
        Ok(cli::Action::Run(o)) => o,
        Err(e) => {
            eprintln!("imb-threads: error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let allowed = match binding::allowed_cpus() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("imb-threads: error: {e}");
            return ExitCode::from(EXIT_RUNTIME);
        }
    };
    let cpus = match cli::cpus(&opts, &allowed) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("imb-threads: error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let clock = Clock::measure();
    let mut policy = Policy::new(&clock);
    policy.cutoff_pct = opts.cutoff_pct;
    policy.min_reps = opts.min_reps;
    policy.max_reps = opts.max_reps;
    if let Err(e) = policy.validate() {
        eprintln!("imb-threads: error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    if let Err(e) = cli::check_run(&opts, &cpus, &policy) {
        eprintln!("imb-threads: error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    if let Err(e) = out(&header(&opts, &clock, &policy, &allowed, &cpus)) {
        return finish(Err(e));
    }
    let env = suite::Env {
        policy,
        allowed: &cpus,
        binds: &opts.binds,
        threads: &opts.threads,
        correct: opts.correct,
    };
    for &i in &opts.benchmarks {
        let b = &suite::BENCHMARKS[i];
        match (b.run)(&env) {
            Ok(t) => {
                // A closed or full stdout ends the run before the next benchmark.
                if let Err(e) = out(&table(b, &t)) {
                    return finish(Err(e));
                }
            }
            Err(e) => {
                eprintln!("imb-threads: error: {}: {e}", b.name);
                return ExitCode::from(EXIT_RUNTIME);
            }
        }
    }
    finish(out("\n\n# All threads finished\n\n"))
}

/// Print and flush at once, so a crash keeps every finished table. Err(None): stdout was closed
/// by its reader; Err(Some(line)): any other failure.
fn out(s: &str) -> Result<(), Option<String>> {
    imb_core::safefile::print_all(s)
}

/// The exit status after the last output (`imb_core::safefile::exit_after`).
fn finish(r: Result<(), Option<String>>) -> ExitCode {
    imb_core::safefile::exit_after("imb-threads", r)
}

fn header(
    o: &cli::Options,
    clock: &Clock,
    p: &Policy,
    allowed: &[usize],
    cpus: &[usize],
) -> String {
    let mut s = suite_head(env!("CARGO_PKG_VERSION"), "Pthreads part");
    s.push_str(&format!(
        "# CPUs allowed          : {}\n\
# CPUs used for binding : {}\n\
# Clock                 : monotonic (std::time::Instant), resolution {:.2} nsec, read cost {:.2} nsec\n\
# Harness               : timings repeat until stddev <= {} % of the mean, {}..{} timings, each >= {:.2} usec\n\
# Overhead correction   : {}\n\
#\n",
        binding::cpu_list(allowed),
        binding::cpu_list(cpus),
        clock.resolution * 1e9,
        clock.read_cost * 1e9,
        p.cutoff_pct,
        p.min_reps,
        p.max_reps,
        p.min_timing * 1e6,
        if o.correct { "on (an empty action's cost is subtracted)" } else { "off" },
    ));
    if let Some(f) = &o.settings {
        s.push_str(&format!("# Settings file         : {f}\n#\n"));
    }
    // Two-thread benchmarks need 2 CPUs, the sweeps their largest thread count.
    let most = o.threads.iter().copied().chain([2]).max().unwrap_or(2);
    if most > cpus.len() {
        let n = cpus.len();
        s.push_str(&format!(
            "# !! rows with more than {n} thread{} share {n} CPU{} (oversubscribed): their times \
             measure the scheduler, they are not results\n#\n",
            if n == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" },
        ));
    }
    s.push_str("\n# List of Benchmarks to run:\n\n");
    for &i in &o.benchmarks {
        s.push_str(&format!("# {}\n", suite::BENCHMARKS[i].name));
    }
    s
}

const COLUMNS: &[&str] = &[
    "t_mean[usec]",
    "stddev[usec]",
    "median[usec]",
    "t_min[usec]",
    "#timings",
    "#iterations",
    "placement",
    "flags",
];

fn table(b: &suite::Bench, t: &suite::Table) -> String {
    let titles: Vec<&str> = b
        .vars
        .iter()
        .copied()
        .chain(COLUMNS.iter().copied())
        .collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| {
            let us = |v: f64| format!("{:.3}", v * 1e6);
            let mut flags = r.m.flags.label();
            if !r.honoured {
                flags = if flags.is_empty() {
                    "NOT_BOUND".into()
                } else {
                    format!("{flags},NOT_BOUND")
                };
            }
            let mut v = r.vars.clone();
            v.extend([
                us(r.m.mean),
                us(r.m.stddev),
                us(r.m.median),
                us(r.m.min),
                r.m.timings.to_string(),
                r.m.iterations.to_string(),
                r.placements.clone(),
                if flags.is_empty() { "-".into() } else { flags },
            ]);
            v
        })
        .collect();
    let rule = grid_rule(&titles, &rows);
    let mut s = format!(
        "\n{rule}\n# Benchmarking {} \n# {}\n{rule}\n",
        b.name, b.what
    );
    if rows.is_empty() {
        s.push_str("# (nothing to measure here: see the notes)\n");
    } else {
        s.push_str(&grid_text(&titles, &rows));
    }
    if !t.notes.is_empty() {
        s.push('\n');
        for n in &t.notes {
            s.push_str(&format!("# {n}\n"));
        }
    }
    s
}
