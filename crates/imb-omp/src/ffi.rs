//! Safe wrappers over the timed OpenMP kernels in `kernels/epcc.c`.
//!
//! The EPCC method measures what the OpenMP runtime (libgomp or LLVM's libomp) does for a
//! construct: `#pragma omp parallel`, `for`, `barrier`, `critical`, `copyin`, ... Rust has
//! no OpenMP, and the same pattern rebuilt on Rust threads would time a different
//! implementation, so the timed kernels must be real OpenMP and are therefore C, built by
//! `build.rs` with `-fopenmp`. The `unsafe` of calling them is confined to this module (the
//! crate's only other `unsafe` is the poll(2) of stdout in `output.rs`).
//!
//! The wrappers keep the C types (`i32` for `int`, `i64` for `long`) so that the numbers
//! given are the numbers the kernels run with. Every timed function returns the seconds
//! for the whole test (`innerreps` constructs); the caller computes the overhead per
//! construct as `(test - reference) / innerreps`. A NEGATIVE time means the kernel refused
//! to run: an unknown size (see [`Array`]), a bad count, or the runtime would not form a
//! team of exactly `nthreads` ([`team_ok`] checks that up front).

use std::ffi::{c_char, c_int, c_long, CStr};

mod sys {
    use std::ffi::{c_char, c_double, c_int, c_long};
    extern "C" {
        pub fn imb_omp_wtime() -> c_double;
        pub fn imb_omp_wtick() -> c_double;
        pub fn imb_omp_max_threads() -> c_int;
        pub fn imb_omp_openmp_version() -> c_int;
        pub fn imb_omp_runtime() -> *const c_char;
        pub fn imb_omp_compiler() -> *const c_char;
        pub fn imb_omp_proc_bind() -> c_int;
        pub fn imb_omp_num_places() -> c_int;
        pub fn imb_omp_thread_limit() -> c_int;
        pub fn imb_omp_team_ok(nthreads: c_int) -> c_int;
        pub fn imb_omp_delay(delaylength: c_int);
        pub fn imb_omp_time_delay(delaylength: c_int, reps: c_long) -> c_double;
        pub fn imb_omp_sync(
            id: c_int,
            nthreads: c_int,
            innerreps: c_long,
            delay: c_int,
        ) -> c_double;
        pub fn imb_omp_sync_ref(
            id: c_int,
            nthreads: c_int,
            innerreps: c_long,
            delay: c_int,
        ) -> c_double;
        pub fn imb_omp_sched(
            kind: c_int,
            chunk: c_int,
            nthreads: c_int,
            innerreps: c_long,
            itersperthr: c_int,
            delay: c_int,
        ) -> c_double;
        pub fn imb_omp_sched_ref(innerreps: c_long, itersperthr: c_int, delay: c_int) -> c_double;
        pub fn imb_omp_array(
            id: c_int,
            n: c_int,
            nthreads: c_int,
            innerreps: c_long,
            delay: c_int,
        ) -> c_double;
        pub fn imb_omp_array_ref(id: c_int, n: c_int, innerreps: c_long, delay: c_int) -> c_double;
        pub fn imb_omp_check_reduction(n: c_int, nthreads: c_int) -> c_int;
        pub fn imb_omp_check_copyprivate(n: c_int, nthreads: c_int) -> c_int;
    }
}

/// The synchronisation constructs (ids as in `epcc.c`).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    Parallel = 0,
    For = 1,
    ParallelFor = 2,
    Barrier = 3,
    Single = 4,
    Critical = 5,
    Lock = 6,
    Ordered = 7,
    Atomic = 8,
    Reduction = 9,
    Master = 10,
}

/// The loop schedules; `Static` ignores the chunk.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sched {
    Static = 0,
    StaticN = 1,
    DynamicN = 2,
    GuidedN = 3,
}

/// The data-sharing clauses applied to an array of `n` doubles, `1 <= n <= 3^10`.
/// PRIVATE, FIRSTPRIVATE and REDUCTION take any such `n` (chosen at run time); COPYIN and
/// COPYPRIVATE use `threadprivate` arrays whose sizes are fixed at build time, so for them
/// `n` must be a power of three, 3^0..3^10 (else the kernels return a negative time).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Array {
    Private = 0,
    FirstPrivate = 1,
    CopyPrivate = 2,
    CopyIn = 3,
    Reduction = 4,
}

/// Copies a static C string from the kernels.
fn static_str(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the kernels return pointers to NUL-terminated string literals.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

// SAFETY (every `unsafe` below): the C functions take plain values, validate them, touch
// only their own memory and return plain values; any argument values are safe. `long` is
// 64 bits on the LP64 targets the crate builds for, so `as c_long` is lossless there.

pub fn wtime() -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_wtime() }
}

pub fn wtick() -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_wtick() }
}

pub fn max_threads() -> i32 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_max_threads() }
}

/// `_OPENMP` of the compiler that built the kernels, e.g. 201511.
pub fn openmp_version() -> i32 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_openmp_version() }
}

/// "libgomp" or "libomp".
pub fn runtime() -> String {
    // SAFETY: see above.
    static_str(unsafe { sys::imb_omp_runtime() })
}

/// The C compiler's `__VERSION__`.
pub fn compiler() -> String {
    // SAFETY: see above.
    static_str(unsafe { sys::imb_omp_compiler() })
}

/// `omp_get_proc_bind()` by its OpenMP name.
pub fn proc_bind() -> &'static str {
    // SAFETY: see above.
    match unsafe { sys::imb_omp_proc_bind() } {
        0 => "false",
        1 => "true",
        2 => "master",
        3 => "close",
        4 => "spread",
        _ => "unknown",
    }
}

pub fn num_places() -> i32 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_num_places() }
}

/// `omp_get_thread_limit()`: the most threads the runtime gives a contention group
/// (`OMP_THREAD_LIMIT`; `INT_MAX` when unset in libgomp and libomp).
pub fn thread_limit() -> i32 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_thread_limit() }
}

/// True if the runtime forms a team of exactly `nthreads` (dynamic adjustment is turned
/// off; OMP_THREAD_LIMIT can still prevent it). Every timed kernel checks this too; the run
/// asks it for every thread count before measuring anything.
pub fn team_ok(nthreads: i32) -> bool {
    // SAFETY: see above.
    unsafe { sys::imb_omp_team_ok(nthreads) == 1 }
}

pub fn delay(delaylength: i32) {
    // SAFETY: see above.
    unsafe { sys::imb_omp_delay(delaylength) }
}

/// Seconds for `reps` delays of `delaylength` on the calling thread.
pub fn time_delay(delaylength: i32, reps: i64) -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_time_delay(delaylength, reps as c_long) }
}

pub fn sync(kind: Sync, nthreads: i32, innerreps: i64, delaylength: i32) -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_sync(kind as c_int, nthreads, innerreps as c_long, delaylength) }
}

/// The reference for `kind` on one thread (`nthreads` is not used).
pub fn sync_ref(kind: Sync, nthreads: i32, innerreps: i64, delaylength: i32) -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_sync_ref(kind as c_int, nthreads, innerreps as c_long, delaylength) }
}

/// `innerreps` loops of `itersperthr * nthreads` delays under `schedule(kind, chunk)`.
pub fn sched(
    kind: Sched,
    chunk: i32,
    nthreads: i32,
    innerreps: i64,
    itersperthr: i32,
    delaylength: i32,
) -> f64 {
    let reps = innerreps as c_long;
    // SAFETY: see above.
    unsafe {
        sys::imb_omp_sched(
            kind as c_int,
            chunk,
            nthreads,
            reps,
            itersperthr,
            delaylength,
        )
    }
}

pub fn sched_ref(innerreps: i64, itersperthr: i32, delaylength: i32) -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_sched_ref(innerreps as c_long, itersperthr, delaylength) }
}

pub fn array(kind: Array, n: i32, nthreads: i32, innerreps: i64, delaylength: i32) -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_array(kind as c_int, n, nthreads, innerreps as c_long, delaylength) }
}

pub fn array_ref(kind: Array, n: i32, innerreps: i64, delaylength: i32) -> f64 {
    // SAFETY: see above.
    unsafe { sys::imb_omp_array_ref(kind as c_int, n, innerreps as c_long, delaylength) }
}

/// True if `reduction(+:a[:n])` over `nthreads` threads really privatises and sums.
pub fn check_reduction(n: i32, nthreads: i32) -> bool {
    // SAFETY: see above.
    unsafe { sys::imb_omp_check_reduction(n, nthreads) == 1 }
}

/// True if every thread sees the single thread's values after `copyprivate`
/// (`n` a power of three up to 3^10).
pub fn check_copyprivate(n: i32, nthreads: i32) -> bool {
    // SAFETY: see above.
    unsafe { sys::imb_omp_check_copyprivate(n, nthreads) == 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYNCS: [Sync; 11] = {
        use super::Sync::*;
        [
            Parallel,
            For,
            ParallelFor,
            Barrier,
            Single,
            Critical,
            Lock,
            Ordered,
            Atomic,
            Reduction,
            Master,
        ]
    };
    const SCHEDS: [Sched; 4] = [
        Sched::Static,
        Sched::StaticN,
        Sched::DynamicN,
        Sched::GuidedN,
    ];
    const ARRAYS: [Array; 5] = {
        use super::Array::*;
        [Private, FirstPrivate, CopyPrivate, CopyIn, Reduction]
    };
    const ARRAY_SIZES: [i32; 11] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049];
    const MAX_ARRAY: i32 = 59049;

    fn size_fixed_at_build(kind: Array) -> bool {
        matches!(kind, Array::CopyPrivate | Array::CopyIn)
    }

    fn positive(what: &str, t: f64) {
        // A time, not judged: finite and not negative (a coarse clock may read 0).
        assert!(t.is_finite() && t >= 0.0, "{what}: {t}");
    }

    // Repetitions keep every run well above the clock's resolution (libomp: 1 us).
    #[test]
    fn sync_kernels_time_at_one_and_two_threads() {
        for nthreads in [1, 2] {
            for kind in SYNCS {
                positive(
                    &format!("{kind:?} x{nthreads}"),
                    sync(kind, nthreads, 4096, 50),
                );
                positive(&format!("{kind:?} ref"), sync_ref(kind, nthreads, 4096, 50));
            }
        }
    }

    #[test]
    fn sched_kernels_time_at_one_and_two_threads() {
        for nthreads in [1, 2] {
            for kind in SCHEDS {
                for chunk in [1, 4] {
                    let t = sched(kind, chunk, nthreads, 16, 32, 100);
                    positive(&format!("{kind:?},{chunk} x{nthreads}"), t);
                }
            }
        }
        positive("sched ref", sched_ref(16, 32, 100));
        positive(
            "static ignores the chunk",
            sched(Sched::Static, 0, 2, 16, 32, 100),
        );
        assert!(
            sched(Sched::DynamicN, 0, 2, 1, 1, 1) < 0.0,
            "chunk 0 refused"
        );
    }

    #[test]
    fn array_kernels_time_at_one_and_two_threads() {
        for nthreads in [1, 2] {
            for kind in ARRAYS {
                for n in [1, 27, 729, MAX_ARRAY] {
                    positive(
                        &format!("{kind:?} n={n} x{nthreads}"),
                        array(kind, n, nthreads, 64, 200),
                    );
                    positive(&format!("{kind:?} n={n} ref"), array_ref(kind, n, 64, 200));
                }
            }
        }
    }

    #[test]
    fn array_sizes_fixed_only_for_copyin_and_copyprivate() {
        for kind in ARRAYS {
            let runs = array(kind, 100, 2, 2, 10) >= 0.0;
            assert_eq!(runs, !size_fixed_at_build(kind), "{kind:?} n=100");
            assert_eq!(
                array_ref(kind, 100, 2, 10) >= 0.0,
                !size_fixed_at_build(kind)
            );
            assert!(array(kind, 0, 2, 2, 10) < 0.0 && array(kind, MAX_ARRAY + 1, 2, 2, 10) < 0.0);
        }
    }

    #[test]
    fn array_clauses_give_right_values() {
        for nthreads in [1, 2] {
            for n in [1, 27, 729] {
                assert!(check_reduction(n, nthreads), "reduction n={n} x{nthreads}");
                assert!(
                    check_copyprivate(n, nthreads),
                    "copyprivate n={n} x{nthreads}"
                );
            }
        }
        for n in ARRAY_SIZES {
            assert!(check_copyprivate(n, 2) && check_reduction(n, 2), "n={n}");
        }
        assert!(!check_copyprivate(2, 2), "2 is not a built-in size");
    }

    #[test]
    fn delay_time_is_measured() {
        let best = |len| {
            (0..5)
                .map(|_| time_delay(len, 20))
                .fold(f64::INFINITY, f64::min)
        };
        let (short, long) = (best(10_000), best(1_000_000));
        // Structure only (a loaded machine may time anything): both timings are numbers.
        assert!(
            short.is_finite() && long.is_finite() && short >= 0.0 && long >= 0.0,
            "delay 1e6: {long} s, 1e4: {short} s"
        );
        delay(10);
    }

    #[test]
    fn refusals_are_negative() {
        assert!(sync(Sync::Barrier, 0, 1, 1) < 0.0 && sync(Sync::Barrier, 2, -1, 1) < 0.0);
        assert!(!team_ok(0) && team_ok(1) && team_ok(2));
        assert!(!check_reduction(-1, 2) && !check_copyprivate(1, 0));
    }

    #[test]
    fn environment_is_described() {
        assert!(
            ["libgomp", "libomp"].contains(&runtime().as_str()),
            "{}",
            runtime()
        );
        assert!(!compiler().is_empty());
        assert!(
            openmp_version() >= 201107,
            "OpenMP 3.1 or later: {}",
            openmp_version()
        );
        assert!(["false", "true", "master", "close", "spread"].contains(&proc_bind()));
        assert!(max_threads() >= 1 && num_places() >= 0 && thread_limit() >= 1);
        assert!(wtick() > 0.0 && wtime() > 0.0);
    }
}
