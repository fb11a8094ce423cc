//! Do Jacobi2D's kernel variants and its section timers cost anything? One launch: the real
//! Jacobi2D kernel (`Benchmark::kernel` → `Timed::run`, whose full-kernel figure is timed with
//! the timers compiled out) alternates with a raw-FFI loop of the same iteration (pack, four
//! MPI_Irecv/MPI_Isend, MPI_Waitall, unpack, 5-point update, swap) written without any timer
//! or generics, on the same process grid and tile. Both take the best of 3 timings, as the
//! benchmark does. Printed per size: the paired median ratio ours/raw of the full kernel, and
//! the timers-on cost (the instrumented run's sections summed, over the plain full kernel).
//! Used by `scripts/bench-sphinx`.
//!
//! Usage: `mpirun -np 4 jacobi_overhead [PAIRS]` (default 20 pairs per size).

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::Comm;
use imb_core::pairs::{self, Figure, Goal, Table};
use imb_core::whitebox::Times;
use mpi::collective::SystemOperation;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};

/// (halo bytes X, iterations per timing).
const SIZES: [(usize, usize); 3] = [(64, 2000), (1024, 200), (8192, 10)];

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

/// The grid, neighbours and tile of the raw loop: the same layout as Jacobi2D's.
struct Raw {
    n: usize,
    w: usize,
    to: [c_int; 4],
    from: [c_int; 4],
    u: Vec<f64>,
    v: Vec<f64>,
    cols: [Vec<f64>; 4],
}

impl Raw {
    fn new(me: usize, np: usize, x: usize) -> Raw {
        let n = x / 8;
        let w = n + 2;
        let py = (1..=np)
            .take_while(|d| d * d <= np)
            .filter(|d| np.is_multiple_of(*d))
            .last()
            .unwrap_or(1);
        let px = np / py;
        let (cx, cy) = (me / py, me % py);
        let at = |x: usize, y: usize| (x % px * py + y % py) as c_int;
        let (north, south) = (at(cx + px - 1, cy), at(cx + 1, cy));
        let (west, east) = (at(cx, cy + py - 1), at(cx, cy + 1));
        Raw {
            n,
            w,
            to: [north, south, west, east],
            from: [south, north, east, west],
            u: vec![1.0; w * w],
            v: vec![0.0; w * w],
            cols: [vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]],
        }
    }

    /// `reps` iterations after N_BARR = 2 barriers: seconds per iteration.
    fn time(&mut self, comm: &Comm, reps: usize) -> f64 {
        let (n, w) = (self.n, self.w);
        let c = comm.as_raw();
        comm.barrier();
        comm.barrier();
        let t0 = mpi::time();
        for _ in 0..reps {
            let [sw, se, re, rw] = &mut self.cols;
            for k in 0..n {
                sw[k] = self.u[(k + 1) * w + 1];
                se[k] = self.u[(k + 1) * w + n];
            }
            let u = self.u.as_mut_ptr();
            let recvs = [(n + 1) * w + 1, 1].map(|o| u.wrapping_add(o));
            let sends = [w + 1, n * w + 1].map(|o| u.wrapping_add(o));
            let recvs = [recvs[0], recvs[1], re.as_mut_ptr(), rw.as_mut_ptr()];
            let sends = [sends[0], sends[1], sw.as_mut_ptr(), se.as_mut_ptr()];
            // SAFETY: reading rsmpi's extern statics (MPI constants). The eight buffers are n
            // doubles inside self.u and self.cols, disjoint between receives and sends, and
            // untouched by Rust until MPI_Waitall has completed every request.
            unsafe {
                let mut reqs = [ffi::RSMPI_REQUEST_NULL; 8];
                let (double, cnt) = (ffi::RSMPI_DOUBLE, n as c_int);
                for d in 0..4 {
                    let (rp, sp) = (recvs[d] as *mut c_void, sends[d] as *mut c_void);
                    check(ffi::MPI_Irecv(
                        rp,
                        cnt,
                        double,
                        self.from[d],
                        d as c_int,
                        c,
                        &mut reqs[d],
                    ));
                    check(ffi::MPI_Isend(
                        sp,
                        cnt,
                        double,
                        self.to[d],
                        d as c_int,
                        c,
                        &mut reqs[4 + d],
                    ));
                }
                check(ffi::MPI_Waitall(
                    8,
                    reqs.as_mut_ptr(),
                    ffi::RSMPI_STATUSES_IGNORE,
                ));
            }
            for k in 0..n {
                self.u[(k + 1) * w] = rw[k];
                self.u[(k + 1) * w + n + 1] = re[k];
            }
            // Iterators, not indexing, so that the loop vectorises as any tuned code would.
            for (i, out) in self.v[w..(n + 1) * w].chunks_exact_mut(w).enumerate() {
                let up = &self.u[i * w + 1..i * w + 1 + n];
                let down = &self.u[(i + 2) * w + 1..(i + 2) * w + 1 + n];
                let left = &self.u[(i + 1) * w..(i + 1) * w + n];
                let right = &self.u[(i + 1) * w + 2..(i + 1) * w + 2 + n];
                for ((o, (a, b)), (l, r)) in out[1..=n]
                    .iter_mut()
                    .zip(up.iter().zip(down))
                    .zip(left.iter().zip(right))
                {
                    *o = 0.25 * (a + b + l + r);
                }
            }
            std::mem::swap(&mut self.u, &mut self.v);
        }
        (mpi::time() - t0) / reps as f64
    }
}

fn main() {
    let ex = pairs::start(20, None, &imb_core::settings::STANDARD);
    let (world, pairs) = (&ex.world, ex.pairs);
    let (me, np) = (world.rank() as usize, world.size() as usize);
    assert!(np >= 2, "run with mpirun -np 2 or more");
    let stencil = pairs::find(imb_mpi1::BENCHMARKS, "Jacobi2D");
    let mut bufs = ex.buffers(SIZES.iter().map(|s| s.0).max().unwrap_or(0));
    let table = Table::new()
        .key("bytes", 9)
        .key("reps", 5)
        .sides("usec", 11, 2)
        .ratio("ours/raw(median)", 17, 3)
        .extra("timers on/off(median)", 22, 3);
    table.print_header(world, &[
        "Jacobi2D's full kernel (timers compiled out) beside a raw-FFI loop of the same".into(),
        format!("iteration, {pairs} alternating pairs per size at np {np}, slowest rank, best of 3 each"),
    ]);
    for (x, n) in SIZES {
        // This rank's instrumented sections summed, per run of ours (the first: the warm-up).
        let mut on = Vec::with_capacity(pairs + 1);
        let ours = |(s, r): &mut (Buffer, Buffer)| {
            let sample = pairs::timed(stencil, world, &ex.params, (x, Mode::Plain, n), s, r);
            let t: Times = sample.rec.decode();
            on.push(t.sections.iter().sum::<f64>());
            t.full
        };
        let mut raw_k = Raw::new(me, np, x);
        let raw_once = |_: &mut (Buffer, Buffer)| {
            (0..3)
                .map(|_| raw_k.time(world, n))
                .fold(f64::INFINITY, f64::min)
        };
        let p = pairs::alternate(world, pairs, Figure::Slowest, &mut bufs, ours, raw_once);
        let mut on_max = vec![0.0; pairs];
        world.all_reduce_into(&on[1..], &mut on_max[..], SystemOperation::max());
        let timers: Vec<f64> = on_max.iter().zip(&p.ours).map(|(o, f)| o / f).collect();
        let s = p.summary(Goal::Latency, |t| t * 1e6);
        table.print_row(world, &[&x, &n], &s, &[pairs::median(&timers)]);
    }
}
