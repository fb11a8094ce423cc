//! The report as CSV for spreadsheets and scripts: without criteria, one line per table and
//! size of each comparison; with criteria, one line per criterion, run and size (a criterion
//! decided before any figure has one line with the size fields empty). Every field is a value
//! or a code, never prose: flags as `UNSETTLED:new`, reasons as codes (doc/ACCEPTANCE.md).

use super::words::unit;
use crate::judge::comparison::Comparison;

const COMPARISON_HEAD: &str = "base,new,benchmark,processes,groups,mode,group,bytes,metric,\
                               base_value,new_value,ratio,ci_low,ci_high,confidence,change,flags";

const CRITERIA_HEAD: &str = "criterion,run,verdict,reason,benchmark,processes,groups,mode,\
                             group,bytes,metric,statistic,unit,value,reference,ratio,ci_low,\
                             ci_high,lower_bound,upper_bound,margin,size_verdict,size_reason";

fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map_or(String::new(), |x| x.to_string())
}

/// A number at full precision, empty for none (NaN: no figure).
fn f(x: Option<f64>) -> String {
    x.filter(|v| !v.is_nan())
        .map_or(String::new(), |v| format!("{v}"))
}

fn line(fields: &[String]) -> String {
    let f: Vec<String> = fields.iter().map(|x| field(x)).collect();
    format!("{}\n", f.join(","))
}

/// The CSV document.
pub fn render(c: &Comparison) -> String {
    match &c.criteria {
        Some(cr) => {
            let mut s = format!("{CRITERIA_HEAD}\n");
            for o in &cr.outcomes {
                let k = &o.criterion;
                let reason = o.blocked.as_ref().map_or("", |r| r.code);
                let head = [
                    k.name.clone(),
                    o.side.clone(),
                    o.verdict.key().to_string(),
                    reason.to_string(),
                ];
                if o.sizes.is_empty() {
                    let mut row = head.to_vec();
                    row.extend([String::new(), String::new(), String::new(), String::new()]);
                    row.extend([String::new(), String::new()]);
                    row.extend([
                        k.metric.key().to_string(),
                        k.statistic.key(),
                        unit(k.metric).to_string(),
                    ]);
                    row.extend(std::iter::repeat_n(String::new(), 10));
                    s.push_str(&line(&row));
                    continue;
                }
                for z in &o.sizes {
                    let bound = |t: Option<f64>| t.and_then(|t| z.reference.map(|r| r * (1.0 + t)));
                    let mut row = head.to_vec();
                    row.extend([
                        z.table.benchmark.clone(),
                        opt(z.table.processes),
                        z.table.groups.to_string(),
                        z.table.mode.clone(),
                        opt(z.group),
                        opt(z.bytes),
                        k.metric.key().to_string(),
                        k.statistic.key(),
                        unit(k.metric).to_string(),
                        f(z.value),
                        f(z.reference),
                        f(z.ratio),
                        f(z.interval.map(|i| i.0)),
                        f(z.interval.map(|i| i.1)),
                        f(bound(k.lower)),
                        f(bound(k.upper)),
                        f(z.margin),
                        z.verdict.map_or("left-out", |v| v.key()).to_string(),
                        z.reason.as_ref().map_or("", |r| r.code).to_string(),
                    ]);
                    s.push_str(&line(&row));
                }
            }
            s
        }
        None => {
            let mut s = format!("{COMPARISON_HEAD}\n");
            let base = c.base.map_or(String::new(), |b| b.label.clone());
            for cmp in &c.compared {
                for t in &cmp.tables {
                    for r in &t.rows {
                        let flags: Vec<String> = r
                            .flags
                            .iter()
                            .map(|(fl, who)| format!("{}:{who}", fl.name()))
                            .collect();
                        s.push_str(&line(&[
                            base.clone(),
                            cmp.new.label.clone(),
                            t.key.benchmark.clone(),
                            opt(t.key.processes),
                            t.key.groups.to_string(),
                            t.key.mode.clone(),
                            opt(r.group),
                            opt(r.bytes),
                            c.metric.key().to_string(),
                            f(Some(r.base)),
                            f(Some(r.new)),
                            f(r.ratio),
                            f(r.interval.map(|i| i.0)),
                            f(r.interval.map(|i| i.1)),
                            format!("{}", c.confidence),
                            r.change.key().to_string(),
                            flags.join(" "),
                        ]));
                    }
                }
            }
            s
        }
    }
}
