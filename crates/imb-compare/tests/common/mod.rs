//! What imb-compare's integration tests share: the committed fixtures, a scratch directory per
//! test, imb-compare itself run on arguments, and the MPI executables of the same build for
//! the tests that make real launches.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of a committed fixture (tests/fixtures/NAME).
pub fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The text of a committed fixture.
pub fn text(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap()
}

/// An empty directory `name` of this test binary and process (made afresh).
pub fn scratch(name: &str) -> PathBuf {
    // The test binary's name (plot-0123abcd: plot) keeps the test files apart when they run at once.
    let exe = std::env::current_exe().unwrap();
    let stem = exe.file_stem().unwrap().to_string_lossy().into_owned();
    let test = stem.split('-').next().unwrap_or("test");
    let d = std::env::temp_dir().join(format!("imb-compare-{test}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Write `text` to `dir/name`; its path.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// imb-compare with `args`: exit code, stdout, stderr.
pub fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// imb-mpi1 of this build: beside the test's own directory, built first when missing.
pub fn imb_mpi1() -> String {
    mpi_exe("imb-mpi1")
}

/// The MPI executable `name` (imb-mpi1, imb-ext, …, a workspace package of that name) of this
/// build: beside the test's own directory, built first when missing.
pub fn mpi_exe(name: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    let profile_dir: PathBuf = exe.parent().unwrap().parent().unwrap().to_path_buf();
    let bin = profile_dir.join(name);
    if !bin.exists() {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "-p", name]);
        if profile_dir.ends_with("release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().unwrap().success(), "cargo build -p {name}");
    }
    bin.to_string_lossy().into_owned()
}

/// One criterion: PingPong's latency at most twice the baseline's, for the tests that judge
/// conditions on real launches (a bound no timing of the same machine comes near).
pub const LATENCY_AGAINST_THE_BASELINE: &str = r#"
[[criterion]]
name = "PingPong latency"
benchmark = "PingPong"
metric = "t"
reference = "baseline"
upper = 1.0
"#;
