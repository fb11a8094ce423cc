//! Does the harness cost anything on a windowed benchmark? One launch, two ranks: the real
//! Uniband kernel of imb-mpi1 (IMB 2021's message rate), built and timed exactly as imb-core's
//! driver does it (`Benchmark::kernel` → `Timed::run`), alternates with a raw-FFI loop of the
//! same pattern on the same buffers: rank 0 posts W = 256 MPI_Isend, MPI_Waitall, receives a
//! 1-byte acknowledgement; rank 1 posts W MPI_Irecv into one buffer, MPI_Waitall, sends the
//! acknowledgement. Paired ratios cancel launch and load drift. Used by `scripts/bench-2021`.
//!
//! Usage: `mpirun -np 2 uniband_overhead [PAIRS]` (default 100 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Comm, Ctx};
use mpi::collective::SystemOperation;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};

/// (size in bytes, repetitions per timing): message rate and bandwidth.
const SIZES: [(usize, usize); 2] = [(8, 400), (65536, 10)];

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// IMB 2021's Uniband with nothing around it: N_BARR barriers, MPI_Wtime, n windows, MPI_Wtime.
/// Returns seconds per repetition.
fn raw_uniband(comm: &Comm, s: &[u8], r: &mut [u8], w: usize, n: usize) -> f64 {
    let c = comm.as_raw();
    let me = comm.rank();
    let len = c_int::try_from(s.len()).expect("size fits an MPI count");
    // SAFETY: reading rsmpi's extern statics (MPI constants); s, r, ack and reqs outlive every
    // request, which completes (MPI_Waitall) within its window; s is only read.
    unsafe {
        let (byte, ignore, ignores) = (
            ffi::RSMPI_UINT8_T,
            ffi::RSMPI_STATUS_IGNORE,
            ffi::RSMPI_STATUSES_IGNORE,
        );
        let mut reqs = vec![ffi::RSMPI_REQUEST_NULL; w];
        let mut ack = [0u8; 1];
        let ap = ack.as_mut_ptr() as *mut c_void;
        let sp = s.as_ptr() as *mut c_void;
        let rp = r.as_mut_ptr() as *mut c_void;
        let wc = w as c_int;
        check(ffi::MPI_Barrier(c));
        check(ffi::MPI_Barrier(c));
        let t0 = ffi::MPI_Wtime();
        for _ in 0..n {
            if me == 0 {
                for q in reqs.iter_mut() {
                    check(ffi::MPI_Isend(sp, len, byte, 1, 1, c, q));
                }
                check(ffi::MPI_Waitall(wc, reqs.as_mut_ptr(), ignores));
                check(ffi::MPI_Recv(ap, 1, byte, 1, 1, c, ignore));
            } else {
                for q in reqs.iter_mut() {
                    check(ffi::MPI_Irecv(rp, len, byte, 0, 1, c, q));
                }
                check(ffi::MPI_Waitall(wc, reqs.as_mut_ptr(), ignores));
                check(ffi::MPI_Send(ap, 1, byte, 0, 1, c));
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
        .unwrap_or(100);
    let universe = mpi::initialize().expect("MPI starts");
    let world = universe.world();
    assert_eq!(world.size(), 2, "run with mpirun -np 2");
    let me = world.rank() as usize;
    let uniband = imb_mpi1::BENCHMARKS
        .iter()
        .find(|b| b.info().name == "Uniband")
        .expect("Uniband is registered");
    let params = imb_core::settings::standard(imb_core::settings::Kind::Mpi1);
    let w = params.window_size;
    let max = SIZES.iter().map(|s| s.0).max().unwrap_or(0);
    let mut send = Buffer::new(max).expect("send buffer");
    let mut recv = Buffer::new(max).expect("receive buffer");
    send.fill(me);
    let slowest = |t: f64| {
        let mut m = 0.0;
        world.all_reduce_into(&t, &mut m, SystemOperation::max());
        m
    };
    if me == 0 {
        println!(
            "# imb-rs harness overhead: our Uniband (imb-core Timed::run over the imb-mpi1 kernel)"
        );
        println!("# beside a raw-FFI loop of the same pattern, window {w}, {pairs} alternating pairs per size, one launch");
        println!("#       bytes  reps  ours[Msg/s]   raw[Msg/s]  t ours/raw(median)  ratio IQR      target");
    }
    for (x, n) in SIZES {
        let ours_once = |send: &Buffer, recv: &mut Buffer| {
            let mut k = uniband.kernel(Ctx {
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
        let raw_once = |send: &Buffer, recv: &mut Buffer| {
            raw_uniband(&world, &send.bytes()[..x], &mut recv.bytes_mut()[..x], w, n)
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
            let m = median(&mut ratio);
            let rate = |t: f64| w as f64 / t;
            println!(
                "{x:>13} {n:>5} {:>12.0} {:>12.0} {m:>19.4}   {q1:.3}..{q3:.3}   t ours/raw <= 1.02 {}",
                rate(median(&mut ours)),
                rate(median(&mut raw)),
                if m <= 1.02 { "PASS" } else { "FAIL" }
            );
        }
    }
}
