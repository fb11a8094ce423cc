//! The fuzz corpus of imb-threads' command line and settings file, and every input the fuzzer
//! found a fault with, replayed through `parse` and the checks `main` makes before measuring
//! (scripts/fuzz; imb_testkit::corpus): each ends in Ok or a one-line error, within the
//! watchdog.

use super::*;
use imb_harness::adaptive::{Clock, Policy};
use imb_testkit::corpus::{one_line, replay};

/// `main`'s path from argv to the first measurement, without measuring; `named`: what a
/// `parse` error must name.
fn run(argv: &[String], named: &str) -> Result<(), String> {
    let o = match parse(argv) {
        Err(e) => return one_line(&e, named),
        Ok(Action::Run(o)) => *o,
        Ok(_) => return Ok(()),
    };
    let cpus = match cpus(&o, &[0, 1, 2, 3]) {
        Err(e) => return one_line(&e, "-cpus"),
        Ok(c) => c,
    };
    // A fixed clock: no input may depend on a measured one.
    let mut policy = Policy::new(&Clock {
        resolution: 1e-9,
        read_cost: 2e-8,
    });
    policy.cutoff_pct = o.cutoff_pct;
    policy.min_reps = o.min_reps;
    policy.max_reps = o.max_reps;
    if let Err(e) = policy.validate() {
        return one_line(&e.to_string(), "");
    }
    if let Err(e) = check_run(&o, &cpus, &policy) {
        return one_line(&e, "");
    }
    let _ = most_threads(&o, &cpus, &policy);
    Ok(())
}

#[test]
fn command_lines() {
    replay("threads_cli", 10, |data| {
        let Ok(t) = std::str::from_utf8(data) else {
            return Ok(());
        };
        let t = t.strip_suffix('\n').unwrap_or(t);
        let argv: Vec<String> = match t {
            "" => Vec::new(),
            t => t.split('\n').map(str::to_string).collect(),
        };
        run(&argv, "")
    });
}

#[test]
fn settings_files() {
    let dir = std::env::temp_dir().join(format!("imb-threads-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("threads.toml").to_string_lossy().into_owned();
    replay("threads_settings", 2, move |data| {
        let text = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
        if std::str::from_utf8(text).is_err() {
            return Ok(());
        }
        std::fs::write(&path, data).unwrap();
        run(&["-settings".to_string(), path.clone()], &path)
    });
    let _ = std::fs::remove_dir_all(dir);
}
