use super::*;

/// A policy with the defaults but a fixed minimum timing, independent of this machine.
fn policy(min_timing: f64) -> Policy {
    Policy {
        min_timing,
        ..Policy::new(&Clock {
            resolution: 1e-9,
            read_cost: 2e-8,
        })
    }
}

/// A synthetic action that costs exactly `per_iter` seconds per iteration.
fn constant(per_iter: f64) -> impl FnMut(u64) -> f64 {
    move |n| n as f64 * per_iter
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1e-300)
}

#[test]
fn constant_action_settles_at_min_reps() {
    let p = policy(1e-4);
    let m = measure(&p, &mut constant(1e-6), None);
    assert!(close(m.mean, 1e-6), "{m:?}");
    assert!(close(m.raw_mean, 1e-6));
    assert!(close(m.median, 1e-6) && close(m.min, 1e-6) && close(m.max, 1e-6));
    assert_eq!(m.stddev, 0.0);
    assert_eq!(m.timings, p.min_reps);
    assert_eq!(m.overhead, None);
    assert_eq!(m.flags, Flags::default());
    assert_eq!(m.flags.label(), "");
}

#[test]
fn zero_cutoff_settles_only_on_identical_timings() {
    let p = Policy {
        cutoff_pct: 0.0,
        ..policy(1e-4)
    };
    let m = measure(&p, &mut constant(1e-6), None);
    assert_eq!((m.timings, m.flags.unsettled), (p.min_reps, false));

    let mut k = 0u64;
    let mut wobble = |n: u64| {
        k += 1;
        n as f64 * (1e-6 + k as f64 * 1e-12)
    };
    let m = measure(&p, &mut wobble, None);
    assert_eq!((m.timings, m.flags.unsettled), (p.max_reps, true));
}

#[test]
fn noisy_action_is_unsettled_at_max_reps() {
    let p = Policy {
        cutoff_pct: 1.0,
        max_reps: 6,
        ..policy(1e-4)
    };
    // Alternates per timing (not per iteration, which would average out within a timing).
    let mut high = false;
    let mut noisy = |n: u64| {
        high = !high;
        n as f64 * if high { 3e-6 } else { 1e-6 }
    };
    let m = measure(&p, &mut noisy, None);
    assert_eq!(m.timings, 6);
    assert!(m.flags.unsettled && !m.flags.unreliable);
    assert_eq!(m.flags.label(), "UNSETTLED");
    assert!(close(m.mean, 2e-6) && close(m.min, 1e-6) && close(m.max, 3e-6));
}

#[test]
fn overhead_larger_than_action_is_unreliable() {
    let p = policy(1e-4);
    let m = measure(&p, &mut constant(1e-7), Some(&mut constant(2e-7)));
    assert!(m.flags.unreliable && !m.flags.unsettled, "{m:?}");
    assert_eq!(m.flags.label(), "UNRELIABLE");
    assert!(close(m.overhead.unwrap_or(f64::NAN), 2e-7));
    assert!(close(m.raw_mean, 1e-7));
    assert!(m.mean < 0.0);
}

#[test]
fn normal_correction_subtracts_overhead() {
    let p = policy(1e-4);
    let mut calls = Vec::new();
    let mut empty = |n: u64| {
        calls.push(n);
        n as f64 * 1e-6
    };
    let m = measure(&p, &mut constant(3e-6), Some(&mut empty));
    assert!(close(m.mean, 2e-6), "{m:?}");
    assert!(close(m.raw_mean, 3e-6));
    assert!(close(m.overhead.unwrap_or(f64::NAN), 1e-6));
    assert!(close(m.min, 2e-6) && close(m.median, 2e-6) && close(m.max, 2e-6));
    assert_eq!(m.flags, Flags::default());
    // The overhead was tuned from the action's count up, then kept min_reps timings.
    assert_eq!(calls[0], m.iterations);
    let last = *calls.last().unwrap_or(&0);
    assert!(
        last >= m.iterations && last as f64 * 1e-6 >= p.min_timing,
        "{calls:?}"
    );
    assert!(
        calls.iter().filter(|&&c| c == last).count() > p.min_reps,
        "{calls:?}"
    );
}

#[test]
fn unsettled_overhead_is_unreliable() {
    let p = Policy {
        cutoff_pct: 1.0,
        max_reps: 6,
        ..policy(1e-4)
    };
    let mut high = false;
    let mut noisy_empty = |n: u64| {
        high = !high;
        n as f64 * if high { 3e-7 } else { 1e-7 }
    };
    let m = measure(&p, &mut constant(3e-6), Some(&mut noisy_empty));
    assert_eq!(
        (m.flags.unsettled, m.flags.unreliable),
        (false, true),
        "{m:?}"
    );
}

#[test]
fn both_flags_label() {
    let f = Flags {
        unsettled: true,
        unreliable: true,
    };
    assert_eq!(f.label(), "UNSETTLED,UNRELIABLE");
}

#[test]
fn iterations_double_to_the_first_long_enough_timing() {
    let mut seen = Vec::new();
    let mut action = |n: u64| {
        seen.push(n);
        n as f64 * 1e-6
    };
    let m = measure(&policy(1e-3), &mut action, None);
    assert_eq!(m.iterations, 1024);
    // Tuning went 1, 2, 4, ... 1024, then the timings all used 1024.
    let tuning: Vec<u64> = (0..=10).map(|k| 1u64 << k).collect();
    assert_eq!(seen[..11], tuning[..]);
    assert!(seen[11..].iter().all(|&n| n == 1024));
}

#[test]
fn iterations_are_capped_and_slow_actions_use_one() {
    let p = Policy {
        max_iterations: 100,
        ..policy(1e-3)
    };
    assert_eq!(measure(&p, &mut constant(1e-6), None).iterations, 100);
    assert_eq!(
        measure(&policy(1e-3), &mut constant(0.5), None).iterations,
        1
    );
}

#[test]
fn summary_statistics() {
    let (mean, sd, median, min, max) = summary(&[3.0, 1.0, 4.0, 2.0]);
    assert_eq!((mean, median, min, max), (2.5, 2.5, 1.0, 4.0));
    assert!(close(sd, (5.0f64 / 3.0).sqrt()));
    assert_eq!(summary(&[5.0, 1.0, 3.0]).2, 3.0);
    assert_eq!(summary(&[7.0]), (7.0, 0.0, 7.0, 7.0, 7.0));
    assert!(summary(&[]).0.is_nan());
}

#[test]
fn validate_names_the_bad_value() {
    let good = policy(1e-4);
    assert_eq!(good.validate(), Ok(()));
    let cases = [
        (
            Policy {
                cutoff_pct: -1.0,
                ..good
            },
            "-cutoff -1: must be a percentage >= 0",
        ),
        (
            Policy {
                cutoff_pct: f64::NAN,
                ..good
            },
            "-cutoff NaN",
        ),
        (
            Policy {
                min_reps: 1,
                ..good
            },
            "-min_reps 1",
        ),
        (
            Policy {
                max_reps: 4,
                ..good
            },
            "-max_reps 4",
        ),
        (
            Policy {
                max_reps: usize::MAX,
                ..good
            },
            "-max_reps 18446744073709551615",
        ),
        (
            Policy {
                min_timing: 0.0,
                ..good
            },
            "-min_timing 0",
        ),
        (
            Policy {
                min_timing: f64::INFINITY,
                ..good
            },
            "-min_timing inf",
        ),
        (
            Policy {
                max_iterations: 0,
                ..good
            },
            "-max_iterations 0",
        ),
    ];
    for (p, want) in cases {
        let err = p.validate().expect_err(want);
        assert!(err.starts_with(want), "{err:?} should start with {want:?}");
    }
}

#[test]
fn unvalidated_policy_does_not_panic() {
    let wild = Policy {
        cutoff_pct: f64::NAN,
        min_reps: 0,
        max_reps: usize::MAX,
        min_timing: f64::NAN,
        max_iterations: 0,
    };
    let m = measure(&wild, &mut constant(1e-6), None);
    assert_eq!((m.iterations, m.timings), (1, 2));
    assert!(!m.flags.unsettled);
}

#[test]
fn default_policy_follows_the_clock() {
    let fine = Clock {
        resolution: 1e-9,
        read_cost: 2e-8,
    };
    let coarse = Clock {
        resolution: 1e-6,
        ..fine
    };
    assert_eq!(Policy::new(&fine).min_timing, 1e-4);
    assert!(close(Policy::new(&coarse).min_timing, 1e-3));
    let p = Policy::new(&fine);
    assert_eq!(
        (p.cutoff_pct, p.min_reps, p.max_reps, p.max_iterations),
        (5.0, 5, 100, 1 << 30)
    );
    assert_eq!(p.validate(), Ok(()));
}

// The only tests that touch the real clock; they check sanity, never speed.
#[test]
fn clock_is_finite_and_positive() {
    let c = Clock::measure();
    assert!(c.resolution.is_finite() && c.resolution > 0.0, "{c:?}");
    assert!(c.read_cost.is_finite() && c.read_cost > 0.0, "{c:?}");
}

#[test]
fn real_action_through_time_calls() {
    let p = Policy {
        max_reps: 20,
        ..policy(1e-4)
    };
    let mut x = 0u64;
    let mut action = |n: u64| time_calls(n, || x = black_box(x.wrapping_add(1)));
    let m = measure(&p, &mut action, None);
    assert!((p.min_reps..=p.max_reps).contains(&m.timings), "{m:?}");
    assert!(m.mean.is_finite() && m.mean >= 0.0 && m.iterations >= 1);
    assert!(m.min <= m.median && m.median <= m.max);
}
