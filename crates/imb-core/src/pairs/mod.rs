//! Ours beside raw: the paired method of the harness-overhead examples (doc/METHODOLOGY.md).
//!
//! On a small shared machine two launches of one binary differ by far more than the few per
//! cent a harness could cost, so each example times, in one launch, a registered benchmark as
//! the driver does (`timed`: `Benchmark::kernel`, then `Timed::run`) alternating with a raw-FFI
//! loop of the same pattern, and prints the median of the per-pair ratios. This module owns
//! what the examples share: the pairing (`alternate`), the ratio statistics (`Pairs::summary`)
//! and the printed table (`Table`); an example keeps only its kernel set-up and its raw loop.
//! Nothing here runs between a side's timer reads: the sides are closures, called whole.

use crate::bench::Mode;
use crate::buffers::Buffer;
use crate::kernel::{Benchmark, Comm, Ctx, Loop, Sample};
use crate::method::Method;
use crate::settings::Params;
use crate::table::Wire;
use mpi::collective::SystemOperation;
use mpi::traits::*;
use std::any::Any;

mod example;
mod stats;
mod table;
#[cfg(test)]
mod tests;

pub use example::{find, intro, one_sided_cases, start, Example};
pub use stats::{median, Goal, Summary};
pub use table::Table;

/// What the driver hands a kernel besides its buffers and parameters: the method, the value
/// `Benchmark::prepare` returned for the step and the suite's run state (`Hooks::run_state`).
#[derive(Clone, Copy)]
pub struct Handed<'a> {
    pub method: &'a Method,
    pub prep: Option<&'a dyn Any>,
    pub run: Option<&'a dyn Any>,
}

impl Handed<'_> {
    /// IMB 3.0's method, no prepared value, no run state: what most kernels need.
    pub const IMB30: Handed<'static> = Handed {
        method: &Method::IMB30,
        prep: None,
        run: None,
    };
}

/// One measurement of `b` at (X, mode, n) as the driver's `Active::time` takes it: the kernel
/// built untimed for this rank of `comm`, then `Timed::run` with the settings' N_BARR. A
/// family's figures are in the sample's record (`Wire::decode`).
pub fn timed(
    b: &dyn Benchmark,
    comm: &Comm,
    params: &Params,
    case: (usize, Mode, usize),
    send: &Buffer,
    recv: &mut Buffer,
) -> Sample<Wire> {
    timed_with(b, comm, params, case, send, recv, Handed::IMB30)
}

/// `timed` of a kernel that needs what its step prepared or the run's state (imb-p2p's
/// options, imb-mt's threads' communicators).
pub fn timed_with(
    b: &dyn Benchmark,
    comm: &Comm,
    params: &Params,
    (x, mode, n): (usize, Mode, usize),
    send: &Buffer,
    recv: &mut Buffer,
    handed: Handed,
) -> Sample<Wire> {
    let mut k = b.kernel(Ctx {
        comm,
        rank: comm.rank() as usize,
        size: comm.size() as usize,
        x,
        mode,
        send: send.bytes(),
        recv: recv.bytes_mut(),
        params,
        method: handed.method,
        rot: crate::method::Rotations::NONE,
        info: &[],
        prep: handed.prep,
        run: handed.run,
    });
    k.run(comm, Loop::imb30(params.n_barr), n, false)
}

/// How one side's seconds on this rank become the pair's figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// The slowest rank's, as the tables report: an all-reduce (maximum) right after each side.
    Slowest,
    /// This rank's own (the origin of a passive-target pattern, whose target does not time).
    Local,
}

/// Both sides' figures in seconds, in pair order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pairs {
    pub ours: Vec<f64>,
    pub raw: Vec<f64>,
}

/// Runs each side once as a warm-up, its figure discarded (the driver also warms up before the
/// first size), then `pairs` pairs, alternating which side goes first so that drift within a pair
/// favours neither. Both sides get `state` (the buffers both of them write).
pub fn alternate<S>(
    comm: &Comm,
    pairs: usize,
    figure: Figure,
    state: &mut S,
    mut ours: impl FnMut(&mut S) -> f64,
    mut raw: impl FnMut(&mut S) -> f64,
) -> Pairs {
    let fig = |t: f64| match figure {
        Figure::Slowest => {
            let mut m = 0.0;
            comm.all_reduce_into(&t, &mut m, SystemOperation::max());
            m
        }
        Figure::Local => t,
    };
    ours(state);
    raw(state);
    let mut p = Pairs {
        ours: Vec::with_capacity(pairs),
        raw: Vec::with_capacity(pairs),
    };
    for i in 0..pairs {
        let (o, r) = if i % 2 == 0 {
            let o = fig(ours(state));
            (o, fig(raw(state)))
        } else {
            let r = fig(raw(state));
            (fig(ours(state)), r)
        };
        p.ours.push(o);
        p.raw.push(r);
    }
    p
}

/// One example's pairing: where, how many pairs, which figure, and whether each side starts
/// from a zeroed receive buffer (untimed, as the driver's `Active::time` does for the one-sided
/// families).
#[derive(Clone, Copy)]
pub struct Pairing<'a> {
    pub comm: &'a Comm,
    pub params: &'a Params,
    pub pairs: usize,
    pub figure: Figure,
    pub zero_recv: bool,
}

impl<'a> Pairing<'a> {
    /// The slowest rank's figure, buffers as they are.
    pub fn new(comm: &'a Comm, params: &'a Params, pairs: usize) -> Pairing<'a> {
        Pairing {
            comm,
            params,
            pairs,
            figure: Figure::Slowest,
            zero_recv: false,
        }
    }

    /// `alternate` of `b` timed as the driver does at `case` against the raw loop `raw`.
    pub fn versus(
        &self,
        b: &dyn Benchmark,
        case: (usize, Mode, usize),
        bufs: &mut (Buffer, Buffer),
        mut raw: impl FnMut(&Buffer, &mut Buffer) -> f64,
    ) -> Pairs {
        let zero = |r: &mut Buffer| {
            if self.zero_recv {
                let len = r.len();
                r.zero(len);
            }
        };
        let (comm, params) = (self.comm, self.params);
        alternate(
            comm,
            self.pairs,
            self.figure,
            bufs,
            |(s, r)| {
                zero(r);
                timed(b, comm, params, case, s, r).secs
            },
            |(s, r)| {
                zero(r);
                raw(s, r)
            },
        )
    }
}
