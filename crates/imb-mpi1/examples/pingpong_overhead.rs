//! Does the harness cost anything? One launch, two ranks: the real PingPong kernel of imb-mpi1,
//! built and timed exactly as imb-core's driver does it (`Benchmark::kernel` → `Timed::run`),
//! alternates with a raw-FFI loop of the same pattern on the same buffers. Alternating pairs in
//! one process cancel the launch-to-launch and load drift that dominate on a small shared
//! machine; the paired ratios are printed. Used by `scripts/bench-overhead`.
//!
//! Usage: `mpirun -np 2 pingpong_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Goal, Table};
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

fn main() {
    let ex = pairs::start(200, Some(2), &imb_core::settings::STANDARD);
    let world = &ex.world;
    let pingpong = pairs::find(imb_mpi1::BENCHMARKS, "PingPong");
    let mut bufs = ex.buffers(SIZES.iter().map(|s| s.0).max().unwrap_or(0));
    let table = Table::sizes().in_usec();
    let how = format!("{} alternating pairs per size, one launch", ex.pairs);
    table.print_header(world, &pairs::intro("PingPong", "imb-mpi1", how));
    for (x, n) in SIZES {
        let p = ex
            .pairing()
            .versus(pingpong, (x, Mode::Plain, n), &mut bufs, |s, r| {
                raw_pingpong(world, &s.bytes()[..x], &mut r.bytes_mut()[..x], n)
            });
        // latency: time ratio; bandwidth: throughput ratio (raw time / our time)
        let goal = if x == 0 {
            Goal::Latency
        } else {
            Goal::Bandwidth
        };
        // PingPong reports half a round trip, in µs
        let s = p.summary(goal, |t| t * 0.5 * 1e6);
        table.print_row(world, &[&x, &n], &s, &[]);
    }
}
