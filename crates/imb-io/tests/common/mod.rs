//! Launch imb-io under a real `mpirun` (the launcher and table parser are in imb-testkit).

#![allow(dead_code)]

pub use imb_testkit::*;
use std::path::Path;

pub const BIN: &str = env!("CARGO_BIN_EXE_imb-io");

/// `mpirun -np NP imb-io ARGS` in `dir`, killed after `limit` seconds.
pub fn mpirun_in(dir: &Path, np: usize, args: &[&str], limit: u64) -> Out {
    imb_testkit::mpirun_in(BIN, dir, np, args, limit)
}

/// The IO files (`IMB_out*`) in `dir`, sorted.
pub fn io_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("IMB_out"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// How long a guardian may take to notice a rank's end, in the machine's time
/// (imb_testkit::watchdog: a loaded machine gets longer on the wall clock).
const GUARDIAN_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// No IO file is left in `dir`; a guardian that cleans up after a killed rank gets
/// [`GUARDIAN_LIMIT`] (it is a separate process that notices the rank's end).
pub fn assert_clean(dir: &Path, what: &str) {
    let mut dog = imb_testkit::watchdog::Watchdog::new(GUARDIAN_LIMIT);
    while !dog.expired() {
        if io_files(dir).is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{what}: files left behind: {:?}", io_files(dir));
}

/// No imb-io rank or guardian of this test's binary is still running.
pub fn assert_no_processes(what: &str) {
    let alive = || {
        std::fs::read_dir("/proc")
            .map(|d| {
                d.flatten().any(|e| {
                    std::fs::read_link(e.path().join("exe")).is_ok_and(|p| p == Path::new(BIN))
                })
            })
            .unwrap_or(false)
    };
    let mut dog = imb_testkit::watchdog::Watchdog::new(GUARDIAN_LIMIT);
    while !dog.expired() {
        if !alive() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{what}: imb-io processes still running");
}
