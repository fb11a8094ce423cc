//! Does the harness cost anything? One launch, two ranks: the real PingPong kernel of imb-mpi1,
//! built and timed exactly as imb-core's driver does it (`Benchmark::kernel` → `Timed::run`),
//! alternates with a raw-FFI loop of the same pattern on the same buffers. Alternating pairs in
//! one process cancel the launch-to-launch and load drift that dominate on a small shared
//! machine; the paired ratios are printed. Used by `scripts/bench-overhead`.
//!
//! Usage: `mpirun -np 2 pingpong_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Comm, Ctx};
use mpi::collective::SystemOperation;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};

/// (size in bytes, repetitions per timing): latency and bandwidth.
const SIZES: [(usize, usize); 2] = [(0, 20_000), (4 << 20, 20)];

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// IMB's PingPong with nothing around it: N_BARR = 2 barriers, MPI_Wtime, n × (Send; Recv),
/// MPI_Wtime. Returns seconds per repetition.
fn raw_pingpong(comm: &Comm, s: &[u8], r: &mut [u8], n: usize) -> f64 {
    let c = comm.as_raw();
    let me = comm.rank();
    let len = c_int::try_from(s.len()).expect("size fits an MPI count");
    // SAFETY: reading rsmpi's extern statics (MPI constants); s and r outlive every call below,
    // s is only read and r is exclusively borrowed, each len bytes long.
    unsafe {
        let (byte, any_src, any_tag, ignore) = (
            ffi::RSMPI_UINT8_T,
            ffi::RSMPI_ANY_SOURCE,
            ffi::RSMPI_ANY_TAG,
            ffi::RSMPI_STATUS_IGNORE,
        );
        let sp = s.as_ptr() as *mut c_void;
        let rp = r.as_mut_ptr() as *mut c_void;
        check(ffi::MPI_Barrier(c));
        check(ffi::MPI_Barrier(c));
        let t0 = ffi::MPI_Wtime();
        for _ in 0..n {
            if me == 0 {
                check(ffi::MPI_Send(sp, len, byte, 1, 1, c));
                check(ffi::MPI_Recv(rp, len, byte, any_src, any_tag, c, ignore));
            } else {
                check(ffi::MPI_Recv(rp, len, byte, any_src, any_tag, c, ignore));
                check(ffi::MPI_Send(sp, len, byte, 0, 1, c));
            }
        }
        (ffi::MPI_Wtime() - t0) / n as f64
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

fn main() {
    let pairs: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("PAIRS is a number"))
        .unwrap_or(200);
    let universe = mpi::initialize().expect("MPI starts");
    let world = universe.world();
    assert_eq!(world.size(), 2, "run with mpirun -np 2");
    let me = world.rank() as usize;
    let pingpong = imb_mpi1::BENCHMARKS
        .iter()
        .find(|b| b.info().name == "PingPong")
        .expect("PingPong is registered");
    let params = imb_core::settings::standard(imb_core::settings::Kind::Mpi1);
    let max = SIZES.iter().map(|s| s.0).max().unwrap_or(0);
    let mut send = Buffer::new(max).expect("send buffer");
    let mut recv = Buffer::new(max).expect("receive buffer");
    send.fill(me);
    let slowest = |t: f64| {
        let mut m = 0.0;
        world.all_reduce_into(&t, &mut m, SystemOperation::max());
        m * 0.5 * 1e6 // PingPong reports half a round trip, in µs
    };
    if me == 0 {
        println!("# imb-rs harness overhead: our PingPong (imb-core Timed::run over the imb-mpi1 kernel)");
        println!("# beside a raw-FFI loop of the same pattern, {pairs} alternating pairs per size, one launch");
        println!("#       bytes  reps   ours[usec]    raw[usec]   ratio(median)   ratio IQR        target");
    }
    for (x, n) in SIZES {
        let ours_once = |send: &Buffer, recv: &mut Buffer| {
            let mut k = pingpong.kernel(Ctx {
                comm: &world,
                rank: me,
                size: 2,
                x,
                mode: Mode::Plain,
                send: send.bytes(),
                recv: recv.bytes_mut(),
                params: &params,
                info: &[],
                prep: None,
                run: None,
            });
            k.run(&world, params.n_barr, n, false).secs
        };
        // warm-up both paths, as the driver does before the first size
        ours_once(&send, &mut recv);
        raw_pingpong(&world, &send.bytes()[..x], &mut recv.bytes_mut()[..x], n);
        let (mut ours, mut raw, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for p in 0..pairs {
            // alternate which goes first, so drift within a pair favours neither
            let (o, r) = if p % 2 == 0 {
                let o = slowest(ours_once(&send, &mut recv));
                (
                    o,
                    slowest(raw_pingpong(
                        &world,
                        &send.bytes()[..x],
                        &mut recv.bytes_mut()[..x],
                        n,
                    )),
                )
            } else {
                let r = slowest(raw_pingpong(
                    &world,
                    &send.bytes()[..x],
                    &mut recv.bytes_mut()[..x],
                    n,
                ));
                (slowest(ours_once(&send, &mut recv)), r)
            };
            ours.push(o);
            raw.push(r);
            // latency: time ratio; bandwidth: throughput ratio (raw time / our time)
            ratio.push(if x == 0 { o / r } else { r / o });
        }
        if me == 0 {
            let (q1, q3) = quartiles(&mut ratio.clone());
            let (target, pass) = if x == 0 {
                ("t ours/raw <= 1.02", median(&mut ratio) <= 1.02)
            } else {
                ("MB/s ours/raw >= 0.98", median(&mut ratio) >= 0.98)
            };
            println!(
                "{x:>13} {n:>5} {:>12.4} {:>12.4} {:>15.4}   {q1:.3}..{q3:.3}   {target} {}",
                median(&mut ours),
                median(&mut raw),
                median(&mut ratio),
                if pass { "PASS" } else { "FAIL" }
            );
        }
    }
}
