//! Every benchmark in run order, with its columns and its team: what the run loop, `-list`,
//! the run-time estimate and the `-json` document read.

use super::cond::{cond_broadcast, cond_pingpong, cond_signal, cond_wakeup, WAKEUP_BINDS};
use super::mutex::{
    mutex_lock_array, mutex_lockunlock, mutex_nocontention, mutex_pingpong, mutex_protocol,
    mutex_unlock_array,
};
use super::std_prims::{std_barrier, std_condvar, std_mutex};
use super::sync::{barrier, rwlock, sem_pingpong, spin};
use super::thread::{thread_create, time_slice, yield_, TIME_SLICE_BINDS};
use super::{Bench, Team};

/// Every benchmark, in run order.
pub static BENCHMARKS: &[Bench] = &[
    Bench {
        name: "Thread_Create",
        vars: &["detach", "scope"],
        what: "recursive pthread_create of M threads, per thread",
        team: Team::Create,
        run: thread_create,
    },
    Bench {
        name: "Yield",
        vars: &["binding"],
        what: "two threads calling sched_yield; same CPU approximates a context switch",
        team: Team::Pair(None),
        run: yield_,
    },
    Bench {
        name: "Time_Slice",
        vars: &["binding"],
        what: "two threads on one CPU spinning on a shared flag: half a round is one time slice",
        team: Team::Pair(Some(TIME_SLICE_BINDS)),
        run: time_slice,
    },
    Bench {
        name: "Cond_PingPong",
        vars: &["binding"],
        what: "condition-variable ping-pong (wait/signal), per round trip",
        team: Team::Pair(None),
        run: cond_pingpong,
    },
    Bench {
        name: "Cond_Signal",
        vars: &[],
        what: "pthread_cond_signal with no waiter (the send overhead)",
        team: Team::Solo(1),
        run: cond_signal,
    },
    Bench {
        name: "Cond_Wakeup",
        vars: &["binding"],
        what: "wait on a condition another CPU signals continually (the receive overhead)",
        team: Team::Pair(Some(WAKEUP_BINDS)),
        run: cond_wakeup,
    },
    Bench {
        name: "Mutex_PingPong",
        vars: &["binding"],
        what: "four-mutex ping-pong (Figure 1), per ping-pong",
        team: Team::Pair(None),
        run: mutex_pingpong,
    },
    Bench {
        name: "Mutex_NoContention",
        vars: &[],
        what: "the ping-pong's lock/unlock operations in the main thread alone, per ping-pong",
        team: Team::Solo(1),
        run: mutex_nocontention,
    },
    Bench {
        name: "Mutex_LockUnlock",
        vars: &[],
        what: "pthread_mutex_lock + unlock of one mutex",
        team: Team::Solo(1),
        run: mutex_lockunlock,
    },
    Bench {
        name: "Mutex_Lock",
        vars: &[],
        what: "pthread_mutex_lock over a mutex array",
        team: Team::Solo(1),
        run: mutex_lock_array,
    },
    Bench {
        name: "Mutex_Unlock",
        vars: &[],
        what: "pthread_mutex_unlock over a mutex array",
        team: Team::Solo(1),
        run: mutex_unlock_array,
    },
    Bench {
        name: "Mutex_Protocol",
        vars: &["protocol"],
        what: "lock + unlock under PTHREAD_PRIO_NONE / INHERIT / PROTECT",
        team: Team::Solo(3),
        run: mutex_protocol,
    },
    Bench {
        name: "Cond_Broadcast",
        vars: &["binding", "waiters"],
        what: "pthread_cond_broadcast until every waiter has woken, per broadcast",
        team: Team::Sweep(1),
        run: cond_broadcast,
    },
    Bench {
        name: "Sem_PingPong",
        vars: &["binding"],
        what: "POSIX semaphore ping-pong (sem_post/sem_wait), per round trip",
        team: Team::Pair(None),
        run: sem_pingpong,
    },
    Bench {
        name: "Barrier",
        vars: &["binding", "threads"],
        what: "pthread_barrier_wait with N threads, per barrier",
        team: Team::Sweep(0),
        run: barrier,
    },
    Bench {
        name: "RWLock",
        vars: &["access"],
        what: "pthread_rwlock rdlock + unlock, wrlock + unlock",
        team: Team::Solo(2),
        run: rwlock,
    },
    Bench {
        name: "Spin_LockUnlock",
        vars: &[],
        what: "pthread_spin_lock + unlock",
        team: Team::Solo(1),
        run: spin,
    },
    Bench {
        name: "Std_Mutex",
        vars: &[],
        what: "Rust std::sync::Mutex lock + unlock",
        team: Team::Solo(1),
        run: std_mutex,
    },
    Bench {
        name: "Std_Condvar_PingPong",
        vars: &["binding"],
        what: "Rust std::sync::Condvar ping-pong, per round trip",
        team: Team::Pair(None),
        run: std_condvar,
    },
    Bench {
        name: "Std_Barrier",
        vars: &["binding", "threads"],
        what: "Rust std::sync::Barrier with N threads, per barrier",
        team: Team::Sweep(0),
        run: std_barrier,
    },
];
