//! imb-threads: the Pthreads benchmark suite of "Benchmarking Pthreads Performance" (de
//! Supinski and May) and its future work, on the Sphinx-style adaptive harness of
//! `imb_harness::adaptive` (timings repeat until they settle, or are flagged) with threads bound
//! by `imb_harness::binding` (and the binding verified). Runs without MPI. Prints an IMB-style
//! header and one table per benchmark; `-help` lists the options.

mod cli;
mod json;
mod output;
mod pair;
mod pt;
mod suite;

use imb_core::provenance::Status;
use imb_core::report::close;
use imb_core::report::{grid_rule, grid_text, suite_head, RowProgress, PROGRESS_INTERVAL};
use imb_harness::adaptive::{Clock, Policy};
use imb_harness::binding;
use output::{finish, out};
use std::cell::RefCell;
use std::process::ExitCode;

/// Exit status of a command-line or settings error.
const EXIT_USAGE: u8 = 2;
/// Exit status of a failure while measuring (a thread that cannot be created, …); a failed
/// write to stdout ends with the same status (`imb_core::safefile::EXIT_WRITE`).
const EXIT_RUNTIME: u8 = 3;

fn main() -> ExitCode {
    imb_core::provenance::started();
    let (args, bad_arg) = imb_core::cli::utf8_args(std::env::args_os().skip(1));
    if let Some(e) = bad_arg {
        eprintln!("imb-threads: error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    let opts = match cli::parse(&args) {
        Ok(cli::Action::Help) => return finish(out(&cli::help())),
        Ok(cli::Action::List) => return finish(out(&cli::list())),
        Ok(cli::Action::Run(o)) => *o,
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
    let most = cli::most_threads(&opts, &cpus, &policy);
    let mut json = json::start(&opts, &clock, &policy, &allowed, &cpus, most);
    if let Err(e) = out(&header(&opts, &clock, &policy, &allowed, &cpus, most)) {
        return close(json, "imb-threads", Err(e));
    }
    // -progress: rows weigh their least run time (doc/THREADS.md, "Progress").
    let weights: Vec<Vec<f64>> = cli::planned(&opts, &cpus, &policy)
        .iter()
        .map(|rows| rows.iter().map(|r| r.min_timing).collect())
        .collect();
    let progress = RefCell::new(opts.progress.wanted().then(|| {
        let total = weights.iter().flatten().sum();
        let n = opts.benchmarks.len();
        RowProgress::new(
            std::io::stderr(),
            "imb-threads",
            n,
            total,
            PROGRESS_INTERVAL,
        )
    }));
    let before_row = |done: usize| {
        if let Some(p) = progress.borrow_mut().as_mut() {
            p.rows_done(done);
        }
        output::reader_gone()
    };
    let env = suite::Env {
        policy,
        allowed: &cpus,
        binds: &opts.binds,
        threads: &opts.threads,
        correct: opts.correct,
        stop: &before_row,
    };
    for (k, &i) in opts.benchmarks.iter().enumerate() {
        let b = &suite::BENCHMARKS[i];
        if let Some(p) = progress.borrow_mut().as_mut() {
            p.table(k + 1, b.name, weights[k].clone());
        }
        // A reader that went away (`| head`) ends the run quietly before the next benchmark;
        // the benchmarks also ask before each row, and a row cut short is not printed.
        if output::reader_gone() {
            return close(json, "imb-threads", Err(None));
        }
        match (b.run)(&env) {
            Ok(t) => {
                if output::reader_gone() {
                    return close(json, "imb-threads", Err(None));
                }
                if let Some(j) = &mut json {
                    j.table(json::table(b, &t));
                }
                // A full stdout ends the run before the next benchmark.
                if let Err(e) = out(&table(b, &t)) {
                    return close(json, "imb-threads", Err(e));
                }
            }
            Err(e) => {
                let error = format!("{}: {e}", b.name);
                eprintln!("imb-threads: error: {error}");
                if let Some(j) = &mut json {
                    j.end(Status::Failed { error });
                }
                return ExitCode::from(EXIT_RUNTIME);
            }
        }
    }
    if let Some(p) = progress.borrow_mut().as_mut() {
        p.finish();
    }
    close(json, "imb-threads", out("\n\n# All threads finished\n\n"))
}

fn header(
    o: &cli::Options,
    clock: &Clock,
    p: &Policy,
    allowed: &[usize],
    cpus: &[usize],
    most: usize,
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
    // Only when a row of this run has more threads than the CPUs it may use.
    if most > cpus.len() {
        let n = cpus.len();
        let s_ = |k: usize| if k == 1 { "" } else { "s" };
        s.push_str(&format!(
            "# !! up to {most} threads on {n} CPU{}: rows with more than {n} thread{} share \
             CPUs (oversubscribed), their times measure the scheduler, they are not results\n#\n",
            s_(n),
            s_(n),
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

#[cfg(test)]
mod tests {
    use super::*;
    use imb_harness::adaptive::{Flags, Measurement};

    fn measurement(flags: Flags) -> Measurement {
        Measurement {
            mean: 1e-6,
            raw_mean: 1e-6,
            stddev: 0.0,
            median: 1e-6,
            min: 1e-6,
            max: 1e-6,
            timings: 2,
            iterations: 8,
            overhead: None,
            flags,
        }
    }

    #[test]
    fn flags_are_rendered() {
        let b = &suite::BENCHMARKS[suite::BENCHMARKS
            .iter()
            .position(|b| b.name == "Yield")
            .unwrap()];
        let row = |flags, honoured| suite::Row {
            vars: vec!["same".into()],
            m: measurement(flags),
            placements: "cpu0,cpu0".into(),
            honoured,
        };
        let unsettled = Flags {
            unsettled: true,
            unreliable: false,
        };
        let t = suite::Table {
            rows: vec![
                row(Flags::default(), true),
                row(unsettled, false),
                row(Flags::default(), false),
            ],
            notes: vec!["binding different: a note".into()],
        };
        let s = table(b, &t);
        let flags: Vec<&str> = s
            .lines()
            .filter(|l| l.contains("cpu0,cpu0"))
            .map(|l| l.split_whitespace().last().unwrap())
            .collect();
        assert_eq!(flags, ["-", "UNSETTLED,NOT_BOUND", "NOT_BOUND"], "{s}");
        assert!(s.contains("# Benchmarking Yield \n"), "{s}");
        assert!(s.ends_with("\n# binding different: a note\n"), "{s}");
    }

    #[test]
    fn the_oversubscription_line_only_when_it_happens() {
        let clock = Clock {
            resolution: 1e-9,
            read_cost: 2e-8,
        };
        let p = Policy::new(&clock);
        let o = match cli::parse(&[]).unwrap() {
            cli::Action::Run(o) => *o,
            _ => unreachable!("no arguments is a run"),
        };
        let h = header(&o, &clock, &p, &[0, 1], &[0, 1], 3);
        assert!(
            h.contains(
                "\n# !! up to 3 threads on 2 CPUs: rows with more than 2 threads share CPUs \
                 (oversubscribed), their times measure the scheduler, they are not results\n"
            ),
            "{h}"
        );
        let h = header(&o, &clock, &p, &[0, 1], &[0], 2);
        assert!(
            h.contains("# !! up to 2 threads on 1 CPU: rows with more than 1 thread share CPUs"),
            "{h}"
        );
        let h = header(&o, &clock, &p, &[0, 1], &[0, 1], 2);
        assert!(!h.contains("# !!"), "2 threads on 2 CPUs: {h}");
    }
}
