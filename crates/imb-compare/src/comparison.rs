//! Everything `imb-compare BASE NEW…` found, as one value the exports render
//! ([`crate::export`]: text, Markdown, CSV, JSON, JUnit) and the plots draw: the runs, the
//! differences of their conditions, each new run's tables against the baseline, and the
//! criteria's outcomes. Built once; no export decides anything.

use crate::agree::Metric;
use crate::conditions::{self, Difference};
use crate::refs::{self, Acceptance, Criterion, Outcome, Verdict};
use crate::sides::Side;
use crate::versus::{self, TableVs};

/// One new run against the baseline.
pub struct Compared<'a> {
    pub new: &'a Side,
    /// The run-wide differences of conditions (each table adds its placement).
    pub differences: Vec<Difference>,
    /// What neither file records, or the host names, in words.
    pub notes: Vec<String>,
    pub tables: Vec<TableVs>,
}

/// The criteria of one references file held against every new run.
pub struct Criteria {
    pub file: String,
    /// The chance of any false FAIL over the whole file, for each new run, and the tests it is
    /// split among ([`refs::tests_in`]).
    pub false_fail_rate: f64,
    pub tests: usize,
    pub outcomes: Vec<Outcome>,
}

impl Criteria {
    pub fn count(&self, v: Verdict) -> usize {
        self.outcomes.iter().filter(|o| o.verdict == v).count()
    }

    /// The worst verdict of all (Pass when there are none).
    pub fn verdict(&self) -> Verdict {
        self.outcomes
            .iter()
            .map(|o| o.verdict)
            .max()
            .unwrap_or(Verdict::Pass)
    }
}

/// The whole result.
pub struct Comparison<'a> {
    pub metric: Metric,
    pub confidence: f64,
    pub base: Option<&'a Side>,
    pub news: Vec<&'a Side>,
    /// Per new run, when there is a baseline.
    pub compared: Vec<Compared<'a>>,
    /// Conditions some run's files do not record.
    pub unrecorded: Vec<String>,
    /// Files that repeated a launch, launches in both runs: informational lines.
    pub notes: Vec<String>,
    pub criteria: Option<Criteria>,
}

impl Comparison<'_> {
    /// Every side, the baseline first.
    pub fn sides(&self) -> Vec<&Side> {
        self.base
            .into_iter()
            .chain(self.news.iter().copied())
            .collect()
    }

    /// The exit status the verdicts ask for: 0 all passed (or no criteria), 1 one failed,
    /// 4 none failed and one was inconclusive.
    pub fn exit_status(&self) -> u8 {
        match self.criteria.as_ref().map(Criteria::verdict) {
            Some(Verdict::Fail) => 1,
            Some(Verdict::Inconclusive) => 4,
            _ => 0,
        }
    }
}

/// File names only, for notes.
fn short(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Compare `news` with `base` (when given) and hold `criteria` (from `file`) against each.
#[allow(clippy::too_many_arguments)]
pub fn build<'a>(
    base: Option<&'a Side>,
    news: &'a [Side],
    metric: Metric,
    confidence: f64,
    criteria: Option<(&str, &[Criterion])>,
    acceptance: &Acceptance,
) -> Comparison<'a> {
    let news: Vec<&Side> = news.iter().collect();
    let mut notes = Vec::new();
    let all: Vec<&Side> = base.into_iter().chain(news.iter().copied()).collect();
    for s in &all {
        if s.repeats.is_empty() {
            continue;
        }
        let mut pairs: Vec<String> = s
            .repeats
            .iter()
            .take(3)
            .map(|(left, kept)| format!("{} = {}", short(left), short(kept)))
            .collect();
        if s.repeats.len() > 3 {
            pairs.push("…".to_string());
        }
        notes.push(format!(
            "{}: {} file(s) repeat a launch read from another ({}): each launch counted once",
            s.label,
            s.repeats.len(),
            pairs.join(", ")
        ));
    }
    if let Some(b) = base {
        for n in &news {
            let shared = n
                .runs
                .iter()
                .filter(|r| b.runs.iter().any(|x| crate::sides::same_launch(x, r)))
                .count();
            if shared > 0 {
                notes.push(format!(
                    "{shared} launch(es) of {} are also in {}: the runs are not independent",
                    n.label, b.label
                ));
            }
        }
    }
    let named: Vec<(&Side, &str)> = all.iter().map(|s| (*s, s.label.as_str())).collect();
    let unrecorded = conditions::unrecorded(&named);
    let compared = match base {
        Some(b) => news
            .iter()
            .map(|n| {
                let mut differences = conditions::run_differences((b, "base"), (n, "new"));
                differences.sort();
                differences.dedup();
                Compared {
                    new: n,
                    differences,
                    notes: conditions::host_note((b, "base"), (n, "new"))
                        .into_iter()
                        .collect(),
                    tables: versus::versus(b, n, metric, confidence),
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let criteria = criteria.map(|(file, list)| {
        let tests = refs::tests_in(list);
        Criteria {
            file: file.to_string(),
            tests,
            false_fail_rate: refs::false_fail_rate(confidence),
            outcomes: news
                .iter()
                .flat_map(|n| {
                    list.iter()
                        .map(move |c| refs::evaluate(c, base, n, acceptance, confidence, tests))
                })
                .collect(),
        }
    });
    Comparison {
        metric,
        confidence,
        base,
        news,
        compared,
        unrecorded,
        notes,
        criteria,
    }
}
