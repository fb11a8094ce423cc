//! Core-to-core latency probe: two threads bound to two CPUs hand a cache line back and forth,
//! and the median one-way time is printed in nanoseconds. No MPI, no benchmark harness.
//!
//! scripts/bench-vs-imb runs it before and after each launch. On a virtual machine the
//! hypervisor may place two vCPUs on hyperthreads of one physical core or on different cores,
//! and move them while a job runs; small-message MPI times follow that placement (on the
//! 2-vCPU machine of doc/METHODOLOGY.md, "Launch noise": 31 ns here against 0.12 usec
//! PingPong, 170 ns against 0.35 usec). The probe makes the placement of each launch visible.
//!
//!   cargo run --release -p imb-threads --example core_to_core [CPU_A CPU_B [MILLISECONDS]]
//!
//! Defaults: the first two CPUs this process may run on, 100 ms.

use imb_harness::binding::{allowed_cpus, bind_current, Placement};
use std::hint::spin_loop;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Round trips per timing: long enough that the clock reads are noise, short enough for many
/// timings in 100 ms.
const ROUND_TRIPS: u64 = 1000;

fn arg<T: std::str::FromStr>(args: &[String], k: usize, name: &str) -> Result<Option<T>, String> {
    args.get(k)
        .map(|s| s.parse().map_err(|_| format!("{name} {s:?}: not a number")))
        .transpose()
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(line) => {
            println!("{line}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("core_to_core: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run() -> Result<String, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let allowed = allowed_cpus()?;
    let (a, b) = match (arg(&args, 0, "CPU_A")?, arg(&args, 1, "CPU_B")?) {
        (Some(a), Some(b)) => (a, b),
        _ if allowed.len() >= 2 => (allowed[0], allowed[1]),
        _ => return Err("fewer than two CPUs allowed: nothing to probe".to_string()),
    };
    let ms: u64 = arg(&args, 2, "MILLISECONDS")?.unwrap_or(100);
    if a == b || ms == 0 || ms > 60_000 {
        return Err(format!(
            "CPUs {a} and {b}, {ms} ms: need two different CPUs and 1..=60000 ms"
        ));
    }
    bind_current(Placement::Cpu(a), &allowed)?;
    // The line the two threads share: odd values are the pinger's, even the ponger's.
    let line = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let ponger = {
        let (line, stop, allowed) = (Arc::clone(&line), Arc::clone(&stop), allowed.clone());
        std::thread::spawn(move || -> Result<(), String> {
            bind_current(Placement::Cpu(b), &allowed)?;
            let mut want = 1;
            while !stop.load(Ordering::Relaxed) {
                if line.load(Ordering::Acquire) == want {
                    line.store(want + 1, Ordering::Release);
                    want += 2;
                } else {
                    spin_loop();
                }
            }
            Ok(())
        })
    };
    let mut one_way = Vec::new();
    let end = Instant::now() + Duration::from_millis(ms);
    let mut next = 1;
    // The ponger may fail to bind; give up on a line that never comes back.
    let patience = Duration::from_secs(5);
    'timings: while Instant::now() < end {
        let t0 = Instant::now();
        for _ in 0..ROUND_TRIPS {
            line.store(next, Ordering::Release);
            while line.load(Ordering::Acquire) != next + 1 {
                if t0.elapsed() > patience {
                    break 'timings;
                }
                spin_loop();
            }
            next += 2;
        }
        one_way.push(t0.elapsed().as_secs_f64() / (2 * ROUND_TRIPS) as f64);
    }
    stop.store(true, Ordering::Relaxed);
    match ponger.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(e),
        Err(_) => return Err("the ponger thread panicked".to_string()),
    }
    if one_way.is_empty() {
        return Err(format!("no round trip between CPUs {a} and {b} completed"));
    }
    one_way.sort_by(f64::total_cmp);
    let median = one_way[one_way.len() / 2];
    Ok(format!(
        "core-to-core latency cpu{a}-cpu{b}: {:.0} ns (median one-way over {} timings of {ROUND_TRIPS} round trips)",
        median * 1e9,
        one_way.len()
    ))
}
