//! A watchdog that tells a hang from a slow machine.
//!
//! A test's time limit exists to end a hang, never to judge speed. A wall-clock limit does
//! both: on a 2-core box at load 15 a launch that takes 20 s idle takes minutes, and a 60 s
//! limit then fails a correct program. So the watchdog counts the time the process under watch
//! could have had: each tick's wall time weighted by this machine's share per runnable task,
//! `cpus / max(cpus, running)` (`procs_running` of /proc/stat, which counts the watched
//! processes too). Idle, it is the wall clock; at load 15 on 2 cores a limit lasts about 7.5
//! times as long. A hang that blocks costs its limit; one that spins (MPI polls) keeps the load
//! up and costs a few times its limit. The share never counts below [`LEAST_SHARE`], so a
//! watched process on a saturated box still ends.

use std::time::{Duration, Instant};

/// The smallest share a tick counts: a limit lasts at most 1 / LEAST_SHARE times its wall time.
pub const LEAST_SHARE: f64 = 1.0 / 32.0;

/// A time limit counted in the machine's available time (module doc).
pub struct Watchdog {
    limit: f64,
    spent: f64,
    last: Instant,
    cpus: f64,
}

impl Watchdog {
    pub fn new(limit: Duration) -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        Watchdog {
            limit: limit.as_secs_f64(),
            spent: 0.0,
            last: Instant::now(),
            cpus,
        }
    }

    /// Whether the limit has passed; call it at each tick of a wait loop.
    pub fn expired(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.spent += dt * share(self.cpus, running());
        self.spent > self.limit
    }

    /// The time counted so far, in seconds (for messages).
    pub fn spent(&self) -> f64 {
        self.spent
    }
}

/// The share of the machine one runnable task gets with `running` of them on `cpus`.
pub fn share(cpus: f64, running: Option<f64>) -> f64 {
    match running {
        Some(r) if r > cpus => (cpus / r).max(LEAST_SHARE),
        _ => 1.0,
    }
}

/// Tasks runnable now (`procs_running` of /proc/stat); None where there is no such file.
fn running() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    stat.lines()
        .find_map(|l| l.strip_prefix("procs_running "))
        .and_then(|n| n.trim().parse().ok())
}

/// Wait for `rx` under a watchdog of `limit`: the value, or None when the limit passed first.
pub fn recv<T>(rx: &std::sync::mpsc::Receiver<T>, limit: Duration) -> Option<T> {
    let mut w = Watchdog::new(limit);
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(v) => return Some(v),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if w.expired() => return None,
            Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_machine_counts_the_wall_clock() {
        assert_eq!(share(2.0, Some(1.0)), 1.0);
        assert_eq!(share(2.0, Some(2.0)), 1.0);
        assert_eq!(share(2.0, None), 1.0);
    }

    #[test]
    fn a_loaded_machine_counts_its_share() {
        assert_eq!(share(2.0, Some(16.0)), 0.125);
        assert_eq!(share(2.0, Some(1e6)), LEAST_SHARE);
    }

    #[test]
    fn procs_running_is_read() {
        // This test itself runs.
        assert!(running().is_some_and(|r| r >= 1.0));
    }

    #[test]
    fn a_limit_passes() {
        let mut w = Watchdog::new(Duration::from_millis(1));
        while !w.expired() {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(w.spent() > 0.001);
    }

    /// What a wall-clock limit got wrong: with eight runnable tasks a CPU (spinning threads of
    /// this test), a wait of 2 s is a fraction of a second of the machine's time, and a 1 s
    /// limit has not passed. (More load elsewhere only lowers the share further.)
    #[test]
    fn a_busy_machine_stretches_the_limit() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let spinners: Vec<_> = (0..(8 * cpus).min(256))
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        let mut w = Watchdog::new(Duration::from_secs(1));
        let t0 = Instant::now();
        let mut expired = false;
        while t0.elapsed() < Duration::from_secs(2) {
            expired |= w.expired();
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for s in spinners {
            s.join().unwrap();
        }
        assert!(!expired, "{} s counted in 2 s of wall clock", w.spent());
    }

    #[test]
    fn recv_gives_the_value_or_none() {
        let (tx, rx) = std::sync::mpsc::channel();
        tx.send(7).unwrap();
        assert_eq!(recv(&rx, Duration::from_secs(1)), Some(7));
        assert_eq!(recv(&rx, Duration::from_millis(1)), None::<i32>);
    }
}
