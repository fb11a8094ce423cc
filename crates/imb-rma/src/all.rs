//! One_put_all, All_put_all, One_get_all, All_get_all, Put_all_local and Get_all_local
//! (doc/METHODOLOGY.md, "IMB-RMA"): an origin locks every rank (MPI_Win_lock_all) and per
//! repetition puts X bytes into (or gets X bytes from) displacement 0 of every other rank's
//! window, starting with its right neighbour so the origins do not all hit one target first;
//! one flush_all (flush_local_all in the `_local` forms) after the n repetitions. The `One_`
//! and `_local` forms have one origin, rank 0, and report its time with the bandwidth of its
//! NP−1 transfers (the `MULT_PASSIVE` table); in the `All_` forms every rank is an origin and
//! the table is the collectives' t_min/t_max/t_avg.
//!
//! Check mode verifies the one-origin puts (every target holds rank 0's first X bytes). The
//! gets and All_put_all are not checked: as in IMB, the peers' data all land in one place
//! (the origin's receive buffer, or a target's displacement 0), so what is left there is
//! whichever transfer finished last.
//!
//! `-off_cache`: as in IMB 2021, repetition i puts from (gets into) copy i % copies of the
//! origin's send (receive) buffer, to (from) the same copy of every target's window, which
//! spans the whole buffer. Check mode verifies every copy written.

use crate::epoch::{settle_own, Epoch, Flush, Targets};
use crate::kernel::{boxed, each_copy, Ops};
use imb_core::bench::{Class, Info};
use imb_core::buffers::{check_copy, Defect};
use imb_core::kernel::{Benchmark, Ctx, Prep, Timed};
use imb_core::method::Rotations;
use imb_core::stats;
use imb_core::table::{self, Reduce, RowIn, TableKind};
use imb_mpi::window::{Hints, Win};
use imb_onesided::copies;
use std::os::raw::c_int;

/// `#bytes #repetitions t[usec] Mbytes/sec` for one origin and NP−1 targets: the origin's
/// time, and NP−1 messages per repetition in the bandwidth. The same columns with and
/// without `-multi 0`.
pub static MULT_PASSIVE: TableKind = TableKind {
    name: "rma-mult-passive",
    columns: table::SINGLE.columns,
    merged: None,
    reduce: &Reduce {
        values: mult_passive,
        notes: table::no_notes,
    },
};

fn mult_passive(r: &RowIn) -> Vec<f64> {
    let peers = r.np.saturating_sub(1).max(1) as f64;
    vec![
        r.stats.t_max.0,
        stats::mbytes_per_sec(r.scale_bw * peers, r.x, r.stats.t_max, r.megabyte),
    ]
}

/// Put or get of X bytes with every other rank.
struct ToAll<'a> {
    s: &'a [u8],
    x: usize,
    me: c_int,
    np: c_int,
    get: bool,
    /// Check mode: this rank's window holds rank 0's data (a target of a one-origin put).
    checked_target: bool,
    rot: Rotations,
}

impl<'a> Ops<'a> for ToAll<'a> {
    #[inline(always)]
    fn issue(&self, w: &Win<'a>, i: usize) {
        let (x, src, dst) = (self.x, self.rot.send.offset(i), self.rot.recv.offset(i));
        for k in 1..self.np {
            let t = (k + self.me) % self.np;
            if self.get {
                w.get(dst, x, t, src);
            } else {
                w.put(&self.s[src..src + x], t, dst);
            }
        }
    }
    fn verify(&self, w: &Win<'a>, n: usize) -> Defect {
        if !self.checked_target {
            return Defect::NONE;
        }
        settle_own(w, self.me);
        let got = w.local();
        each_copy(self.rot.recv, n, |_, at| {
            check_copy(&got[at..at + self.x], 0, 0)
        })
    }
}

fn kernel<'a>(c: Ctx<'a>, get: bool, all: bool, flush: Flush) -> Box<dyn Timed + 'a> {
    let hints = Hints::new(c.info);
    copies::assert_fit("send buffer", c.rot.send, c.x, c.send.len());
    copies::assert_fit("receive buffer", c.rot.recv, c.x, c.recv.len());
    let w = if get {
        Win::readable(c.comm, c.send, c.recv, 1, &hints)
    } else {
        Win::exposing(c.comm, c.recv, 1, &hints)
    };
    let origin = all || c.rank == 0;
    let epoch = Epoch {
        targets: Targets::All,
        flush,
        every: false,
        origin,
    };
    let ops = ToAll {
        s: c.send,
        x: c.x,
        me: c.rank as c_int,
        np: c.size as c_int,
        get,
        checked_target: !get && !all && !origin,
        rot: c.rot,
    };
    boxed(w, c.comm, epoch, ops)
}

macro_rules! to_all {
    ($ty:ident, $info:ident, get = $get:expr, all = $all:expr, flush = $flush:expr,
     on_request = $req:expr) => {
        pub struct $ty;
        static $info: Info = Info {
            table: if $all {
                &table::COLLECTIVE
            } else {
                &MULT_PASSIVE
            },
            checked: !$get && !$all,
            on_request: $req,
            // One operation with every other rank, one flush after all n.
            effort: |s| crate::kernel::effort(s.np.saturating_sub(1), false, s.x),
            ..Info::mpi1(stringify!($ty), Class::Collective)
        };
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn prepare(&self, p: &Prep) -> imb_onesided::Prepared {
                imb_onesided::prepare(p)
            }
            fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                kernel(c, $get, $all, $flush)
            }
        }
    };
}

#[rustfmt::skip]
mod decl {
    use super::*;
    to_all!(Put_all_local, PUT_ALL_LOCAL, get = false, all = false, flush = Flush::Local, on_request = false);
    to_all!(Get_all_local, GET_ALL_LOCAL, get = true, all = false, flush = Flush::Local, on_request = true);
    to_all!(One_put_all, ONE_PUT_ALL, get = false, all = false, flush = Flush::Remote, on_request = false);
    to_all!(All_put_all, ALL_PUT_ALL, get = false, all = true, flush = Flush::Remote, on_request = false);
    to_all!(One_get_all, ONE_GET_ALL, get = true, all = false, flush = Flush::Remote, on_request = false);
    to_all!(All_get_all, ALL_GET_ALL, get = true, all = true, flush = Flush::Remote, on_request = false);
}
pub use decl::*;

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::stats::{RankResult, Usec};

    #[test]
    fn mult_passive_counts_the_peers() {
        let all = [
            RankResult {
                t: Usec(4.0),
                ..RankResult::default()
            },
            RankResult {
                excluded: true,
                ..RankResult::default()
            },
            RankResult {
                excluded: true,
                ..RankResult::default()
            },
        ];
        let st = stats::over(&all, &[0, 1, 2]);
        let row = |np| {
            MULT_PASSIVE.values(&RowIn {
                all: &all,
                members: &[0, 1, 2],
                stats: &st,
                x: 1 << 20,
                scale_bw: 1.0,
                np,
                megabyte: imb_core::table::Megabyte::IMB30,
            })
        };
        // Two peers of 1 MiB in 4 usec: 500000 MB/s (MB = 2^20 bytes).
        assert_eq!(row(3), [4.0, 500000.0]);
        assert_eq!(row(1)[1], 250000.0);
        assert_eq!(MULT_PASSIVE.columns, table::SINGLE.columns);
    }
}
