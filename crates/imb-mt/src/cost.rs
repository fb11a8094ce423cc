//! imb-mt's run-time bound (doc/ReadMe_IMB.md, "imb-mt"): the least time a run can take on
//! any machine, priced with the engine's constants (`imb_core::plan`: 0.1 µs a call that
//! waits, 0.02 µs a message of a window, 20 µs a MiB) from what IMB-MT's threads do. The
//! engine's own bound cannot see it: it knows neither `-warmup`, nor `-window_size`, nor the
//! barriers after each collective call, and its remedy names options imb-mt refuses. So imb-mt
//! gives the engine an effort of nothing (`no_effort`) and refuses here, before the header,
//! unless `-force`.

use crate::options::{Barrier, Mt};
use crate::patterns::Pattern;
use imb_core::bench::{Effort, Shape};
use imb_core::plan::{self, Plan, StepPlan, BYTES_PER_SEC, CALL_SECS, LONG_RUN_SECS, MSG_SECS};

/// The engine's effort of an imb-mt repetition: none (this module prices the run).
pub fn no_effort(_: &Shape) -> Effort {
    Effort {
        calls: 0.0,
        msgs: 0.0,
        bytes: 0.0,
        loops: 0.0,
        lever: None,
    }
}

/// The least seconds of one repetition of `p` in one thread, at `x` bytes a message and a
/// window of `w`, `-barrier`'s barrier included where the pattern passes it after each call.
/// A rank's threads run at once, so one thread's time is the rank's.
pub fn rep_secs(p: Pattern, x: usize, w: usize, barrier: Barrier) -> f64 {
    let (x, w) = (x as f64, w as f64);
    let (calls, msgs, bytes) = match p {
        Pattern::PingPong => (2.0, 0.0, 2.0 * x),
        Pattern::PingPing | Pattern::SendRecv => (1.0, 0.0, 2.0 * x),
        Pattern::Exchange => (1.0, 3.0, 4.0 * x),
        Pattern::UniBand => (1.0, w, w * x),
        Pattern::BiBand => (1.0, 2.0 * w, 2.0 * w * x),
        Pattern::Barrier => (1.0, 0.0, 0.0),
        Pattern::Bcast | Pattern::Reduce | Pattern::AllReduce => {
            // Five of -barrier's barriers after each call.
            let after = if barrier == Barrier::Off { 0.0 } else { 5.0 };
            (1.0 + after, 0.0, x)
        }
    };
    calls * CALL_SECS + msgs * MSG_SECS + bytes / BYTES_PER_SEC
}

/// The least seconds of the run of `plan` and the benchmark that takes longest.
pub fn least(
    plan: &Plan,
    mt: &Mt,
    pattern_of: impl Fn(&str) -> Option<Pattern>,
) -> (f64, &'static str) {
    let mut total = 0.0;
    let mut top = (0.0, "the run");
    for bp in &plan.benchmarks {
        let Some(p) = pattern_of(bp.info.name) else {
            continue;
        };
        let mut secs = 0.0;
        for step in &bp.steps {
            let StepPlan::Run { sizes, .. } = step else {
                continue;
            };
            for (k, len) in sizes.lens.iter().enumerate() {
                if !sizes.measured[k] {
                    continue;
                }
                let n = sizes.n_sample.first().map_or(mt.repeat, |m| m[k]);
                let reps = n.saturating_add(mt.warmup) as f64;
                secs += reps * rep_secs(p, sizes.x(len), mt.window, mt.barrier);
            }
        }
        total += secs;
        if secs > top.0 {
            top = (secs, bp.info.name);
        }
    }
    (total, top.1)
}

/// The refusal of a run that needs more than `LONG_RUN_SECS` on any machine, None if it may
/// run (or `-force` lets it).
pub fn refusal(secs: f64, longest: &str, force: bool) -> Option<String> {
    (secs > LONG_RUN_SECS && !force).then(|| {
        plan::refusal(
            secs,
            &format!(
                "{longest} the longest; -warmup's repetitions counted as -repeat's, each MPI \
                 call at 0.1 usec, each message of a window at 0.02 usec, each MiB at 20 usec"
            ),
            "-repeat, -warmup, -count or -window_size",
        )
    })
}

/// Bytes of one rank's buffers at their largest over `plan`: every thread's send buffer and
/// receive buffer(s) of the largest size, each with `-malloc_align`'s slack.
pub fn rank_bytes(plan: &Plan, mt: &Mt, pattern_of: impl Fn(&str) -> Option<Pattern>) -> u64 {
    let mut most = 0u64;
    for bp in &plan.benchmarks {
        let Some(p) = pattern_of(bp.info.name) else {
            continue;
        };
        for step in &bp.steps {
            let StepPlan::Run { sizes, .. } = step else {
                continue;
            };
            for (k, len) in sizes.lens.iter().enumerate() {
                if !sizes.measured[k] {
                    continue;
                }
                let x = sizes.x(len) as u64;
                let one = x
                    .saturating_mul(1 + p.recv_blocks() as u64)
                    .saturating_add(2 * mt.align as u64);
                most = most.max(one.saturating_mul(mt.threads as u64));
            }
        }
    }
    most
}

/// The refusal of buffers of `bytes` per rank for `ranks` ranks on a host with `avail` bytes
/// available (MemAvailable), None if they fit: an error before the header, not an OOM kill
/// in the middle of a table.
pub fn memory_short(bytes: u64, ranks: usize, avail: Option<u64>) -> Option<String> {
    let avail = avail?;
    let need = bytes.saturating_mul(ranks.max(1) as u64);
    (need > avail).then(|| {
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        format!(
            "the threads' buffers need {:.2} GiB per process, {:.2} GiB for the {ranks} \
             processes on this host, but only {:.2} GiB is available (MemAvailable); lower \
             -count, -malloc_align or the threads (OMP_NUM_THREADS)",
            gib(bytes),
            gib(need),
            gib(avail)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_costs_its_messages_and_collectives_their_barriers() {
        let one = rep_secs(Pattern::UniBand, 0, 1, Barrier::On);
        let many = rep_secs(Pattern::UniBand, 0, 1 << 20, Barrier::On);
        assert!(many > one * 1000.0);
        assert!(
            rep_secs(Pattern::Bcast, 4, 1, Barrier::On)
                > rep_secs(Pattern::Bcast, 4, 1, Barrier::Off)
        );
    }

    #[test]
    fn buffers_beyond_the_host_are_refused() {
        assert!(memory_short(1 << 30, 4, Some(8 << 30)).is_none());
        let line = memory_short(3 << 30, 4, Some(8 << 30)).unwrap();
        assert!(line.contains("12.00 GiB for the 4 processes"), "{line}");
        assert!(memory_short(u64::MAX, 4, None).is_none());
    }

    #[test]
    fn refused_above_an_hour_unless_forced() {
        assert!(refusal(3599.0, "PingPongMT", false).is_none());
        let line = refusal(7200.0, "PingPongMT", false).unwrap();
        assert!(
            line.starts_with("this run needs at least 2 h 00 min"),
            "{line}"
        );
        assert!(line.contains("lower -repeat, -warmup"), "{line}");
        assert!(refusal(7200.0, "PingPongMT", true).is_none());
    }
}
