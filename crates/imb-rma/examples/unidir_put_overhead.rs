//! Does the harness cost anything on the passive-target path? One launch, two ranks: imb-rma's
//! Unidir_put, built and timed as imb-core's driver does it (receive buffer zeroed,
//! `Benchmark::kernel` → `Timed::run`: a new window per measurement, lock, N_BARR barriers,
//! timed puts and flushes, unlock and barrier untimed), alternates with a raw-FFI loop of the
//! same pattern on the same buffers. The median of the paired ratios (origin's time) is
//! printed; the target is ours/raw <= 1.02. Used by `scripts/bench-rma` and
//! `scripts/bench-2021`.
//!
//! Usage: `mpirun -np 2 unidir_put_overhead [PAIRS]` (default 200 pairs per case).

use imb_core::bench::Mode;
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Figure, Goal, Pairing, Table};
use imb_core::vocab::mode_name;
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

fn main() {
    let ex = pairs::start(200, Some(2), &imb_core::settings::STANDARD);
    let mut bufs = ex.buffers(SIZES[SIZES.len() - 1]);
    let table = Table::modes()
        .sides("usec", 12, 4)
        .ratio("ratio(median)", 15, 4)
        .target();
    let how = format!("{} alternating pairs per case (origin's time)", ex.pairs);
    table.print_header(&ex.world, &pairs::intro("Unidir_put", "imb-rma", how));
    // Each side zeroes the receive buffer untimed, as the driver's `Active::time` does; the
    // figure is the origin's own time (the target does not time).
    let run = Pairing {
        figure: Figure::Local,
        zero_recv: true,
        ..ex.pairing()
    };
    let n_barr = ex.params.n_barr;
    let modes = [Mode::NonAggregate, Mode::Aggregate];
    for case in pairs::one_sided_cases(&ex.params, modes, &SIZES) {
        let (x, mode, n) = case;
        let agg = mode == Mode::Aggregate;
        let v = run.versus(imb_rma::unidir_put(), case, &mut bufs, |s, r| {
            raw(&ex.world, s.bytes(), r.bytes_mut(), x, agg, n, n_barr)
        });
        let t = v.summary(Goal::Latency, |t| t * 1e6);
        table.print_row(
            &ex.world,
            &[&x, &mode_name(mode).unwrap_or(""), &n],
            &t,
            &[],
        );
    }
}
