//! imb-p2p's options in the run-time bound (doc/ReadMe_IMB.md, "Robustness"), read off the plan
//! without running anything.

/// `-pause` is slept twice per size, whatever the machine: an hour's pause is refused up
/// front (naming -pause), a second's on a few sizes runs.
#[test]
fn the_pause_counts_in_the_run_time_bound() {
    use imb_core::driver::{assert_accepted, assert_refused, bound_of};
    assert_refused(&imb_p2p::SUITE, "-pause 3600000000 -msglog 0:0 PingPong", 2);
    let line = bound_of(
        &imb_p2p::SUITE,
        &["-pause", "900000000", "-msglog", "1:2"],
        2,
    )
    .unwrap()
    .unwrap()
    .1
    .expect("refused");
    assert!(
        line.contains("; lower -pause, or the number of sizes"),
        "{line}"
    );
    assert_accepted(&imb_p2p::SUITE, "-pause 1000000 -msglog 0:2 PingPong", 2);
    // Two sizes, two pauses of 0.9 s each: 3.6 s at least.
    let (secs, _) = bound_of(
        &imb_p2p::SUITE,
        &["-pause", "900000", "-msglog", "1:2", "PingPong"],
        2,
    )
    .unwrap()
    .unwrap();
    assert!(secs >= 2.0 * 2.0 * 0.9, "{secs}");
}
