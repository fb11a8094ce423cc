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

/// The handles and buffers of one PingPong between ranks 0 and 1.
struct PingPong<'a> {
    comm: ffi::MPI_Comm,
    byte: ffi::MPI_Datatype,
    any_source: c_int,
    any_tag: c_int,
    status_ignore: *mut ffi::MPI_Status,
    rank: c_int,
    send: &'a [u8],
    recv: &'a mut [u8],
}

impl PingPong<'_> {
    /// `n` repetitions of the pattern. Always inlined, so the timed loop holds the MPI calls,
    /// their return-code checks and nothing else.
    #[inline(always)]
    fn run(&mut self, n: usize) {
        let (sp, rp) = (
            self.send.as_ptr() as *mut c_void,
            self.recv.as_mut_ptr() as *mut c_void,
        );
        // main checked that the size fits an MPI count.
        let count = self.send.len() as c_int;
        let (comm, byte, src, tag, st) = (
            self.comm,
            self.byte,
            self.any_source,
            self.any_tag,
            self.status_ignore,
        );
        let peer = 1 - self.rank;
        if self.rank == 0 {
            for _ in 0..n {
                // SAFETY: sp and rp point to `count` bytes of the live slices send and recv
                // (recv exclusively borrowed through &mut self); MPI_Send only reads sp,
                // MPI_Recv writes rp; both calls complete before they return.
                unsafe {
                    check("MPI_Send", ffi::MPI_Send(sp, count, byte, peer, 1, comm));
                    check(
                        "MPI_Recv",
                        ffi::MPI_Recv(rp, count, byte, src, tag, comm, st),
                    );
                }
            }
        } else {
            for _ in 0..n {
                // SAFETY: as above.
                unsafe {
                    check(
                        "MPI_Recv",
                        ffi::MPI_Recv(rp, count, byte, src, tag, comm, st),
                    );
                    check("MPI_Send", ffi::MPI_Send(sp, count, byte, peer, 1, comm));
                }
            }
        }
    }
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
    let mut pp = PingPong {
        comm,
        byte,
        any_source,
        any_tag,
        status_ignore,
        rank,
        send: page_aligned(&mut sv, bytes, rank as u8 + 1),
        recv: page_aligned(&mut rv, bytes, 0xff),
    };

    pp.run(N_WARMUP);
    for _ in 0..reps {
        for _ in 0..N_BARR {
            // SAFETY: comm is MPI_COMM_WORLD; no buffers.
            check("MPI_Barrier", unsafe { ffi::MPI_Barrier(comm) });
        }
        // SAFETY: MPI_Wtime has no preconditions once MPI is initialised.
        let t0 = unsafe { ffi::MPI_Wtime() };
        pp.run(n);
        // SAFETY: as for t0.
        let t1 = unsafe { ffi::MPI_Wtime() };
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
