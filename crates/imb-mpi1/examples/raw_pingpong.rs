//! The yardstick for the harness: PingPong written directly against `mpi::ffi`, with nothing
//! between the timer reads but the MPI calls.
//!
//! `scripts/bench-overhead` runs this beside `imb-mpi1 PingPong` with the same sizes and
//! repetition counts and prints ours/raw as a ratio, so any cost that the engine's timed loop
//! (kernel boxing, wrappers, return-code checks) adds shows up as a number (ARCHITECTURE.md,
//! "Rules that keep the numbers honest").
//!
//! Usage: `mpirun -np 2 raw_pingpong <bytes> <n> [<reps>]`. Each of the `reps` measurements
//! (default 1) is: 2 × MPI_Barrier, t0 = MPI_Wtime, `n` × (rank 0: MPI_Send tag 1 to rank 1,
//! MPI_Recv from any source with any tag; rank 1: the reverse), t1; then the maximum over both
//! ranks of (t1 − t0)/n · 0.5, in µs, which rank 0 prints as `raw <bytes> <n> <t_usec>`.
//! Buffers are page aligned (like imb-core's) and written before the first measurement, and two
//! untimed repetitions of the pattern precede it (imb-core's N_WARMUP).

use mpi::ffi;
use std::os::raw::{c_int, c_void};
use std::process::ExitCode;

/// Barriers before the timer (IMB's N_BARR).
const N_BARR: usize = 2;
/// Untimed repetitions before the first measurement (IMB's N_WARMUP).
const N_WARMUP: usize = 2;
const PAGE: usize = 4096;

#[cold]
#[inline(never)]
fn failed(call: &str, rc: c_int) -> ! {
    eprintln!("raw_pingpong: error: {call} returned MPI error code {rc}");
    // SAFETY: MPI is initialised (main holds the universe); MPI_Abort does not return.
    unsafe {
        ffi::MPI_Abort(ffi::RSMPI_COMM_WORLD, rc);
    }
    std::process::abort()
}

#[inline(always)]
fn check(call: &str, rc: c_int) {
    if rc != ffi::MPI_SUCCESS as c_int {
        failed(call, rc)
    }
}

/// `len` bytes at a page boundary inside `v` (which is over-allocated by a page).
fn page_aligned(v: &mut Vec<u8>, len: usize, fill: u8) -> &mut [u8] {
    *v = vec![fill; len + PAGE];
    let off = v.as_ptr().align_offset(PAGE);
    let s = &mut v[off..off + len];
    // Write every byte so that no page is first touched inside the timed loop.
    s.fill(fill);
    std::hint::black_box(&mut *s)
}

fn parse(args: &[String], i: usize, name: &str, default: Option<usize>) -> Result<usize, String> {
    match (args.get(i), default) {
        (Some(a), _) => a
            .parse()
            .map_err(|_| format!("{name}: \"{a}\" is not a non-negative integer")),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(format!("missing <{name}>")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(universe) = mpi::initialize() else {
        eprintln!("raw_pingpong: error: MPI was already initialised");
        return ExitCode::FAILURE;
    };
    // SAFETY: reading rsmpi's extern statics, constants of the initialised MPI library.
    let (comm, byte, double, max, any_source, any_tag, status_ignore) = unsafe {
        (
            ffi::RSMPI_COMM_WORLD,
            ffi::RSMPI_UINT8_T,
            ffi::RSMPI_DOUBLE,
            ffi::RSMPI_MAX,
            ffi::RSMPI_ANY_SOURCE,
            ffi::RSMPI_ANY_TAG,
            ffi::RSMPI_STATUS_IGNORE,
        )
    };
    let (mut rank, mut size): (c_int, c_int) = (0, 0);
    // SAFETY: comm is MPI_COMM_WORLD; both out-pointers are live locals.
    unsafe {
        check("MPI_Comm_rank", ffi::MPI_Comm_rank(comm, &mut rank));
        check("MPI_Comm_size", ffi::MPI_Comm_size(comm, &mut size));
    }
    let parsed = (|| {
        let bytes = parse(&args, 0, "bytes", None)?;
        let n = parse(&args, 1, "n", None)?.max(1);
        let reps = parse(&args, 2, "reps", Some(1))?.max(1);
        if bytes > c_int::MAX as usize {
            return Err(format!("bytes: {bytes} exceeds an MPI count"));
        }
        Ok((bytes, n, reps))
    })();
    let (bytes, n, reps) = match parsed {
        Ok(p) => p,
        Err(e) => {
            if rank == 0 {
                eprintln!("raw_pingpong: error: {e}\nusage: raw_pingpong <bytes> <n> [<reps>]");
            }
            return ExitCode::from(2);
        }
    };

    if size != 2 {
        if rank == 0 {
            eprintln!("raw_pingpong: error: needs exactly 2 processes, got {size}");
        }
        return ExitCode::from(2);
    }

    let (mut sv, mut rv) = (Vec::new(), Vec::new());
    let s = page_aligned(&mut sv, bytes, rank as u8 + 1);
    let r = page_aligned(&mut rv, bytes, 0xff);
    let (sp, rp, count) = (
        s.as_ptr() as *mut c_void,
        r.as_mut_ptr() as *mut c_void,
        bytes as c_int,
    );
    let peer = 1 - rank;

    // One repetition of PingPong (a closure: inlined, so the timed loop holds only the MPI calls).
    let step = || {
        // SAFETY: sp/rp point to live buffers of `count` bytes (s, r outlive every call and are
        // not otherwise accessed meanwhile); MPI_Send only reads sp, MPI_Recv writes rp.
        unsafe {
            if rank == 0 {
                check("MPI_Send", ffi::MPI_Send(sp, count, byte, peer, 1, comm));
                check(
                    "MPI_Recv",
                    ffi::MPI_Recv(rp, count, byte, any_source, any_tag, comm, status_ignore),
                );
            } else {
                check(
                    "MPI_Recv",
                    ffi::MPI_Recv(rp, count, byte, any_source, any_tag, comm, status_ignore),
                );
                check("MPI_Send", ffi::MPI_Send(sp, count, byte, peer, 1, comm));
            }
        }
    };

    for _ in 0..N_WARMUP {
        step();
    }
    for _ in 0..reps {
        // SAFETY: comm is MPI_COMM_WORLD; MPI_Wtime has no preconditions once MPI is up.
        let (t0, t1) = unsafe {
            for _ in 0..N_BARR {
                check("MPI_Barrier", ffi::MPI_Barrier(comm));
            }
            let t0 = ffi::MPI_Wtime();
            for _ in 0..n {
                step();
            }
            (t0, ffi::MPI_Wtime())
        };
        let mine = (t1 - t0) / n as f64 * 0.5 * 1e6;
        let mut worst = 0.0f64;
        // SAFETY: one double in, one double out (significant at the root only), both live.
        unsafe {
            check(
                "MPI_Reduce",
                ffi::MPI_Reduce(
                    &mine as *const f64 as *mut c_void,
                    &mut worst as *mut f64 as *mut c_void,
                    1,
                    double,
                    max,
                    0,
                    comm,
                ),
            );
        }
        if rank == 0 {
            println!("raw {bytes} {n} {worst:.6}");
        }
    }
    drop(universe);
    ExitCode::SUCCESS
}
