//! Measuring one size: the step's size plan, the timed loop on an active rank, `-adaptive`'s
//! timings, and what a table collects besides its rows.

use super::*;

/// The sizes of one plan step and how they are run.
pub(super) struct StepPlan {
    pub(super) lens: Vec<Len>,
    /// Whether each size is measured (false: skipped by `-mem`).
    pub(super) measured: Vec<bool>,
    /// The first measured size: warm-up happens before it.
    pub(super) first: usize,
    /// Warm-up size: 2^MAXMSGLOG (guide 5.2.6), or the largest size that fits `-mem`.
    pub(super) warm_x: usize,
    pub(super) warm_mode: Mode,
    /// Buffers are sized for this message length.
    pub(super) buf_x: usize,
    pub(super) sync: bool,
    pub(super) msgspersample: usize,
    pub(super) msgs_nonaggr: usize,
    pub(super) nonaggr_cap: bool,
}

impl StepPlan {
    pub(super) fn new(opts: &Options, info: &Info, layout: &Layout, lens: Vec<Len>) -> Self {
        let sync = info.class == Class::Sync;
        let need = |x: usize| {
            let (s, r) = info.bufs.lens(x, layout.np, opts.params.overall_vol);
            (s + r) as f64
        };
        let fits = |x: usize| {
            sync || ((info.min_x..=info.max_x).contains(&x)
                && opts.mem.is_none_or(|m| need(x) <= m))
        };
        let measured: Vec<bool> = lens.iter().map(|l| fits(l.x)).collect();
        let top = lengths::maxmsg(&opts.params, info.unit);
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
        let buf_x = lens
            .iter()
            .filter(|l| !sync && fits(l.x))
            .map(|l| l.x)
            .chain([warm_x])
            .max()
            .unwrap_or(0);
        StepPlan {
            first: measured.iter().position(|&m| m).unwrap_or(0),
            measured,
            lens,
            warm_x,
            // Warm-up always uses the aggregate variant where one exists (doc/METHODOLOGY.md,
            // "Warm-up").
            warm_mode: if info.modes.contains(&Mode::Aggregate) {
                Mode::Aggregate
            } else {
                info.modes[0]
            },
            buf_x,
            sync,
            msgspersample: opts.params.msgspersample,
            msgs_nonaggr: opts.params.msgs_nonaggr,
            nonaggr_cap: info.nonaggr_cap,
        }
    }
    /// The repetition cap x of a mode (doc/METHODOLOGY.md, "Repetitions").
    pub(super) fn cap(&self, mode: Mode) -> usize {
        if self.nonaggr_cap || mode == Mode::NonAggregate {
            self.msgs_nonaggr
        } else {
            self.msgspersample
        }
    }
    /// The size handed to the kernel (Sync benchmarks move no data).
    pub(super) fn x(&self, len: &Len) -> usize {
        if self.sync {
            0
        } else {
            len.x
        }
    }
}

/// An active rank's view of one step: builds a kernel for a size and times it.
pub(super) struct Active<'a> {
    pub(super) bench: &'a dyn Benchmark,
    pub(super) comm: &'a Comm,
    pub(super) pos: usize,
    pub(super) np: usize,
    pub(super) send: &'a Buffer,
    pub(super) recv: &'a mut Buffer,
    pub(super) params: &'a Params,
    pub(super) info_hints: &'a [(String, String)],
    pub(super) prep: Option<&'a dyn std::any::Any>,
    pub(super) cpu: Option<&'a Calibration>,
}

impl Active<'_> {
    pub(super) fn time(&mut self, x: usize, mode: Mode, n: usize, check: bool) -> Sample {
        let info = self.bench.info();
        self.recv
            .zero(info.bufs.lens(x, self.np, self.params.overall_vol).1);
        let mut k = self.bench.kernel(Ctx {
            comm: self.comm,
            rank: self.pos,
            size: self.np,
            x,
            mode,
            send: self.send.bytes(),
            recv: self.recv.bytes_mut(),
            params: self.params,
            info: self.info_hints,
            prep: self.prep,
            cpu: self.cpu,
        });
        k.run(self.comm, self.params.n_barr, n, check)
    }
}

/// One rank's result from its samples of one size: the single sample outside `-adaptive`, the
/// median one under it (`imb_core::settle` says why the median), with the worst check of all.
/// The median is one whole sample, not a median of each field, so t_ovrl, t_pure and t_CPU of
/// a non-blocking IO row (and white-box sections) still come from one measurement and add up.
pub(super) fn rank_result(samples: &[Sample], scale_time: f64) -> RankResult {
    let Some(mid) = crate::settle::median_index(samples.len(), |a, b| {
        samples[a].secs.total_cmp(&samples[b].secs)
    }) else {
        return RankResult::default();
    };
    let s = &samples[mid];
    let defect = samples
        .iter()
        .fold(crate::buffers::Defect::NONE, |d, s| d.max(s.defect));
    let mut parts = [0.0; crate::kernel::PARTS];
    for (p, v) in parts.iter_mut().zip(s.parts) {
        *p = v * 1e6;
    }
    RankResult {
        t: Usec::from_secs(s.secs * scale_time),
        defect: defect.value,
        pos: defect.pos,
        pure: Usec::from_secs(s.pure),
        cpu: Usec::from_secs(s.cpu),
        excluded: samples.iter().any(|s| s.excluded),
        parts,
    }
}

/// `-adaptive`: the n_sample loop split into `min_reps` timings of `ceil(n / min_reps)`
/// repetitions, more added under `imb_core::settle`'s rule. Every world rank takes part in
/// every timing (idle ranks with 0), and the rule is applied to the slowest rank's time, which
/// all ranks share, so all ranks stop together. Returns this rank's median result, the note
/// for the size (median of the slowest rank's timings, interval, count) and the repetitions
/// timed in all.
pub(super) fn adaptive_size(
    world: &Comm,
    active: &mut Option<Active>,
    ad: cli::Adaptive,
    (x, mode, n, check): (usize, Mode, usize, bool),
    scale_time: f64,
) -> (RankResult, impl FnOnce(Option<usize>) -> Note, usize) {
    let rule = crate::settle::Rule {
        cutoff_pct: ad.cutoff_pct,
        min_timings: ad.min_reps,
        max_timings: ad.max_reps,
    };
    let per = n.div_ceil(ad.min_reps.max(1)).max(1);
    let mut own = Vec::with_capacity(ad.max_reps);
    let mut scratch = Vec::with_capacity(ad.max_reps);
    let mut timing = || {
        let secs = match active.as_mut() {
            Some(a) => {
                let s = a.time(x, mode, per, check);
                own.push(s);
                s.secs
            }
            None => 0.0,
        };
        comm::max_all(world, secs)
    };
    let e = crate::settle::run(&rule, &mut timing, &mut scratch);
    let us = move |s: f64| s * scale_time * 1e6;
    let note = move |bytes| Note::Adaptive {
        bytes,
        median_us: us(e.median),
        coverage_pct: 100.0 * e.coverage,
        lo_us: us(e.lo),
        hi_us: us(e.hi),
        timings: e.timings,
        reps_per_timing: per,
        unsettled: (!e.settled).then(|| Unsettled {
            half_width_pct: 50.0 * (e.hi - e.lo) / e.median,
            cutoff_pct: ad.cutoff_pct,
        }),
    };
    let r = if own.is_empty() {
        RankResult::default()
    } else {
        rank_result(&own, scale_time)
    };
    (r, note, e.timings * per)
}

/// What one table collected besides its rows.
#[derive(Default)]
pub(super) struct TableOut {
    pub(super) skipped: Vec<usize>,
    pub(super) defects: Vec<Note>,
    pub(super) unsuccessful: bool,
    /// `-adaptive`: one note per size (its median, interval and timings).
    pub(super) adaptive: Vec<Note>,
    /// Sphinx latencies: the slowest rank of each size, and UNRELIABLE corrections.
    pub(super) latency: Vec<Note>,
    /// White-box: the section timers' min/max/avg of each size.
    pub(super) sections: Vec<crate::whitebox::SectionsRow>,
}

impl TableOut {
    pub(super) fn notes(&self, info: &Info, mem: Option<f64>, np: usize) -> Vec<Note> {
        let mut notes = self.defects.clone();
        notes.extend(self.latency.iter().cloned());
        notes.extend(crate::whitebox::sections_note(
            info.sections,
            &self.sections,
        ));
        notes.extend(self.adaptive.iter().cloned());
        if !self.skipped.is_empty() {
            notes.push(Note::SkippedByMem {
                sizes: self.skipped.clone(),
                mem_bytes: mem.unwrap_or(0.0),
                processes: np,
            });
        }
        notes
    }
}
