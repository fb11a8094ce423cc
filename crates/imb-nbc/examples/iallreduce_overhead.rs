//! Does the harness cost anything for a non-blocking collective? One launch, two or more
//! ranks: imb-nbc's real Iallreduce_pure, built and timed exactly as imb-core's driver does it
//! (`Benchmark::kernel` → `Timed::run`), alternates with a raw-FFI loop of the same pattern on
//! the same buffers: N_BARR barriers, then per call a barrier (outside the clock), MPI_Wtime,
//! MPI_Iallreduce, MPI_Wait, MPI_Wtime. Alternating pairs in one process cancel the
//! launch-to-launch and load drift of a small shared machine; the paired ratios are printed.
//! Used by `scripts/bench-overhead` (`EXAMPLE=iallreduce`).
//!
//! Usage: `mpirun -np 2 iallreduce_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Comm, Ctx};
use mpi::collective::SystemOperation;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};

/// (size in bytes, calls per timing): latency-bound and bandwidth-bound.
const SIZES: [(usize, usize); 2] = [(4, 2_000), (1 << 20, 20)];

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// IMB 2021's Iallreduce_pure with nothing around it. Returns seconds per call.
fn raw_iallreduce(comm: &Comm, s: &[u8], r: &mut [u8], n_barr: usize, n: usize) -> f64 {
    let c = comm.as_raw();
    let count = c_int::try_from(s.len() / 4).expect("size fits an MPI count");
    // SAFETY: reading rsmpi's extern statics (MPI constants); s and r outlive every request,
    // each of which completes (MPI_Wait) before the next call; s is only read, r exclusively
    // borrowed, both at least 4·count bytes.
    unsafe {
        let (float, sum, ignore) = (ffi::RSMPI_FLOAT, ffi::RSMPI_SUM, ffi::RSMPI_STATUS_IGNORE);
        let sp = s.as_ptr() as *const c_void;
        let rp = r.as_mut_ptr() as *mut c_void;
        let mut t = 0.0;
        for i in 0..n {
            for _ in 0..if i == 0 { n_barr } else { 1 } {
                check(ffi::MPI_Barrier(c));
            }
            let t0 = ffi::MPI_Wtime();
            let mut req = std::mem::MaybeUninit::<ffi::MPI_Request>::uninit();
            check(ffi::MPI_Iallreduce(
                sp,
                rp,
                count,
                float,
                sum,
                c,
                req.as_mut_ptr(),
            ));
            let mut req = req.assume_init();
            check(ffi::MPI_Wait(&mut req, ignore));
            t += ffi::MPI_Wtime() - t0;
        }
        t / n as f64
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
    let (me, np) = (world.rank() as usize, world.size() as usize);
    let bench = imb_nbc::BENCHMARKS
        .iter()
        .find(|b| b.info().name == "Iallreduce_pure")
        .expect("Iallreduce_pure is registered");
    let params = imb_core::settings::standard(imb_core::settings::Kind::Mpi1);
    let max = SIZES.iter().map(|s| s.0).max().unwrap_or(0);
    let mut send = Buffer::new(max).expect("send buffer");
    let mut recv = Buffer::new(max).expect("receive buffer");
    send.fill(me);
    let slowest = |t: f64| {
        let mut m = 0.0;
        world.all_reduce_into(&t, &mut m, SystemOperation::max());
        m * 1e6
    };
    if me == 0 {
        println!("# imb-rs harness overhead: our Iallreduce_pure (imb-core Timed::run over the imb-nbc kernel)");
        println!("# beside a raw-FFI loop of the same pattern, np {np}, {pairs} alternating pairs per size, one launch");
        println!("#       bytes  reps   ours[usec]    raw[usec]   ratio(median)   ratio IQR        target");
    }
    for (x, n) in SIZES {
        let ours_once = |send: &Buffer, recv: &mut Buffer| {
            let mut k = bench.kernel(Ctx {
                comm: &world,
                rank: me,
                size: np,
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
        let raw_once = |send: &Buffer, recv: &mut Buffer| {
            raw_iallreduce(
                &world,
                &send.bytes()[..x],
                &mut recv.bytes_mut()[..x],
                params.n_barr,
                n,
            )
        };
        // warm-up both paths, as the driver does before the first size
        ours_once(&send, &mut recv);
        raw_once(&send, &mut recv);
        let (mut ours, mut raw, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for p in 0..pairs {
            // alternate which goes first, so drift within a pair favours neither
            let (o, r) = if p % 2 == 0 {
                let o = slowest(ours_once(&send, &mut recv));
                (o, slowest(raw_once(&send, &mut recv)))
            } else {
                let r = slowest(raw_once(&send, &mut recv));
                (slowest(ours_once(&send, &mut recv)), r)
            };
            ours.push(o);
            raw.push(r);
            ratio.push(o / r);
        }
        if me == 0 {
            let (q1, q3) = quartiles(&mut ratio.clone());
            let pass = median(&mut ratio) <= 1.02;
            println!(
                "{x:>13} {n:>5} {:>12.4} {:>12.4} {:>15.4}   {q1:.3}..{q3:.3}   t ours/raw <= 1.02 {}",
                median(&mut ours),
                median(&mut raw),
                median(&mut ratio),
                if pass { "PASS" } else { "FAIL" }
            );
        }
    }
}
