//! Running an action on the main thread with client threads in lockstep, bound as asked:
//! the harness times the main thread; before each timing the main thread tells every client
//! how many rounds to do and waits until they are ready, so the clients never run on their
//! own; a stop command (0 rounds) from the harness side ends them, since Rust threads must not
//! be cancelled (the paper used pthread_cancel).

use imb_harness::adaptive::{self, Measurement, Policy};
use imb_harness::binding::{self, Observed, Placement};
use std::sync::mpsc;

/// What a measurement with threads found besides the times.
pub struct Run {
    pub m: Measurement,
    /// Placement of each thread (main first) and whether the OS honoured all of them.
    pub placements: Vec<Placement>,
    pub honoured: bool,
}

fn bound(p: Placement, allowed: &[usize]) -> Result<Observed, String> {
    binding::bind_current(p, allowed)?;
    Ok(binding::observe(p, allowed))
}

/// Measure `main_rounds(k)` (timed, on this thread) with `clients.len()` client threads that
/// each run `client(i, k)` for the same k per timing. `setup(i)` runs on client i once, bound,
/// before the first timing (e.g. taking its initial locks); `teardown(i)` after the last.
#[allow(clippy::too_many_arguments)]
pub fn lockstep<S, C, T>(
    policy: &Policy,
    allowed: &[usize],
    placements: &[Placement],
    setup: S,
    client: C,
    teardown: T,
    main_rounds: &mut dyn FnMut(u64),
    correct: bool,
) -> Result<Run, String>
where
    S: Fn(usize) + Sync,
    C: Fn(usize, u64) + Sync,
    T: Fn(usize) + Sync,
{
    let nclients = placements.len().saturating_sub(1);
    let main_p = placements.first().copied().unwrap_or(Placement::Unbound);
    std::thread::scope(|s| {
        let mut cmds = Vec::new();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<bool, String>>();
        for i in 0..nclients {
            let (tx, rx) = mpsc::channel::<u64>();
            cmds.push(tx);
            let ready = ready_tx.clone();
            let p = placements[i + 1];
            let (setup, client, teardown) = (&setup, &client, &teardown);
            s.spawn(move || {
                let first = match bound(p, allowed) {
                    Ok(o) => binding::honoured(p, &o),
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                setup(i);
                let _ = ready.send(Ok(first));
                // 0 = stop; otherwise do k rounds after saying so.
                while let Ok(k) = rx.recv() {
                    if k == 0 {
                        break;
                    }
                    let _ = ready.send(Ok(true));
                    client(i, k);
                }
                teardown(i);
                let again = binding::honoured(p, &binding::observe(p, allowed));
                let _ = ready.send(Ok(again));
            });
        }
        drop(ready_tx);
        let mut honoured = true;
        let mut fail = None;
        for _ in 0..nclients {
            match ready_rx.recv() {
                Ok(Ok(h)) => honoured &= h,
                Ok(Err(e)) => fail = Some(e),
                Err(_) => fail = Some("a client thread ended early".into()),
            }
        }
        let main_obs = bound(main_p, allowed);
        let result = match (fail, main_obs) {
            (Some(e), _) | (None, Err(e)) => Err(e),
            (None, Ok(o)) => {
                honoured &= binding::honoured(main_p, &o);
                let mut timing = |k: u64| {
                    for c in &cmds {
                        let _ = c.send(k);
                    }
                    for _ in 0..nclients {
                        let _ = ready_rx.recv();
                    }
                    let t0 = std::time::Instant::now();
                    main_rounds(k);
                    t0.elapsed().as_secs_f64()
                };
                let m = adaptive::measure_corrected(policy, &mut timing, correct);
                honoured &= binding::honoured(main_p, &binding::observe(main_p, allowed));
                Ok(m)
            }
        };
        for c in &cmds {
            let _ = c.send(0);
        }
        for _ in 0..nclients {
            if let Ok(Ok(h)) = ready_rx.recv() {
                honoured &= h;
            }
        }
        // The main thread goes back to the whole inherited mask.
        let _ = binding::bind_current(Placement::Unbound, allowed);
        result.map(|m| Run {
            m,
            placements: placements.to_vec(),
            honoured,
        })
    })
}
