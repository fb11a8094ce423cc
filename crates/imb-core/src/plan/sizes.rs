//! The sizes of one step and how each is run: which sizes `-mem` skips, the repetition count
//! n_sample of every mode and size (guide 5.2.2), the warm-up size and the buffer length.

use crate::bench::{Class, Info, Mode};
use crate::cli::Options;
use crate::lengths::{self, Len};
use crate::method::{self, IterPolicy, Rotations};

/// The sizes of one plan step.
#[derive(Debug, Clone, PartialEq)]
pub struct Sizes {
    pub lens: Vec<Len>,
    /// Whether each size is measured (false: skipped by `-mem`).
    pub measured: Vec<bool>,
    /// The first measured size: warm-up happens before it.
    pub first: usize,
    /// Warm-up size: 2^MAXMSGLOG (guide 5.2.6), or the largest size that fits `-mem`.
    pub warm_x: usize,
    /// Warm-up repetitions: N_WARMUP, at most the volume rule's count at `warm_x`, so a
    /// pattern that places repetition i at i·X (imb-ext's AGGREGATE mode) stays inside
    /// buffers sized for OVERALL_VOL however small that is.
    pub warm_n: usize,
    /// Warm-up always uses the aggregate variant where one exists (doc/METHODOLOGY.md,
    /// "Warm-up").
    pub warm_mode: Mode,
    /// Buffers are sized for this message length (span·X of the largest X: `Options::span`).
    pub buf_x: usize,
    /// (send, receive) bytes of the buffers: those of `buf_x`, or more for `-off_cache`'s
    /// copies.
    pub buf_bytes: (usize, usize),
    /// The modes that run, in table order (`-aggregate_mode` applied).
    pub modes: Vec<Mode>,
    /// n_sample of each mode (as `modes`) and size (as `lens`).
    pub n_sample: Vec<Vec<usize>>,
    /// `-off_cache`'s copies of each mode and size (as `n_sample`), from its count before
    /// the dynamic policy lowers it, as in IMB 2021. None for a Sync benchmark.
    pub rot: Vec<Vec<Rotations>>,
    /// The largest n_sample·X over the measured sizes and modes (IO: bytes a file must hold).
    pub volume: usize,
    sync: bool,
}

impl Sizes {
    /// The sizes `lens` of `info` on steps of `np` processes.
    pub fn new(opts: &Options, info: &Info, np: usize, lens: Vec<Len>) -> Self {
        let p = &opts.params;
        let sync = info.class == Class::Sync;
        // A family whose elements lie apart (`Options::span`) needs span·X of buffer per X.
        let span = opts.span.max(1);
        let lens_of = |x: usize| {
            info.bufs_for(opts.method.compat)
                .lens(span * x, np, p.overall_vol)
        };
        let modes: Vec<Mode> = info
            .modes
            .iter()
            .copied()
            .filter(|&m| opts.aggregate_mode.runs(m))
            .collect();
        // The repetition cap of a mode (doc/METHODOLOGY.md, "Repetitions").
        let cap = |m: Mode| {
            if info.nonaggr_cap || m == Mode::NonAggregate {
                p.msgs_nonaggr
            } else {
                p.msgspersample
            }
        };
        // `-iter_policy`: the dynamic policy starts from the volume rule's count and lowers it
        // when the size is measured (`driver::measure`).
        let policy = opts.method.iter_policy.for_bench(info.rooted);
        let volume_rule =
            |m: Mode, x: usize| (info.volume_rule)((info.sample_bytes)(x), cap(m), p.overall_vol);
        let count = |m: Mode, x: usize| match policy {
            IterPolicy::Volume => volume_rule(m, x),
            // IMB 2021 gives a Sync benchmark its cap whatever the policy.
            _ if sync => cap(m),
            IterPolicy::Off => p.msgspersample,
            IterPolicy::MultipleNp => method::multiple_np(p.msgspersample, p.maxmsglog, x, np),
            IterPolicy::Dynamic | IterPolicy::Auto => volume_rule(m, x),
        };
        // IMB 2021 never moves a Sync benchmark's (empty) buffers.
        let rot = |m: Mode, x: usize| match opts.method.off_cache {
            Some(_) if !sync => Rotations::new(opts.method.off_cache, lens_of(x), count(m, x)),
            _ => Rotations::NONE,
        };
        // What the buffers of size x need in the mode that needs most (-mem's measure).
        let bytes = |x: usize| {
            let (s, r) = lens_of(x);
            modes.iter().fold((s, r), |(s, r), &m| {
                let (rs, rr) = rot(m, x).bytes();
                (s.max(rs), r.max(rr))
            })
        };
        let need = |x: usize| {
            let (s, r) = bytes(x);
            (s + r) as f64
        };
        let fits = |x: usize| {
            sync || ((info.min_x..=info.max_x).contains(&x)
                && opts.mem.is_none_or(|m| need(x) <= m))
        };
        let measured: Vec<bool> = lens.iter().map(|l| fits(l.x)).collect();
        let top = lengths::maxmsg(p, info.unit);
        let warm_x = if sync {
            0
        } else if fits(top) {
            top
        } else {
            lens.iter()
                .map(|l| l.x)
                .filter(|&x| fits(x))
                .max()
                .unwrap_or(0)
        };
        let warm_mode = if info.modes.contains(&Mode::Aggregate) {
            Mode::Aggregate
        } else {
            info.modes[0]
        };
        let warm_n = if sync {
            p.n_warmup
        } else {
            p.n_warmup.min(volume_rule(warm_mode, warm_x))
        };
        let buf_x = lens
            .iter()
            .filter(|l| !sync && fits(l.x))
            .map(|l| l.x)
            .chain([warm_x])
            .max()
            .unwrap_or(0)
            * span;
        let buf_bytes = lens
            .iter()
            .zip(&measured)
            .filter(|(_, &m)| m && opts.method.off_cache.is_some())
            .map(|(l, _)| bytes(l.x))
            .fold(
                info.bufs_for(opts.method.compat)
                    .lens(buf_x, np, p.overall_vol),
                |(s, r), (bs, br)| (s.max(bs), r.max(br)),
            );
        let n_sample: Vec<Vec<usize>> = modes
            .iter()
            .map(|&m| lens.iter().map(|l| count(m, l.x)).collect())
            .collect();
        let rot: Vec<Vec<Rotations>> = modes
            .iter()
            .map(|&m| lens.iter().map(|l| rot(m, l.x)).collect())
            .collect();
        let volume = n_sample
            .iter()
            .flat_map(|ns| {
                ns.iter()
                    .zip(&lens)
                    .zip(&measured)
                    .filter(|(_, &m)| m)
                    .map(|((n, l), _)| n * l.x)
            })
            .max()
            .unwrap_or(0);
        Sizes {
            first: measured.iter().position(|&m| m).unwrap_or(0),
            measured,
            lens,
            warm_x,
            warm_n,
            warm_mode,
            buf_x,
            buf_bytes,
            modes,
            n_sample,
            rot,
            volume,
            sync,
        }
    }

    /// The size handed to the kernel (Sync benchmarks move no data).
    pub fn x(&self, len: &Len) -> usize {
        if self.sync {
            0
        } else {
            len.x
        }
    }

    /// The sizes `-mem` left out.
    pub fn skipped(&self) -> Vec<usize> {
        self.lens
            .iter()
            .zip(&self.measured)
            .filter(|(_, &m)| !m)
            .map(|(l, _)| l.x)
            .collect()
    }
}
