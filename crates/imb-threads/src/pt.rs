//! Thin wrappers over the Pthreads objects the suite measures (mutex, condition variable,
//! rwlock, spinlock, barrier, POSIX semaphore, thread creation). Each object lives in a `Box`
//! so it never moves after `*_init` (Pthreads forbids copying an initialised object), is
//! destroyed in `Drop`, and is shared between threads by reference. All `unsafe` of
//! imb-threads is in this file; return codes of set-up calls become errors, and the calls made
//! in timed loops return nothing (they cannot fail on a correctly initialised object that the
//! caller uses in the documented order, which the benchmarks guarantee).

use std::cell::UnsafeCell;
use std::os::raw::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

// glibc has these, the libc crate does not declare them.
extern "C" {
    fn pthread_mutexattr_setprioceiling(
        attr: *mut libc::pthread_mutexattr_t,
        prioceiling: std::os::raw::c_int,
    ) -> std::os::raw::c_int;
    fn pthread_attr_setscope(
        attr: *mut libc::pthread_attr_t,
        scope: std::os::raw::c_int,
    ) -> std::os::raw::c_int;
}

/// PTHREAD_SCOPE_PROCESS in glibc's <pthread.h>.
const PTHREAD_SCOPE_PROCESS: std::os::raw::c_int = 1;

/// A Pthreads error code as a message naming the call.
fn err(call: &str, rc: i32) -> String {
    format!("{call} failed: {}", std::io::Error::from_raw_os_error(rc))
}

/// pthread_mutex_t (default attributes, or a protocol).
pub struct Mutex(Box<UnsafeCell<libc::pthread_mutex_t>>);

// SAFETY: a pthread mutex is made to be used from several threads at once.
unsafe impl Sync for Mutex {}
// SAFETY: the boxed object does not depend on the creating thread.
unsafe impl Send for Mutex {}

/// Mutex protocols (pthread_mutexattr_setprotocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Default,
    Inherit,
    Protect,
}

impl Mutex {
    pub fn new() -> Mutex {
        Mutex::with_protocol(Protocol::Default).unwrap_or_else(|e| panic!("{e}"))
    }
    /// A mutex with the given protocol; Err when the system does not support it.
    pub fn with_protocol(p: Protocol) -> Result<Mutex, String> {
        let m = Mutex(Box::new(UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER)));
        // SAFETY: attr is initialised before use and destroyed after; the mutex storage is
        // boxed (never moves) and initialised once.
        unsafe {
            let mut attr: libc::pthread_mutexattr_t = std::mem::zeroed();
            let rc = libc::pthread_mutexattr_init(&mut attr);
            if rc != 0 {
                return Err(err("pthread_mutexattr_init", rc));
            }
            let proto = match p {
                Protocol::Default => None,
                Protocol::Inherit => Some(libc::PTHREAD_PRIO_INHERIT),
                Protocol::Protect => Some(libc::PTHREAD_PRIO_PROTECT),
            };
            let mut rc = 0;
            if let Some(v) = proto {
                rc = libc::pthread_mutexattr_setprotocol(&mut attr, v);
                if rc == 0 && p == Protocol::Protect {
                    // A ceiling the calling thread's priority (SCHED_OTHER: 0) does not exceed.
                    let max = libc::sched_get_priority_max(libc::SCHED_FIFO);
                    rc = pthread_mutexattr_setprioceiling(&mut attr, max.max(0));
                }
            }
            if rc == 0 {
                rc = libc::pthread_mutex_init(m.0.get(), &attr);
            }
            libc::pthread_mutexattr_destroy(&mut attr);
            if rc != 0 {
                return Err(err("pthread_mutex_init", rc));
            }
        }
        Ok(m)
    }
    #[inline(always)]
    pub fn lock(&self) {
        // SAFETY: initialised in new(); the benchmarks never relock a mutex they hold.
        unsafe { libc::pthread_mutex_lock(self.0.get()) };
    }
    #[inline(always)]
    pub fn unlock(&self) {
        // SAFETY: called only by the thread that locked it.
        unsafe { libc::pthread_mutex_unlock(self.0.get()) };
    }
    fn raw(&self) -> *mut libc::pthread_mutex_t {
        self.0.get()
    }
}

impl Drop for Mutex {
    fn drop(&mut self) {
        // SAFETY: no thread holds or waits on it any more (it is being dropped).
        unsafe { libc::pthread_mutex_destroy(self.0.get()) };
    }
}

/// pthread_cond_t, used with a `Mutex`.
pub struct Cond(Box<UnsafeCell<libc::pthread_cond_t>>);

// SAFETY: condition variables are made to be shared between threads.
unsafe impl Sync for Cond {}
// SAFETY: the boxed object does not depend on the creating thread.
unsafe impl Send for Cond {}

impl Cond {
    pub fn new() -> Cond {
        Cond(Box::new(UnsafeCell::new(libc::PTHREAD_COND_INITIALIZER)))
    }
    #[inline(always)]
    pub fn signal(&self) {
        // SAFETY: statically initialised condition variable.
        unsafe { libc::pthread_cond_signal(self.0.get()) };
    }
    #[inline(always)]
    pub fn broadcast(&self) {
        // SAFETY: as signal.
        unsafe { libc::pthread_cond_broadcast(self.0.get()) };
    }
    /// Wait; `m` must be locked by the caller.
    #[inline(always)]
    pub fn wait(&self, m: &Mutex) {
        // SAFETY: the caller holds m (every call site locks it first).
        unsafe { libc::pthread_cond_wait(self.0.get(), m.raw()) };
    }
}

impl Drop for Cond {
    fn drop(&mut self) {
        // SAFETY: no waiter is left (it is being dropped).
        unsafe { libc::pthread_cond_destroy(self.0.get()) };
    }
}

/// pthread_rwlock_t.
pub struct RwLock(Box<UnsafeCell<libc::pthread_rwlock_t>>);
// SAFETY: rwlocks are made to be shared between threads.
unsafe impl Sync for RwLock {}

impl RwLock {
    pub fn new() -> RwLock {
        RwLock(Box::new(UnsafeCell::new(libc::PTHREAD_RWLOCK_INITIALIZER)))
    }
    #[inline(always)]
    pub fn read_unlock(&self) {
        // SAFETY: initialised; read lock then unlock by the same thread.
        unsafe {
            libc::pthread_rwlock_rdlock(self.0.get());
            libc::pthread_rwlock_unlock(self.0.get());
        }
    }
    #[inline(always)]
    pub fn write_unlock(&self) {
        // SAFETY: initialised; write lock then unlock by the same thread.
        unsafe {
            libc::pthread_rwlock_wrlock(self.0.get());
            libc::pthread_rwlock_unlock(self.0.get());
        }
    }
}

impl Drop for RwLock {
    fn drop(&mut self) {
        // SAFETY: unlocked and unused (it is being dropped).
        unsafe { libc::pthread_rwlock_destroy(self.0.get()) };
    }
}

/// pthread_spinlock_t (process-private).
pub struct Spin(Box<UnsafeCell<libc::pthread_spinlock_t>>);
// SAFETY: spinlocks are made to be shared between threads.
unsafe impl Sync for Spin {}

impl Spin {
    pub fn new() -> Result<Spin, String> {
        let s = Spin(Box::new(UnsafeCell::new(0)));
        // SAFETY: boxed storage, initialised once.
        let rc = unsafe { libc::pthread_spin_init(s.0.get(), libc::PTHREAD_PROCESS_PRIVATE) };
        if rc != 0 {
            return Err(err("pthread_spin_init", rc));
        }
        Ok(s)
    }
    #[inline(always)]
    pub fn lock_unlock(&self) {
        // SAFETY: initialised; lock then unlock by the same thread.
        unsafe {
            libc::pthread_spin_lock(self.0.get());
            libc::pthread_spin_unlock(self.0.get());
        }
    }
}

impl Drop for Spin {
    fn drop(&mut self) {
        // SAFETY: unlocked and unused.
        unsafe { libc::pthread_spin_destroy(self.0.get()) };
    }
}

/// pthread_barrier_t for `n` threads.
pub struct Barrier(Box<UnsafeCell<libc::pthread_barrier_t>>);
// SAFETY: barriers are made to be shared between threads.
unsafe impl Sync for Barrier {}

impl Barrier {
    pub fn new(n: u32) -> Result<Barrier, String> {
        // SAFETY: zeroed storage is only a placeholder that pthread_barrier_init overwrites.
        let b = Barrier(Box::new(UnsafeCell::new(unsafe { std::mem::zeroed() })));
        // SAFETY: boxed storage, initialised once with default attributes.
        let rc = unsafe { libc::pthread_barrier_init(b.0.get(), std::ptr::null(), n) };
        if rc != 0 {
            return Err(err("pthread_barrier_init", rc));
        }
        Ok(b)
    }
    #[inline(always)]
    pub fn wait(&self) {
        // SAFETY: initialised for the number of threads that use it.
        unsafe { libc::pthread_barrier_wait(self.0.get()) };
    }
}

impl Drop for Barrier {
    fn drop(&mut self) {
        // SAFETY: no thread waits any more.
        unsafe { libc::pthread_barrier_destroy(self.0.get()) };
    }
}

/// An unnamed POSIX semaphore (process-private).
pub struct Sem(Box<UnsafeCell<libc::sem_t>>);
// SAFETY: semaphores are made to be shared between threads.
unsafe impl Sync for Sem {}

impl Sem {
    pub fn new() -> Result<Sem, String> {
        // SAFETY: zeroed storage is a placeholder that sem_init overwrites.
        let s = Sem(Box::new(UnsafeCell::new(unsafe { std::mem::zeroed() })));
        // SAFETY: boxed storage, initialised once, not shared between processes, value 0.
        if unsafe { libc::sem_init(s.0.get(), 0, 0) } != 0 {
            return Err(format!(
                "sem_init failed: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(s)
    }
    #[inline(always)]
    pub fn post(&self) {
        // SAFETY: initialised.
        unsafe { libc::sem_post(self.0.get()) };
    }
    #[inline(always)]
    pub fn wait(&self) {
        // SAFETY: initialised; EINTR is retried.
        while unsafe { libc::sem_wait(self.0.get()) } != 0 {}
    }
}

impl Drop for Sem {
    fn drop(&mut self) {
        // SAFETY: no thread waits any more.
        unsafe { libc::sem_destroy(self.0.get()) };
    }
}

/// sched_yield.
#[inline(always)]
pub fn yield_now() {
    // SAFETY: no arguments, no memory.
    unsafe { libc::sched_yield() };
}

/// How a created thread ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detach {
    Detached,
    Joinable,
}

/// Whether this system creates threads with process (M:N) contention scope; Linux (NPTL)
/// supports only system scope, and says so with ENOTSUP.
pub fn process_scope_supported() -> bool {
    // SAFETY: attr is initialised before use and destroyed after.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_attr_init(&mut attr) != 0 {
            return false;
        }
        let rc = pthread_attr_setscope(&mut attr, PTHREAD_SCOPE_PROCESS);
        libc::pthread_attr_destroy(&mut attr);
        rc == 0
    }
}

/// The chain of the thread-creation benchmark: each thread counts itself and creates the
/// next until `m` threads exist, then tells the main thread (paper, section 3). Joinable
/// threads are joined by their child (no allocation, no list), and the last by the main thread.
struct Chain {
    count: AtomicU64,
    m: u64,
    detach: Detach,
    /// The most recent joinable thread (0 before the first).
    prev: AtomicU64,
    failed: AtomicBool,
    done_m: Mutex,
    done_c: Cond,
    done: AtomicBool,
}

extern "C" fn link(arg: *mut c_void) -> *mut c_void {
    // SAFETY: arg is the &Chain that `create_chain` keeps alive until `done` is set; a thread
    // uses it only before it creates its successor or, for the last one, signals `done`.
    let chain = unsafe { &*(arg as *const Chain) };
    if chain.detach == Detach::Joinable {
        // SAFETY: pthread_self has no preconditions; the parent is joinable, has created us
        // and is exiting, and is joined exactly once (here).
        unsafe {
            let parent = chain
                .prev
                .swap(libc::pthread_self() as u64, Ordering::AcqRel);
            if parent != 0 {
                libc::pthread_join(parent as libc::pthread_t, std::ptr::null_mut());
            }
        }
    }
    let n = chain.count.fetch_add(1, Ordering::AcqRel) + 1;
    let last = n >= chain.m;
    if last || spawn(arg, chain.detach).is_err() {
        chain.done_m.lock();
        if !last {
            chain.failed.store(true, Ordering::Release);
        }
        chain.done.store(true, Ordering::Release);
        chain.done_c.signal();
        chain.done_m.unlock();
    }
    std::ptr::null_mut()
}

fn spawn(arg: *mut c_void, detach: Detach) -> Result<(), i32> {
    // SAFETY: attr is initialised before use and destroyed after; `link` matches the
    // start-routine signature; arg outlives the thread's use of it (see `link`).
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        libc::pthread_attr_init(&mut attr);
        let state = match detach {
            Detach::Detached => libc::PTHREAD_CREATE_DETACHED,
            Detach::Joinable => libc::PTHREAD_CREATE_JOINABLE,
        };
        libc::pthread_attr_setdetachstate(&mut attr, state);
        let mut t: libc::pthread_t = 0;
        let rc = libc::pthread_create(&mut t, &attr, link, arg);
        libc::pthread_attr_destroy(&mut attr);
        if rc != 0 {
            return Err(rc);
        }
        Ok(())
    }
}

/// Recursively create `m` threads (detached or joinable) and wait until the last one has
/// counted itself. Returns the elapsed seconds, or an error if a thread could not be created.
pub fn create_chain(m: u64, detach: Detach) -> Result<f64, String> {
    let chain = Chain {
        count: AtomicU64::new(0),
        m: m.max(1),
        detach,
        prev: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        done_m: Mutex::new(),
        done_c: Cond::new(),
        done: AtomicBool::new(false),
    };
    let arg = &chain as *const Chain as *mut c_void;
    let t0 = std::time::Instant::now();
    if let Err(rc) = spawn(arg, detach) {
        return Err(err("pthread_create", rc));
    }
    chain.done_m.lock();
    while !chain.done.load(Ordering::Acquire) {
        chain.done_c.wait(&chain.done_m);
    }
    chain.done_m.unlock();
    let t = t0.elapsed().as_secs_f64();
    if detach == Detach::Joinable {
        // Untimed: the last thread (every earlier one was joined by its successor).
        let last = chain.prev.load(Ordering::Acquire);
        // SAFETY: the last joinable thread of the chain, joined once.
        unsafe { libc::pthread_join(last as libc::pthread_t, std::ptr::null_mut()) };
    }
    if chain.failed.load(Ordering::Acquire) {
        return Err("pthread_create failed inside the chain (too many threads?)".into());
    }
    Ok(t)
}
