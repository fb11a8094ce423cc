//! The header of a run and what it says about the run before it starts: optional-mode lines
//! (written from the settings merge's record of where each value came from) and the sizes each
//! benchmark asks for; the suite's `Hooks::header` adds its own facts.

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
            Lengths::File { .. } | Lengths::List { .. } => None,
        };
        let mut h = Header {
            version: env!("CARGO_PKG_VERSION").to_string(),
            part: self.suite.part.to_string(),
            date: sysinfo::date(),
            machine,
            system,
            release,
            uversion,
            mpi_version: sysinfo::mpi_version(),
            thread_env: sysinfo::thread_name(granted).to_string(),
            io: false,
            min_max,
            info: self.opts.settings.info.clone(),
            notes: self
                .method_note()
                .into_iter()
                .chain(self.optional_mode())
                .collect(),
            hidden: false,
        };
        (self.suite.hooks.header)(&mut h, &self.opts);
        h
    }

    /// The header block that says how the run's method differs from IMB 3.0's (None: it
    /// does not).
    fn method_note(&self) -> Option<Note> {
        let m = self.opts.method;
        let changes = m.changes(self.opts.time);
        (!changes.is_empty()).then_some(Note::Method { method: m, changes })
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
        // Under the dynamic policy -time is its budget, which the method's block states;
        // under the others it caps the repetitions as in 3.0.
        let time_cap_s = self
            .opts
            .time
            .filter(|_| self.opts.method.iter_policy != crate::method::IterPolicy::Dynamic);
        if parameters.is_empty() && time_cap_s.is_none() && adaptive.is_none() {
            return None;
        }
        let o = &self.opts.origins;
        let by_cli = o.any(Origin::CommandLine) || time_cap_s.is_some() || adaptive.is_some();
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
            time_cap_s,
            adaptive,
        })
    }
}
