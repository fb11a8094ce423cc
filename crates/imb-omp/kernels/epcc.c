/*
 * imb-omp timed kernels: OpenMP construct overheads by the EPCC method (v2,
 * Reid & Bull 2004, section 2), written from the method description.
 *
 * Every timed function runs the construct `innerreps` times with exactly
 * `nthreads` threads and returns the seconds (omp_get_wtime) for the whole
 * test; the matching *_ref function times the same body on one thread. The
 * Rust side computes overhead = (test - ref) / innerreps.
 *
 * A negative return means "not run": unknown id, a size outside the allowed
 * range, or the runtime would not give a team of exactly `nthreads` threads.
 *
 * CRITICAL, LOCK and ATOMIC run innerreps/nthreads times per thread, as in
 * the paper; the caller should choose innerreps as a multiple of nthreads.
 */
#include <omp.h>
#include <stdlib.h>

#ifndef IMB_OMP_RUNTIME
#define IMB_OMP_RUNTIME "unknown"
#endif

#define IMB_PRAGMA(x) _Pragma(#x)

/* Largest array for the array family: 3^10 doubles (472 KB). The private
 * copies live on each thread's stack, so n is bounded even where it is
 * chosen at run time. */
#define IMB_MAX_ARRAY 59049

/* Per-thread sink: keeps the delay loop's result alive without a data race. */
static _Thread_local volatile double imb_sink;

/* ---- environment ------------------------------------------------------ */

double imb_omp_wtime(void) { return omp_get_wtime(); }
double imb_omp_wtick(void) { return omp_get_wtick(); }
int imb_omp_max_threads(void) { return omp_get_max_threads(); }
int imb_omp_openmp_version(void) { return _OPENMP; }
const char *imb_omp_runtime(void) { return IMB_OMP_RUNTIME; }
const char *imb_omp_compiler(void) { return __VERSION__; }
int imb_omp_proc_bind(void) { return (int)omp_get_proc_bind(); }
int imb_omp_num_places(void) { return omp_get_num_places(); }
int imb_omp_thread_limit(void) { return omp_get_thread_limit(); }

/* ---- delay and dummy -------------------------------------------------- */

/* A dependent chain of `delaylength` floating-point additions. Without
 * -ffast-math the compiler may neither reassociate nor close-form it, so the
 * cost is proportional to delaylength; external linkage (and -fPIC) plus
 * noinline keep the call itself in every kernel. */
__attribute__((noinline)) void imb_omp_delay(int delaylength)
{
    double a = 0.0;
    for (int i = 0; i < delaylength; i++)
        a += (double)i;
    imb_sink = a;
}

/* The array benchmarks' body: a trivial write of every element, then the
 * delay. Write-only, so a PRIVATE copy is never read uninitialised. */
__attribute__((noinline)) void imb_omp_dummy(double *a, int n, int delaylength)
{
    for (int i = 0; i < n; i++)
        a[i] = (double)i;
    imb_omp_delay(delaylength);
}

double imb_omp_time_delay(int delaylength, long reps)
{
    double t0 = omp_get_wtime();
    for (long j = 0; j < reps; j++)
        imb_omp_delay(delaylength);
    return omp_get_wtime() - t0;
}

/* Forbid the runtime from shrinking teams, then check that a team of
 * `nthreads` really forms (OMP_THREAD_LIMIT or nesting could prevent it).
 * Runs before the clock starts; it doubles as a warm-up of the pool. */
static int team_ok(int nthreads)
{
    int got = 0;
    if (nthreads < 1)
        return 0;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(nthreads)
    {
#pragma omp single
        got = omp_get_num_threads();
    }
    return got == nthreads;
}

int imb_omp_team_ok(int nthreads) { return team_ok(nthreads); }

/* ---- synchronisation family ------------------------------------------- */

enum { SYNC_PARALLEL = 0, SYNC_FOR = 1, SYNC_PARALLEL_FOR = 2, SYNC_BARRIER = 3,
       SYNC_SINGLE = 4, SYNC_CRITICAL = 5, SYNC_LOCK = 6, SYNC_ORDERED = 7,
       SYNC_ATOMIC = 8, SYNC_REDUCTION = 9, SYNC_MASTER = 10 };

double imb_omp_sync(int id, int nthreads, long innerreps, int delaylength)
{
    if (innerreps < 0 || !team_ok(nthreads))
        return -1.0;
    const long perthread = innerreps / nthreads;
    double aaaa = 0.0;
    omp_lock_t lock;
    omp_init_lock(&lock);

    double t0 = omp_get_wtime();
    switch (id) {
    case SYNC_PARALLEL:
        for (long j = 0; j < innerreps; j++) {
#pragma omp parallel num_threads(nthreads)
            imb_omp_delay(delaylength);
        }
        break;
    case SYNC_FOR:
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < innerreps; j++) {
#pragma omp for
            for (int i = 0; i < nthreads; i++)
                imb_omp_delay(delaylength);
        }
        break;
    case SYNC_PARALLEL_FOR:
        for (long j = 0; j < innerreps; j++) {
#pragma omp parallel for num_threads(nthreads)
            for (int i = 0; i < nthreads; i++)
                imb_omp_delay(delaylength);
        }
        break;
    case SYNC_BARRIER:
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < innerreps; j++) {
            imb_omp_delay(delaylength);
#pragma omp barrier
        }
        break;
    case SYNC_SINGLE:
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < innerreps; j++) {
#pragma omp single
            imb_omp_delay(delaylength);
        }
        break;
    case SYNC_CRITICAL:
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < perthread; j++) {
#pragma omp critical
            imb_omp_delay(delaylength);
        }
        break;
    case SYNC_LOCK:
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < perthread; j++) {
            omp_set_lock(&lock);
            imb_omp_delay(delaylength);
            omp_unset_lock(&lock);
        }
        break;
    case SYNC_ORDERED:
#pragma omp parallel for ordered schedule(static, 1) num_threads(nthreads)
        for (long j = 0; j < innerreps; j++) {
#pragma omp ordered
            imb_omp_delay(delaylength);
        }
        break;
    case SYNC_ATOMIC: /* the paper replaces the delay by the increment */
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < perthread; j++) {
#pragma omp atomic
            aaaa += 1.0;
        }
        break;
    case SYNC_REDUCTION:
        for (long j = 0; j < innerreps; j++) {
#pragma omp parallel reduction(+ : aaaa) num_threads(nthreads)
            {
                imb_omp_delay(delaylength);
                aaaa += 1.0;
            }
        }
        break;
    case SYNC_MASTER: /* no implied barrier: for comparison only */
#pragma omp parallel num_threads(nthreads)
        for (long j = 0; j < innerreps; j++) {
#pragma omp master
            imb_omp_delay(delaylength);
        }
        break;
    default:
        omp_destroy_lock(&lock);
        return -1.0;
    }
    double t = omp_get_wtime() - t0;
    omp_destroy_lock(&lock);
    imb_sink = aaaa;
    return t;
}

double imb_omp_sync_ref(int id, int nthreads, long innerreps, int delaylength)
{
    (void)nthreads;
    if (id < SYNC_PARALLEL || id > SYNC_MASTER || innerreps < 0)
        return -1.0;
    double aaaa = 0.0;
    double t0 = omp_get_wtime();
    if (id == SYNC_ATOMIC) {
        for (long j = 0; j < innerreps; j++)
            aaaa += 1.0;
    } else if (id == SYNC_REDUCTION) {
        for (long j = 0; j < innerreps; j++) {
            imb_omp_delay(delaylength);
            aaaa += 1.0;
        }
    } else {
        for (long j = 0; j < innerreps; j++)
            imb_omp_delay(delaylength);
    }
    double t = omp_get_wtime() - t0;
    imb_sink = aaaa;
    return t;
}

/* ---- loop scheduling family ------------------------------------------- */

enum { SCHED_STATIC = 0, SCHED_STATIC_N = 1, SCHED_DYNAMIC_N = 2, SCHED_GUIDED_N = 3 };

/* One region, innerreps worksharing loops of itersperthr*nthreads delays.
 * Explicit schedule clauses (not schedule(runtime)), so each loop takes the
 * compiler's and runtime's own path for that schedule. */
#define IMB_SCHED_REGION(CLAUSE)                                          \
    IMB_PRAGMA(omp parallel num_threads(nthreads))                        \
    for (long j = 0; j < innerreps; j++) {                                \
        IMB_PRAGMA(omp for CLAUSE)                                        \
        for (long i = 0; i < niters; i++)                                 \
            imb_omp_delay(delaylength);                                   \
    }

double imb_omp_sched(int kind, int chunk, int nthreads, long innerreps,
                     int itersperthr, int delaylength)
{
    if (innerreps < 0 || itersperthr < 0 || (kind != SCHED_STATIC && chunk < 1)
        || !team_ok(nthreads))
        return -1.0;
    const long niters = (long)itersperthr * nthreads;
    double t0 = omp_get_wtime();
    switch (kind) {
    case SCHED_STATIC:    IMB_SCHED_REGION(schedule(static)) break;
    case SCHED_STATIC_N:  IMB_SCHED_REGION(schedule(static, chunk)) break;
    case SCHED_DYNAMIC_N: IMB_SCHED_REGION(schedule(dynamic, chunk)) break;
    case SCHED_GUIDED_N:  IMB_SCHED_REGION(schedule(guided, chunk)) break;
    default: return -1.0;
    }
    return omp_get_wtime() - t0;
}

double imb_omp_sched_ref(long innerreps, int itersperthr, int delaylength)
{
    if (innerreps < 0 || itersperthr < 0)
        return -1.0;
    double t0 = omp_get_wtime();
    for (long j = 0; j < innerreps; j++)
        for (int i = 0; i < itersperthr; i++)
            imb_omp_delay(delaylength);
    return omp_get_wtime() - t0;
}

/* ---- array family ----------------------------------------------------- */

enum { ARR_PRIVATE = 0, ARR_FIRSTPRIVATE = 1, ARR_COPYPRIVATE = 2, ARR_COPYIN = 3,
       ARR_REDUCTION = 4 };

/*
 * WHAT IS FIXED AT BUILD TIME, AND WHY.
 * PRIVATE and FIRSTPRIVATE take a C99 variable-length array and REDUCTION an
 * array section a[:n] of a heap pointer, so for them n is chosen at run time
 * (any 1 <= n <= 3^10). COPYIN needs a `threadprivate` variable, and
 * threadprivate variables must have static storage duration, so their size
 * is a constant; COPYPRIVATE broadcasts a variable by copying its whole
 * object, and a pointer would only broadcast the pointer. Both therefore use
 * 11 file-scope `static double tpK[3^K]` arrays, K = 0..10, each declared
 * threadprivate and generated by IMB_FIXED below; n must be exactly one of
 * 1, 3, 9, ..., 59049 for them (else -1.0). The arrays cost 709 KB of TLS
 * per thread.
 */
#define IMB_FIXED_SIZES(X)                                                \
    X(0, 1) X(1, 3) X(2, 9) X(3, 27) X(4, 81) X(5, 243) X(6, 729)         \
    X(7, 2187) X(8, 6561) X(9, 19683) X(10, 59049)

#define IMB_FIXED(K, N)                                                   \
    static double tp##K[N];                                               \
    IMB_PRAGMA(omp threadprivate(tp##K))                                  \
    static double copyin_##K(int nthreads, long innerreps, int delaylength) \
    {                                                                     \
        double t0 = omp_get_wtime();                                      \
        for (long j = 0; j < innerreps; j++) {                            \
            IMB_PRAGMA(omp parallel copyin(tp##K) num_threads(nthreads))  \
            imb_omp_dummy(tp##K, N, delaylength);                         \
        }                                                                 \
        return omp_get_wtime() - t0;                                      \
    }                                                                     \
    static double copyprivate_##K(int nthreads, long innerreps, int delaylength) \
    {                                                                     \
        double t0 = omp_get_wtime();                                      \
        IMB_PRAGMA(omp parallel num_threads(nthreads))                    \
        for (long j = 0; j < innerreps; j++) {                            \
            IMB_PRAGMA(omp single copyprivate(tp##K))                     \
            imb_omp_dummy(tp##K, N, delaylength);                         \
        }                                                                 \
        return omp_get_wtime() - t0;                                      \
    }                                                                     \
    static double fixedref_##K(int nthreads, long innerreps, int delaylength) \
    {                                                                     \
        (void)nthreads;                                                   \
        double t0 = omp_get_wtime();                                      \
        for (long j = 0; j < innerreps; j++)                              \
            imb_omp_dummy(tp##K, N, delaylength);                         \
        return omp_get_wtime() - t0;                                      \
    }                                                                     \
    /* Every thread spoils its copy; the single thread writes i*3+1;     \
     * after the construct every thread must see exactly that. */         \
    static int checkcp_##K(int nthreads)                                  \
    {                                                                     \
        int bad = 0, seen = 0;                                            \
        IMB_PRAGMA(omp parallel num_threads(nthreads) reduction(+ : bad, seen)) \
        {                                                                 \
            seen = 1;                                                     \
            for (int i = 0; i < N; i++)                                   \
                tp##K[i] = -1.0 - omp_get_thread_num();                   \
            IMB_PRAGMA(omp single copyprivate(tp##K))                     \
            for (int i = 0; i < N; i++)                                   \
                tp##K[i] = i * 3.0 + 1.0;                                 \
            for (int i = 0; i < N; i++)                                   \
                bad += tp##K[i] != i * 3.0 + 1.0;                         \
        }                                                                 \
        return bad == 0 && seen == nthreads;                              \
    }

IMB_FIXED_SIZES(IMB_FIXED)

typedef double (*fixed_fn)(int nthreads, long innerreps, int delaylength);
static const struct {
    int n;
    fixed_fn copyin, copyprivate, ref;
    int (*check)(int nthreads);
} fixed[] = {
#define IMB_FIXED_ENTRY(K, N) { N, copyin_##K, copyprivate_##K, fixedref_##K, checkcp_##K },
    IMB_FIXED_SIZES(IMB_FIXED_ENTRY)
#undef IMB_FIXED_ENTRY
};

static int fixed_index(int n)
{
    for (int k = 0; k < (int)(sizeof fixed / sizeof fixed[0]); k++)
        if (fixed[k].n == n)
            return k;
    return -1;
}

static double arr_private(int n, int nthreads, long innerreps, int delaylength)
{
    double a[n];
    double t0 = omp_get_wtime();
    for (long j = 0; j < innerreps; j++) {
#pragma omp parallel private(a) num_threads(nthreads)
        imb_omp_dummy(a, n, delaylength);
    }
    return omp_get_wtime() - t0;
}

static double arr_firstprivate(int n, int nthreads, long innerreps, int delaylength)
{
    double a[n];
    for (int i = 0; i < n; i++)
        a[i] = 0.0;
    double t0 = omp_get_wtime();
    for (long j = 0; j < innerreps; j++) {
#pragma omp parallel firstprivate(a) num_threads(nthreads)
        imb_omp_dummy(a, n, delaylength);
    }
    return omp_get_wtime() - t0;
}

static double arr_reduction(int n, int nthreads, long innerreps, int delaylength)
{
    double *a = calloc((size_t)n, sizeof *a);
    if (!a)
        return -1.0;
    double t0 = omp_get_wtime();
    for (long j = 0; j < innerreps; j++) {
#pragma omp parallel reduction(+ : a[:n]) num_threads(nthreads)
        imb_omp_dummy(a, n, delaylength);
    }
    double t = omp_get_wtime() - t0;
    free(a);
    return t;
}

double imb_omp_array(int id, int n, int nthreads, long innerreps, int delaylength)
{
    if (n < 1 || n > IMB_MAX_ARRAY || innerreps < 0 || !team_ok(nthreads))
        return -1.0;
    int k = fixed_index(n);
    switch (id) {
    case ARR_PRIVATE: return arr_private(n, nthreads, innerreps, delaylength);
    case ARR_FIRSTPRIVATE: return arr_firstprivate(n, nthreads, innerreps, delaylength);
    case ARR_REDUCTION: return arr_reduction(n, nthreads, innerreps, delaylength);
    case ARR_COPYIN: return k < 0 ? -1.0 : fixed[k].copyin(nthreads, innerreps, delaylength);
    case ARR_COPYPRIVATE: return k < 0 ? -1.0 : fixed[k].copyprivate(nthreads, innerreps, delaylength);
    default: return -1.0;
    }
}

/* innerreps x dummy on one thread, on the same kind of array as the test:
 * the threadprivate one for COPYIN/COPYPRIVATE, a run-time sized one else. */
double imb_omp_array_ref(int id, int n, long innerreps, int delaylength)
{
    if (id < ARR_PRIVATE || id > ARR_REDUCTION || n < 1 || n > IMB_MAX_ARRAY || innerreps < 0)
        return -1.0;
    if (id == ARR_COPYIN || id == ARR_COPYPRIVATE) {
        int k = fixed_index(n);
        return k < 0 ? -1.0 : fixed[k].ref(1, innerreps, delaylength);
    }
    double *a = calloc((size_t)n, sizeof *a);
    if (!a)
        return -1.0;
    double t0 = omp_get_wtime();
    for (long j = 0; j < innerreps; j++)
        imb_omp_dummy(a, n, delaylength);
    double t = omp_get_wtime() - t0;
    free(a);
    return t;
}

/* The original elements start at 100; each thread adds thread_num+1 to every
 * element of its private copy and, after a barrier, must still see exactly
 * that in its copy (a shared array would show the others' additions). At the
 * end every element must be 100 + nthreads*(nthreads+1)/2. */
int imb_omp_check_reduction(int n, int nthreads)
{
    if (n < 1 || n > IMB_MAX_ARRAY || !team_ok(nthreads))
        return 0;
    double *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return 0;
    for (int i = 0; i < n; i++)
        a[i] = 100.0;
    int seen = 0, bad = 0;
#pragma omp parallel reduction(+ : a[:n], seen, bad) num_threads(nthreads)
    {
        double v = omp_get_thread_num() + 1.0;
        seen = 1;
        for (int i = 0; i < n; i++)
            a[i] += v;
#pragma omp barrier
        for (int i = 0; i < n; i++)
            bad += a[i] != v;
    }
    const double want = 100.0 + nthreads * (nthreads + 1) / 2.0;
    int ok = seen == nthreads && bad == 0;
    for (int i = 0; i < n; i++)
        ok &= a[i] == want;
    free(a);
    return ok;
}

int imb_omp_check_copyprivate(int n, int nthreads)
{
    int k = fixed_index(n);
    if (k < 0 || !team_ok(nthreads))
        return 0;
    return fixed[k].check(nthreads);
}
