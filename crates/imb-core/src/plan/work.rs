//! The run's work for `-progress`: every table in run order and the weight of each measured
//! size, read off the plan before anything runs (doc/OUTPUT.md, "Progress").

use super::least::size_effort;
use super::{Plan, StepPlan};
use crate::bench::Class;
use crate::report::{TableWork, Work};
use crate::settings::Params;

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
