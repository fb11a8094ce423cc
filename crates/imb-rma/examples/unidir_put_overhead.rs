//! Does the harness cost anything on the passive-target path? One launch, two ranks: imb-rma's
//! Unidir_put, built and timed as imb-core's driver does it (receive buffer zeroed,
//! `Benchmark::kernel` → `Timed::run`: a new window per measurement, lock, N_BARR barriers,
//! timed puts and flushes, unlock and barrier untimed), alternates with a raw-FFI loop of the
//! same pattern on the same buffers. The median of the paired ratios (origin's time) is
//! printed; the target is ours/raw <= 1.02. Used by `scripts/bench-rma`.
//!
//! Usage: `mpirun -np 2 unidir_put_overhead [PAIRS]` (default 200 pairs per case).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Comm, Ctx};
use imb_core::lengths::n_sample;
use imb_core::settings::{standard, Kind, Params};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};

/// Latency (1 B, 4 B) and bandwidth (4 MiB).
const SIZES: [usize; 3] = [1, 4, 4 << 20];

fn ok(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// IMB-RMA's Unidir_put with nothing around it: window over `r` (unit 1, MPI_INFO_NULL),
/// N_BARR barriers; rank 0 locks rank 1 (shared), times n × put of s[0..X] to displacement 0
/// (NON-AGGREGATE: each flushed; AGGREGATE: one flush after all), unlocks; a barrier; the
/// window is freed. Returns the origin's seconds per repetition (0 on the target).
fn raw(comm: &Comm, s: &[u8], r: &mut [u8], x: usize, agg: bool, n: usize, n_barr: usize) -> f64 {
    let c = comm.as_raw();
    let origin = comm.rank() == 0;
    assert!(x <= s.len() && x <= r.len());
    let len = c_int::try_from(x).expect("count fits");
    let mut t = 0.0;
    // SAFETY: rsmpi's extern statics are MPI constants. The window exposes r, exclusively
    // borrowed for this call and freed before it returns, after the unlock and barrier have
    // completed every put; s is only read, s[0..X] lies within it (asserted).
    unsafe {
        let (byte, info) = (ffi::RSMPI_UINT8_T, ffi::RSMPI_INFO_NULL);
        let mut win = ffi::RSMPI_WIN_NULL;
        let wlen = ffi::MPI_Aint::try_from(r.len()).expect("fits");
        ok(ffi::MPI_Win_create(
            r.as_mut_ptr() as *mut c_void,
            wlen,
            1,
            info,
            c,
            &mut win,
        ));
        if origin {
            ok(ffi::MPI_Win_lock(ffi::MPI_LOCK_SHARED as c_int, 1, 0, win));
        }
        for _ in 0..n_barr {
            ok(ffi::MPI_Barrier(c));
        }
        let src = s.as_ptr() as *const c_void;
        let t0 = ffi::MPI_Wtime();
        if origin {
            for _ in 0..n {
                ok(ffi::MPI_Put(src, len, byte, 1, 0, len, byte, win));
                if !agg {
                    ok(ffi::MPI_Win_flush(1, win));
                }
            }
            if agg {
                ok(ffi::MPI_Win_flush(1, win));
            }
            t = (ffi::MPI_Wtime() - t0) / n as f64;
            ok(ffi::MPI_Win_unlock(1, win));
        }
        ok(ffi::MPI_Barrier(c));
        ok(ffi::MPI_Win_free(&mut win));
    }
    t
}

/// What the driver's `Active::time` does for one size on this rank.
fn ours(
    w: &Comm,
    p: &Params,
    me: usize,
    case: (usize, Mode, usize),
    b: &mut (Buffer, Buffer),
) -> f64 {
    let (x, mode, n) = case;
    let len = b.1.len();
    b.1.zero(len);
    let mut k = imb_rma::unidir_put().kernel(Ctx {
        comm: w,
        rank: me,
        size: 2,
        x,
        mode,
        send: b.0.bytes(),
        recv: b.1.bytes_mut(),
        params: p,
        info: &[],
        prep: None,
        run: None,
    });
    k.run(w, p.n_barr, n, false).secs
}

fn main() {
    let pairs: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("PAIRS is a number"))
        .unwrap_or(200);
    let universe = mpi::initialize().expect("MPI starts");
    let world = universe.world();
    assert_eq!(world.size(), 2, "run with mpirun -np 2");
    let me = world.rank() as usize;
    let p = standard(Kind::Mpi1);
    let top = SIZES[SIZES.len() - 1];
    let mut bufs = (
        Buffer::new(top).expect("send"),
        Buffer::new(top).expect("recv"),
    );
    bufs.0.fill(me);
    if me == 0 {
        println!("# imb-rs harness overhead: our Unidir_put (imb-core Timed::run over the imb-rma kernel)");
        println!("# beside a raw-FFI loop of the same pattern, {pairs} alternating pairs per case (origin's time)");
        println!(
            "#     bytes  mode           reps   ours[usec]    raw[usec]   ratio(median)  target"
        );
    }
    for (mode, cap) in [
        (Mode::NonAggregate, p.msgs_nonaggr),
        (Mode::Aggregate, p.msgspersample),
    ] {
        for x in SIZES {
            let case = (x, mode, n_sample(x, cap, p.overall_vol));
            let agg = mode == Mode::Aggregate;
            let raw_once = |b: &mut (Buffer, Buffer)| {
                let len = b.1.len();
                b.1.zero(len);
                raw(
                    &world,
                    b.0.bytes(),
                    b.1.bytes_mut(),
                    x,
                    agg,
                    case.2,
                    p.n_barr,
                )
            };
            ours(&world, &p, me, case, &mut bufs);
            raw_once(&mut bufs);
            let mut v: Vec<(f64, f64, f64)> = Vec::with_capacity(pairs);
            for i in 0..pairs {
                // Alternate which goes first, so drift within a pair favours neither.
                let (o, r) = if i % 2 == 0 {
                    let o = ours(&world, &p, me, case, &mut bufs);
                    (o, raw_once(&mut bufs))
                } else {
                    let r = raw_once(&mut bufs);
                    (ours(&world, &p, me, case, &mut bufs), r)
                };
                v.push((o / r, o, r));
            }
            if me == 0 {
                let mid = |k: usize, v: &mut Vec<(f64, f64, f64)>| {
                    v.sort_by(|a, b| [a.0, a.1, a.2][k].total_cmp(&[b.0, b.1, b.2][k]));
                    [v[pairs / 2].0, v[pairs / 2].1, v[pairs / 2].2][k]
                };
                let (m, o, r) = (mid(0, &mut v), mid(1, &mut v), mid(2, &mut v));
                let name = if agg { "AGGREGATE" } else { "NON-AGGREGATE" };
                println!(
                    "{x:>11}  {name:<13} {:>5} {:>12.4} {:>12.4} {m:>15.4}  t ours/raw <= 1.02 {}",
                    case.2,
                    o * 1e6,
                    r * 1e6,
                    if m <= 1.02 { "PASS" } else { "FAIL" }
                );
            }
        }
    }
}
