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
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Goal, Table};
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

fn main() {
    let ex = pairs::start(100, Some(2), &imb_mpi1::options::SETTINGS);
    let uniband = pairs::find(imb_mpi1::BENCHMARKS, "Uniband");
    let w = imb_mpi1::options::window_size(&ex.params);
    let table = Table::sizes()
        .sides("Msg/s", 12, 0)
        .ratio("t ours/raw(median)", 19, 4)
        .iqr()
        .target();
    let how = format!(
        "window {w}, {} alternating pairs per size, one launch",
        ex.pairs
    );
    table.print_header(&ex.world, &pairs::intro("Uniband", "imb-mpi1", how));
    let mut bufs = ex.buffers(SIZES.iter().map(|s| s.0).max().unwrap_or(0));
    for (x, n) in SIZES {
        let raw = |s: &Buffer, r: &mut Buffer| {
            raw_uniband(&ex.world, &s.bytes()[..x], &mut r.bytes_mut()[..x], w, n)
        };
        let p = ex
            .pairing()
            .versus(uniband, (x, Mode::Plain, n), &mut bufs, raw);
        let rate = |t: f64| w as f64 / t;
        table.print_row(&ex.world, &[&x, &n], &p.summary(Goal::Latency, rate), &[]);
    }
}
