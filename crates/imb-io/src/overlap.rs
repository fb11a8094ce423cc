//! The non-blocking I-benchmarks (guide 4.2.5.2; doc/METHODOLOGY.md, "imb-io"): how much of
//! the I/O time a process can spend computing.
//!
//! Per size, on every process of the file:
//! 1. t_pure: the blocking AGGREGATE kernel of the same family (n accesses, writes then sync).
//! 2. The CPU work per access is sized to t_pure (the largest over the file's processes), at
//!    most TARGET_CPU_SECS, and t_CPU is that work timed alone. 3.0 uses TARGET_CPU_SECS for
//!    every size (0.1 s, so a 50-access row costs 5 s and 0-byte rows report meaningless
//!    overlaps); matching the work to the I/O, as OSU's non-blocking benchmarks do, keeps
//!    `min(t_pure, t_CPU)` of the overlap formula well-conditioned and a run short.
//! 3. t_ovrl, after reopening the file (pointers back at 0): S_/P_ start all n requests, do n
//!    CPU_Exploit calls, wait for all, then sync writes; C_ do n × (`_begin`, CPU_Exploit,
//!    `_end`), then sync writes.
//!
//! Reads land in disjoint blocks of the receive buffer (3.0 lets all n requests of a row write
//! the same bytes at once, which MPI does not allow, and which defeats check mode).

use crate::access::{prepared, Access, Geometry};
use crate::cpu::{Calibration, Work};
use crate::layout::{Family, Scope};
use imb_core::bench::{Effort, Mode, Shape};
use imb_core::buffers::Defect;
use imb_core::kernel::{bracket, Barriers, Comm, Ctx, Loop, Measure, Sample};
use imb_core::settings::Params;
use imb_core::stats::{self, Usec};
use imb_core::table::{self as kind, OverlapTimes, Reduce, RowIn, TableKind};
use imb_mpi::info::Info;
use imb_mpi::io::Requests;
use mpi::collective::SystemOperation;
use mpi::traits::*;
use std::path::Path;

/// One repetition for the run-time bound (`imb_core::plan::least`): an access of X bytes in
/// the t_pure loop and another in the t_ovrl loop, each loop after N_BARR barriers. The CPU
/// work, sized to the measured t_pure, is left out: nothing bounds it before it is measured.
pub fn effort(s: &Shape) -> Effort {
    Effort {
        calls: 2.0,
        bytes: 2.0 * s.x as f64,
        loops: 2.0,
        ..Effort::call(0)
    }
}

pub struct Overlap<'a> {
    g: Geometry,
    comm: &'a Comm,
    path: &'a Path,
    hints: Info,
    params: &'a Params,
    method: &'a imb_core::method::Method,
    cal: Calibration,
    work: Work,
    info: &'a [(String, String)],
    send: &'a [u8],
    recv: &'a mut [u8],
}

impl<'a> Overlap<'a> {
    pub fn new(c: Ctx<'a>, fam: Family) -> Self {
        Overlap {
            g: Geometry::new(fam, c.x, c.rank, c.size),
            comm: c.comm,
            path: prepared(&c),
            hints: Info::new(c.info),
            params: c.params,
            method: c.method,
            // `calibrate_for` ran whenever a non-blocking benchmark is selected.
            cal: c
                .run
                .and_then(|r| r.downcast_ref::<Calibration>())
                .copied()
                .unwrap_or_else(Calibration::measure),
            work: Work::new(),
            info: c.info,
            send: c.send,
            recv: c.recv,
        }
    }

    /// t_pure: the blocking AGGREGATE kernel on its own opening of the file.
    fn pure(&mut self, lp: Loop, n: usize) -> f64 {
        let ctx = Ctx {
            comm: self.comm,
            rank: self.g.rank,
            size: self.g.np,
            x: self.g.x,
            mode: Mode::Aggregate,
            send: self.send,
            recv: &mut self.recv[..],
            params: self.params,
            method: self.method,
            // imb-io refuses -off_cache, as IMB 2021 ignores it for files.
            rot: imb_core::method::Rotations::NONE,
            info: self.info,
            prep: None,
            run: None,
        };
        Access::with_path(ctx, self.g.fam, self.path)
            .measure(self.comm, lp, n, false)
            .secs
    }

    /// t_ovrl: n non-blocking accesses overlapped with n CPU_Exploit calls of `passes`.
    fn overlapped(&mut self, lp: Loop, n: usize, passes: usize, check: bool) -> (f64, Defect) {
        let g = self.g;
        let file = g.open(self.comm, self.path, &self.hints);
        let work = &mut self.work;
        let (len, x) = (g.len, g.x);
        let send = &self.send[..len];
        let mut reqs = Requests::with_capacity(n);
        // 3.0 puts one more barrier before the reads' overlapped loop.
        let n_barr = lp.barriers.times(lp.barriers.n + usize::from(!g.fam.write));
        let (t, ()) = bracket(self.comm, n_barr, n, || {
            if g.fam.scope == Scope::C {
                for i in 0..n {
                    if g.fam.write {
                        file.write_split(g.call, g.at(i), send, || work.run(passes));
                    } else {
                        let b = block(self.recv, i, x, len);
                        file.read_split(g.call, g.at(i), b, || work.run(passes));
                    }
                }
            } else {
                if g.fam.write {
                    for i in 0..n {
                        file.iwrite(&mut reqs, g.call, g.at(i), send);
                    }
                } else if len == 0 {
                    for i in 0..n {
                        file.iread(&mut reqs, g.call, g.at(i), &mut []);
                    }
                } else {
                    for (i, b) in self.recv.chunks_mut(x).take(n).enumerate() {
                        file.iread(&mut reqs, g.call, g.at(i), &mut b[..len]);
                    }
                }
                for _ in 0..n {
                    work.run(passes);
                }
                reqs.wait_all(&file);
            }
            if g.fam.write {
                file.sync();
            }
        });
        drop(reqs);
        let defect = if !check {
            Defect::NONE
        } else if g.fam.write {
            g.verify_written(self.comm, &file, self.path, n)
        } else {
            let extent = self.params.msgspersample.max(self.params.msgs_nonaggr) * x;
            (0..n).fold(Defect::NONE, |d, i| {
                d.max(g.check_read(block(self.recv, i, x, len), i, extent))
            })
        };
        (t, defect)
    }
}

/// The non-blocking table: t_ovrl is the slowest rank's time, t_pure and t_CPU the slowest
/// rank's of each, and the overlap IMB derives from the three (guide 4.2.5.2).
pub const NONBLOCKING: TableKind = TableKind {
    name: "non-blocking",
    columns: kind::NONBLOCKING_OVERLAP,
    merged: None,
    reduce: &Reduce {
        values: nonblocking_values,
        notes: kind::no_notes,
    },
};

fn nonblocking_values(r: &RowIn<OverlapTimes>) -> Vec<f64> {
    let t_max = r.stats.t_max;
    let slowest = |of: fn(&OverlapTimes) -> f64| {
        Usec(stats::figure(r.all, r.members, |t| Usec::from_secs(of(t)).0).1)
    };
    let (pure, cpu) = (slowest(|t| t.pure), slowest(|t| t.cpu));
    vec![t_max.0, pure.0, cpu.0, overlap_pct(t_max, pure, cpu)]
}

/// IMB's overlap in percent (guide 4.2.5.2): how much of the shorter of I/O and CPU work was
/// hidden, `100·max(0, min(1, (t_pure + t_CPU − t_ovrl) / min(t_pure, t_CPU)))`; 0 when either
/// time is 0.
pub fn overlap_pct(t_ovrl: Usec, t_pure: Usec, t_cpu: Usec) -> f64 {
    let m = t_pure.0.min(t_cpu.0);
    if m <= 0.0 {
        return 0.0;
    }
    100.0 * ((t_pure.0 + t_cpu.0 - t_ovrl.0) / m).clamp(0.0, 1.0)
}

/// Block i of the receive buffer (an empty slice for an empty portion).
#[inline(always)]
fn block(recv: &mut [u8], i: usize, x: usize, len: usize) -> &mut [u8] {
    if len == 0 {
        return &mut [];
    }
    &mut recv[i * x..i * x + len]
}

impl Measure for Overlap<'_> {
    type Rec = OverlapTimes;
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<OverlapTimes> {
        let n = n.max(1);
        let pure = self.pure(lp, n);
        let mut slowest = 0.0f64;
        comm.all_reduce_into(&pure, &mut slowest, SystemOperation::max());
        let passes = self
            .cal
            .passes_rounded(slowest.min(self.params.target_cpu_secs));
        // No barriers: each rank's CPU work alone, a local figure.
        let work = &mut self.work;
        let (cpu, ()) = bracket(comm, Barriers::NONE, n, || {
            for _ in 0..n {
                work.run(passes);
            }
        });
        let (ovrl, defect) = self.overlapped(lp, n, passes, check);
        Sample {
            secs: ovrl,
            defect,
            excluded: false,
            rec: OverlapTimes { pure, cpu },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_formula() {
        let o = |ovrl, pure, cpu| overlap_pct(Usec(ovrl), Usec(pure), Usec(cpu));
        assert_eq!(o(100.0, 100.0, 100.0), 100.0); // fully hidden
        assert_eq!(o(200.0, 100.0, 100.0), 0.0); // serialised
        assert_eq!(o(150.0, 100.0, 100.0), 50.0);
        assert_eq!(o(300.0, 100.0, 100.0), 0.0); // worse than serial: clamped
        assert_eq!(o(100.0, 50.0, 100.0), 100.0);
        assert_eq!(o(1.0, 0.0, 100.0), 0.0);
    }

    #[test]
    fn the_row_takes_the_slowest_rank_of_each_part() {
        use imb_core::stats::RankResult;
        use imb_core::table::Wire;
        // t_ovrl in usec, t_pure and t_CPU in seconds, as the kernel reports them.
        let all =
            [(150.0, 100e-6, 80e-6), (120.0, 90e-6, 100e-6)].map(|(t, pure, cpu)| RankResult {
                t: Usec(t),
                rec: Wire::encode(&OverlapTimes { pure, cpu }),
                ..RankResult::default()
            });
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[0, 1],
            stats: &st,
            x: 8,
            scale_bw: 1.0,
            np: 2,
            megabyte: imb_core::table::Megabyte::IMB30,
        };
        let v = NONBLOCKING.values(&r);
        let want = [150.0, 100.0, 100.0, 50.0];
        assert!(
            v.iter().zip(want).all(|(v, w)| (v - w).abs() < 1e-9),
            "{v:?}"
        );
    }

    #[test]
    fn blocks_are_disjoint() {
        let mut v = vec![0u8; 12];
        assert_eq!(block(&mut v, 2, 4, 3).len(), 3);
        assert!(block(&mut v, 7, 4, 0).is_empty());
    }
}
