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
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Goal, Pairing, Table};
use imb_core::vocab::mode_name;
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

fn main() {
    let ex = pairs::start(200, Some(2), &imb_core::settings::STANDARD);
    let put = pairs::find(imb_ext::BENCHMARKS, "Unidir_Put");
    assert_eq!(ex.params.n_barr, N_BARR, "standard N_BARR");
    // BufShape::Window: max(X, OVERALL_VOL) for both buffers, as the engine allocates them.
    let mut bufs = ex.buffers(SIZES.iter().fold(ex.params.overall_vol, |m, &x| m.max(x)));
    let table = Table::modes().in_usec();
    let how = format!("{} alternating pairs per case, one launch", ex.pairs);
    table.print_header(&ex.world, &pairs::intro("Unidir_Put", "imb-ext", how));
    // Each side zeroes the receive buffer untimed; ours then builds the kernel, which creates
    // and fences the window untimed, as the driver's `Active::time` does.
    let run = Pairing {
        zero_recv: true,
        ..ex.pairing()
    };
    let modes = [Mode::Aggregate, Mode::NonAggregate];
    for (x, mode, n) in pairs::one_sided_cases(&ex.params, modes, &SIZES) {
        let p = run.versus(put, (x, mode, n), &mut bufs, |s, r| {
            let agg = mode == Mode::Aggregate;
            raw_unidir_put(&ex.world, s.bytes(), r.bytes_mut(), x, agg, n)
        });
        // Unidir_Put's t[usec]: t_max per repetition
        let s = p.summary(Goal::by_size(x), |t| t * 1e6);
        table.print_row(
            &ex.world,
            &[&x, &mode_name(mode).unwrap_or(""), &n],
            &s,
            &[],
        );
    }
}
