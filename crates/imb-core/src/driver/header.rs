//! The header of a run and what it says about the run before it starts: optional-mode lines
//! (written from the settings merge's record of where each value came from), the sizes each
//! benchmark asks for, and the lower bound of the run's time.

use super::*;
use crate::settings::Origin;

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
            Lengths::File { .. } if self.suite.hooks.io_header => Some((0, 1usize << p.maxmsglog)),
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
            io: self.suite.hooks.io_header,
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
        let o = &self.opts.origins;
        let by_cli = o.any(Origin::CommandLine) || self.opts.time.is_some() || adaptive.is_some();
        let from = match &self.opts.settings.source {
            Some(f) if o.any(Origin::SettingsFile) && by_cli => {
                format!("the [optional] block of {f} and the command line")
            }
            Some(f) if o.any(Origin::SettingsFile) => format!("the [optional] block of {f}"),
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
    /// `-adaptive` splits the n_sample loop, so its least cost is the standard run's.
    pub(super) fn least_secs(&self, plan: &Plan) -> f64 {
        let per = plan::rep_secs;
        let n_barr = self.opts.params.n_barr as f64;
        let mut total = 0.0;
        for step in plan.benchmarks.iter().flat_map(|b| &b.steps) {
            let StepPlan::Run { sizes, .. } = step else {
                continue;
            };
            for ns in &sizes.n_sample {
                for (&n, len) in ns.iter().zip(&sizes.lens) {
                    let n = match self.opts.time {
                        Some(t) => n.min(((t / per(len.x)) as usize).max(1)),
                        None => n,
                    };
                    total += n as f64 * per(len.x) + n_barr * 1e-7;
                }
            }
        }
        total
    }
}
