//! What holding a criterion against a run found: the verdict of each size and of the
//! criterion, the reason where no interval decided, and the same in words.

use super::criterion::{percent, Criterion, Reference, Statistic};
use crate::conditions::Difference;
use crate::read::key::TableKey;

/// A criterion's (or a size's) verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Pass,
    /// The figures cannot decide: an interval straddles a bound, the launches are too few, or
    /// a row or run is not a measurement. Rerun (with more launches).
    Inconclusive,
    Fail,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Inconclusive => "INCONCLUSIVE",
            Verdict::Fail => "FAIL",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Fail => "fail",
        }
    }
}

/// Why a size or a criterion got its verdict other than by its interval: a code for machines
/// (`conditions`, `oversubscribed`, `cut-short`, `no-rows`, `no-baseline`, `not-in-baseline`,
/// `flagged`, `no-figure`, `zero-reference`, `no-interval`, `straddles`) and words.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason {
    pub code: &'static str,
    pub text: String,
}

pub(super) fn reason(code: &'static str, text: String) -> Option<Reason> {
    Some(Reason { code, text })
}

/// One size a criterion covers.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeCheck {
    pub table: TableKey,
    pub group: Option<u64>,
    pub bytes: Option<u64>,
    /// The criterion's statistic of the new run's launches, and of the baseline's (or the
    /// number).
    pub value: Option<f64>,
    pub reference: Option<f64>,
    /// value / reference.
    pub ratio: Option<f64>,
    /// The interval of the ratio at the confidence; a point for `min` and `max`.
    pub interval: Option<(f64, f64)>,
    /// How far inside its bounds the interval's far end lies, as a fraction of the
    /// reference; negative: beyond.
    pub margin: Option<f64>,
    /// `None`: left out (a zero reference, or a row without a figure accepted on purpose).
    pub verdict: Option<Verdict>,
    pub reason: Option<Reason>,
}

/// One criterion held against one new run.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub criterion: Criterion,
    pub side: String,
    pub verdict: Verdict,
    /// Set when the criterion was decided before any figure (conditions, oversubscription, a
    /// run cut short, no rows).
    pub blocked: Option<Reason>,
    pub sizes: Vec<SizeCheck>,
    /// Launches of the new run and of the baseline (0: no baseline used).
    pub launches: (usize, usize),
    /// Every difference of conditions between the runs judged; those in `accepted` were
    /// accepted by name.
    pub differences: Vec<Difference>,
    pub accepted: Vec<Difference>,
    pub confidence: f64,
    /// The tests of the whole references file (see [`tests_in`]): each bound of this criterion
    /// is shown beyond only at `false_fail_rate(confidence) / tests`.
    pub tests: usize,
}

fn pct(x: f64) -> String {
    format!("{:+.1} %", 100.0 * x)
}

/// A size's place in words: "8 bytes", "8 bytes np=4", "the row group 1".
pub fn size_text(s: &SizeCheck, c: &Criterion) -> String {
    let mut at = s
        .bytes
        .map_or("the row".to_string(), |b| format!("{b} bytes"));
    if let (Some(p), None) = (s.table.processes, c.processes) {
        at.push_str(&format!(" np={p}"));
    }
    if c.benchmark == "*" {
        at = format!("{} {at}", s.table.benchmark);
    }
    if let Some(g) = s.group {
        at.push_str(&format!(" group {g}"));
    }
    at
}

impl Outcome {
    pub fn pass(&self) -> bool {
        self.verdict == Verdict::Pass
    }

    /// The sizes that decided the verdict.
    pub fn judged(&self) -> impl Iterator<Item = &SizeCheck> {
        self.sizes.iter().filter(|s| s.verdict.is_some())
    }

    /// The size that came closest to (or went furthest beyond) a bound: the most severe
    /// verdict, then the smallest margin (no interval counts as the smallest).
    pub fn worst(&self) -> Option<&SizeCheck> {
        self.judged().max_by(|a, b| {
            a.verdict.cmp(&b.verdict).then_with(|| {
                let m = |s: &SizeCheck| s.margin.unwrap_or(f64::NEG_INFINITY);
                m(b).total_cmp(&m(a))
            })
        })
    }

    /// The bounds in words, "unbounded..+25.0 %".
    pub fn bounds(&self) -> String {
        let side = |t: Option<f64>| t.map_or("unbounded".to_string(), pct);
        format!(
            "{}..{}",
            side(self.criterion.lower),
            side(self.criterion.upper)
        )
    }

    fn against(&self) -> String {
        match self.criterion.reference {
            Reference::Value(r) => format!("{r}"),
            Reference::Baseline => "the baseline".to_string(),
        }
    }

    /// "1024 bytes: ratio 1.080 (1.020..1.150)"; a reason other than the interval's in its
    /// words.
    pub fn size_line(&self, s: &SizeCheck) -> String {
        let at = size_text(s, &self.criterion);
        let code = s.reason.as_ref().map(|r| r.code);
        match (&s.reason, s.ratio, s.interval) {
            (Some(r), _, _)
                if !matches!(code, Some("straddles" | "no-interval" | "beyond-alone")) =>
            {
                format!("{at}: {}", r.text)
            }
            (_, Some(q), Some((lo, hi))) if lo == hi => format!("{at}: ratio {q:.3}"),
            (_, Some(q), Some((lo, hi))) => format!("{at}: ratio {q:.3} ({lo:.3}..{hi:.3})"),
            (_, Some(q), None) => format!("{at}: ratio {q:.3}"),
            _ => at,
        }
    }

    /// Why the undecided sizes are undecided, counted by reason: "no 95 % interval from 1
    /// and 1 launches (4 a side needed) at 8 sizes".
    fn undecided_why(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let undecided: Vec<&SizeCheck> = self
            .judged()
            .filter(|s| s.verdict == Some(Verdict::Inconclusive))
            .collect();
        for (code, words) in [
            ("no-interval", ""),
            ("straddles", "an interval across a bound"),
            ("beyond-alone", ""),
            ("flagged", "a row the program flagged"),
            ("no-figure", "a row without a figure"),
            ("zero-figure", "a zero where a figure belongs"),
        ] {
            let these: Vec<&&SizeCheck> = undecided
                .iter()
                .filter(|s| s.reason.as_ref().map(|r| r.code) == Some(code))
                .collect();
            if these.is_empty() {
                continue;
            }
            let words = match (code, these[0].reason.as_ref()) {
                ("beyond-alone", Some(r)) => r.text.replace(" at this size alone", " alone"),
                ("no-interval", Some(r)) => r
                    .text
                    .split_once(", ")
                    .map_or(r.text.clone(), |(_, why)| why.to_string()),
                _ => words.to_string(),
            };
            parts.push(format!("{} at {} size(s)", words, these.len()));
        }
        parts.join("; ")
    }

    /// One line: what was checked, and why it passed, failed or could not be decided.
    pub fn detail(&self) -> String {
        if let Some(b) = &self.blocked {
            return b.text.clone();
        }
        let n = self.judged().count();
        let how = match self.criterion.statistic {
            Statistic::Min | Statistic::Max => format!(
                "the {} over {} launch(es), exact",
                self.criterion.statistic.key(),
                self.launches.0
            ),
            st => {
                let of = if self.launches.1 > 0 {
                    format!("{} and {} launches", self.launches.1, self.launches.0)
                } else {
                    format!("{} launch(es)", self.launches.0)
                };
                format!(
                    "{} % intervals of the {}, {of}",
                    percent(self.confidence),
                    st.key()
                )
            }
        };
        let left = self.sizes.len() - n;
        let left = if left > 0 {
            format!("; {left} size(s) left out")
        } else {
            String::new()
        };
        let worst = self.worst();
        match self.verdict {
            Verdict::Pass => {
                let w = worst.map_or(String::new(), |w| {
                    format!(
                        "; worst {}, margin {}",
                        self.size_line(w),
                        w.margin.map_or("-".into(), pct)
                    )
                });
                format!(
                    "{n} size(s) inside {} of {} ({how}){w}{left}",
                    self.bounds(),
                    self.against()
                )
            }
            v => {
                let mut bad: Vec<&SizeCheck> =
                    self.judged().filter(|s| s.verdict == Some(v)).collect();
                // The most telling first: rows that are no figure, then the furthest beyond.
                let rank = |s: &SizeCheck| match s.reason.as_ref().map(|r| r.code) {
                    Some("no-figure" | "zero-figure") => 0,
                    Some("flagged") => 1,
                    Some("not-in-baseline" | "not-in-new") => 2,
                    Some("straddles" | "beyond-alone") | None => 3,
                    _ => 4,
                };
                bad.sort_by(|a, b| {
                    rank(a).cmp(&rank(b)).then_with(|| {
                        let m = |s: &SizeCheck| s.margin.unwrap_or(0.0);
                        m(a).total_cmp(&m(b))
                    })
                });
                let shown: Vec<String> = bad.iter().take(4).map(|s| self.size_line(s)).collect();
                let more = if bad.len() > 4 {
                    format!("; {} more", bad.len() - 4)
                } else {
                    String::new()
                };
                if v == Verdict::Fail {
                    return format!(
                        "{} of {n} size(s) outside {} of {} ({how}): {}{more}{left}",
                        bad.len(),
                        self.bounds(),
                        self.against(),
                        shown.join("; ")
                    );
                }
                format!(
                    "{} of {n} size(s) undecided against {} of {} ({how}): {}: {}{more}{left}; \
                     rerun with more launches",
                    bad.len(),
                    self.bounds(),
                    self.against(),
                    self.undecided_why(),
                    shown.join("; ")
                )
            }
        }
    }
}
