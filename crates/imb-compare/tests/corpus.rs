//! The fuzz corpus of imb-compare's readers, and every input the fuzzer found a fault with,
//! replayed through the fuzz harnesses themselves (fuzz/src/common.rs and compare.rs, compiled
//! here unchanged; scripts/fuzz; imb_testkit::corpus): each input ends in Ok or in a one-line
//! error naming its file, within the watchdog.

#[allow(dead_code)]
#[path = "../../../fuzz/src/common.rs"]
mod common;
#[path = "../../../fuzz/src/compare.rs"]
mod compare;

use imb_testkit::corpus::replay;

/// A harness panics when the reader breaks its contract; `replay` reports the panic.
fn through(harness: fn(&[u8])) -> impl Fn(&[u8]) -> Result<(), String> + Send + 'static {
    move |data| {
        harness(data);
        Ok(())
    }
}

#[test]
fn imb_and_osu_text() {
    replay("imbtext", 8, through(compare::imbtext));
}

#[test]
fn json_documents() {
    replay("jsondoc", 5, through(compare::jsondoc));
}

#[test]
fn command_lines() {
    replay("compare_cli", 8, through(compare::compare_cli));
}

#[test]
fn references_files() {
    replay("refs", 2, through(compare::refs));
}

/// Store selectors, parsed and run against a real store of three runs.
#[test]
fn store_selectors() {
    replay("selector", 10, through(compare::selector));
}

/// References files whose criteria parse, judged on constructed launches with known answers.
#[test]
fn criteria_on_constructed_launches() {
    replay("criteria", 10, through(compare::criteria));
}

/// Every launch of both corpora, compared with itself in every output format.
#[test]
fn launches_through_the_whole_program() {
    for target in ["imbtext", "jsondoc", "pipeline"] {
        replay(target, 0, through(compare::pipeline));
    }
}
