//! Jacobi2D: an application kernel for white-box benchmarking (doc/METHODOLOGY.md, "White-box
//! benchmarking (Jacobi2D)"), a periodic 2-D Jacobi (5-point) iteration on a px × py process grid,
//! each process holding an N × N tile of doubles with a one-point halo.
//!
//! One repetition is one iteration: pack the two halo columns, exchange the four halos
//! (MPI_Irecv/MPI_Isend/MPI_Waitall, X = 8·N bytes each), unpack the columns, update the tile.
//! The three incremental kernels of the method are the same code with parts switched off at
//! run time (const generics, so each is its own compiled loop):
//! - skeleton: the exchange alone, from and into the same places, nothing packed or computed;
//! - movement: the skeleton plus pack and unpack;
//! - full: the whole iteration.
//!
//! Their differences decompose the full time into communication, data movement and
//! computation, which add up to it by construction. The full kernel also runs once more with
//! the section timers of `imb_core::whitebox` on, and the same size is timed as PingPong (ranks
//! 0 and 1) and Exchange (all ranks) for the prediction (`active_dims`): per iteration, one
//! Exchange, or two one-way PingPong messages, per grid dimension of more than one process.
//!
//! The skeleton is the pattern of IMB 2021's IMB-P2P Stencil2D; the name Jacobi2D keeps the
//! two apart, since this benchmark's table and meaning are not IMB-P2P's.
//!
//! Not an IMB 2021 benchmark: `-off_cache` moves neither its tile nor its messages (offset 0).

use crate::types::Elems;
use imb_core::bench::{Class, Effort, Info, Procs, Shape};
use imb_core::buffers::Defect;
use imb_core::kernel::{bracket, Barriers, Benchmark, Comm, Ctx, Loop, Measure, Sample, Timed};
use imb_core::note::Note;
use imb_core::table::{Reduce, TableIn, TableKind};
use imb_core::whitebox;
use imb_core::whitebox::{Activity, Off, On, Section, Timer, Times};
use imb_mpi::comm::Mpi;
use std::os::raw::c_int;

/// Interleaved timings of the three kernels; the minimum of each is used, so that a burst of
/// noise in one kernel does not show up as a negative part of the decomposition.
pub const ROUNDS: usize = 3;

/// The largest halo: N = 2048 doubles, two tiles of 32 MiB per process.
pub const MAX_X: usize = 8 * 2048;

/// One repetition sweeps the tile (8·N² bytes), so n_sample comes from that, not from X.
fn tile_bytes(x: usize) -> usize {
    let n = x / 8;
    8 * n * n
}

pub struct Jacobi2D;
static JACOBI2D: Info = Info {
    table: &WHITEBOX,
    procs: Procs::AtLeastTwo,
    unit: 8,
    on_request: true,
    min_x: 8,
    max_x: MAX_X,
    sample_bytes: tile_bytes,
    effort: iterations,
    ..Info::mpi1("Jacobi2D", Class::Collective)
};

/// One repetition on one process, every loop of `Timed::run` together: 3·ROUNDS kernels and
/// the instrumented one each wait for 4 halos of X bytes sent and 4 received (8 messages in
/// flight); the 4 that compute read and write the tile; the references add a round trip and
/// an Exchange of X bytes each way.
fn iterations(s: &Shape) -> Effort {
    let kernels = (3 * ROUNDS + 1) as f64;
    let computing = (ROUNDS + 1) as f64;
    let x = s.x as f64;
    Effort {
        calls: kernels + 2.0,
        msgs: 8.0 * kernels,
        bytes: kernels * 8.0 * x + computing * 2.0 * tile_bytes(s.x) as f64 + 6.0 * x,
        loops: kernels + 2.0,
        lever: None,
    }
}

/// The white-box table: the decomposition per row, the section timers after it.
const WHITEBOX: TableKind = TableKind {
    name: "white-box",
    columns: whitebox::COLUMNS,
    merged: None,
    reduce: &Reduce {
        values: whitebox::values,
        notes: jacobi_notes,
    },
};

fn jacobi_notes(t: &TableIn<Times>) -> Vec<Note> {
    whitebox::table_notes(&SECTIONS, t)
}

/// The section timers of the instrumented full kernel, by index.
static SECTIONS: [Section; 4] = [
    Section {
        name: "pack",
        class: Activity::DataMovement,
    },
    Section {
        name: "halo",
        class: Activity::Communication,
    },
    Section {
        name: "unpack",
        class: Activity::DataMovement,
    },
    Section {
        name: "update",
        class: Activity::Computation,
    },
];
const PACK: usize = 0;
const HALO: usize = 1;
const UNPACK: usize = 2;
const UPDATE: usize = 3;

/// px × py with px >= py and px·py = np, as square as possible (what MPI_Dims_create gives).
pub fn dims(np: usize) -> (usize, usize) {
    let py = (1..=np)
        .take_while(|d| d * d <= np)
        .filter(|d| np.is_multiple_of(*d))
        .last()
        .unwrap_or(1);
    (np / py, py)
}

/// The initial value of global point (gi, gj): exact in f64, different for neighbours.
pub fn initial(gi: usize, gj: usize) -> f64 {
    ((gi * 7 + gj * 13) % 17) as f64
}

/// The 5-point update of one row; `out` and `up`/`down` are the row's N interior points,
/// `mid` the row with its two halo points. The reference uses it too, so results are bitwise
/// comparable.
#[inline(always)]
pub fn update_row(out: &mut [f64], up: &[f64], down: &[f64], mid: &[f64]) {
    let n = out.len();
    let (left, right) = (&mid[..n], &mid[2..n + 2]);
    for ((o, (a, b)), (l, r)) in out
        .iter_mut()
        .zip(up.iter().zip(&down[..n]))
        .zip(left.iter().zip(right))
    {
        *o = 0.25 * (a + b + l + r);
    }
}

struct JacobiK<'a> {
    m: Mpi<'a>,
    me: usize,
    np: usize,
    /// Tile edge N and row width W = N + 2.
    n: usize,
    w: usize,
    grid: (usize, usize),
    coords: (usize, usize),
    /// Neighbours a message travelling north, south, west, east goes to, and comes from.
    to: [c_int; 4],
    from: [c_int; 4],
    u: Vec<f64>,
    v: Vec<f64>,
    /// Column buffers: packed west and east edges, received east and west halos.
    send_w: Vec<f64>,
    send_e: Vec<f64>,
    recv_e: Vec<f64>,
    recv_w: Vec<f64>,
    /// PingPong and Exchange buffers of X bytes: the engine's send and receive buffers, and
    /// their messages, MPI_BYTEs whatever `-data_type` says (the reference is IMB 3.0's
    /// PingPong and Exchange).
    bytes: Elems,
    msg: &'a [u8],
    msg_in: &'a mut [u8],
}

fn build(c: Ctx<'_>) -> JacobiK<'_> {
    let n = (c.x / 8).max(1);
    let w = n + 2;
    let (px, py) = dims(c.size);
    let (cx, cy) = (c.rank / py, c.rank % py);
    let at = |x: usize, y: usize| (x % px * py + y % py) as c_int;
    let north = at(cx + px - 1, cy);
    let south = at(cx + 1, cy);
    let west = at(cx, cy + py - 1);
    let east = at(cx, cy + 1);
    JacobiK {
        m: Mpi::new(c.comm),
        me: c.rank,
        np: c.size,
        n,
        w,
        grid: (px, py),
        coords: (cx, cy),
        // Direction d travels north, south, west, east (the tag is d).
        to: [north, south, west, east],
        from: [south, north, east, west],
        u: vec![0.0; w * w],
        v: vec![0.0; w * w],
        send_w: vec![0.0; n],
        send_e: vec![0.0; n],
        recv_e: vec![0.0; n],
        recv_w: vec![0.0; n],
        bytes: Elems::imb(false, 8 * n),
        msg: &c.send[..8 * n],
        msg_in: &mut c.recv[..8 * n],
    }
}

impl JacobiK<'_> {
    /// The tile's initial values (untimed, before each kernel).
    fn init(&mut self) {
        let (n, w) = (self.n, self.w);
        let (x0, y0) = (self.coords.0 * n, self.coords.1 * n);
        self.u.fill(0.0);
        self.v.fill(0.0);
        for i in 0..n {
            for j in 0..n {
                self.u[(i + 1) * w + j + 1] = initial(x0 + i, y0 + j);
            }
        }
    }

    /// `reps` iterations of the kernel selected by MOVE (pack and unpack) and COMP (update).
    fn iterate<const MOVE: bool, const COMP: bool, T: Timer>(&mut self, reps: usize, t: &mut T) {
        let (n, w) = (self.n, self.w);
        for _ in 0..reps {
            if MOVE {
                let s = t.start();
                for ((pw, pe), row) in self
                    .send_w
                    .iter_mut()
                    .zip(self.send_e.iter_mut())
                    .zip(self.u[w..].chunks_exact(w))
                {
                    *pw = row[1];
                    *pe = row[n];
                }
                t.stop(PACK, s);
            }
            let s = t.start();
            {
                // Rows go straight from and into the tile; columns through the buffers.
                let (top, rest) = self.u.split_at_mut(w);
                let (mid, bottom) = rest.split_at_mut(n * w);
                let first = &mid[1..=n];
                let last = &mid[(n - 1) * w + 1..(n - 1) * w + 1 + n];
                self.m.halo(
                    [first, last, &self.send_w, &self.send_e],
                    [
                        &mut bottom[1..=n],
                        &mut top[1..=n],
                        &mut self.recv_e,
                        &mut self.recv_w,
                    ],
                    self.to,
                    self.from,
                );
            }
            t.stop(HALO, s);
            if MOVE {
                let s = t.start();
                for ((hw, he), row) in self
                    .recv_w
                    .iter()
                    .zip(&self.recv_e)
                    .zip(self.u[w..].chunks_exact_mut(w))
                {
                    row[0] = *hw;
                    row[n + 1] = *he;
                }
                t.stop(UNPACK, s);
            }
            if COMP {
                let s = t.start();
                for (i, out) in self.v[w..(n + 1) * w].chunks_exact_mut(w).enumerate() {
                    let up = &self.u[i * w + 1..i * w + 1 + n];
                    let down = &self.u[(i + 2) * w + 1..(i + 2) * w + 1 + n];
                    let mid = &self.u[(i + 1) * w..(i + 2) * w];
                    update_row(&mut out[1..=n], up, down, mid);
                }
                std::mem::swap(&mut self.u, &mut self.v);
                t.stop(UPDATE, s);
            }
        }
    }

    /// One kernel timed over `reps` iterations after the barriers: seconds per iteration.
    fn timed<const MOVE: bool, const COMP: bool>(
        &mut self,
        comm: &Comm,
        n_barr: Barriers,
        reps: usize,
    ) -> f64 {
        self.init();
        bracket(comm, n_barr, reps, || {
            self.iterate::<MOVE, COMP, Off>(reps, &mut Off)
        })
        .0
    }

    /// The full kernel with the section timers on: seconds per iteration per class.
    fn sections(&mut self, comm: &Comm, n_barr: Barriers, reps: usize) -> [f64; 3] {
        self.init();
        // Four accumulators, allocated before the barriers.
        let mut t = On::new(&SECTIONS, mpi::time);
        bracket(comm, n_barr, reps, || {
            self.iterate::<true, true, On>(reps, &mut t)
        });
        t.by_class().map(|s| s / reps as f64)
    }

    /// PingPong (ranks 0 and 1; one way, half a round trip) and Exchange (all ranks, the
    /// periodic chain) at X: seconds per repetition on this rank.
    fn references(&mut self, comm: &Comm, n_barr: Barriers, reps: usize) -> (f64, f64) {
        let (pingpong, ()) = bracket(comm, n_barr, reps, || match self.me {
            0 => {
                for _ in 0..reps {
                    self.m.send(self.msg, self.bytes.msg, 1);
                    self.m.recv_from(self.msg_in, self.bytes.msg, 1);
                }
            }
            1 => {
                for _ in 0..reps {
                    self.m.recv_from(self.msg_in, self.bytes.msg, 0);
                    self.m.send(self.msg, self.bytes.msg, 0);
                }
            }
            _ => {}
        });
        let (left, right) = (
            ((self.me + self.np - 1) % self.np) as c_int,
            ((self.me + 1) % self.np) as c_int,
        );
        let (exchange, ()) = bracket(comm, n_barr, reps, || {
            for _ in 0..reps {
                self.m.exchange(
                    (self.msg, self.msg),
                    self.bytes.msg,
                    left,
                    right,
                    self.msg_in,
                );
            }
        });
        (pingpong / 2.0, exchange)
    }

    /// Dimensions with more than one process: each costs one Exchange per iteration (a
    /// message to and from both neighbours), or two one-way PingPong messages; a dimension of
    /// one process only talks to itself.
    fn active_dims(&self) -> f64 {
        [self.grid.0, self.grid.1]
            .iter()
            .filter(|&&p| p > 1)
            .count() as f64
    }

    /// Check mode, after the movement kernel: every halo point holds the initial value of the
    /// global point it mirrors (the tile itself is unchanged).
    fn check_halos(&self) -> Defect {
        let (n, w) = (self.n, self.w);
        let (gx, gy) = (self.grid.0 * n, self.grid.1 * n);
        let (x0, y0) = (self.coords.0 * n, self.coords.1 * n);
        let global = |i: usize, j: usize| initial((x0 + gx + i - 1) % gx, (y0 + gy + j - 1) % gy);
        let halo = (1..=n)
            .flat_map(|k| [(0, k), (n + 1, k), (k, 0), (k, n + 1)])
            .chain((1..=n).flat_map(|i| (1..=n).map(move |j| (i, j))));
        for (i, j) in halo {
            if self.u[i * w + j] != global(i, j) {
                return Defect::bad(8 * (i * w + j));
            }
        }
        Defect::NONE
    }

    /// Check mode, after the full kernel: the tile equals a serial run of the same iterations
    /// on the whole periodic grid (same arithmetic in the same order, so equal bit for bit).
    fn check_reference(&self, reps: usize) -> Defect {
        let (n, w) = (self.n, self.w);
        let (gx, gy) = (self.grid.0 * n, self.grid.1 * n);
        let gw = gy + 2;
        let mut a = vec![0.0; (gx + 2) * gw];
        let mut b = a.clone();
        for i in 0..gx {
            for j in 0..gy {
                a[(i + 1) * gw + j + 1] = initial(i, j);
            }
        }
        for _ in 0..reps {
            for i in 1..=gx {
                a[i * gw] = a[i * gw + gy];
                a[i * gw + gy + 1] = a[i * gw + 1];
            }
            a.copy_within(gx * gw..(gx + 1) * gw, 0);
            a.copy_within(gw..2 * gw, (gx + 1) * gw);
            for i in 1..=gx {
                let (up, down) = (&a[(i - 1) * gw + 1..i * gw - 1], &a[(i + 1) * gw + 1..]);
                let mid = &a[i * gw..(i + 1) * gw];
                update_row(&mut b[i * gw + 1..i * gw + 1 + gy], up, &down[..gy], mid);
            }
            std::mem::swap(&mut a, &mut b);
        }
        let (x0, y0) = (self.coords.0 * n, self.coords.1 * n);
        for i in 1..=n {
            for j in 1..=n {
                if self.u[i * w + j] != a[(x0 + i) * gw + y0 + j] {
                    return Defect::bad(8 * (i * w + j));
                }
            }
        }
        Defect::NONE
    }
}

impl Measure for JacobiK<'_> {
    type Rec = Times;
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<Times> {
        let n_barr = lp.barriers;
        use mpi::traits::*;
        let reps = n.max(1);
        let mut defect = Defect::NONE;
        let (mut skeleton, mut movement, mut full) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let mut result = None;
        for round in 0..ROUNDS {
            skeleton = skeleton.min(self.timed::<false, false>(comm, n_barr, reps));
            movement = movement.min(self.timed::<true, false>(comm, n_barr, reps));
            if check && round == 0 {
                defect = defect.max(self.check_halos());
            }
            full = full.min(self.timed::<true, true>(comm, n_barr, reps));
            if check && round == 0 {
                result = Some(self.u.clone());
                defect = defect.max(self.check_reference(reps));
            }
        }
        let sections = self.sections(comm, n_barr, reps);
        if let Some(r) = result {
            // The instrumented kernel computes what the plain one did.
            if let Some(k) = r.iter().zip(&self.u).position(|(a, b)| a != b) {
                defect = defect.max(Defect::bad(8 * k));
            }
        }
        let (mut pingpong, exchange) = self.references(comm, n_barr, reps);
        // Only ranks 0 and 1 timed PingPong; every rank predicts with rank 0's figure.
        comm.process_at_rank(0).broadcast_into(&mut pingpong);
        let dims = self.active_dims();
        Sample {
            secs: full,
            defect,
            excluded: false,
            rec: Times {
                skeleton,
                movement,
                full,
                sections,
                pred_exchange: dims * exchange,
                pred_pingpong: 2.0 * dims * pingpong,
            },
        }
    }
}

impl Benchmark for Jacobi2D {
    fn info(&self) -> &'static Info {
        &JACOBI2D
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(build(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_as_square_as_possible() {
        assert_eq!(dims(1), (1, 1));
        assert_eq!(dims(2), (2, 1));
        assert_eq!(dims(3), (3, 1));
        assert_eq!(dims(4), (2, 2));
        assert_eq!(dims(6), (3, 2));
        assert_eq!(dims(12), (4, 3));
        assert_eq!(dims(16), (4, 4));
    }

    #[test]
    fn one_row_update() {
        let mut out = [0.0; 2];
        update_row(&mut out, &[4.0, 8.0], &[0.0, 4.0], &[4.0, 0.0, 4.0, 8.0]);
        assert_eq!(
            out,
            [
                0.25 * (4.0 + 0.0 + 4.0 + 4.0),
                0.25 * (8.0 + 4.0 + 0.0 + 8.0)
            ]
        );
    }

    #[test]
    fn sample_bytes_is_the_tile() {
        assert_eq!(tile_bytes(8), 8);
        assert_eq!(tile_bytes(MAX_X), 8 * 2048 * 2048);
    }
}
