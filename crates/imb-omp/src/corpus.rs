//! The fuzz corpus of imb-omp's command line, and every input the fuzzer found a fault with,
//! replayed through `cli::parse` for a few OpenMP runtimes' limits (scripts/fuzz;
//! imb_testkit::corpus): each ends in Ok or a one-line error, within the watchdog.

use crate::cli::{self, Action};
use imb_testkit::corpus::{one_line, replay};

#[test]
fn command_lines() {
    replay("omp", 10, |data| {
        let Ok(t) = std::str::from_utf8(data) else {
            return Ok(());
        };
        let t = t.strip_suffix('\n').unwrap_or(t);
        let argv: Vec<String> = match t {
            "" => Vec::new(),
            t => t.split('\n').map(str::to_string).collect(),
        };
        // The runtime's maximum and thread limit: a 4-CPU machine, one limited to 2, one thread.
        for (max, limit) in [(4, i32::MAX), (4, 2), (1, 1)] {
            match cli::parse(&argv, max, limit) {
                Err(e) => one_line(&e, "")?,
                Ok(Action::Run(o)) if o.threads.is_empty() => return Err("no thread count".into()),
                Ok(Action::Run(o)) => {
                    let _ = (cli::points(&o), cli::least_secs(&o));
                }
                Ok(_) => {}
            }
        }
        Ok(())
    });
}
