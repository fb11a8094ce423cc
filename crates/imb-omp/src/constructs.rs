//! What can be measured, by name: the EPCC families (sync, sched, array), the Rust-native
//! rows beside the sync family, and how each turns into a test and a reference.

use crate::ffi::{self, Array, Sched, Sync};
use crate::native;

/// A family: one table per thread count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Sync,
    Sched,
    Array,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Sync => "sync",
            Family::Sched => "sched",
            Family::Array => "array",
        }
    }
}

/// One construct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Omp(Sync),
    Rust(native::Native),
    Sched(Sched),
    Array(Array),
}

#[derive(Debug, Clone, Copy)]
pub struct Construct {
    pub name: &'static str,
    pub family: Family,
    pub kind: Kind,
    pub what: &'static str,
}

const fn c(name: &'static str, family: Family, kind: Kind, what: &'static str) -> Construct {
    Construct {
        name,
        family,
        kind,
        what,
    }
}

use Family as F;
use Kind as K;

/// Every construct, in run order.
pub static CONSTRUCTS: &[Construct] = &[
    c(
        "PARALLEL",
        F::Sync,
        K::Omp(Sync::Parallel),
        "#pragma omp parallel",
    ),
    c(
        "FOR",
        F::Sync,
        K::Omp(Sync::For),
        "#pragma omp for (in a region)",
    ),
    c(
        "PARALLEL_FOR",
        F::Sync,
        K::Omp(Sync::ParallelFor),
        "#pragma omp parallel for",
    ),
    c(
        "BARRIER",
        F::Sync,
        K::Omp(Sync::Barrier),
        "#pragma omp barrier",
    ),
    c(
        "SINGLE",
        F::Sync,
        K::Omp(Sync::Single),
        "#pragma omp single",
    ),
    c(
        "CRITICAL",
        F::Sync,
        K::Omp(Sync::Critical),
        "#pragma omp critical",
    ),
    c(
        "LOCK_UNLOCK",
        F::Sync,
        K::Omp(Sync::Lock),
        "omp_set_lock / omp_unset_lock",
    ),
    c(
        "ORDERED",
        F::Sync,
        K::Omp(Sync::Ordered),
        "#pragma omp ordered (schedule(static,1))",
    ),
    c(
        "ATOMIC",
        F::Sync,
        K::Omp(Sync::Atomic),
        "#pragma omp atomic (an increment)",
    ),
    c(
        "REDUCTION",
        F::Sync,
        K::Omp(Sync::Reduction),
        "#pragma omp parallel reduction(+:x)",
    ),
    c(
        "MASTER",
        F::Sync,
        K::Omp(Sync::Master),
        "#pragma omp master (no barrier; for comparison)",
    ),
    c(
        "RUST_FORK_JOIN",
        F::Sync,
        K::Rust(native::Native::ForkJoin),
        "std::thread::scope spawning the team (compare PARALLEL)",
    ),
    c(
        "RUST_BARRIER",
        F::Sync,
        K::Rust(native::Native::Barrier),
        "std::sync::Barrier::wait (compare BARRIER)",
    ),
    c(
        "RUST_MUTEX",
        F::Sync,
        K::Rust(native::Native::Mutex),
        "std::sync::Mutex around the delay (compare CRITICAL)",
    ),
    c(
        "RUST_ATOMIC",
        F::Sync,
        K::Rust(native::Native::Atomic),
        "AtomicU64::fetch_add (compare ATOMIC)",
    ),
    c(
        "STATIC",
        F::Sched,
        K::Sched(Sched::Static),
        "schedule(static)",
    ),
    c(
        "STATIC_N",
        F::Sched,
        K::Sched(Sched::StaticN),
        "schedule(static, n)",
    ),
    c(
        "DYNAMIC_N",
        F::Sched,
        K::Sched(Sched::DynamicN),
        "schedule(dynamic, n)",
    ),
    c(
        "GUIDED_N",
        F::Sched,
        K::Sched(Sched::GuidedN),
        "schedule(guided, n)",
    ),
    c(
        "PRIVATE",
        F::Array,
        K::Array(Array::Private),
        "parallel private(a[n])",
    ),
    c(
        "FIRSTPRIVATE",
        F::Array,
        K::Array(Array::FirstPrivate),
        "parallel firstprivate(a[n])",
    ),
    c(
        "COPYPRIVATE",
        F::Array,
        K::Array(Array::CopyPrivate),
        "single copyprivate(a[n])",
    ),
    c(
        "COPYIN",
        F::Array,
        K::Array(Array::CopyIn),
        "parallel copyin(a[n]) (threadprivate)",
    ),
    c(
        "ARRAY_REDUCTION",
        F::Array,
        K::Array(Array::Reduction),
        "parallel reduction(+:a[:n])",
    ),
];

/// Chunk sizes of the schedule family (EPCC: 1, 2, 4, …, 128).
pub const CHUNKS: [i32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
/// Loop iterations per thread in the schedule family (EPCC fixes 1024).
pub const ITERS_PER_THREAD: i32 = 1024;
/// Array sizes of the array family: 3^0 … 3^10.
pub fn array_sizes() -> Vec<i32> {
    (0..=10).map(|k| 3i32.pow(k)).collect()
}

/// Seconds of a whole test (or reference) of `innerreps` constructs.
pub type Timing = Box<dyn FnMut(u64) -> f64>;

/// The test and reference of a construct at one point, as closures of innerreps.
pub fn run(kind: Kind, threads: i32, delay: i32, sched_delay: i32, var: i32) -> (Timing, Timing) {
    let inner = |k: u64| k.min(i64::MAX as u64) as i64;
    // The mutual-exclusion tests split innerreps over the threads: run a whole multiple of the
    // team and scale the time back to k constructs.
    let t = threads.max(1) as u64;
    let whole = move |k: u64| k.div_ceil(t) * t;
    let shared = matches!(
        kind,
        K::Omp(Sync::Critical | Sync::Lock | Sync::Atomic)
            | K::Rust(native::Native::Mutex | native::Native::Atomic)
    );
    let scale = move |k: u64, secs: f64| {
        if shared {
            secs * k as f64 / whole(k) as f64
        } else {
            secs
        }
    };
    let n = move |k: u64| if shared { whole(k) } else { k };
    match kind {
        K::Omp(s) => (
            Box::new(move |k| scale(k, ffi::sync(s, threads, inner(n(k)), delay))),
            Box::new(move |k| ffi::sync_ref(s, threads, inner(k), delay)),
        ),
        K::Rust(r) => (
            Box::new(move |k| scale(k, native::test(r, threads as usize, n(k), delay))),
            Box::new(move |k| native::reference(r, k, delay)),
        ),
        K::Sched(s) => (
            Box::new(move |k| ffi::sched(s, var, threads, inner(k), ITERS_PER_THREAD, sched_delay)),
            Box::new(move |k| ffi::sched_ref(inner(k), ITERS_PER_THREAD, sched_delay)),
        ),
        K::Array(a) => (
            Box::new(move |k| ffi::array(a, var, threads, inner(k), delay)),
            Box::new(move |k| ffi::array_ref(a, var, inner(k), delay)),
        ),
    }
}
