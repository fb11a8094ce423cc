//! IMB 2021's method for non-blocking collectives (doc/METHODOLOGY.md, "imb-nbc"): the loops,
//! the benchmark type, and the table of the overlap benchmarks (imb-nbc's, and imb-mpi4's,
//! whose persistent request starts where a non-blocking call does).
//!
//! Every call is timed on its own: N_BARR barriers before the first call, one barrier before
//! each further call, both outside the clock (IMB 2021's `-sync on`), so each call starts with
//! the processes in step and nothing of the previous one in flight. Per size:
//! 1. t_pure: n × (start, MPI_Wait). The `_pure` benchmarks stop here (a Collective table).
//! 2. The CPU work is sized to this rank's own t_pure from the run's calibration (`cpu`, or
//!    `cpu2021` under `-compat 2021`).
//! 3. t_ovrl: n × (start, CPU work, MPI_Wait); t_CPU is the CPU work's own time inside it.
//!
//! Both loops hand the operation its call's index from 0, so under `-root_shift on` each
//! starts at root 0 and t_ovrl's calls have the roots of t_pure's, in the same order, as in
//! IMB 2021; the untimed step between them calls no operation. The same index picks the call's
//! `-off_cache` copies (`ops`), so t_ovrl's call i uses t_pure's call i's copies, as in IMB 2021;
//! the CPU work's own memory is not one of them and never moves.

use crate::op::{Op, Pattern};
use crate::{cpu, cpu2021};
use imb_core::bench::{Effort, Info};
use imb_core::buffers::Defect;
use imb_core::kernel::{bracket, Barriers, Benchmark, Comm, Ctx, Loop, Measure, Sample, Timed};
use imb_core::method::{Compat, Timing};
use imb_core::stats::{RankResult, Usec};
use imb_core::table::{self as kind, OverlapTimes, Reduce, RowIn, TableKind};
use std::marker::PhantomData;

/// Barriers before call `i`: N_BARR before the first, one between calls unless `-sync off`
/// (IMB-NBC times call by call under either profile, so only `-sync off` changes this).
#[inline(always)]
fn barriers(i: usize, lp: Loop) -> Barriers {
    if i == 0 {
        lp.barriers
    } else if lp.timing == (Timing::PerCall { sync: false }) {
        Barriers::NONE
    } else {
        lp.barriers.times(1)
    }
}

/// t_pure: seconds per call of start + MPI_Wait, and the check of every call's result.
#[inline(always)]
fn pure<O: Op>(op: &mut O, comm: &Comm, lp: Loop, n: usize, check: bool) -> (f64, Defect) {
    let (mut t, mut defect) = (0.0, Defect::NONE);
    for i in 0..n {
        let (dt, ()) = bracket(comm, barriers(i, lp), 1, || op.start(i).wait());
        t += dt;
        if check {
            defect = defect.max(op.check(i));
        }
    }
    (t / n as f64, defect)
}

/// One repetition for the run-time bound (`imb_core::plan::least`) in `loops` loops (t_pure,
/// and t_ovrl unless `_pure`): per loop a barrier and a call moving `bytes`. The CPU work of
/// t_ovrl, sized to the measured t_pure, adds nothing the bound can know.
pub fn effort(loops: usize, bytes: usize) -> Effort {
    let loops = loops as f64;
    Effort {
        calls: 2.0 * loops,
        bytes: loops * bytes as f64,
        loops,
        ..Effort::call(0)
    }
}

/// A `_pure` benchmark's kernel: the operation alone.
pub struct Pure<O>(O);

impl<O: Op> Measure for Pure<O> {
    type Rec = ();
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample {
        let (secs, defect) = pure(&mut self.0, comm, lp, n.max(1), check);
        Sample {
            secs,
            defect,
            ..Sample::default()
        }
    }
}

/// The CPU work of an overlap kernel, sized to each call's t_pure.
pub trait CpuWork {
    /// Untimed, between the t_pure loop and the overlap loop: the passes of each repetition.
    fn prepare(&mut self, t_pure: f64) -> usize;
    fn run(&mut self, passes: usize);
}

impl CpuWork for cpu::Cpu {
    fn prepare(&mut self, t_pure: f64) -> usize {
        self.cal.passes_truncated(t_pure)
    }
    #[inline(always)]
    fn run(&mut self, passes: usize) {
        self.work.run(passes);
    }
}

impl CpuWork for cpu2021::Cpu<'_> {
    fn prepare(&mut self, t_pure: f64) -> usize {
        cpu2021::Cpu::prepare(self, t_pure)
    }
    #[inline(always)]
    fn run(&mut self, passes: usize) {
        cpu2021::Cpu::run(self, passes);
    }
}

/// An overlap benchmark's kernel: the operation alone, then with CPU work in between.
pub struct Overlap<O, W> {
    op: O,
    cpu: W,
}

impl<O: Op, W: CpuWork> Measure for Overlap<O, W> {
    type Rec = OverlapTimes;
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<OverlapTimes> {
        let n = n.max(1);
        let (t_pure, mut defect) = pure(&mut self.op, comm, lp, n, check);
        let passes = self.cpu.prepare(t_pure);
        let (op, work) = (&mut self.op, &mut self.cpu);
        let (mut t_ovrl, mut t_cpu) = (0.0, 0.0);
        for i in 0..n {
            let (dt, cpu) = bracket(comm, barriers(i, lp), 1, || {
                let pending = op.start(i);
                let (cpu, ()) = bracket(comm, Barriers::NONE, 1, || work.run(passes));
                pending.wait();
                cpu
            });
            t_ovrl += dt;
            t_cpu += cpu;
            if check {
                defect = defect.max(op.check(i));
            }
        }
        Sample {
            secs: t_ovrl / n as f64,
            defect,
            excluded: false,
            rec: OverlapTimes {
                pure: t_pure,
                cpu: t_cpu / n as f64,
            },
        }
    }
}

/// One IMB-NBC benchmark: its metadata, its pattern, and whether it is the `_pure` variant.
pub struct Nbc<P> {
    pub info: &'static Info,
    pub pure: bool,
    pub pattern: PhantomData<P>,
}

impl<P: Pattern> Benchmark for Nbc<P> {
    fn info(&self) -> &'static Info {
        self.info
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        if self.pure {
            return Box::new(Pure(P::build(c)));
        }
        // `calibrate_for` ran, since this overlap benchmark is selected, and built the
        // calibration of the run's profile.
        let run = c.run;
        match c.method.compat {
            Compat::V30 => Box::new(Overlap {
                op: P::build(c),
                cpu: cpu::Cpu {
                    cal: run
                        .and_then(|r| r.downcast_ref::<cpu::Calibration>())
                        .copied()
                        .unwrap_or_else(cpu::Calibration::measure),
                    work: cpu::Work::default(),
                },
            }),
            Compat::V2021 => Box::new(Overlap {
                op: P::build(c),
                cpu: cpu2021::Cpu::new(run.and_then(|r| r.downcast_ref())),
            }),
        }
    }
}

/// `#bytes #repetitions t_ovrl t_pure t_CPU overlap[%]`: the overlap benchmarks.
pub const OVERLAP: TableKind = TableKind {
    name: "nbc overlap",
    columns: kind::NONBLOCKING_OVERLAP,
    merged: None,
    reduce: &Reduce {
        values: overlap_values,
        notes: kind::no_notes,
    },
};

/// Ibarrier's table: the same without `#bytes`.
pub const OVERLAP_SYNC: TableKind = TableKind {
    name: "nbc overlap sync",
    columns: kind::without_bytes(kind::NONBLOCKING_OVERLAP),
    ..OVERLAP
};

/// The three times of the rank with the largest t_ovrl (the first such rank), and the overlap
/// IMB 2021 derives from them.
fn overlap_values(r: &RowIn<OverlapTimes>) -> Vec<f64> {
    let slowest = r
        .members
        .iter()
        .map(|&m| &r.all[m])
        .filter(|x| !x.excluded)
        .fold(
            None,
            |acc: Option<&RankResult<OverlapTimes>>, x| match acc {
                Some(a) if a.t.0 >= x.t.0 => Some(a),
                _ => Some(x),
            },
        );
    let Some(s) = slowest else {
        return vec![0.0; 4];
    };
    let usec = |secs| Usec::from_secs(secs).0;
    let (ovrl, pure, cpu) = (s.t.0, usec(s.rec.pure), usec(s.rec.cpu));
    vec![ovrl, pure, cpu, overlap_pct(ovrl, pure, cpu)]
}

/// IMB 2021's overlap in percent: the share of the longer of communication and computation that
/// was hidden, `100·max(0, min(1, (t_pure + t_CPU − t_ovrl) / max(t_pure, t_CPU)))`; 0 when
/// both are 0. (IMB-IO divides by the shorter one instead; imb-io keeps that.)
pub fn overlap_pct(t_ovrl: f64, t_pure: f64, t_cpu: f64) -> f64 {
    let m = t_pure.max(t_cpu);
    if m <= 0.0 || m.is_nan() {
        return 0.0;
    }
    100.0 * ((t_pure + t_cpu - t_ovrl) / m).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::stats;
    use imb_core::table::Wire;

    #[test]
    fn overlap_formula_divides_by_the_longer_time() {
        assert_eq!(overlap_pct(100.0, 100.0, 100.0), 100.0);
        assert_eq!(overlap_pct(200.0, 100.0, 100.0), 0.0);
        assert_eq!(overlap_pct(150.0, 100.0, 100.0), 50.0);
        assert_eq!(overlap_pct(300.0, 100.0, 100.0), 0.0);
        assert_eq!(overlap_pct(100.0, 50.0, 100.0), 50.0);
        assert_eq!(overlap_pct(1.0, 0.0, 0.0), 0.0);
    }

    /// t_ovrl in usec, t_pure and t_CPU in seconds, as the kernel reports them.
    fn result(t: f64, pure: f64, cpu: f64) -> RankResult<Wire> {
        RankResult {
            t: Usec(t),
            rec: Wire::encode(&OverlapTimes { pure, cpu }),
            ..RankResult::default()
        }
    }

    #[test]
    fn the_row_is_the_slowest_ranks_own_three_times() {
        let all = [
            result(120.0, 100e-6, 100e-6),
            result(150.0, 90e-6, 80e-6),
            result(10.0, 1e-6, 1e-6),
        ];
        let members = [0, 1];
        let st = stats::over(&all, &members);
        let r = RowIn {
            all: &all,
            members: &members,
            stats: &st,
            x: 8,
            scale_bw: 1.0,
            np: 2,
            megabyte: imb_core::table::Megabyte::IMB30,
        };
        // Rank 1: (90 + 80 - 150) / 90.
        let v = OVERLAP.values(&r);
        let want = [150.0, 90.0, 80.0, 100.0 * 20.0 / 90.0];
        assert!(
            v.iter().zip(want).all(|(v, w)| (v - w).abs() < 1e-9),
            "{v:?}"
        );
        assert_eq!(OVERLAP.columns.len(), v.len() + 2);
        assert_eq!(OVERLAP_SYNC.columns.len(), v.len() + 1);
        assert_eq!(OVERLAP_SYNC.values(&r), v);
    }

    #[test]
    fn barriers_before_every_call() {
        let lp = Loop::imb30(2);
        assert_eq!(barriers(0, lp), Barriers::mpi(2));
        assert_eq!(barriers(1, lp), Barriers::mpi(1));
        assert_eq!(barriers(5, Loop::imb30(0)), Barriers::mpi(1));
        // -sync off: none between calls; -imb_barrier: IMB 2021's own kind.
        let off = Loop {
            barriers: Barriers { n: 2, imb: true },
            timing: Timing::PerCall { sync: false },
        };
        assert_eq!(barriers(0, off), Barriers { n: 2, imb: true });
        assert_eq!(barriers(1, off), Barriers::NONE);
        let on = Loop {
            timing: Timing::PerCall { sync: true },
            ..off
        };
        assert_eq!(barriers(3, on), Barriers { n: 1, imb: true });
    }
}
