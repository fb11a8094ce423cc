//! Measuring one size: the timed loop on an active rank, `-adaptive`'s timings, and what a
//! table collects besides its rows.

use super::*;
use crate::method::{self, IterPolicy, Rotations, WarmUp};

/// What every size of a step shares on this rank.
pub(super) struct StepRun<'a> {
    pub(super) bench: &'a dyn Benchmark,
    pub(super) layout: &'a Layout,
    pub(super) sizes: &'a Sizes,
    /// (group, rank in group) on an active rank, None on an idle one.
    pub(super) role: Option<(usize, usize)>,
    pub(super) comm: Option<Comm>,
    pub(super) bufs: Option<(Buffer, Buffer)>,
    /// What `Benchmark::prepare` returned; dropped with the step (IO: removes the files).
    pub(super) prep: Option<Box<dyn std::any::Any>>,
    /// The dynamic policy's counts of the table's sizes measured so far: (X, n_sample).
    pub(super) counts: Vec<(usize, usize)>,
    /// Seconds this rank's last timed loop took (`-msg_pause`).
    pub(super) took: f64,
    /// Seconds per repetition of the last size this rank timed (the long-size line's
    /// estimate), and false: not an upper bound (`report::long_size_line`).
    pub(super) last_rep: Option<(f64, bool)>,
    /// `-off_cache` has written copies into the send buffer, so the pattern may be gone
    /// from the bytes the next size sends (a copy of a smaller size lies inside a larger
    /// one's message).
    pub(super) replicated: bool,
}

impl Runner<'_> {
    /// Measure size `k` in mode `m` of a step: warm-up before the first size, the `-time`
    /// cap, then one timed loop or `-adaptive`'s timings. Every world rank takes part (idle
    /// ranks with nothing to time). Returns this rank's result, the repetitions per timed
    /// loop, and `-adaptive`'s note for the size.
    pub(super) fn measure_size(
        &self,
        step: &mut StepRun,
        m: usize,
        k: usize,
    ) -> (RankResult<Wire>, usize, Option<Note>) {
        let (sizes, info) = (step.sizes, step.bench.info());
        let (len, mode) = (&sizes.lens[k], sizes.modes[m]);
        let x = sizes.x(len);
        let p = &self.opts.params;
        let mut n = sizes.n_sample[m][k];
        let rot = sizes.rot[m][k];
        if let (Some((s, r)), Some((_, pos))) = (step.bufs.as_mut(), step.role) {
            // A size after one with copies needs the pattern back, copies or not.
            if step.replicated {
                (self.suite.hooks.fill)(s, pos);
                step.replicated = false;
            }
            if rot.send.copies > 1 {
                s.replicate(rot.send);
                step.replicated = true;
            }
            // No copy keeps an earlier size's data (each run clears the first: `Active::time`).
            r.zero(rot.recv.bytes());
        }
        let mut active = match (&step.comm, step.bufs.as_mut(), step.role) {
            (Some(c), Some((s, r)), Some((_, pos))) => Some(Active {
                bench: step.bench,
                comm: c,
                pos,
                np: step.layout.np,
                send: s,
                recv: r,
                params: p,
                lp: Loop {
                    barriers: Barriers {
                        n: p.n_barr,
                        imb: self.opts.method.imb_barrier,
                    },
                    timing: self.opts.method.timing,
                },
                method: &self.opts.method,
                rot: Rotations::NONE,
                info_hints: &self.opts.settings.info,
                prep: step.prep.as_deref(),
                run: self.run_state.as_deref(),
            }),
            _ => None,
        };
        let method = &self.opts.method;
        let warm = self.suite.hooks.warm_up;
        if k == sizes.first && warm && method.warm_up == WarmUp::Largest && sizes.warm_n > 0 {
            if let Some(a) = active.as_mut() {
                a.time(sizes.warm_x, sizes.warm_mode, sizes.warm_n, false);
            }
        }
        // Every run of the size from here on, probes and warm-up included, moves through
        // its copies, as in IMB 2021.
        if let Some(a) = active.as_mut() {
            a.rot = rot;
        }
        if k == sizes.first {
            step.counts.clear();
        }
        let policy = method.iter_policy.for_bench(info.rooted);
        let mut rep = step.last_rep;
        let least = self.size_least((step.bench, step.layout, sizes), (m, k));
        // Outside the dynamic policy, -time is imb-rs's cap (IMB 2021 uses it only for a
        // time-out there), so the untimed runs below are capped too.
        if let (Some(limit), false) = (self.opts.time, policy == IterPolicy::Dynamic) {
            // The better of two single repetitions, so one cold outlier does not decide the
            // count; the slowest rank decides for all.
            let probe = active.as_mut().map_or(0.0, |a| {
                let t1 = a.time(x, mode, 1, false).secs;
                let t2 = a.time(x, mode, 1, false).secs;
                t1.min(t2)
            });
            let worst = comm::max_all(self.world, probe);
            n = n.min(((limit / worst.max(1e-9)) as usize).max(1));
            rep = Some((worst, true));
        } else if policy != IterPolicy::Dynamic && least.total() >= PROBE_SECS {
            // A size of a second or more on any machine: one untimed repetition first, so the
            // long-size line can say what this machine makes of it. The plan decides, so every
            // rank takes part.
            let probe = active
                .as_mut()
                .map_or(0.0, |a| a.time(x, mode, 1, false).secs);
            rep = Some((comm::max_all(self.world, probe), true));
        }
        if self.rank == 0 {
            self.say_if_long((info, step.layout.np, sizes), (k, n), &least, rep);
        }
        match policy {
            IterPolicy::Dynamic => {
                let secs = self.opts.time.unwrap_or(method::DYNAMIC_SECS);
                let earlier = if info.class == Class::Sync {
                    &[][..]
                } else {
                    &step.counts[..]
                };
                n = self.dynamic(&mut active, (x, mode, n), secs, earlier);
                step.counts.push((x, n));
            }
            // IMB 2021 runs the whole loop once, untimed, before the warm-up.
            IterPolicy::Off | IterPolicy::MultipleNp => {
                if let Some(a) = active.as_mut() {
                    a.time(x, mode, n, false);
                }
            }
            IterPolicy::Volume | IterPolicy::Auto => {}
        }
        if warm && method.warm_up == WarmUp::EverySize {
            if let Some(a) = active.as_mut() {
                // n_sample/10 of the size itself; none for a count of 1, as in IMB 2021.
                let w = if n > 1 { (n / 10).max(1) } else { 0 };
                if w > 0 {
                    a.time(x, sizes.warm_mode, w, false);
                }
            }
        }
        let check = self.opts.check;
        let started = std::time::Instant::now();
        let out = match self.opts.adaptive {
            None => {
                let r = active.as_mut().map_or(RankResult::default(), |a| {
                    rank_result(&[a.time(x, mode, n, check)], info.scale_time)
                });
                (r, n, None)
            }
            Some(ad) => {
                let (r, note, reps) = adaptive_size(
                    self.world,
                    &mut active,
                    ad,
                    (x, mode, n, check),
                    info.scale_time,
                );
                let bytes = (info.class != Class::Sync).then_some(len.x);
                (r, reps, Some(note(bytes)))
            }
        };
        step.took = started.elapsed().as_secs_f64();
        step.last_rep = Some((step.took / out.1.max(1) as f64, false));
        out
    }

    /// IMB 2021's dynamic policy at one size: one repetition, then about a second's worth,
    /// each the slowest rank's time, and from the second the count of `secs` seconds, at most
    /// the volume rule's `selected` and monotonic with the sizes measured before (`method::
    /// dynamic_count`). Every world rank takes part, so all get the same count. Untimed
    /// probes: nothing of them reaches the table.
    fn dynamic(
        &self,
        active: &mut Option<Active>,
        (x, mode, selected): (usize, Mode, usize),
        secs: f64,
        earlier: &[(usize, usize)],
    ) -> usize {
        let mut probe = |reps: usize| {
            let t = active
                .as_mut()
                .map_or(0.0, |a| a.time(x, mode, reps, false).secs);
            comm::max_all(self.world, t)
        };
        let mut t = probe(1);
        let reps = method::dynamic_probe(t, selected);
        if reps > 1 {
            t = probe(reps);
        }
        method::dynamic_count(t, secs, selected, x, earlier)
    }

    /// The least time of size `k` of mode `m` on any machine, by part (`plan::size_least`).
    fn size_least(
        &self,
        (bench, layout, sizes): (&dyn Benchmark, &Layout, &Sizes),
        (m, k): (usize, usize),
    ) -> plan::Parts {
        let at = plan::SizeAt {
            info: bench.info(),
            layout,
            sizes,
            m,
            k,
        };
        plan::size_least(at, &self.opts, around(self.suite, &self.opts)).0
    }

    /// Rank 0, before a size's loops: the line of a size expected to run past a minute
    /// (`report::long_size_line`), from its least time on any machine and, once the run has
    /// timed repetitions (this size's probe, an upper bound, or the size before), `rep`
    /// seconds each: n of them per pass, capped as the run caps them, a pass more for `-iter_policy off`'s
    /// untimed loop and for `-msg_pause`'s sleep.
    fn say_if_long(
        &self,
        (info, np, sizes): (&Info, usize, &Sizes),
        (k, n): (usize, usize),
        least: &plan::Parts,
        rep: Option<(f64, bool)>,
    ) {
        let expected = rep.map(|(r, upper)| (plan::expected(least, info, n, r, &self.opts), upper));
        let bytes = (info.class != Class::Sync).then_some(sizes.lens[k].x);
        let what = (info.name, np, bytes);
        if let Some(line) = long_size_line(self.suite.exe, what, n, least.total(), expected) {
            eprint!("{line}");
        }
    }
}

/// A size whose least time on any machine reaches this is probed by one untimed repetition
/// before its loops, for the long-size line's estimate.
const PROBE_SECS: f64 = 1.0;

/// An active rank's view of one step: builds a kernel for a size and times it.
pub(super) struct Active<'a> {
    pub(super) bench: &'a dyn Benchmark,
    pub(super) comm: &'a Comm,
    pub(super) pos: usize,
    pub(super) np: usize,
    pub(super) send: &'a Buffer,
    pub(super) recv: &'a mut Buffer,
    pub(super) params: &'a Params,
    pub(super) lp: Loop,
    pub(super) method: &'a crate::method::Method,
    /// `-off_cache`'s copies for the size being measured (none for the warm-up).
    pub(super) rot: Rotations,
    pub(super) info_hints: &'a [(String, String)],
    pub(super) prep: Option<&'a dyn std::any::Any>,
    pub(super) run: Option<&'a dyn std::any::Any>,
}

impl Active<'_> {
    pub(super) fn time(&mut self, x: usize, mode: Mode, n: usize, check: bool) -> Sample<Wire> {
        let info = self.bench.info();
        let rlen = info
            .bufs_for(self.method.compat)
            .lens(x, self.np, self.params.overall_vol)
            .1;
        // Check mode must not read what an earlier run of the size left in a copy, so it
        // clears them all. A run without it clears the first copy only, as without
        // `-off_cache`: clearing every copy right before the timer would fill the cache with
        // dirty lines for the loop to evict (IMB 2021 never clears its copies between runs;
        // `measure_size` clears them once per size).
        let copies = if check { self.rot.recv.bytes() } else { 0 };
        self.recv.zero(rlen.max(copies));
        let mut k = self.bench.kernel(Ctx {
            comm: self.comm,
            rank: self.pos,
            size: self.np,
            x,
            mode,
            send: self.send.bytes(),
            recv: self.recv.bytes_mut(),
            params: self.params,
            method: self.method,
            rot: self.rot,
            info: self.info_hints,
            prep: self.prep,
            run: self.run,
        });
        debug_assert!(
            k.record() == info.table.reduce.record(),
            "{}: its kernel reports another record than its table kind reads",
            info.name
        );
        k.run(self.comm, self.lp, n, check)
    }
}

/// One rank's result from its samples of one size: the single sample outside `-adaptive`, the
/// median one under it (`imb_core::settle` says why the median), with the worst check of all.
/// The median is one whole sample, not a median of each field, so a family's record and time
/// (t_ovrl, t_pure and t_CPU of a non-blocking IO row, white-box sections) come from one
/// measurement. The record is passed on as the kernel wrote it; its table kind converts it.
pub(super) fn rank_result(samples: &[Sample<Wire>], scale_time: f64) -> RankResult<Wire> {
    let Some(mid) = crate::settle::median_index(samples.len(), |a, b| {
        samples[a].secs.total_cmp(&samples[b].secs)
    }) else {
        return RankResult::default();
    };
    let s = &samples[mid];
    let defect = samples
        .iter()
        .fold(crate::buffers::Defect::NONE, |d, s| d.max(s.defect));
    RankResult {
        t: Usec::from_secs(s.secs * scale_time),
        defect: defect.value,
        pos: defect.pos,
        excluded: samples.iter().any(|s| s.excluded),
        rec: s.rec,
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
) -> (RankResult<Wire>, impl FnOnce(Option<usize>) -> Note, usize) {
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
    pub(super) defects: Vec<Note>,
    pub(super) unsuccessful: bool,
    /// `-adaptive`: one note per size (its median, interval and timings).
    pub(super) adaptive: Vec<Note>,
    /// Every measured size's gathered results, for the table kind's notes.
    pub(super) sizes: Vec<SizeResults>,
}

impl TableOut {
    pub(super) fn notes(
        &self,
        info: &Info,
        (layout, sizes): (&Layout, &Sizes),
        multi: Option<Multi>,
        mem: Option<f64>,
    ) -> Vec<Note> {
        let np = layout.np;
        let mut notes = self.defects.clone();
        notes.extend(info.table.notes(&TableIn {
            sizes: &self.sizes,
            layout,
            multi,
        }));
        notes.extend(self.adaptive.iter().cloned());
        let skipped = sizes.skipped();
        if !skipped.is_empty() {
            notes.push(Note::SkippedByMem {
                sizes: skipped,
                mem_bytes: mem.unwrap_or(0.0),
                processes: np,
            });
        }
        notes
    }
}
