use super::*;
use crate::cli::{least_secs, points};

/// `parse` as main calls it, with a runtime of `max` threads and thread limit `limit`.
fn run(s: &str, max: i32, limit: i32) -> Result<Options, String> {
    let args: Vec<String> = s.split_whitespace().map(String::from).collect();
    match parse(&args, max, limit)? {
        Action::Run(o) => Ok(o),
        Action::Print(_) => Err("printed".into()),
    }
}
fn err(s: &str) -> String {
    run(s, 2, i32::MAX).err().unwrap_or_default()
}

#[test]
fn thread_counts_and_their_limits() {
    assert_eq!(run("", 6, i32::MAX).unwrap().threads, [1, 2, 4, 6]);
    assert_eq!(
        run("", 8, 3).unwrap().threads,
        [1, 2, 3],
        "the default stops at the runtime's thread limit"
    );
    assert_eq!(
        run("-threads 1-3,8", 2, i32::MAX).unwrap().threads,
        [1, 2, 3, 8]
    );
    for (cmd, limit, want) in [
        ("-threads 0", i32::MAX, "-threads 0: thread counts start at 1"),
        (
            "-threads 4097",
            i32::MAX,
            "-threads 4097: 4097 threads: imb-omp takes at most 4096",
        ),
        (
            "-threads 1-99999999999999999999",
            i32::MAX,
            "-threads 1-99999999999999999999: 99999999999999999999 threads: imb-omp takes at most 4096",
        ),
        (
            "-threads 3",
            2,
            "-threads 3: 3 threads: the OpenMP runtime's thread limit (omp_get_thread_limit(), OMP_THREAD_LIMIT) is 2",
        ),
        ("-threads 4-2", i32::MAX, "-threads 4-2: range 4-2 goes downwards"),
        ("-threads 2,", i32::MAX, "-threads 2,: expected thread counts like"),
        ("-threads x", i32::MAX, "-threads x: expected thread counts like"),
    ] {
        let e = run(cmd, 2, limit).err().unwrap_or_default();
        assert!(e.starts_with(want), "{cmd}: wanted {want:?}, got {e:?}");
    }
}

#[test]
fn counts_and_times_have_limits() {
    for (cmd, want) in [
        ("-outer_reps 1", "-outer_reps 1: must be 2..10000"),
        ("-outer_reps 10001", "-outer_reps 10001: must be 2..10000"),
        (
            "-outer_reps 99999999999999999999",
            "-outer_reps 99999999999999999999: must be 2..10000",
        ),
        (
            "-outer_reps 2.5",
            "-outer_reps 2.5: expected a whole number (2..10000)",
        ),
        ("-test_time 0", "-test_time 0: must be a positive number"),
        (
            "-test_time nan",
            "-test_time NaN: must be a positive number",
        ),
        (
            "-test_time 10000001",
            "-test_time 10000001: at most 10000000 microseconds (10 s)",
        ),
        (
            "-delay_time -1",
            "-delay_time -1: must be a positive number",
        ),
        (
            "-delay_time 1000.5",
            "-delay_time 1000.5: at most 1000 microseconds (0.001 s)",
        ),
        ("-cutoff inf", "-cutoff inf: must be a percentage >= 0"),
    ] {
        let e = err(cmd);
        assert!(e.starts_with(want), "{cmd}: wanted {want:?}, got {e:?}");
    }
    let o = run(
        "-outer_reps 10000 -test_time 10000000 -delay_time 1000",
        2,
        i32::MAX,
    );
    let e = o.err().unwrap_or_default();
    assert!(
        e.starts_with("this run needs at least ") && e.contains("-force"),
        "the limits together are far more than an hour: {e:?}"
    );
}

#[test]
fn the_least_run_time_counts_every_data_point() {
    // sync: 15 constructs; STATIC 1 + 3 x 8 chunks; 5 clauses x 11 sizes; per thread count.
    let o = run("-threads 1,2", 2, i32::MAX).unwrap();
    assert_eq!(points(&o), (15 + 1 + 3 * 8 + 5 * 11) * 2);
    let o = run(
        "BARRIER -threads 1 -outer_reps 10 -test_time 1000",
        2,
        i32::MAX,
    )
    .unwrap();
    // 10 outer repetitions and the tuning test that first lasted -test_time.
    assert!(
        (least_secs(&o) - 11.0 * 1e-3).abs() < 1e-12,
        "{}",
        least_secs(&o)
    );
    // Just above an hour is refused with the MPI suites' wording, unless -force; the tuning
    // test counts (400 + 1 tests of 9 s are 3609 s).
    let e = err("BARRIER -threads 1 -outer_reps 400 -test_time 9000000");
    assert_eq!(
        e,
        "this run needs at least 1 h 01 min on any machine (1 data points x (400 outer \
         repetitions + 1 that tunes innerreps) x a test of at least -test_time); lower \
         -outer_reps, -test_time or -threads, or pass -force to run it anyway"
    );
    assert!(run(
        "BARRIER -threads 1 -outer_reps 400 -test_time 9000000 -force",
        2,
        i32::MAX
    )
    .is_ok());
    assert!(run(
        "BARRIER -threads 1 -outer_reps 399 -test_time 9000000",
        2,
        i32::MAX
    )
    .is_ok());
}

#[test]
fn the_oversubscription_line_only_when_it_happens() {
    assert_eq!(
        oversubscribed(&[1, 2, 4], 2),
        "# !! up to 4 threads on 2 CPUs: teams of more than 2 threads share CPUs \
         (oversubscribed), their overheads measure the scheduler, they are not results\n#\n"
    );
    assert!(oversubscribed(&[2], 1)
        .starts_with("# !! up to 2 threads on 1 CPU: teams of more than 1 thread share"));
    assert_eq!(oversubscribed(&[1, 2], 2), "", "2 threads on 2 CPUs");
    assert_eq!(oversubscribed(&[8], 0), "", "CPUs unknown: no claim");
}

#[test]
fn a_refused_team_is_named_without_blaming_a_limit_it_is_within() {
    // omp_get_max_threads() is the default team size, not a cap: the line must not call it
    // one, and it must not name the thread limit as the cause when the count is within it.
    assert_eq!(
        team_refused(3, i32::MAX, &["OMP_MAX_ACTIVE_LEVELS=0".to_string()]),
        "-threads 3: the OpenMP runtime would not form a team of 3 threads, although 3 is \
         within its thread limit (none); OMP environment: OMP_MAX_ACTIVE_LEVELS=0"
    );
    assert_eq!(
        team_refused(4, 8, &[]),
        "-threads 4: the OpenMP runtime would not form a team of 4 threads, although 4 is \
         within its thread limit (8); no OMP_, GOMP_ or KMP_ variable is set"
    );
}

/// The options in doc/OMP.md, as `-help` says them (`imb_core::cli::doc`).
#[test]
fn the_doc_lists_the_options() {
    let table = imb_core::cli::doc::markdown(
        crate::cli::OPTS,
        |_| true,
        |_| "imb-omp".into(),
        str::to_string,
    );
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../doc/OMP.md");
    imb_core::cli::doc::check(&doc, "imb-omp", &table).unwrap();
}
