//! The fuzz corpus replayed by ordinary tests: every input of `fuzz/corpus/TARGET` and
//! `fuzz/regressions/TARGET` (the crashes and hangs the fuzzer found, kept once fixed) goes
//! through the same reader as the fuzz target (scripts/fuzz), with no AFL++. Each input must
//! end in Ok or in an error of one line naming its file or argument; a panic fails the test
//! naming the input, and so does a run past the watchdog.

use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long one target's whole replay may take. Far above the seconds it needs on a loaded
/// 2-core machine; a reader that hangs on an input is caught here, not by CI's time limit.
pub const WATCHDOG: Duration = Duration::from_secs(240);

/// The repository's `fuzz` directory.
pub fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// Every input of `target`: (its path from `fuzz/`, its bytes), corpus first, in name order.
pub fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for set in ["corpus", "regressions"] {
        let dir = fuzz_dir().join(set).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let name = format!(
                "{set}/{target}/{}",
                f.file_name().unwrap().to_string_lossy()
            );
            out.push((name, bytes));
        }
    }
    out
}

/// The contract of every error: one line, not empty, naming `named` (a file or an argument;
/// empty: nothing to look for). A control character other than a tab (a carriage return, an
/// escape sequence copied from the file) breaks the line on a terminal as a newline does.
pub fn one_line(msg: &str, named: &str) -> Result<(), String> {
    if msg.trim().is_empty() {
        return Err("an empty error message".into());
    }
    if msg.chars().any(|c| c.is_control() && c != '\t') {
        return Err(format!("an error of more than one line: {msg:?}"));
    }
    if !named.is_empty() && !msg.contains(named) {
        return Err(format!("the error does not name {named:?}: {msg:?}"));
    }
    Ok(())
}

/// Replay every input of `target` through `check`, which returns Err when the reader broke its
/// contract; panics (naming the input) on such an Err, on a panic of the reader, or when the
/// replay outlives [`WATCHDOG`]. Returns how many inputs were replayed; at least `min_inputs`
/// must be there, so a corpus that went missing does not pass unnoticed.
pub fn replay<F>(target: &str, min_inputs: usize, check: F) -> usize
where
    F: Fn(&[u8]) -> Result<(), String> + Send + 'static,
{
    let inputs = inputs(target);
    let n = inputs.len();
    assert!(
        n >= min_inputs,
        "fuzz/corpus/{target}: {n} inputs, expected at least {min_inputs}"
    );
    let current = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel();
    let now = Arc::clone(&current);
    std::thread::spawn(move || {
        let mut failures = Vec::new();
        for (name, bytes) in inputs {
            *now.lock().unwrap() = name.clone();
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&bytes)));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(why)) => failures.push(format!("{name}: {why}")),
                Err(p) => {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    failures.push(format!("{name}: panicked: {msg}"));
                }
            }
        }
        let _ = tx.send(failures);
    });
    match crate::watchdog::recv(&rx, WATCHDOG) {
        Some(failures) => assert!(failures.is_empty(), "{}", failures.join("\n")),
        None => panic!(
            "{target}: no result within {WATCHDOG:?}; stuck on {}",
            current.lock().unwrap()
        ),
    }
    n
}
