//! Property tests of the comparison arithmetic (proptest) on generated launch sets: tables of a
//! few sizes, a few launches a run, positive figures in hundredths (what a text table prints),
//! each launch written as imb-rs prints it and read back. The properties: a run against itself
//! changes nothing and fails nothing; the order of launches (and of launch files) changes no
//! figure, interval or verdict; scaling every time of both runs by k scales the medians and
//! changes no ratio, interval or verdict; a table no criterion names changes no verdict; the
//! text and the `-json` reader give the same tables for one launch written both ways.
//!
//! The bounds of the criteria are chosen so that no ratio of figures in hundredths (up to
//! 5000.00) can equal one exactly: a verdict then never hangs on the last bit of a quotient.
//! Few cases a property, no failure files: the run stays within seconds and writes nothing.

use imb_compare::judge::comparison::{self, Comparison};
use imb_compare::judge::criteria::{self as refs, Acceptance, Criterion, Verdict};
use imb_compare::judge::versus::{Change, RESOLUTION};
use imb_compare::read::key::Metric;
use imb_compare::read::run::Run;
use imb_compare::read::sides::{self, Side};
use imb_compare::read::{imbtext, jsondoc};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::path::{Path, PathBuf};

/// A benchmark as imb-rs prints it: name, whether rows have a size, and each figure column's
/// title and `-json` key (after `#bytes` and `#repetitions`).
struct Bench {
    name: &'static str,
    sized: bool,
    columns: &'static [(&'static str, &'static str)],
}

const COLLECTIVE: &[(&str, &str)] = &[
    ("t_min[usec]", "t_min_us"),
    ("t_max[usec]", "t_max_us"),
    ("t_avg[usec]", "t_avg_us"),
];

const BENCHES: [Bench; 3] = [
    Bench {
        name: "PingPong",
        sized: true,
        columns: &[("t[usec]", "t_us"), ("Mbytes/sec", "mbytes_per_s")],
    },
    Bench {
        name: "Allreduce",
        sized: true,
        columns: COLLECTIVE,
    },
    // The table no criterion names (it is added to both runs).
    Bench {
        name: "Barrier",
        sized: false,
        columns: COLLECTIVE,
    },
];

const BARRIER: usize = 2;

/// One table of one launch: the benchmark (an index into BENCHES), its process count, and
/// per row its size and figures in hundredths.
#[derive(Debug, Clone)]
struct Table {
    bench: usize,
    processes: usize,
    rows: Vec<(Option<u64>, Vec<u32>)>,
}

type Launch = Vec<Table>;

/// Which tables a run prints: (benchmark, processes, sizes).
type Shape = Vec<(usize, usize, Vec<Option<u64>>)>;

fn shape() -> impl Strategy<Value = Shape> {
    let sizes = prop::sample::subsequence((0..=20).map(|e| 1u64 << e).collect::<Vec<_>>(), 1..=5);
    (
        prop::sample::subsequence(vec![0usize, 1], 1..=2),
        prop::collection::vec((prop::sample::select(vec![2usize, 4]), sizes), 2),
    )
        .prop_map(|(benches, per)| {
            benches
                .into_iter()
                .map(|b| {
                    let (np, sizes) = per[b].clone();
                    (b, np, sizes.into_iter().map(Some).collect())
                })
                .collect()
        })
}

/// A run of 1 to 6 launches of `shape`: each figure a level (per cell, shared by both runs)
/// times the run's factor times a launch's noise of up to 6 %, in hundredths, at least 0.01.
fn run_of(
    shape: &Shape,
    levels: &[Vec<Vec<u32>>],
    launches: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Vec<Launch>> {
    let cells: Vec<(usize, usize)> = shape
        .iter()
        .map(|(b, _, sizes)| (sizes.len(), BENCHES[*b].columns.len()))
        .collect();
    let noise: Vec<_> = cells
        .iter()
        .map(|&(rows, cols)| prop::collection::vec(prop::collection::vec(0u32..=60, cols), rows))
        .collect();
    let (shape, levels) = (shape.clone(), levels.to_vec());
    (
        prop::sample::select(vec![500u32, 800, 1000, 1000, 1100, 2000]),
        prop::collection::vec(noise, launches),
    )
        .prop_map(move |(factor, launches)| {
            launches
                .into_iter()
                .map(|noise| {
                    shape
                        .iter()
                        .zip(&levels)
                        .zip(noise)
                        .map(|(((b, np, sizes), level), noise)| Table {
                            bench: *b,
                            processes: *np,
                            rows: sizes
                                .iter()
                                .zip(level)
                                .zip(noise)
                                .map(|((s, lv), nz)| {
                                    let figs = lv
                                        .iter()
                                        .zip(nz)
                                        .map(|(&l, n)| {
                                            let x = u64::from(l)
                                                * u64::from(factor)
                                                * (1000 + u64::from(n))
                                                / 1_000_000;
                                            x.clamp(1, 500_000) as u32
                                        })
                                        .collect();
                                    (*s, figs)
                                })
                                .collect(),
                        })
                        .collect()
                })
                .collect()
        })
}

/// A baseline and a new run of one shape.
fn pair() -> impl Strategy<Value = (Vec<Launch>, Vec<Launch>)> {
    shape().prop_flat_map(|sh| {
        let levels: Vec<_> = sh
            .iter()
            .map(|(b, _, sizes)| {
                prop::collection::vec(
                    prop::collection::vec(1u32..=5000, BENCHES[*b].columns.len()),
                    sizes.len(),
                )
            })
            .collect();
        (Just(sh), levels).prop_flat_map(|(sh, levels)| {
            (run_of(&sh, &levels, 1..=6), run_of(&sh, &levels, 1..=6))
        })
    })
}

/// A launch as imb-rs prints it on stdout.
fn text(launch: &Launch) -> String {
    let mut s = String::from(
        "#---------------------------------------------------\n\
         #    imb-rs 0.1.0, MPI-1 part    \n\
         #---------------------------------------------------\n\
         # MPI Version           : 3.1\n\
         # MPI Thread Environment: MPI_THREAD_SINGLE\n\n",
    );
    for t in launch {
        let b = &BENCHES[t.bench];
        s.push_str(&format!(
            "#---------------------------------------------------\n\
             # Benchmarking {} \n# #processes = {} \n\
             #---------------------------------------------------\n",
            b.name, t.processes
        ));
        if b.sized {
            s.push_str(&format!("{:>13}", "#bytes"));
        }
        s.push_str(&format!("{:>13}", "#repetitions"));
        for (title, _) in b.columns {
            s.push_str(&format!("{title:>13}"));
        }
        s.push('\n');
        for (size, figs) in &t.rows {
            if let Some(n) = size {
                s.push_str(&format!("{n:>13}"));
            }
            s.push_str(&format!("{:>13}", 1000));
            for &f in figs {
                s.push_str(&format!("{:>13.2}", f64::from(f) / 100.0));
            }
            s.push('\n');
        }
        s.push('\n');
    }
    s.push_str("\n# All processes entering MPI_Finalize\n");
    s
}

/// The same launch as imb-rs's `-json` (schema 2): rows keyed by the columns' machine keys.
fn json(launch: &Launch) -> String {
    use serde_json::{json, Map, Value};
    let tables: Vec<Value> = launch
        .iter()
        .map(|t| {
            let b = &BENCHES[t.bench];
            let mut columns = Vec::new();
            let mut keys = Vec::new();
            if b.sized {
                columns.push("#bytes");
                keys.push("bytes");
            }
            columns.push("#repetitions");
            keys.push("repetitions");
            for (title, key) in b.columns {
                columns.push(title);
                keys.push(key);
            }
            let rows: Vec<Value> = t
                .rows
                .iter()
                .map(|(size, figs)| {
                    let mut m = Map::new();
                    if let Some(n) = size {
                        m.insert("bytes".into(), json!(n));
                    }
                    m.insert("repetitions".into(), json!(1000));
                    for ((_, key), &f) in b.columns.iter().zip(figs) {
                        m.insert((*key).into(), json!(f64::from(f) / 100.0));
                    }
                    Value::Object(m)
                })
                .collect();
            json!({
                "benchmark": b.name, "processes": t.processes,
                "groups": [(0..t.processes).collect::<Vec<_>>()], "idle": 0, "multi": false,
                "mode": null, "columns": columns, "keys": keys, "rows": rows, "notes": [],
            })
        })
        .collect();
    json!({
        "schema_version": 2, "suite": "imb-mpi1",
        "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE",
                   "mpi_version": [3, 1], "notes": []},
        "tables": tables, "complete": true,
    })
    .to_string()
}

fn side(label: &str, launches: &[Launch]) -> Side {
    let runs: Vec<Run> = launches
        .iter()
        .enumerate()
        .map(|(k, l)| imbtext::parse(&format!("{label}/{k}.txt"), &text(l)).unwrap())
        .collect();
    Side {
        label: label.to_string(),
        files: (0..runs.len())
            .map(|k| format!("{label}/{k}.txt"))
            .collect(),
        runs,
        repeats: Vec::new(),
        empty: Vec::new(),
    }
}

/// Criteria against the baseline, of every statistic, with bounds no ratio of hundredths up to
/// 5000.00 can equal.
const BASELINE_CRITERIA: &str = r#"
[[criterion]]
name = "PingPong median"
benchmark = "PingPong"
metric = "t"
reference = "baseline"
lower = -0.1913
upper = 0.2371

[[criterion]]
name = "PingPong bandwidth, p25"
benchmark = "PingPong"
metric = "mbytes"
statistic = "p25"
reference = "baseline"
lower = -0.1913

[[criterion]]
name = "Allreduce p75"
benchmark = "Allreduce"
metric = "t_avg"
statistic = "p75"
reference = "baseline"
upper = 0.3119

[[criterion]]
name = "Allreduce at 2, p90"
benchmark = "Allreduce"
processes = 2
metric = "t_max"
statistic = "p90"
reference = "baseline"
upper = 0.2371
"#;

/// A criterion against a number (not scaled with the runs).
const NUMBER_CRITERION: &str = r#"
[[criterion]]
name = "PingPong against a number"
benchmark = "PingPong"
metric = "t"
reference = 12.3457
upper = 0.2371
"#;

fn criteria(text: &str) -> Vec<Criterion> {
    refs::parse("props.toml", text).unwrap()
}

fn build<'a>(
    base: &'a Side,
    news: &'a [Side],
    list: &'a [Criterion],
    metric: Metric,
) -> Comparison<'a> {
    comparison::build(
        Some(base),
        news,
        metric,
        0.95,
        Some(("props.toml", list)),
        &Acceptance::default(),
    )
}

/// One size of a comparison table: where, the medians, ratio, interval and change.
#[derive(Debug, Clone, PartialEq)]
struct RowD {
    table: String,
    bytes: Option<u64>,
    base: f64,
    new: f64,
    ratio: Option<f64>,
    interval: Option<(f64, f64)>,
    change: Change,
}

/// One size of a criterion's outcome.
#[derive(Debug, Clone, PartialEq)]
struct SizeD {
    table: String,
    bytes: Option<u64>,
    value: Option<f64>,
    reference: Option<f64>,
    ratio: Option<f64>,
    interval: Option<(f64, f64)>,
    margin: Option<f64>,
    verdict: Option<Verdict>,
}

/// Everything a comparison decided, in a form to set side by side.
#[derive(Debug, Clone, PartialEq)]
struct Digest {
    rows: Vec<RowD>,
    /// Per criterion and new run: its name, verdict, the code of a reason decided before any
    /// figure, and its sizes.
    outcomes: Vec<(String, Verdict, Option<&'static str>, Vec<SizeD>)>,
}

fn digest(c: &Comparison) -> Digest {
    let rows = c
        .compared
        .iter()
        .flat_map(|cmp| &cmp.tables)
        .flat_map(|t| {
            t.rows.iter().map(|r| RowD {
                table: format!("{:?}", t.key),
                bytes: r.bytes,
                base: r.base,
                new: r.new,
                ratio: r.ratio,
                interval: r.interval,
                change: r.change,
            })
        })
        .collect();
    let outcomes = c
        .criteria
        .iter()
        .flat_map(|cr| &cr.outcomes)
        .map(|o| {
            let sizes = o
                .sizes
                .iter()
                .map(|z| SizeD {
                    table: format!("{:?}", z.table),
                    bytes: z.bytes,
                    value: z.value,
                    reference: z.reference,
                    ratio: z.ratio,
                    interval: z.interval,
                    margin: z.margin,
                    verdict: z.verdict,
                })
                .collect();
            (
                o.criterion.name.clone(),
                o.verdict,
                o.blocked.as_ref().map(|r| r.code),
                sizes,
            )
        })
        .collect();
    Digest { rows, outcomes }
}

/// Every time multiplied by `k` and every bandwidth divided by it.
fn scaled(side: &Side, k: f64) -> Side {
    let mut s = side.clone();
    for t in s.runs.iter_mut().flat_map(|r| &mut r.tables) {
        for (c, key) in t.columns.iter().enumerate() {
            let f = match key.as_str() {
                "t" | "t_min" | "t_max" | "t_avg" => k,
                "mbytes" => 1.0 / k,
                _ => continue,
            };
            for row in &mut t.rows {
                row[c] *= f;
            }
        }
    }
    s
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

fn close_opt(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => close(a, b),
        (None, None) => true,
        _ => false,
    }
}

fn close_pair(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> bool {
    close_opt(a.map(|x| x.0), b.map(|x| x.0)) && close_opt(a.map(|x| x.1), b.map(|x| x.1))
}

/// Files of a case, removed however the case ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "imb-compare-props-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `launches` written as a run directory `dir/label`, launch k in the file named by
/// `names[k]`, text or `-json` by `as_json[k]`, and read back as imb-compare reads a run.
fn load(dir: &Path, label: &str, launches: &[Launch], names: &[usize], as_json: &[bool]) -> Side {
    let d = dir.join(label);
    std::fs::create_dir_all(&d).unwrap();
    for (k, l) in launches.iter().enumerate() {
        let (ext, body) = if as_json[k % as_json.len()] {
            ("json", json(l))
        } else {
            ("txt", text(l))
        };
        std::fs::write(d.join(format!("{}.{ext}", names[k] + 1)), body).unwrap();
    }
    sides::load(d.to_str().unwrap()).unwrap()
}

/// 24 cases a property unless PROPTEST_CASES asks for more (a longer search by hand).
fn config() -> Config {
    let default = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            default.cases
        } else {
            24
        },
        failure_persistence: None,
        ..default
    }
}

proptest! {
    #![proptest_config(config())]

    /// A run against itself: ratio 1 at every size, no change beyond the noise, no FAIL (but
    /// for a criterion that covers no row of the run, which fails by design).
    #[test]
    fn a_run_against_itself((launches, _) in pair()) {
        let base = side("base", &launches);
        let news = [side("new", &launches)];
        let list = criteria(BASELINE_CRITERIA);
        let d = digest(&build(&base, &news, &list, Metric::T));
        prop_assert!(!d.rows.is_empty());
        for r in &d.rows {
            prop_assert_eq!(r.ratio, Some(1.0), "{:?}", r);
            prop_assert!(matches!(r.change, Change::Same | Change::Unknown), "{:?}", r);
        }
        for (name, verdict, blocked, sizes) in &d.outcomes {
            if *blocked != Some("no-rows") {
                prop_assert_ne!(*verdict, Verdict::Fail, "{}: {:?} {:?}", name, blocked, sizes);
            }
        }
    }

    /// Launches in any order, in memory and as launch files named in that order (some of
    /// them `-json`): the same figures, intervals and verdicts.
    #[test]
    fn the_order_of_launches_changes_nothing(
        (base_l, new_l) in pair(),
        seed in any::<u64>(),
        as_json in prop::collection::vec(any::<bool>(), 1..=3),
    ) {
        let list: Vec<Criterion> = criteria(&format!("{BASELINE_CRITERIA}{NUMBER_CRITERION}"));
        let (base, news) = (side("base", &base_l), [side("new", &new_l)]);
        let want = digest(&build(&base, &news, &list, Metric::T));
        // A permutation of each run's launches from the seed.
        let shuffle = |n: usize, salt: u64| {
            let mut order: Vec<usize> = (0..n).collect();
            let mut x = seed ^ salt;
            for i in (1..n).rev() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                order.swap(i, (x >> 33) as usize % (i + 1));
            }
            order
        };
        let (ob, on) = (shuffle(base_l.len(), 1), shuffle(new_l.len(), 2));
        let pick = |l: &[Launch], o: &[usize]| o.iter().map(|&k| l[k].clone()).collect::<Vec<_>>();
        let (pb, pn) = (pick(&base_l, &ob), pick(&new_l, &on));
        let (base2, news2) = (side("base", &pb), [side("new", &pn)]);
        prop_assert_eq!(&digest(&build(&base2, &news2, &list, Metric::T)), &want);
        // As files: launch k of the original order in the file numbered ob[k] + 1.
        let dir = Scratch::new();
        let base3 = load(&dir.0, "base", &base_l, &ob, &as_json);
        let news3 = [load(&dir.0, "new", &new_l, &on, &as_json)];
        prop_assert_eq!(base3.runs.len(), base_l.len());
        prop_assert_eq!(&digest(&build(&base3, &news3, &list, Metric::T)), &want);
    }

    /// Every time of both runs times k (every bandwidth divided): medians times k, the same
    /// ratios, intervals and verdicts. A size's change also stays, unless the medians' step is
    /// within the 0.01 a text table prints (doc/ACCEPTANCE.md, section 2) on one side of the
    /// scaling: that floor is absolute by design.
    #[test]
    fn scaling_both_runs_changes_no_verdict(
        (base_l, new_l) in pair(),
        k in prop_oneof![(-10i32..=10).prop_map(|e| 2f64.powi(e)), 0.001f64..1000.0],
    ) {
        let list = criteria(BASELINE_CRITERIA);
        let (base, news) = (side("base", &base_l), [side("new", &new_l)]);
        let (base_k, news_k) = (scaled(&base, k), [scaled(&news[0], k)]);
        for metric in [Metric::T, Metric::Mbytes] {
            let a = digest(&build(&base, &news, &list, metric));
            let b = digest(&build(&base_k, &news_k, &list, metric));
            let f = if metric == Metric::Mbytes { 1.0 / k } else { k };
            prop_assert_eq!(a.rows.len(), b.rows.len());
            for (x, y) in a.rows.iter().zip(&b.rows) {
                prop_assert!(close(y.base, f * x.base) && close(y.new, f * x.new), "{:?} {:?}", x, y);
                prop_assert!(close_opt(x.ratio, y.ratio) && close_pair(x.interval, y.interval), "{:?} {:?}", x, y);
                let step = |r: &RowD| (r.new - r.base).abs() <= RESOLUTION;
                if !step(x) && !step(y) {
                    prop_assert_eq!(x.change, y.change, "{:?} {:?}", x, y);
                }
            }
            prop_assert_eq!(a.outcomes.len(), b.outcomes.len());
            for ((nx, vx, bx, sx), (ny, vy, by, sy)) in a.outcomes.iter().zip(&b.outcomes) {
                prop_assert_eq!((nx, vx, bx), (ny, vy, by), "{:?} {:?}", sx, sy);
                prop_assert_eq!(sx.len(), sy.len());
                for (x, y) in sx.iter().zip(sy) {
                    // A criterion's figures are in its own metric's unit.
                    let g = x.value.zip(y.value).map_or(f, |(u, v)| v / u);
                    prop_assert!(close(g, k) || close(g, 1.0 / k), "{:?} {:?}", x, y);
                    prop_assert!(close_opt(y.value, x.value.map(|v| v * g)), "{:?} {:?}", x, y);
                    prop_assert!(close_opt(y.reference, x.reference.map(|v| v * g)), "{:?} {:?}", x, y);
                    prop_assert!(close_opt(x.ratio, y.ratio) && close_pair(x.interval, y.interval), "{:?} {:?}", x, y);
                    prop_assert!(close_opt(x.margin, y.margin), "{:?} {:?}", x, y);
                    prop_assert_eq!(x.verdict, y.verdict, "{:?} {:?}", x, y);
                }
            }
        }
    }

    /// A table no criterion names, added to every launch of both runs, changes no verdict and
    /// no figure of the other tables.
    #[test]
    fn an_unrelated_table_changes_no_verdict(
        (base_l, new_l) in pair(),
        np in prop::sample::select(vec![2usize, 4]),
        levels in prop::collection::vec(1u32..=5000, 3),
    ) {
        let list: Vec<Criterion> = criteria(&format!("{BASELINE_CRITERIA}{NUMBER_CRITERION}"));
        let (base, news) = (side("base", &base_l), [side("new", &new_l)]);
        let want = digest(&build(&base, &news, &list, Metric::T));
        let with = |l: &[Launch], f: u32| -> Vec<Launch> {
            l.iter()
                .enumerate()
                .map(|(k, tables)| {
                    let mut t = tables.clone();
                    let figs = levels.iter().map(|&x| x * f + k as u32).collect();
                    t.push(Table { bench: BARRIER, processes: np, rows: vec![(None, figs)] });
                    t
                })
                .collect()
        };
        let (base2, news2) = (side("base", &with(&base_l, 1)), [side("new", &with(&new_l, 3))]);
        let mut got = digest(&build(&base2, &news2, &list, Metric::T));
        got.rows.retain(|r| !r.table.contains("Barrier"));
        prop_assert_eq!(got, want);
    }

    /// One launch written as text and as `-json`: the same tables.
    #[test]
    fn text_and_json_readers_agree((launches, _) in pair(), barrier in any::<bool>()) {
        for (k, l) in launches.iter().enumerate() {
            let mut l = l.clone();
            if barrier {
                l.push(Table { bench: BARRIER, processes: 2, rows: vec![(None, vec![40, 45, 42])] });
            }
            let t = imbtext::parse(&format!("{k}.txt"), &text(&l)).unwrap();
            let j = jsondoc::parse(&format!("{k}.json"), &json(&l)).unwrap();
            prop_assert_eq!(t.tables.len(), l.len());
            prop_assert_eq!(t.tables.len(), j.tables.len());
            for (a, b) in t.tables.iter().zip(&j.tables) {
                prop_assert_eq!(
                    (&a.benchmark, a.processes, a.groups, &a.mode, &a.columns, &a.rows, &a.flags),
                    (&b.benchmark, b.processes, b.groups, &b.mode, &b.columns, &b.rows, &b.flags)
                );
            }
            prop_assert_eq!(t.thread_level(), j.thread_level());
            prop_assert_eq!(&t.status, &j.status);
        }
    }
}
