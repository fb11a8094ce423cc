//! AFL++ target: imb-threads' command line (`threads cli`: one argument a line) or its
//! settings file (`threads settings`: the file's text, given as `-settings FILE`), then the
//! checks `main` makes before measuring (scripts/fuzz). imb-threads is a binary crate, so its
//! modules are compiled here from its sources, unchanged.
#![allow(dead_code, unused_imports)]

#[path = "../../../crates/imb-threads/src/cli/mod.rs"]
mod cli;
#[path = "../../../crates/imb-threads/src/pair.rs"]
mod pair;
#[path = "../../../crates/imb-threads/src/pt.rs"]
mod pt;
#[path = "../../../crates/imb-threads/src/suite/mod.rs"]
mod suite;

use imb_harness::adaptive::{Clock, Policy};

/// `main`'s path from argv to the first measurement, without measuring: the options, the CPUs
/// (a fixed mask), the harness policy and the run-time bound.
fn run(argv: &[String], named: &str) {
    let o = match cli::parse(argv) {
        Err(e) => return imb_fuzz::one_line("threads", &e, named),
        Ok(cli::Action::Run(o)) => *o,
        Ok(_) => return,
    };
    let allowed = [0, 1, 2, 3];
    let cpus = match cli::cpus(&o, &allowed) {
        Err(e) => return imb_fuzz::one_line("threads cpus", &e, "-cpus"),
        Ok(c) => c,
    };
    // A fixed clock: the real one is measured, and no input may depend on its reading.
    let clock = Clock {
        resolution: 1e-9,
        read_cost: 2e-8,
    };
    let mut policy = Policy::new(&clock);
    policy.cutoff_pct = o.cutoff_pct;
    policy.min_reps = o.min_reps;
    policy.max_reps = o.max_reps;
    if let Err(e) = policy.validate() {
        return imb_fuzz::one_line("threads policy", &e.to_string(), "");
    }
    if let Err(e) = cli::check_run(&o, &cpus, &policy) {
        return imb_fuzz::one_line("threads check_run", &e, "");
    }
    let _ = cli::most_threads(&o, &cpus, &policy);
}

fn main() {
    let settings = std::env::args().nth(1).as_deref() == Some("settings");
    afl::fuzz!(|data: &[u8]| {
        if settings {
            if imb_fuzz::text(data).is_none() {
                return;
            }
            let path = imb_fuzz::scratch_file("threads.toml", data);
            run(&["-settings".to_string(), path.clone()], &path);
        } else if let Some(argv) = imb_fuzz::args(data) {
            run(&argv, "");
        }
    });
}
