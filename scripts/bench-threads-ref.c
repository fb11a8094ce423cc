/* Minimal C reference loops for scripts/bench-threads: the same patterns as imb-threads'
 * Mutex_LockUnlock, Cond_PingPong (unbound) and Thread_Create (detached), with nothing around
 * them. Prints "name usec-per-op" lines (mean of 5 timings). Build: cc -O2 -pthread. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int turn;
static long rounds;

static void *client(void *arg) {
    (void)arg;
    for (long i = 0; i < rounds; i++) {
        pthread_mutex_lock(&m);
        while (turn == 0) pthread_cond_wait(&c, &m);
        turn = 0;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

static long chain_m, chain_n;
static pthread_mutex_t dm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dc = PTHREAD_COND_INITIALIZER;
static int done;

static void *link(void *arg) {
    (void)arg;
    long n = __atomic_add_fetch(&chain_n, 1, __ATOMIC_ACQ_REL);
    if (n >= chain_m) {
        pthread_mutex_lock(&dm);
        done = 1;
        pthread_cond_signal(&dc);
        pthread_mutex_unlock(&dm);
    } else {
        pthread_attr_t a;
        pthread_t t;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_create(&t, &a, link, 0);
        pthread_attr_destroy(&a);
    }
    return 0;
}

int main(void) {
    double sum = 0;
    long n = 20000000;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (long i = 0; i < n; i++) {
            pthread_mutex_lock(&m);
            pthread_mutex_unlock(&m);
        }
        sum += (now() - t0) / n;
    }
    printf("Mutex_LockUnlock %.6f\n", sum / 5 * 1e6);

    sum = 0;
    rounds = 20000;
    for (int r = 0; r < 5; r++) {
        pthread_t t;
        turn = 0;
        pthread_create(&t, 0, client, 0);
        double t0 = now();
        for (long i = 0; i < rounds; i++) {
            pthread_mutex_lock(&m);
            turn = 1;
            pthread_cond_signal(&c);
            while (turn == 1) pthread_cond_wait(&c, &m);
            pthread_mutex_unlock(&m);
        }
        sum += (now() - t0) / rounds;
        pthread_join(t, 0);
    }
    printf("Cond_PingPong %.6f\n", sum / 5 * 1e6);

    sum = 0;
    chain_m = 2000;
    for (int r = 0; r < 5; r++) {
        pthread_attr_t a;
        pthread_t t;
        chain_n = 0;
        done = 0;
        double t0 = now();
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_create(&t, &a, link, 0);
        pthread_attr_destroy(&a);
        pthread_mutex_lock(&dm);
        while (!done) pthread_cond_wait(&dc, &dm);
        pthread_mutex_unlock(&dm);
        sum += (now() - t0) / chain_m;
    }
    printf("Thread_Create %.6f\n", sum / 5 * 1e6);
    return 0;
}
