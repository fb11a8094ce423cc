//! The fuzz corpus of the engine's readers — the MPI executables' command line, settings
//! files, `-msglen` and `-input` files — and every input the fuzzer found a fault with,
//! replayed through the fuzz harnesses themselves (fuzz/src/common.rs and engine.rs, compiled
//! here unchanged; scripts/fuzz; imb_testkit::corpus): each input ends in Ok or in a one-line
//! error naming its option and file, within the watchdog.

#[allow(dead_code)]
#[path = "../../../fuzz/src/common.rs"]
mod common;
#[path = "../../../fuzz/src/engine.rs"]
mod engine;

use imb_testkit::corpus::replay;

/// A harness panics when the reader breaks its contract; `replay` reports the panic. The
/// readers that take a path get a scratch directory in the build tree.
fn through(harness: fn(&[u8])) -> impl Fn(&[u8]) -> Result<(), String> + Send + 'static {
    std::env::set_var(
        "IMB_FUZZ_SCRATCH",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/fuzz-corpus"),
    );
    move |data| {
        harness(data);
        Ok(())
    }
}

#[test]
fn command_lines() {
    replay("core_cli", 10, through(engine::core_cli));
}

#[test]
fn msglen_files() {
    replay("msglen", 3, through(engine::msglen));
}

#[test]
fn input_files() {
    replay("input", 2, through(engine::input));
}

#[test]
fn settings_files() {
    replay("settings", 3, through(engine::settings));
}
