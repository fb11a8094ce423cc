//! Does the harness cost anything for a non-blocking collective? One launch, two or more
//! ranks: imb-nbc's real Iallreduce_pure, built and timed exactly as imb-core's driver does it
//! (`Benchmark::kernel` → `Timed::run`), alternates with a raw-FFI loop of the same pattern on
//! the same buffers: N_BARR barriers, then per call a barrier (outside the clock), MPI_Wtime,
//! MPI_Iallreduce, MPI_Wait, MPI_Wtime. Alternating pairs in one process cancel the
//! launch-to-launch and load drift of a small shared machine; the paired ratios are printed.
//! Used by `scripts/bench-overhead` (`EXAMPLE=iallreduce`) and `scripts/bench-2021`.
//!
//! Usage: `mpirun -np 2 iallreduce_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Goal, Table};
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

fn main() {
    let ex = pairs::start(200, None, &imb_core::settings::STANDARD);
    let bench = pairs::find(imb_nbc::BENCHMARKS, "Iallreduce_pure");
    let n_barr = ex.params.n_barr;
    let table = Table::sizes().in_usec();
    let (np, count) = (ex.world.size(), ex.pairs);
    let how = format!("np {np}, {count} alternating pairs per size, one launch");
    table.print_header(&ex.world, &pairs::intro("Iallreduce_pure", "imb-nbc", how));
    let mut bufs = ex.buffers(SIZES.iter().map(|s| s.0).max().unwrap_or(0));
    for (x, n) in SIZES {
        let raw = |s: &Buffer, r: &mut Buffer| {
            let (s, r) = (&s.bytes()[..x], &mut r.bytes_mut()[..x]);
            raw_iallreduce(&ex.world, s, r, n_barr, n)
        };
        let p = ex
            .pairing()
            .versus(bench, (x, Mode::Plain, n), &mut bufs, raw);
        let in_usec = p.summary(Goal::Latency, |t| t * 1e6);
        table.print_row(&ex.world, &[&x, &n], &in_usec, &[]);
    }
}
