//! Everything `imb-compare BASE NEW…` found, as one value the exports render
//! ([`crate::render`]: text, Markdown, CSV, JSON, JUnit) and the plots draw: the runs, the
//! differences of their conditions, each new run's tables against the baseline, and the
//! criteria's outcomes. Built once; no export decides anything.

use crate::conditions::{self, Difference};
use crate::judge::criteria::{self, Acceptance, Criterion, Outcome, Verdict};
use crate::judge::versus::{self, TableVs};
use crate::read::key::Metric;
use crate::read::sides::Side;

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
    /// split among ([`criteria::tests_in`]).
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

/// "base: load average 0.52 to 3.99 at the launches' starts, 0.61 to 4.10 at their ends (rank
/// 0's host, 1 minute)": the load a side's launches ran under, where its files record it.
fn load_note(s: &Side) -> Option<String> {
    let loads: Vec<(f64, Option<f64>)> = s.runs.iter().filter_map(|r| r.identity.load).collect();
    let range = |v: Vec<f64>| -> Option<String> {
        let lo = v.iter().copied().reduce(f64::min)?;
        let hi = v.iter().copied().reduce(f64::max)?;
        Some(if lo == hi {
            format!("{lo:.2}")
        } else {
            format!("{lo:.2} to {hi:.2}")
        })
    };
    let starts = range(loads.iter().map(|l| l.0).collect())?;
    let ends = range(loads.iter().filter_map(|l| l.1).collect())
        .map_or(String::new(), |e| format!(", {e} at their ends"));
    Some(format!(
        "{}: load average {starts} at the launches' starts{ends} (rank 0's host, 1 minute; {} of \
         {} launch(es) record it)",
        s.label,
        loads.len(),
        s.runs.len()
    ))
}

/// A note when every launch of one side started before every launch of the other: a change of
/// load between them falls on one side only (doc/ACCEPTANCE.md, section 1, "Interleave").
fn interleave_note(base: &Side, new: &Side) -> Option<String> {
    let starts = |s: &Side| -> Vec<chrono::DateTime<chrono::FixedOffset>> {
        s.runs
            .iter()
            .filter_map(|r| r.identity.start.as_deref())
            .filter_map(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
            .collect()
    };
    let (b, n) = (starts(base), starts(new));
    // One launch a side is never interleaved; it says nothing.
    if b.len() < 2 || n.len() < 2 {
        return None;
    }
    let span = |v: &[chrono::DateTime<chrono::FixedOffset>]| {
        let lo = v.iter().min().copied()?;
        let hi = v.iter().max().copied()?;
        Some((lo, hi))
    };
    let ((blo, bhi), (nlo, nhi)) = (span(&b)?, span(&n)?);
    if bhi >= nlo && nhi >= blo {
        return None;
    }
    let fmt = |t: chrono::DateTime<chrono::FixedOffset>| t.format("%Y-%m-%d %H:%M:%S").to_string();
    Some(format!(
        "{} and {} were not interleaved: {}'s launches started {} to {}, {}'s {} to {}; a change \
         of load between them falls on one side only (alternate the launches)",
        base.label,
        new.label,
        base.label,
        fmt(blo),
        fmt(bhi),
        new.label,
        fmt(nlo),
        fmt(nhi)
    ))
}

/// The informational lines: files that repeated a launch, launches in both runs, empty files
/// passed over, the load the launches ran under, and runs whose launches did not alternate.
fn notes(base: Option<&Side>, news: &[&Side], all: &[&Side]) -> Vec<String> {
    let mut notes = Vec::new();
    for s in all {
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
        for n in news {
            let shared = n
                .runs
                .iter()
                .filter(|r| b.runs.iter().any(|x| crate::read::sides::same_launch(x, r)))
                .count();
            if shared > 0 {
                notes.push(format!(
                    "{shared} launch(es) of {} are also in {}: the runs are not independent",
                    n.label, b.label
                ));
            }
        }
    }
    for s in all.iter().filter(|s| !s.empty.is_empty()) {
        let names: Vec<String> = s.empty.iter().map(|f| short(f)).collect();
        notes.push(format!(
            "{}: {} empty file(s) passed over ({})",
            s.label,
            names.len(),
            names.join(", ")
        ));
    }
    for s in all {
        notes.extend(load_note(s));
    }
    if let Some(b) = base {
        for n in news {
            notes.extend(interleave_note(b, n));
        }
    }
    notes
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
    let all: Vec<&Side> = base.into_iter().chain(news.iter().copied()).collect();
    let notes = notes(base, &news, &all);
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
        let tests = criteria::tests_in(list);
        Criteria {
            file: file.to_string(),
            tests,
            false_fail_rate: criteria::false_fail_rate(confidence),
            outcomes: news
                .iter()
                .flat_map(|n| {
                    list.iter()
                        .map(move |c| criteria::evaluate(c, base, n, acceptance, confidence, tests))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A -json launch started at `start` under `load` (1 minute, at the start and the end).
    fn launch(start: &str, load: (f64, f64)) -> crate::read::run::Run {
        let doc = format!(
            r##"{{"schema_version": 3, "suite": "imb-mpi1",
  "header": {{"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE"}},
  "tables": [{{"benchmark": "Barrier", "processes": 2, "groups": [[0, 1]], "idle": 0,
    "multi": false, "mode": null, "columns": ["#repetitions", "t_avg[usec]"],
    "keys": ["repetitions", "t_avg_us"], "rows": [{{"repetitions": 10, "t_avg_us": 1.5}}]}}],
  "provenance": {{"start": "{start}", "hosts": [{{"host": "vm", "load_average": [{}, 0, 0]}}],
    "load_average_end": [{}, 0, 0], "status": {{"state": "complete"}}}}}}"##,
            load.0, load.1
        );
        crate::read::jsondoc::parse("x.json", &doc).unwrap()
    }

    fn side(label: &str, runs: Vec<crate::read::run::Run>) -> Side {
        Side {
            label: label.into(),
            files: (1..=runs.len()).map(|k| format!("{k}.json")).collect(),
            runs,
            repeats: Vec::new(),
            empty: Vec::new(),
        }
    }

    #[test]
    fn the_load_and_whether_the_launches_alternated() {
        let base = side(
            "base",
            vec![
                launch("2026-11-25T10:00:00.000Z", (0.5, 0.6)),
                launch("2026-11-25T10:01:00.000Z", (0.7, 0.9)),
            ],
        );
        let late = side(
            "late",
            vec![
                launch("2026-11-25T10:25:00.000Z", (3.0, 3.5)),
                launch("2026-11-25T10:26:00.000Z", (4.0, 4.5)),
            ],
        );
        assert_eq!(
            load_note(&late).unwrap(),
            "late: load average 3.00 to 4.00 at the launches' starts, 3.50 to 4.50 at their ends \
             (rank 0's host, 1 minute; 2 of 2 launch(es) record it)"
        );
        let note = interleave_note(&base, &late).unwrap();
        assert!(
            note.starts_with(
                "base and late were not interleaved: base's launches started 2026-11-25 10:00:00 \
                 to 2026-11-25 10:01:00, late's 2026-11-25 10:25:00 to 2026-11-25 10:26:00"
            ),
            "{note}"
        );
        let between = side(
            "between",
            vec![
                launch("2026-11-25T09:59:00.000Z", (0.5, 0.5)),
                launch("2026-11-25T10:00:30.000Z", (0.5, 0.5)),
            ],
        );
        assert_eq!(interleave_note(&base, &between), None);
        let c = build(
            Some(&base),
            std::slice::from_ref(&late),
            crate::read::key::Metric::T,
            0.95,
            None,
            &Default::default(),
        );
        assert!(c
            .notes
            .iter()
            .any(|n| n.starts_with("base and late were not interleaved")));
    }
}
