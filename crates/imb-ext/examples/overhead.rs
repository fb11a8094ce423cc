//! Does the harness cost anything on the one-sided path? One launch, two ranks: the real
//! Unidir_Put kernel of imb-ext, built and timed exactly as imb-core's driver does it (receive
//! buffer zeroed, `Benchmark::kernel` → `Timed::run`, a new kernel and so a new window per
//! measurement), alternates with a raw-FFI loop of the same pattern on the same buffers, which
//! also creates and frees its window (untimed) per measurement. Alternating pairs in one process
//! cancel the launch-to-launch and load drift that dominate on a small shared machine; the
//! paired ratios are printed. Used by `scripts/bench-ext-io`.
//!
//! Usage: `mpirun -np 2 overhead [PAIRS]` (default 200 pairs per size and mode).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Comm, Ctx};
use imb_core::lengths::n_sample;
use imb_core::settings::{standard, Kind, Params};
use mpi::collective::SystemOperation;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};

/// Message sizes: latency (4 B, the smallest EXT size) and bandwidth (4 MiB).
const SIZES: [usize; 2] = [4, 4 << 20];
/// IMB's N_BARR: barriers before the timer.
const N_BARR: usize = 2;

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// IMB's Unidir_Put with nothing around it, on a window over all of `r` (displacement unit 1,
/// MPI_INFO_NULL) created and fenced untimed, as the kernel does. AGGREGATE: untimed fence,
/// N_BARR barriers, MPI_Wtime, rank 0 puts n blocks s[i·X..] → disp i·X, one fence, MPI_Wtime.
/// NON-AGGREGATE: N_BARR barriers, MPI_Wtime, n × (rank 0 puts s[0..X] → disp i·X; fence on
/// both), MPI_Wtime. The window is freed untimed. Returns seconds per repetition.
fn raw_unidir_put(comm: &Comm, s: &[u8], r: &mut [u8], x: usize, agg: bool, n: usize) -> f64 {
    let c = comm.as_raw();
    let origin = comm.rank() == 0;
    let len = c_int::try_from(x).expect("size fits an MPI count");
    let win_len = ffi::MPI_Aint::try_from(r.len()).expect("window fits MPI_Aint");
    assert!(
        n * x <= s.len() && n * x <= r.len(),
        "n blocks fit the buffers"
    );
    let disp = |i: usize| ffi::MPI_Aint::try_from(i * x).expect("displacement fits MPI_Aint");
    // SAFETY: reading rsmpi's extern statics (MPI constants). The window exposes r, which is
    // exclusively borrowed for this whole call and freed (MPI_Win_free) before the call returns,
    // after a fence has completed every put into it. s is only read, and every put reads
    // s[i·X..i·X+X] or s[0..X], inside s (asserted above); each put is completed by a fence
    // before the window is freed, while s is still borrowed.
    unsafe {
        let (byte, info_null) = (ffi::RSMPI_UINT8_T, ffi::RSMPI_INFO_NULL);
        let sp = s.as_ptr();
        let mut win = ffi::RSMPI_WIN_NULL;
        check(ffi::MPI_Win_create(
            r.as_mut_ptr() as *mut c_void,
            win_len,
            1,
            info_null,
            c,
            &mut win,
        ));
        check(ffi::MPI_Win_fence(0, win));
        if agg {
            check(ffi::MPI_Win_fence(0, win));
        }
        for _ in 0..N_BARR {
            check(ffi::MPI_Barrier(c));
        }
        let t0 = ffi::MPI_Wtime();
        if agg {
            if origin {
                for i in 0..n {
                    let from = sp.add(i * x) as *const c_void;
                    check(ffi::MPI_Put(from, len, byte, 1, disp(i), len, byte, win));
                }
            }
            check(ffi::MPI_Win_fence(0, win));
        } else {
            for i in 0..n {
                if origin {
                    let from = sp as *const c_void;
                    check(ffi::MPI_Put(from, len, byte, 1, disp(i), len, byte, win));
                }
                check(ffi::MPI_Win_fence(0, win));
            }
        }
        let t = (ffi::MPI_Wtime() - t0) / n as f64;
        check(ffi::MPI_Win_free(&mut win));
        t
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn quartiles(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 4], v[3 * v.len() / 4])
}

/// Our side: what the driver's `Active::time` does for one size (zero the receive buffer, build
/// the kernel, which creates and fences the window untimed, then `Timed::run`).
fn ours_once(
    world: &Comm,
    params: &Params,
    me: usize,
    (x, mode, n): (usize, Mode, usize),
    send: &Buffer,
    recv: &mut Buffer,
) -> f64 {
    let put = imb_ext::BENCHMARKS
        .iter()
        .find(|b| b.info().name == "Unidir_Put")
        .expect("Unidir_Put is registered");
    let len = recv.len();
    recv.zero(len);
    let mut k = put.kernel(Ctx {
        comm: world,
        rank: me,
        size: 2,
        x,
        mode,
        send: send.bytes(),
        recv: recv.bytes_mut(),
        params,
        info: &[],
        prep: None,
        run: None,
    });
    k.run(world, params.n_barr, n, false).secs
}

/// The raw side, with the same untimed zeroing of the receive buffer.
fn raw_once((x, mode, n): (usize, Mode, usize), send: &Buffer, recv: &mut Buffer, c: &Comm) -> f64 {
    let len = recv.len();
    recv.zero(len);
    raw_unidir_put(
        c,
        send.bytes(),
        recv.bytes_mut(),
        x,
        mode == Mode::Aggregate,
        n,
    )
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
    let params = standard(Kind::Mpi1);
    assert_eq!(params.n_barr, N_BARR, "standard N_BARR");
    // BufShape::Window: max(X, OVERALL_VOL) for both buffers, as the engine allocates them.
    let max = SIZES.iter().fold(params.overall_vol, |m, &x| m.max(x));
    let mut send = Buffer::new(max).expect("send buffer");
    let mut recv = Buffer::new(max).expect("receive buffer");
    send.fill(me);
    let slowest = |t: f64| {
        let mut m = 0.0;
        world.all_reduce_into(&t, &mut m, SystemOperation::max());
        m * 1e6 // Unidir_Put's t[usec]: t_max per repetition
    };
    if me == 0 {
        println!("# imb-rs harness overhead: our Unidir_Put (imb-core Timed::run over the imb-ext kernel)");
        println!("# beside a raw-FFI loop of the same pattern, {pairs} alternating pairs per case, one launch");
        println!("#     bytes  mode           reps   ours[usec]    raw[usec]   ratio(median)   ratio IQR        target");
    }
    for (mode, cap) in [
        (Mode::Aggregate, params.msgspersample),
        (Mode::NonAggregate, params.msgs_nonaggr),
    ] {
        for x in SIZES {
            let case = (x, mode, n_sample(x, cap, params.overall_vol));
            let n = case.2;
            // warm-up both paths, as the driver warms up before the first size
            ours_once(&world, &params, me, case, &send, &mut recv);
            raw_once(case, &send, &mut recv, &world);
            let (mut ours, mut raw, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
            for p in 0..pairs {
                // alternate which goes first, so drift within a pair favours neither
                let (o, r) = if p % 2 == 0 {
                    let o = slowest(ours_once(&world, &params, me, case, &send, &mut recv));
                    (o, slowest(raw_once(case, &send, &mut recv, &world)))
                } else {
                    let r = slowest(raw_once(case, &send, &mut recv, &world));
                    (
                        slowest(ours_once(&world, &params, me, case, &send, &mut recv)),
                        r,
                    )
                };
                ours.push(o);
                raw.push(r);
                // latency: time ratio; bandwidth: throughput ratio (raw time / our time)
                ratio.push(if x < 1 << 20 { o / r } else { r / o });
            }
            if me == 0 {
                let (q1, q3) = quartiles(&mut ratio.clone());
                let m = median(&mut ratio);
                let (target, pass) = if x < 1 << 20 {
                    ("t ours/raw <= 1.02", m <= 1.02)
                } else {
                    ("MB/s ours/raw >= 0.98", m >= 0.98)
                };
                let mode = if mode == Mode::Aggregate {
                    "AGGREGATE"
                } else {
                    "NON-AGGREGATE"
                };
                println!(
                    "{x:>11}  {mode:<13} {n:>5} {:>12.4} {:>12.4} {m:>15.4}   {q1:.3}..{q3:.3}   {target} {}",
                    median(&mut ours),
                    median(&mut raw),
                    if pass { "PASS" } else { "FAIL" }
                );
            }
        }
    }
}
