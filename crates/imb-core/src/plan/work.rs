//! The run's work for `-progress`: every table in run order and the weight of each measured
//! size, read off the plan before anything runs (doc/OUTPUT.md, "Progress").

use super::least::size_effort;
use super::{Plan, StepPlan};
use crate::bench::Class;
use crate::settings::Params;
use crate::vocab::Mode;

/// One table the run will print: its benchmark's place in the run, its step and the weight of
/// each measured size in order (its bytes, None for Barrier-like tables).
#[derive(Debug, Clone, PartialEq)]
pub struct TableWork {
    /// 1-based place of the benchmark in the run list.
    pub bench: usize,
    pub name: String,
    pub np: usize,
    pub groups: usize,
    pub mode: Mode,
    pub sizes: Vec<(Option<usize>, f64)>,
}

/// Everything the run will measure, in run order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Work {
    /// Benchmarks in the run list.
    pub benchmarks: usize,
    pub tables: Vec<TableWork>,
}

impl Work {
    /// The weight of the whole run.
    pub fn total(&self) -> f64 {
        self.tables
            .iter()
            .flat_map(|t| &t.sizes)
            .map(|(_, w)| w)
            .sum()
    }
}

/// What every size costs besides its repetitions (barriers, gather, the row): a guess that
/// keeps sizes with few, short repetitions from weighing nothing.
const SIZE_SECS: f64 = 1e-3;

/// Every table of `plan` with the weight of each measured size: its repetitions (capped by
/// `-time` seconds as the run caps them) at the least cost the run-time bound gives them
/// (`least::size_effort`), plus `SIZE_SECS`. Only the ratio of weights matters: the progress
/// estimate scales the elapsed time by it.
pub fn work(plan: &Plan, params: &Params, time: Option<f64>) -> Work {
    let mut tables = Vec::new();
    for (k, bp) in plan.benchmarks.iter().enumerate() {
        let sync = bp.info.class == Class::Sync;
        for step in &bp.steps {
            let StepPlan::Run { layout, sizes } = step else {
                continue;
            };
            for (m, &mode) in sizes.modes.iter().enumerate() {
                let weights = sizes
                    .lens
                    .iter()
                    .zip(&sizes.n_sample[m])
                    .zip(&sizes.measured)
                    .filter(|(_, &measured)| measured)
                    .map(|((len, &n), _)| {
                        let (_, per) = size_effort(bp.info, sizes.x(len), layout.np, mode, params);
                        let n = time.map_or(n, |t| n.min(((t / per) as usize).max(1)));
                        ((!sync).then_some(len.x), n as f64 * per + SIZE_SECS)
                    })
                    .collect();
                tables.push(TableWork {
                    bench: k + 1,
                    name: bp.info.name.to_string(),
                    np: layout.np,
                    groups: layout.groups.len(),
                    mode,
                    sizes: weights,
                });
            }
        }
    }
    Work {
        benchmarks: plan.benchmarks.len(),
        tables,
    }
}

/// `work` with a family's sleep around every size's loop added to each size's weight
/// (`kernel::Hooks::sleep`): imb-p2p's default `-pause` sleeps 0.2 s a size, far more than its
/// small sizes' repetitions, so without it the estimate of the time left would count those
/// sizes as nothing.
pub fn with_sleep(mut work: Work, secs: f64) -> Work {
    for t in &mut work.tables {
        for (_, w) in &mut t.sizes {
            *w += secs;
        }
    }
    work
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sleep_weighs_on_every_size() {
        let table = |sizes| TableWork {
            bench: 1,
            name: "PingPong".into(),
            np: 2,
            groups: 1,
            mode: Mode::NonAggregate,
            sizes,
        };
        let w = Work {
            benchmarks: 1,
            tables: vec![table(vec![(Some(0), 0.001), (Some(4), 2.0)])],
        };
        assert_eq!(
            with_sleep(w, 0.2).tables,
            [table(vec![(Some(0), 0.201), (Some(4), 2.2)])]
        );
    }
}
