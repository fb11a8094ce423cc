//! From options and world size to the ordered list of runs: the P_min ladder (guide 5.1.2.2), the
//! `-map` renumbering, Multi groups and idle ranks (doc/ReadMe_IMB.md, "Process counts" and "Multi
//! groups and idle ranks"); `build` puts them together with each step's `Sizes` into the `Plan`
//! the driver executes, `least` reads the run-time bound off it and `work` the progress weights.

use crate::bench::Procs;
pub use crate::vocab::{Layout, Map};

mod build;
mod least;
mod sizes;
mod work;

pub use build::{build, BenchmarkPlan, Plan, StepPlan};
pub use least::{
    duration_text, effort_secs, expected, least, refusal, size_least, Around, Least, Parts, SizeAt,
    Sleep, BYTES_PER_SEC, CALL_SECS, LONG_RUN_SECS, MSG_SECS,
};
pub use sizes::Sizes;
pub use work::{with_sleep, work, TableWork, Work};

/// The index of every world rank (3.0's renumbering: fill grid rows first).
/// Identity unless P > 1 and Q > 1.
pub fn indices(np: usize, map: Option<Map>) -> Vec<usize> {
    match map {
        Some(Map { p, q }) if p > 1 && q > 1 => {
            debug_assert_eq!(p * q, np);
            (0..np).map(|r| (r % p) * q + r / p).collect()
        }
        _ => (0..np).collect(),
    }
}

/// Process counts P_min, 2·P_min, …, ending with np (guide 5.1.2.2).
pub fn process_counts(np: usize, npmin: usize) -> Vec<usize> {
    let mut v = vec![npmin.min(np).max(1)];
    while *v.last().unwrap() < np {
        let next = (2 * v.last().unwrap()).min(np);
        v.push(next);
    }
    v
}

/// One step of the plan for one benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Run(Layout),
    /// The benchmark cannot run on this many processes (single transfer on one).
    Invalid {
        np: usize,
    },
}

/// The layout of NP processes out of np, with or without Multi groups.
pub fn layout(np: usize, nproc: usize, map: Option<Map>, multi: bool) -> Layout {
    let idx = indices(np, map);
    let mut by_index = vec![0; np];
    for (r, &i) in idx.iter().enumerate() {
        by_index[i] = r;
    }
    let ngroups = if multi { np / nproc } else { 1 };
    let mut groups: Vec<(usize, Vec<usize>)> = (0..ngroups)
        .map(|g| (g, by_index[g * nproc..(g + 1) * nproc].to_vec()))
        .collect();
    // 3.0 lists groups by their leader's world rank.
    groups.sort_by_key(|(_, m)| m[0]);
    let active = ngroups * nproc;
    let rows = match map {
        Some(Map { p, q }) if p > 1 && q > 1 && ngroups == 1 => Some(
            by_index[..nproc]
                .chunks(q)
                .map(|c| c.to_vec())
                .collect::<Vec<_>>(),
        ),
        _ => None,
    };
    Layout {
        np: nproc,
        index_group: groups.iter().map(|(g, _)| *g).collect(),
        groups: groups.into_iter().map(|(_, m)| m).collect(),
        idle: np - active,
        rows,
        multi: ngroups > 1,
    }
}

/// The steps of one benchmark on np processes.
pub fn steps(np: usize, npmin: usize, procs: Procs, map: Option<Map>, multi: bool) -> Vec<Step> {
    match procs {
        Procs::One => vec![Step::Run(layout(np, 1, map, multi))],
        Procs::Pair if np < 2 => vec![Step::Invalid { np }],
        Procs::Pair => vec![Step::Run(layout(np, 2, map, multi))],
        Procs::Any => process_counts(np, npmin)
            .into_iter()
            .map(|n| Step::Run(layout(np, n, map, multi)))
            .collect(),
        Procs::AtLeastTwo if np < 2 => vec![Step::Invalid { np }],
        Procs::AtLeastTwo => process_counts(np, npmin.max(2))
            .into_iter()
            .map(|n| Step::Run(layout(np, n, map, multi)))
            .collect(),
        Procs::Pairs if np < 2 => vec![Step::Invalid { np }],
        Procs::Pairs => process_counts(np - np % 2, (npmin + npmin % 2).max(2))
            .into_iter()
            .map(|n| Step::Run(layout(np, n, map, multi)))
            .collect(),
        Procs::World => vec![Step::Run(layout(np, np, map, multi))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_count_ladder() {
        let c = |np, m| process_counts(np, m);
        assert_eq!(c(1, 2), vec![1]);
        assert_eq!(c(2, 2), vec![2]);
        assert_eq!(c(3, 2), vec![2, 3]);
        assert_eq!(c(5, 2), vec![2, 4, 5]);
        assert_eq!(c(6, 3), vec![3, 6]);
        assert_eq!(c(6, 4), vec![4, 6]);
        assert_eq!(c(6, 8), vec![6]);
        assert_eq!(c(7, 3), vec![3, 6, 7]);
        assert_eq!(c(11, 2), vec![2, 4, 8, 11]);
        assert_eq!(c(14, 2), vec![2, 4, 8, 14]);
        assert_eq!(c(14, 7), vec![7, 14]);
        assert_eq!(c(8, 1), vec![1, 2, 4, 8]);
    }

    #[test]
    fn map_numbering() {
        let m = |p, q| Some(Map { p, q });
        let order = |np, map| {
            let idx = indices(np, map);
            let mut w = vec![0; np];
            for (r, i) in idx.into_iter().enumerate() {
                w[i] = r;
            }
            w
        };
        assert_eq!(order(4, m(2, 2)), vec![0, 2, 1, 3]);
        assert_eq!(order(6, m(2, 3)), vec![0, 2, 4, 1, 3, 5]);
        assert_eq!(
            order(14, m(2, 7)),
            vec![0, 2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13]
        );
        assert_eq!(order(4, m(1, 4)), vec![0, 1, 2, 3]);
        assert_eq!(order(4, m(4, 1)), vec![0, 1, 2, 3]);
    }

    #[test]
    fn single_group_with_map_rows_and_idle() {
        let l = layout(14, 8, Some(Map { p: 2, q: 7 }), false);
        assert_eq!(l.groups, vec![vec![0, 2, 4, 6, 8, 10, 12, 1]]);
        assert_eq!(l.rows, Some(vec![vec![0, 2, 4, 6, 8, 10, 12], vec![1]]));
        assert_eq!(l.idle, 6);
        assert!(!l.multi);
        let l = layout(6, 4, Some(Map { p: 2, q: 3 }), false);
        assert_eq!(l.rows, Some(vec![vec![0, 2, 4], vec![1]]));
        assert_eq!(l.idle, 2);
    }

    #[test]
    fn multi_groups_in_leader_order() {
        let l = layout(6, 2, Some(Map { p: 2, q: 3 }), true);
        assert_eq!(l.groups, vec![vec![0, 2], vec![3, 5], vec![4, 1]]);
        assert_eq!(l.index_group, vec![0, 2, 1]);
        assert!(l.multi && l.rows.is_none());
        let l = layout(14, 2, Some(Map { p: 2, q: 7 }), true);
        assert_eq!(
            l.groups,
            vec![
                vec![0, 2],
                vec![3, 5],
                vec![4, 6],
                vec![7, 9],
                vec![8, 10],
                vec![11, 13],
                vec![12, 1]
            ]
        );
        let l = layout(14, 4, Some(Map { p: 2, q: 7 }), true);
        assert_eq!(
            l.groups,
            vec![vec![0, 2, 4, 6], vec![3, 5, 7, 9], vec![8, 10, 12, 1]]
        );
        assert_eq!(l.idle, 2);
        // Sample 2 (np = 4, 2x2): groups 0 2 / 1 3, then one group with rows.
        let l = layout(4, 2, Some(Map { p: 2, q: 2 }), true);
        assert_eq!(l.groups, vec![vec![0, 2], vec![1, 3]]);
        let l = layout(4, 4, Some(Map { p: 2, q: 2 }), true);
        assert!(!l.multi);
        assert_eq!(l.rows, Some(vec![vec![0, 2], vec![1, 3]]));
    }

    #[test]
    fn multi_without_map_and_remainder_idle() {
        let l = layout(5, 2, None, true);
        assert_eq!(l.groups, vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(l.idle, 1);
        let l = layout(5, 4, None, true);
        assert!(!l.multi);
        assert_eq!(l.idle, 1);
        assert_eq!(l.role(3), Some((0, 3)));
        assert_eq!(l.role(4), None);
    }

    #[test]
    fn steps_per_class() {
        assert_eq!(
            steps(1, 2, Procs::Pair, None, false),
            vec![Step::Invalid { np: 1 }]
        );
        let s = steps(4, 2, Procs::Pair, None, false);
        assert_eq!(s.len(), 1);
        match &s[0] {
            Step::Run(l) => assert_eq!((l.np, l.idle), (2, 2)),
            _ => panic!(),
        }
        let s = steps(4, 2, Procs::Pair, None, true);
        match &s[0] {
            Step::Run(l) => assert_eq!(l.groups.len(), 2),
            _ => panic!(),
        }
        assert_eq!(steps(3, 2, Procs::Any, None, false).len(), 2);
        assert_eq!(steps(1, 2, Procs::Any, None, false).len(), 1);
        assert_eq!(
            steps(1, 1, Procs::AtLeastTwo, None, false),
            vec![Step::Invalid { np: 1 }]
        );
        assert_eq!(steps(4, 1, Procs::AtLeastTwo, None, false).len(), 2);
        let counts = |np, npmin| -> Vec<(usize, usize)> {
            steps(np, npmin, Procs::Pairs, None, false)
                .into_iter()
                .map(|s| match s {
                    Step::Run(l) => (l.np, l.idle),
                    Step::Invalid { np } => (np, usize::MAX),
                })
                .collect()
        };
        assert_eq!(counts(1, 2), [(1, usize::MAX)]);
        assert_eq!(counts(3, 2), [(2, 1)]);
        assert_eq!(counts(7, 3), [(4, 3), (6, 1)]);
        assert_eq!(counts(8, 1), [(2, 6), (4, 4), (8, 0)]);
        match &steps(4, 2, Procs::One, None, true)[0] {
            Step::Run(l) => assert_eq!(l.groups.len(), 4),
            _ => panic!(),
        }
    }
}
