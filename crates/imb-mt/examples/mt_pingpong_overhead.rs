//! Does the harness cost anything for IMB-MT's method? One launch, an even number of ranks
//! (two in `scripts/bench-overhead`): imb-mt's real PingPongMT, built and timed as imb-core's
//! driver does it (the options resolved by `driver::parse`, the run's state from
//! `Hooks::run_state`, then per measurement `Benchmark::kernel` → `Timed::run`), alternates
//! with a raw-FFI loop of IMB-MT's pattern: on a duplicate of MPI_COMM_WORLD made once (with
//! IMB-MT's `thread_id` hint), `-warmup` untimed repetitions, MPI_Barrier on MPI_COMM_WORLD
//! (`-barrier on`), then MPI_Wtime around n × (MPI_Send, MPI_Recv) of MPI_INT elements, each
//! rank paired with rank + NP/2, the time halved as IMB-MT halves it. Its buffers are made
//! as IMB-MT (and the kernel) makes them: 64-byte aligned and never written by the program.
//! That matters at 4 MiB: a send buffer no one wrote is, page for page, the OS's one shared
//! zero page, which stays in cache, and a raw loop on written (pre-faulted) buffers ran
//! 1.5–1.7 times slower there than the kernel.
//!
//! The simplest case of IMB-MT: one thread per rank, under MPI_THREAD_MULTIPLE so that the
//! thread runs on its own duplicate communicator as each of T threads would (the thread count
//! is set to 1 whatever OMP_NUM_THREADS says). With more threads the kernel's time is the
//! slowest thread's, which a loop of one thread cannot mirror call for call.
//!
//! `imb_core::pairs` drives both sides (`pairs::alternate`, the ratio statistics and the
//! table), but its `Pairing::versus` cannot: it builds the kernel without the run's state,
//! and imb-mt's kernel needs it (its threads' communicators, datatype and CPUs). So the
//! example builds the kernel itself, as the driver does, with that state.
//!
//! Usage: `mpirun -np 2 mt_pingpong_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::cli::{Action, Options, ThreadLevel};
use imb_core::kernel::{Benchmark, Comm};
use imb_core::pairs::{self, Figure, Goal, Handed, Table};
use imb_mt::options::THREADS;
use mpi::ffi;
use mpi::traits::*;
use mpi::Threading;
use std::any::Any;
use std::mem::MaybeUninit;
use std::os::raw::{c_int, c_void};

extern "C" {
    /// MPI_INT, from imb-mpi's C shim (csrc/handles.c, linked with the crate): the Rust
    /// bindings export no MPI_INT.
    fn imb_mpi_int() -> ffi::MPI_Datatype;
}

/// (MPI_INT elements, repetitions per timing): latency (IMB-MT's smallest default count) and
/// bandwidth (4 MiB).
const SIZES: [(usize, usize); 2] = [(1, 20_000), (1 << 20, 20)];

/// `-warmup`: untimed repetitions before each timing (IMB-MT's default, 100, would double
/// every 4 MiB measurement).
const WARMUP: usize = 10;

/// IMB-MT's tag.
const TAG: c_int = 0;

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// imb-mt's kernel at (X, n), built with the run's state and run as the driver does for one
/// size. Seconds per repetition on this rank, already halved by the kernel.
fn ours(
    b: &dyn Benchmark,
    comm: &Comm,
    opts: &Options,
    run: &dyn Any,
    (x, n): (usize, usize),
    (send, recv): &mut (Buffer, Buffer),
) -> f64 {
    let handed = Handed {
        method: &opts.method,
        prep: None,
        run: Some(run),
    };
    pairs::timed_with(
        b,
        comm,
        &opts.params,
        (x, Mode::Plain, n),
        send,
        recv,
        handed,
    )
    .secs
}

/// A duplicate of MPI_COMM_WORLD named to the library as thread 0's, as IMB-MT makes one per
/// thread. Collective.
fn world_dup() -> ffi::MPI_Comm {
    let mut out = MaybeUninit::<ffi::MPI_Comm>::uninit();
    let mut info = MaybeUninit::<ffi::MPI_Info>::uninit();
    // SAFETY: MPI is initialised; out and info are written by MPI before they are read; the
    // key and value are NUL-terminated literals; the info object is freed once the
    // communicator has taken its hints.
    unsafe {
        check(ffi::MPI_Comm_dup(ffi::RSMPI_COMM_WORLD, out.as_mut_ptr()));
        let comm = out.assume_init();
        check(ffi::MPI_Info_create(info.as_mut_ptr()));
        let mut info = info.assume_init();
        check(ffi::MPI_Info_set(
            info,
            c"thread_id".as_ptr(),
            c"0".as_ptr(),
        ));
        check(ffi::MPI_Comm_set_info(comm, info));
        check(ffi::MPI_Info_free(&mut info));
        comm
    }
}

/// A rank's side of IMB-MT's PingPongMT at one size.
struct Raw {
    comm: ffi::MPI_Comm,
    int: ffi::MPI_Datatype,
    peer: c_int,
    first: bool,
    count: c_int,
    s: Aligned,
    r: Aligned,
}

/// A buffer as IMB-MT allocates one: `len` bytes from a 64-byte boundary of a larger
/// allocation, never written by the program. A large one is fresh zero-filled memory from the
/// OS whose pages MPI only reads until they are received into, as the kernel's own are.
struct Aligned {
    mem: Vec<u8>,
    at: usize,
}

impl Aligned {
    const ALIGN: usize = 64;

    fn new(len: usize) -> Aligned {
        let mem = vec![0u8; len + Self::ALIGN];
        let at = (Self::ALIGN - mem.as_ptr() as usize % Self::ALIGN) % Self::ALIGN;
        Aligned { mem, at }
    }

    fn ptr(&mut self) -> *mut c_void {
        self.mem[self.at..].as_mut_ptr() as *mut c_void
    }
}

impl Raw {
    fn new(comm: ffi::MPI_Comm, world: &Comm, count: usize) -> Raw {
        let (rank, np) = (world.rank(), world.size());
        let bytes = count * std::mem::size_of::<c_int>();
        Raw {
            comm,
            // SAFETY: the shim returns the library's predefined handle; MPI is initialised.
            int: unsafe { imb_mpi_int() },
            peer: (rank + np / 2) % np,
            first: rank < np / 2,
            count: c_int::try_from(count).expect("count fits an MPI count"),
            s: Aligned::new(bytes),
            r: Aligned::new(bytes),
        }
    }

    /// One repetition: the lower half sends, then receives; the upper half answers.
    #[inline(always)]
    fn step(&mut self) {
        let (c, ty, peer, n) = (self.comm, self.int, self.peer, self.count);
        let (sp, rp) = (self.s.ptr() as *const c_void, self.r.ptr());
        // SAFETY: s and r are live, distinct buffers of count MPI_INTs each (fixed when
        // built), s only read and r only written by MPI; the status is ignored.
        unsafe {
            let ignore = ffi::RSMPI_STATUS_IGNORE;
            if self.first {
                check(ffi::MPI_Send(sp, n, ty, peer, TAG, c));
                check(ffi::MPI_Recv(rp, n, ty, peer, TAG, c, ignore));
            } else {
                check(ffi::MPI_Recv(rp, n, ty, peer, TAG, c, ignore));
                check(ffi::MPI_Send(sp, n, ty, peer, TAG, c));
            }
        }
    }

    /// IMB-MT's measurement of one size: warm-up, the ranks' barrier, n timed repetitions.
    /// Seconds per half round trip.
    fn pingpong(&mut self, n: usize) -> f64 {
        for _ in 0..WARMUP {
            self.step();
        }
        // SAFETY: MPI is initialised; MPI_COMM_WORLD is a constant of the bindings.
        let t0 = unsafe {
            check(ffi::MPI_Barrier(ffi::RSMPI_COMM_WORLD));
            ffi::MPI_Wtime()
        };
        for _ in 0..n {
            self.step();
        }
        // SAFETY: MPI_Wtime has no preconditions once MPI is initialised.
        let t = unsafe { ffi::MPI_Wtime() } - t0;
        t / n as f64 / 2.0
    }
}

fn run(world: &Comm, pairs_n: usize) {
    let np = world.size();
    assert!(
        np >= 2 && np % 2 == 0,
        "PingPongMT pairs the ranks: run on an even count"
    );
    let args = ["PingPongMT", "-warmup", WARMUP.to_string().as_str()].map(String::from);
    let mut opts = match imb_core::driver::parse(&imb_mt::SUITE, &args, np as usize) {
        Ok(Action::Run(o)) => o,
        Ok(_) => panic!("imb-mt reads {args:?} as a run"),
        Err(e) => panic!("imb-mt refuses {args:?}: {e}"),
    };
    assert_eq!(opts.thread_level, ThreadLevel::Multiple, "imb-mt's level");
    THREADS.set(&mut opts.family, 1);
    let bench: &dyn Benchmark = &imb_mt::PingPongMT;
    let (state, _) = (imb_mt::SUITE.hooks.run_state)(&[bench.info()], &opts)
        .expect("imb-mt builds its threads' state");
    let raw_comm = world_dup();
    let largest = SIZES.iter().map(|s| s.0 * 4).max().unwrap_or(0);
    // The driver's buffers, which imb-mt's kernel leaves alone (its threads have their own).
    let mut bufs = (
        Buffer::new(largest).expect("send"),
        Buffer::new(largest).expect("recv"),
    );
    bufs.0.fill(world.rank() as usize);
    let table = Table::sizes().in_usec();
    let how = format!(
        "np {np}, one thread per rank (-thread_level multiple, on a duplicate of \
         MPI_COMM_WORLD), MPI_INT, -warmup {WARMUP}, {pairs_n} alternating pairs per size, one \
         launch"
    );
    table.print_header(world, &pairs::intro("PingPongMT", "imb-mt", how));
    for (count, n) in SIZES {
        let x = count * std::mem::size_of::<c_int>();
        let mut raw = Raw::new(raw_comm, world, count);
        let p = pairs::alternate(
            world,
            pairs_n,
            Figure::Slowest,
            &mut bufs,
            |b| ours(bench, world, &opts, &*state, (x, n), b),
            |_| raw.pingpong(n),
        );
        // Both sides are already half a round trip (IMB-MT's PingPongMT row).
        let s = p.summary(Goal::by_size(x), |t| t * 1e6);
        table.print_row(world, &[&x, &n], &s, &[]);
    }
    let mut raw_comm = raw_comm;
    // SAFETY: no request on the duplicate is pending; every rank frees it.
    check(unsafe { ffi::MPI_Comm_free(&mut raw_comm) });
}

fn main() {
    let pairs_n = std::env::args()
        .nth(1)
        .map_or(200, |a| a.parse().expect("PAIRS is a number"));
    let (universe, granted) =
        mpi::initialize_with_threading(Threading::Multiple).expect("MPI starts");
    assert_eq!(
        granted,
        Threading::Multiple,
        "imb-mt's thread runs on its own communicator under MPI_THREAD_MULTIPLE, not granted"
    );
    let world = universe.world();
    run(&world, pairs_n);
    // The world handle goes before MPI_Finalize (the universe's drop).
    drop(world);
    drop(universe);
}
