//! Does the harness cost anything for a persistent collective? One launch, two or more ranks:
//! imb-mpi4's real Allreduce_persist_pure, built and timed exactly as imb-core's driver does
//! it (`Benchmark::kernel`, which initialises the request, → `Timed::run`; the request is freed
//! when the kernel is dropped), alternates with a raw-FFI loop of the same pattern on the same
//! buffers: MPI_Allreduce_init of X/4 MPI_FLOATs with MPI_SUM (outside the clock), N_BARR
//! barriers, then per call a barrier (outside the clock), MPI_Wtime, MPI_Start, MPI_Wait,
//! MPI_Wtime, and MPI_Request_free after the last call. The function is looked up as imb-mpi4
//! looks it up (`imb_mpi::persistent::loaded`): MPI 4.0's name first, else Open MPI 4.1's
//! `MPIX_Allreduce_init`. Alternating pairs in one process cancel the launch-to-launch and
//! load drift of a small shared machine; the paired ratios are printed (`imb_core::pairs`).
//!
//! Usage: `mpirun -np 2 allreduce_persist_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Goal, Table};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::os::raw::{c_int, c_void};

/// (size in bytes, calls per timing): latency-bound and bandwidth-bound, as the Iallreduce
/// example's, so the two read side by side.
const SIZES: [(usize, usize); 2] = [(4, 2_000), (1 << 20, 20)];

/// MPI 4.0's C signature of MPI_Allreduce_init, which Open MPI's MPIX_ twin shares.
type AllreduceInit = unsafe extern "C" fn(
    *const c_void,
    *mut c_void,
    c_int,
    ffi::MPI_Datatype,
    ffi::MPI_Op,
    ffi::MPI_Comm,
    ffi::MPI_Info,
    *mut ffi::MPI_Request,
) -> c_int;

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// MPI_Allreduce_init under the first of imb-mpi4's two names the process has, and that name.
fn allreduce_init() -> (AllreduceInit, &'static CStr) {
    let (std, ext) = imb_mpi::persistent::SYMBOLS
        .into_iter()
        .find(|(s, _)| *s == c"MPI_Allreduce_init")
        .expect("imb-mpi4 looks MPI_Allreduce_init up");
    for name in [std, ext] {
        let p = imb_mpi::persistent::loaded(name);
        if !p.is_null() {
            // SAFETY: p is the MPI library's function exported under this name, whose C
            // signature (MPI 4.0's, shared by Open MPI's MPIX_ function) is AllreduceInit.
            return (
                unsafe { std::mem::transmute::<*mut c_void, AllreduceInit>(p) },
                name,
            );
        }
    }
    panic!("neither MPI_Allreduce_init nor MPIX_Allreduce_init is in this MPI library");
}

/// IMB-MPI4's Allreduce_persist_pure with nothing around it. Returns seconds per call.
fn raw_allreduce_persist(
    init: AllreduceInit,
    comm: &Comm,
    s: &[u8],
    r: &mut [u8],
    n_barr: usize,
    n: usize,
) -> f64 {
    let c = comm.as_raw();
    let count = c_int::try_from(s.len() / 4).expect("size fits an MPI count");
    let mut req = MaybeUninit::<ffi::MPI_Request>::uninit();
    // SAFETY: reading rsmpi's extern statics (MPI constants); s and r outlive the request,
    // which is freed below, after its last call completed (MPI_Wait); s is only read, r
    // exclusively borrowed, both at least 4·count bytes; MPI writes the request before it is
    // read.
    unsafe {
        let (float, sum) = (ffi::RSMPI_FLOAT, ffi::RSMPI_SUM);
        let (info, ignore) = (ffi::RSMPI_INFO_NULL, ffi::RSMPI_STATUS_IGNORE);
        let sp = s.as_ptr() as *const c_void;
        let rp = r.as_mut_ptr() as *mut c_void;
        check(init(sp, rp, count, float, sum, c, info, req.as_mut_ptr()));
        let mut req = req.assume_init();
        let mut t = 0.0;
        for i in 0..n {
            for _ in 0..if i == 0 { n_barr } else { 1 } {
                check(ffi::MPI_Barrier(c));
            }
            let t0 = ffi::MPI_Wtime();
            check(ffi::MPI_Start(&mut req));
            check(ffi::MPI_Wait(&mut req, ignore));
            t += ffi::MPI_Wtime() - t0;
        }
        check(ffi::MPI_Request_free(&mut req));
        t / n as f64
    }
}

fn main() {
    let ex = pairs::start(200, None, imb_mpi4::SUITE.settings);
    let bench = pairs::find(imb_mpi4::BENCHMARKS, "Allreduce_persist_pure");
    let (init, name) = allreduce_init();
    let n_barr = ex.params.n_barr;
    let table = Table::sizes().in_usec();
    let (np, count) = (ex.world.size(), ex.pairs);
    let name = name.to_str().unwrap_or("?");
    let how = format!("np {np}, {name}, {count} alternating pairs per size, one launch");
    table.print_header(
        &ex.world,
        &pairs::intro("Allreduce_persist_pure", "imb-mpi4", how),
    );
    let mut bufs = ex.buffers(SIZES.iter().map(|s| s.0).max().unwrap_or(0));
    for (x, n) in SIZES {
        let raw = |s: &Buffer, r: &mut Buffer| {
            let (s, r) = (&s.bytes()[..x], &mut r.bytes_mut()[..x]);
            raw_allreduce_persist(init, &ex.world, s, r, n_barr, n)
        };
        let p = ex
            .pairing()
            .versus(bench, (x, Mode::Plain, n), &mut bufs, raw);
        let in_usec = p.summary(Goal::Latency, |t| t * 1e6);
        table.print_row(&ex.world, &[&x, &n], &in_usec, &[]);
    }
}
