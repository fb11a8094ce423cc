//! The header of a run and what it says about the run before it starts: optional-mode lines,
//! the sizes each benchmark asks for, and the lower bound of the run's time.

use super::*;

impl Runner<'_> {
    pub(super) fn header(&self, granted: Threading) -> Header {
        let (machine, system, release, uversion) = sysinfo::uname();
        let p = &self.opts.params;
        let min_max = match &self.opts.lengths {
            Lengths::Ladder => Some((
                if self.opts.zero_size {
                    0
                } else {
                    1 << p.minmsglog
                },
                1usize << p.maxmsglog,
            )),
            // IMB-IO prints its io portion lines whatever -msglen says (doc/OUTPUT.md, "Header").
            Lengths::File { .. } if self.suite.settings == Kind::Io => {
                Some((0, 1usize << p.maxmsglog))
            }
            Lengths::File { .. } => None,
        };
        Header {
            version: env!("CARGO_PKG_VERSION").to_string(),
            part: self.suite.part.to_string(),
            date: sysinfo::date(),
            machine,
            system,
            release,
            uversion,
            mpi_version: sysinfo::mpi_version(),
            thread_env: sysinfo::thread_name(granted).to_string(),
            io: self.suite.settings == settings::Kind::Io,
            min_max,
            info: self.opts.settings.info.clone(),
            notes: self.optional_mode().into_iter().collect(),
        }
    }

    /// The header block that says a run is not in standard mode, and why (None in standard
    /// mode).
    pub(super) fn optional_mode(&self) -> Option<Note> {
        let std = settings::standard(self.suite.settings);
        let p = &self.opts.params;
        let parameters: Vec<Changed> = settings::differences(p, &std)
            .into_iter()
            .map(|(key, value, standard)| Changed {
                key: key.to_string(),
                value,
                standard,
            })
            .collect();
        let adaptive = self.opts.adaptive.map(|a| AdaptiveRule {
            min_timings: a.min_reps,
            max_timings: a.max_reps,
            cutoff_pct: a.cutoff_pct,
        });
        if parameters.is_empty() && self.opts.time.is_none() && adaptive.is_none() {
            return None;
        }
        let by_cli = self.opts.params != self.opts.settings.params
            || self.opts.time.is_some()
            || self.opts.adaptive.is_some();
        let from = match (&self.opts.settings.source, self.opts.settings.optional) {
            (Some(f), true) if by_cli => {
                format!("the [optional] block of {f} and the command line")
            }
            (Some(f), true) => format!("the [optional] block of {f}"),
            _ => "the command line".to_string(),
        };
        Some(Note::OptionalMode {
            from,
            parameters,
            time_cap_s: self.opts.time,
            adaptive,
        })
    }

    /// A lower bound of the run's time on any machine: every repetition costs at least 0.1 µs
    /// plus its bytes at 50 GB/s, every barrier 0.1 µs; warm-up, idle ranks, set-up and MPI's
    /// own costs are left out. Only a bound this far below reality can refuse a run safely.
    pub(super) fn least_secs(&self) -> f64 {
        let p = &self.opts.params;
        let per = |x: usize| 1e-7 + x as f64 / 5e10;
        // -adaptive splits the n_sample loop, so its least cost is the standard run's.
        let rounds = 1.0;
        let mut total = 0.0;
        for &b in &self.opts.benchmarks {
            let bench = self.suite.benchmarks[b];
            let info = bench.info();
            let steps = self
                .steps(info)
                .iter()
                .filter(|s| matches!(s, Step::Run(_)))
                .count() as f64;
            let mut one = 0.0;
            for &mode in info
                .modes
                .iter()
                .filter(|&&m| self.opts.aggregate_mode.runs(m))
            {
                let cap = if mode == Mode::NonAggregate {
                    p.msgs_nonaggr
                } else {
                    p.msgspersample
                };
                for len in self.lengths(bench) {
                    let mut n = lengths::n_sample((info.sample_bytes)(len.x), cap, p.overall_vol);
                    if let Some(t) = self.opts.time {
                        n = n.min(((t / per(len.x)) as usize).max(1));
                    }
                    one += rounds * (n as f64 * per(len.x) + p.n_barr as f64 * 1e-7);
                }
            }
            total += steps * one;
        }
        total
    }

    /// The sizes the ladder or `-msglen` asks of a benchmark, before its own range applies.
    pub(super) fn requested(&self, info: &Info) -> Vec<Len> {
        let p = &self.opts.params;
        let values = match &self.opts.lengths {
            Lengths::Ladder => lengths::default_ladder(p, info.unit, info.second_min),
            Lengths::File { values, .. } => values.clone(),
        };
        lengths::resolve(&values, p, info.unit, info.second_min)
    }

    /// The sizes the run asked for that are outside the benchmark's `min_x..=max_x` (a 0 that
    /// `-zero_size off` removes anyway is not mentioned).
    pub(super) fn outside(&self, bench: &dyn Benchmark) -> Vec<usize> {
        let info = bench.info();
        self.requested(info)
            .into_iter()
            .map(|l| l.x)
            .filter(|&x| !(info.min_x..=info.max_x).contains(&x))
            .filter(|&x| x != 0 || self.opts.zero_size)
            .collect()
    }

    /// The lengths of one benchmark's tables.
    pub(super) fn lengths(&self, bench: &dyn Benchmark) -> Vec<Len> {
        let info = bench.info();
        let mut lens = self.requested(info);
        lens.retain(|l| (info.min_x..=info.max_x).contains(&l.x));
        if info.class == Class::Sync {
            // One row, whose repetition count comes from the first length (3.0: with the
            // ladder that is 0; with -msglen, the file's first entry). -zero_size is about
            // message sizes, which Sync benchmarks do not have.
            lens.truncate(1);
        } else if !self.opts.zero_size {
            lens.retain(|l| l.x != 0);
        }
        lens
    }
}
