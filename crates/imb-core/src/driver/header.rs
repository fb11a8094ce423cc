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
            optional: self.optional_lines(),
            info: self.opts.settings.info.clone(),
            warnings: Vec::new(),
        }
    }

    /// The header lines that say a run is not in standard mode, and why.
    pub(super) fn optional_lines(&self) -> Vec<String> {
        let std = settings::standard(self.suite.settings);
        let p = &self.opts.params;
        let mut diffs: Vec<String> = settings::differences(p, &std)
            .into_iter()
            .map(|(key, v, s)| format!("  {key} = {v} (standard {s})"))
            .collect();
        if let Some(t) = self.opts.time {
            diffs.push(format!(
                "  repetitions capped by -time {t} s per message size"
            ));
        }
        if let Some(a) = self.opts.adaptive {
            diffs.push(format!(
                "  -adaptive: each size's n_sample loop is split into {} timings, and timings are \
                 added (at most {}) until the 95 % confidence interval of their median is within \
                 +-{} %; rows show each rank's median",
                a.min_reps, a.max_reps, a.cutoff_pct
            ));
        }
        if diffs.is_empty() {
            return diffs;
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
        let mut v = vec![
            "Results from OPTIONAL mode, not standard mode:".to_string(),
            format!("parameters set by {from}:"),
        ];
        v.extend(diffs);
        v
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
