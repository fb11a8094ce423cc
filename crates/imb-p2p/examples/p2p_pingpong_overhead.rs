//! Does the harness cost anything for IMB-P2P's method? One launch, an even number of ranks
//! (two in `scripts/bench-overhead`): imb-p2p's real PingPong, prepared, built and timed as
//! imb-core's driver does it (`Benchmark::prepare` once, then per measurement
//! `Benchmark::kernel` → `Timed::run`), alternates with a raw-FFI loop of IMB-P2P's pattern
//! on buffers of its own: the dissemination barrier, a tenth of the repetitions as warm-up, the
//! barrier again, then MPI_Wtime around n × (one byte of every 64 stored, MPI_Send, MPI_Recv,
//! one byte of every 64 read), each rank paired with rank + NP/2. Alternating pairs in one
//! process cancel the launch-to-launch and load drift of a small shared machine; the paired
//! ratios are printed (`imb_core::pairs`). The raw loop keeps its buffers for every pair of a
//! size, as IMB-P2P keeps its for the run; the kernel allocates its messages when it is built,
//! which is once per measurement here and once per size in a run.
//!
//! Both sides run with IMB-P2P's touches on (`-msgrd on -msgwr on`, its defaults) and without
//! its pause (`-pause 0`): the 100 ms sleeps before and after every size lie outside the timer
//! on both sides and would only make each pair 0.2 s longer.
//!
//! Usage: `mpirun -np 2 p2p_pingpong_overhead [PAIRS]` (default 200 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Benchmark, Comm, Prep};
use imb_core::pairs::{self, Figure, Goal, Handed, Table};
use imb_core::settings::Params;
use imb_core::values::Values;
use imb_p2p::options::{MSGRD, MSGWR, PAUSE};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::any::Any;
use std::os::raw::{c_int, c_void};

/// (size in bytes, repetitions per timing): latency and bandwidth (4 MiB is IMB-P2P's
/// largest default size).
const SIZES: [(usize, usize); 2] = [(4, 20_000), (4 << 20, 20)];

/// IMB-P2P touches one byte in every this many.
const LINE: usize = 64;

/// IMB-P2P's tags: the messages', and its barrier's.
const TAG: c_int = 0;
const BARRIER_TAG: c_int = 1000;

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// imb-p2p's kernel at (X, n), built and run as the driver does for one size, with the
/// options its step prepared. Seconds per repetition on this rank.
fn ours(
    b: &dyn Benchmark,
    comm: &Comm,
    params: &Params,
    prep: Option<&dyn Any>,
    (x, n): (usize, usize),
    (send, recv): &mut (Buffer, Buffer),
) -> f64 {
    let handed = Handed {
        prep,
        ..Handed::IMB30
    };
    pairs::timed_with(b, comm, params, (x, Mode::Plain, n), send, recv, handed).secs
}

/// A rank's side of IMB-P2P's PingPong, with the buffers and the touch counter it keeps
/// across repetitions (IMB-P2P's `dummy`, stored into the send buffer and fed by the
/// received bytes).
struct Raw {
    comm: ffi::MPI_Comm,
    rank: c_int,
    size: c_int,
    partner: c_int,
    first: bool,
    /// Bytes of each message, as MPI counts them.
    len: c_int,
    s: Vec<u8>,
    r: Vec<u8>,
    dummy: usize,
}

impl Raw {
    fn new(comm: &Comm, send: &[u8]) -> Raw {
        let (rank, size) = (comm.rank(), comm.size());
        Raw {
            comm: comm.as_raw(),
            rank,
            size,
            partner: (rank + size / 2) % size,
            first: rank < size / 2,
            len: c_int::try_from(send.len()).expect("size fits an MPI count"),
            s: send.to_vec(),
            r: vec![0; send.len()],
            dummy: 0,
        }
    }

    /// IMB-P2P's barrier: rounds of zero-byte MPI_Sendrecv with the ranks 1, 2, 4, ... away.
    fn barrier(&self) {
        let (me, np) = (self.rank, self.size);
        let mut mask = 1;
        while mask < np {
            let (to, from) = ((me + mask) % np, (me - mask + np) % np);
            let mut none = 0u8;
            let p = &mut none as *mut u8 as *mut c_void;
            // SAFETY: zero-byte messages: MPI reads and writes nothing at p, a live local;
            // reading rsmpi's extern statics (MPI constants).
            check(unsafe {
                ffi::MPI_Sendrecv(
                    p,
                    0,
                    ffi::RSMPI_UINT8_T,
                    to,
                    BARRIER_TAG,
                    p,
                    0,
                    ffi::RSMPI_UINT8_T,
                    from,
                    BARRIER_TAG,
                    self.comm,
                    ffi::RSMPI_STATUS_IGNORE,
                )
            });
            mask <<= 1;
        }
    }

    /// MPI_Send of the message to the partner.
    #[inline(always)]
    fn send(&self) {
        let len = self.len;
        let sp = self.s.as_ptr() as *const c_void;
        // SAFETY: s is a live buffer of len bytes (both fixed when built), only read by MPI;
        // reading rsmpi's extern static MPI_UINT8_T.
        check(unsafe { ffi::MPI_Send(sp, len, ffi::RSMPI_UINT8_T, self.partner, TAG, self.comm) });
    }

    /// MPI_Recv of the partner's message.
    #[inline(always)]
    fn recv(&mut self) {
        let len = self.len;
        let rp = self.r.as_mut_ptr() as *mut c_void;
        let (c, peer) = (self.comm, self.partner);
        // SAFETY: r is a live, exclusively borrowed buffer of len bytes (both fixed when
        // built); the status is ignored; reading rsmpi's extern statics (MPI constants).
        check(unsafe {
            let (byte, ignore) = (ffi::RSMPI_UINT8_T, ffi::RSMPI_STATUS_IGNORE);
            ffi::MPI_Recv(rp, len, byte, peer, TAG, c, ignore)
        });
    }

    /// One repetition: the lower half stores, sends, receives and reads; the upper half
    /// receives, reads, stores and sends.
    #[inline(always)]
    fn step(&mut self) {
        if self.first {
            touch_send(&mut self.s, &mut self.dummy);
            self.send();
            self.recv();
            touch_recv(&self.r, &mut self.dummy);
        } else {
            self.recv();
            touch_recv(&self.r, &mut self.dummy);
            touch_send(&mut self.s, &mut self.dummy);
            self.send();
        }
    }

    /// IMB-P2P's measurement of one size: barrier, warm-up, barrier, n timed repetitions.
    /// Seconds per repetition.
    fn pingpong(&mut self, n: usize) -> f64 {
        let warm = match n / 10 {
            0 if n > 1 => 1,
            w => w,
        };
        self.barrier();
        for _ in 0..warm {
            self.step();
        }
        self.barrier();
        // SAFETY: MPI_Wtime has no preconditions once MPI is initialised.
        let t0 = unsafe { ffi::MPI_Wtime() };
        for _ in 0..n {
            self.step();
        }
        // SAFETY: as above.
        let t = unsafe { ffi::MPI_Wtime() } - t0;
        std::hint::black_box(self.dummy);
        t / n as f64
    }
}

/// `-msgwr`: IMB-P2P stores its running counter into one byte of every line.
#[inline(always)]
fn touch_send(s: &mut [u8], dummy: &mut usize) {
    for i in (0..s.len()).step_by(LINE) {
        s[i] = *dummy as u8;
        *dummy = dummy.wrapping_add(1);
    }
}

/// `-msgrd`: IMB-P2P adds one byte of every line to its counter.
#[inline(always)]
fn touch_recv(r: &[u8], dummy: &mut usize) {
    for i in (0..r.len()).step_by(LINE) {
        *dummy = dummy.wrapping_add(r[i] as usize);
    }
}

fn main() {
    let ex = pairs::start(200, None, imb_p2p::SUITE.settings);
    let world = &ex.world;
    let np = world.size();
    assert!(
        np >= 2 && np % 2 == 0,
        "PingPong pairs the ranks: run on an even count"
    );
    let pingpong = pairs::find(imb_p2p::BENCHMARKS, "PingPong");
    // The family's options as `-msgrd on -msgwr on -pause 0` resolve them.
    let mut family = Values::default();
    MSGRD.set(&mut family, true);
    MSGWR.set(&mut family, true);
    PAUSE.set(&mut family, 0);
    let largest = SIZES.iter().map(|s| s.0).max().unwrap_or(0);
    let rank = world.rank() as usize;
    let prep = pingpong
        .prepare(&Prep {
            comm: world,
            rank,
            size: np as usize,
            world_rank: rank,
            group: None,
            groups: 1,
            volume: SIZES.iter().map(|(x, n)| x * n).max().unwrap_or(0),
            params: &ex.params,
            info: &[],
            family: &family,
        })
        .expect("PingPong prepares");
    let mut bufs = ex.buffers(largest);
    let table = Table::sizes().in_usec();
    let how = format!(
        "np {np}, -msgrd on -msgwr on -pause 0, {} alternating pairs per size, one launch",
        ex.pairs
    );
    table.print_header(world, &pairs::intro("PingPong", "imb-p2p", how));
    for (x, n) in SIZES {
        let mut raw = Raw::new(world, &bufs.0.bytes()[..x]);
        let params = &ex.params;
        let p = pairs::alternate(
            world,
            ex.pairs,
            Figure::Slowest,
            &mut bufs,
            |b| ours(pingpong, world, params, prep.as_deref(), (x, n), b),
            |_| raw.pingpong(n),
        );
        // IMB-P2P's PingPong reports half a round trip, in µs.
        let s = p.summary(Goal::by_size(x), |t| t * 0.5 * 1e6);
        table.print_row(world, &[&x, &n], &s, &[]);
    }
}
