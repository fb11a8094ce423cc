//! imb-compare's readers: IMB/OSU text, `-json` documents, references files, and what the
//! program does with a launch once read.

use super::common::{one_line, text};

/// imb-compare's IMB/OSU text reader.
pub fn imbtext(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::read::imbtext::parse("launch.txt", t) {
        one_line("imbtext", &e.to_string(), "launch.txt");
    }
}

/// imb-compare's `-json` reader.
pub fn jsondoc(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::read::jsondoc::parse("launch.json", t) {
        one_line("jsondoc", &e.to_string(), "launch.json");
    }
}

/// imb-compare's references file (`--references FILE.toml`).
pub fn refs(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::judge::criteria::parse("refs.toml", t) {
        one_line("refs", &e.to_string(), "refs.toml");
    }
}

/// What `imb-compare` does with a launch after reading it: the file as text or `-json` (as
/// `sides::load` tells them apart), then set against itself as BASE and NEW with the
/// acceptance criteria of settings/acceptance.toml and a catch-all one, in every output format,
/// and as `agreement` of two sides. Plots are left out (they need a directory).
pub fn pipeline(data: &[u8]) {
    use imb_compare::judge::{comparison, criteria};
    use imb_compare::read::{key::Metric, sides::Side};
    use imb_compare::render::agreement;
    let Some(t) = text(data) else { return };
    let parsed = if t.trim_start().starts_with('{') {
        imb_compare::read::jsondoc::parse("launch", t)
    } else {
        imb_compare::read::imbtext::parse("launch", t)
    };
    let run = match parsed {
        Err(e) => return one_line("pipeline", &e.to_string(), "launch"),
        Ok(r) => r,
    };
    for table in &run.tables {
        for row in &table.rows {
            assert_eq!(
                row.len(),
                table.columns.len(),
                "pipeline: a row of another width"
            );
            assert!(
                row.iter().all(|v| v.is_finite()),
                "pipeline: a figure not finite"
            );
        }
    }
    static CRITERIA: std::sync::OnceLock<Vec<criteria::Criterion>> = std::sync::OnceLock::new();
    let criteria = CRITERIA.get_or_init(|| {
        let mut text = include_str!("../../settings/acceptance.toml").to_string();
        text.push_str(
            "\n[[criterion]]\nbenchmark = \"*\"\nmetric = \"t\"\nstatistic = \"p90\"\n\
             reference = 1.5\nupper = 0.5\n",
        );
        criteria::parse("acceptance.toml", &text).expect("the criteria parse")
    });
    let side = |label: &str| Side {
        label: label.to_string(),
        runs: vec![run.clone()],
        files: vec![format!("{label}/launch")],
        repeats: Vec::new(),
        empty: Vec::new(),
    };
    let (base, new) = (side("base"), [side("new")]);
    // Whatever the input records, its figures reach the verdict code.
    let acceptance = criteria::Acceptance {
        unrecorded: imb_compare::conditions::Kind::ALL.into_iter().collect(),
        ..criteria::Acceptance::default()
    };
    for metric in [Metric::T, Metric::Mbytes, Metric::TOvrl] {
        let c = comparison::build(
            Some(&base),
            &new,
            metric,
            0.95,
            Some(("acceptance.toml", criteria)),
            &acceptance,
        );
        render_all(&c);
        let _ = c.exit_status();
        let _ = agreement::report(&[base.clone(), new[0].clone()], metric, false);
    }
}

/// imb-compare's command line (`cli::parse`, one argument a line, the program's name put
/// first): a run or `--help`, else a usage error of one line. Nothing is run: the paths it
/// names are never opened, let alone written.
pub fn compare_cli(data: &[u8]) {
    let Some(mut argv) = super::common::args(data) else {
        return;
    };
    argv.insert(0, "imb-compare".to_string());
    let argv = argv.into_iter().map(std::ffi::OsString::from).collect();
    if let Err(imb_compare::cli::Usage::Error(msg)) = imb_compare::cli::parse(argv) {
        one_line("compare_cli", &msg, "");
    }
}

/// A results store of its own for the selector harness: three runs of two systems (one of
/// them accepted), from the imbtext corpus, made in the scratch directory and unlinked once
/// made (one a thread; the corpus test replays in one).
struct SelectorStore {
    store: imb_compare::store::Store,
}

impl SelectorStore {
    fn new() -> SelectorStore {
        use imb_compare::store::{add, select::Selector, Store};
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = super::common::scratch().join(format!(
            "selector-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the store's directory");
        let db = dir.join("results.sqlite").to_string_lossy().into_owned();
        let mut store = Store::open_or_create(&db).expect("a new store");
        for (name, text, system, label, tag) in [
            (
                "mpi1.txt",
                include_str!("../corpus/imbtext/imb-rs-mpi1.txt"),
                "vm",
                "nightly",
                "x",
            ),
            (
                "multi.txt",
                include_str!("../corpus/imbtext/imb-rs-mpi1-multi.txt"),
                "vm",
                "b",
                "y",
            ),
            (
                "old.txt",
                include_str!("../corpus/imbtext/imb-3.0.txt"),
                "old",
                "nightly",
                "x",
            ),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("a launch file");
            let p = add::prepare(&path.to_string_lossy()).expect("a corpus launch");
            let filing = add::Filing {
                system: system.into(),
                label: Some(label.into()),
                tags: vec![tag.into()],
            };
            store.add(&p, &filing).expect("a run added");
        }
        store.accept(1).expect("run 1 accepted");
        // The files go now, while the store stays open (the harness only reads): a thread's
        // end or the process's, which may come first, leaves nothing behind.
        std::fs::remove_dir_all(&dir).expect("the store's directory removed");
        let latest = Selector::parse("@latest,system=vm").expect("a selector");
        let chosen = store
            .select(&latest, None)
            .expect("the open store still reads");
        assert_eq!(chosen.len(), 1, "@latest,system=vm");
        SelectorStore { store }
    }
}

thread_local! {
    static SELECTOR_STORE: std::cell::OnceCell<SelectorStore> = const { std::cell::OnceCell::new() };
}

/// A store selector (`@accepted`, `@latest,system=vm`, `@2026-05-01..`), the whole input one
/// argument: parsed, then run against a real store of three runs with no `--system`, with
/// one, and with one the store does not have. An error is one line naming the selector (the
/// store too, once it is opened); what is chosen is runs of one system, read back as a side
/// of as many launches.
pub fn selector(data: &[u8]) {
    use imb_compare::store::select::{is_selector, Selector};
    let Some(t) = text(data) else { return };
    // The message names the selector as a terminal may show it: control, text-direction and
    // zero-width characters escaped (imb_core::error::plain), so that escaped form is what
    // the message must contain.
    let named = &*imb_core::error::plain(t);
    let sel = match Selector::parse(t) {
        Err(e) => return one_line("selector", &e.to_string(), named),
        Ok(s) => s,
    };
    assert!(is_selector(t), "selector: {t:?} parsed without its @");
    assert_eq!(sel.text, t, "selector: the text kept is not the text given");
    SELECTOR_STORE.with(|cell| {
        let st = &cell.get_or_init(SelectorStore::new).store;
        for system in [None, Some("vm"), Some("old"), Some("nosuch")] {
            let runs = match st.select(&sel, system) {
                Err(e) => {
                    let msg = e.to_string();
                    one_line("selector", &msg, &st.db);
                    one_line("selector", &msg, named);
                    continue;
                }
                Ok(runs) => runs,
            };
            assert!(
                !runs.is_empty(),
                "selector: {t:?} chose no run and said nothing"
            );
            let systems: std::collections::BTreeSet<&str> =
                runs.iter().map(|r| r.system.as_str()).collect();
            assert_eq!(
                systems.len(),
                1,
                "selector: {t:?} chose runs of {systems:?}"
            );
            let mut ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
            ids.dedup();
            assert_eq!(ids.len(), runs.len(), "selector: {t:?} chose a run twice");
            match st.load(&sel, system) {
                Ok(side) => {
                    let launches: usize = runs.iter().map(|r| r.launches).sum();
                    assert_eq!(
                        side.runs.len(),
                        launches,
                        "selector: {t:?} read back another number of launches"
                    );
                }
                Err(e) => one_line("selector", &e.to_string(), ""),
            }
        }
    });
}

/// Sides of constructed launches with known answers, for the criteria harness: five launches
/// of one imb-rs run with a little noise (±2 %, seeded), the same five launches again, and
/// those five twice as slow (every figure doubled: times double, bandwidths halve).
struct Constructed {
    base: imb_compare::read::sides::Side,
    same: imb_compare::read::sides::Side,
    slow: imb_compare::read::sides::Side,
}

/// The columns of a table that are measured figures (times, bandwidths), not its sizes,
/// repetitions, groups or defect counts.
fn figure_columns(t: &imb_compare::read::run::Table) -> Vec<usize> {
    (0..t.columns.len())
        .filter(|&i| {
            !matches!(
                t.columns[i].as_str(),
                "bytes" | "repetitions" | "group" | "defects"
            )
        })
        .collect()
}

fn constructed() -> &'static Constructed {
    use imb_compare::read::sides::Side;
    static SIDES: std::sync::OnceLock<Constructed> = std::sync::OnceLock::new();
    SIDES.get_or_init(|| {
        let run = imb_compare::read::imbtext::parse(
            "mpi1.txt",
            include_str!("../corpus/imbtext/imb-rs-mpi1.txt"),
        )
        .expect("the corpus launch");
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut noise = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            0.98 + (state % 4001) as f64 / 100_000.0
        };
        let launches: Vec<imb_compare::read::run::Run> = (0..5)
            .map(|_| {
                let mut r = run.clone();
                for t in &mut r.tables {
                    let figures = figure_columns(t);
                    for row in &mut t.rows {
                        for &i in &figures {
                            row[i] *= noise();
                        }
                    }
                }
                r
            })
            .collect();
        let slow: Vec<imb_compare::read::run::Run> = launches
            .iter()
            .map(|r| {
                let mut r = r.clone();
                for t in &mut r.tables {
                    let figures = figure_columns(t);
                    for row in &mut t.rows {
                        for &i in &figures {
                            if matches!(t.columns[i].as_str(), "mbytes" | "msg_per_s") {
                                row[i] /= 2.0;
                            } else {
                                row[i] *= 2.0;
                            }
                        }
                    }
                }
                r
            })
            .collect();
        let side = |label: &str, runs: Vec<imb_compare::read::run::Run>| Side {
            label: label.to_string(),
            files: (0..runs.len())
                .map(|k| format!("{label}/{k}.txt"))
                .collect(),
            runs,
            repeats: Vec::new(),
            empty: Vec::new(),
        };
        Constructed {
            base: side("base", launches.clone()),
            same: side("same", launches),
            slow: side("slow", slow),
        }
    })
}

/// A references file read, then each of its criteria (the first 16) judged on constructed
/// launches at the confidences `--confidence` allows at its ends and its default, and the
/// file's verdicts rendered in every format. The known answers: the same launches on both
/// sides never FAIL a criterion against the baseline (its ratio is 1, inside any bounds, as
/// `lower` <= 0 <= `upper`), unless it covers no row; a size's FAIL shows an interval wholly
/// beyond a bound, its PASS one inside; a criterion's verdict is its worst size's.
pub fn criteria(data: &[u8]) {
    use imb_compare::judge::criteria::{self, Acceptance, Reference, Verdict};
    let Some(t) = text(data) else { return };
    let list = match criteria::parse("refs.toml", t) {
        Err(e) => return one_line("criteria", &e.to_string(), "refs.toml"),
        Ok(list) => list,
    };
    let list = &list[..list.len().min(16)];
    let sides = constructed();
    let acceptance = Acceptance {
        unrecorded: imb_compare::conditions::Kind::ALL.into_iter().collect(),
        ..Acceptance::default()
    };
    let tests = criteria::tests_in(list);
    for confidence in [0.5, 0.95, 0.999] {
        for c in list {
            for (base, new) in [
                (&sides.base, &sides.same),
                (&sides.base, &sides.slow),
                (&sides.slow, &sides.base),
            ] {
                let o = criteria::evaluate(c, Some(base), new, &acceptance, confidence, tests);
                one_line("criteria", &o.detail(), "");
                let blocked = o.blocked.as_ref().map(|r| r.code);
                if std::ptr::eq(new, &sides.same) && c.reference == Reference::Baseline {
                    assert!(
                        o.verdict != Verdict::Fail || blocked == Some("no-rows"),
                        "criteria: {:?} FAILs the same launches: {}",
                        c.name,
                        o.detail()
                    );
                }
                for s in o.judged() {
                    let Some((lo, hi)) = s.interval else { continue };
                    let above = c.upper.is_some_and(|u| lo > 1.0 + u);
                    let below = c.lower.is_some_and(|l| hi < 1.0 + l);
                    let inside = c.upper.is_none_or(|u| hi <= 1.0 + u)
                        && c.lower.is_none_or(|l| lo >= 1.0 + l);
                    match s.verdict {
                        Some(Verdict::Fail) => assert!(
                            above || below,
                            "criteria: {:?} FAILs a size whose interval is not beyond: {}",
                            c.name,
                            o.size_line(s)
                        ),
                        Some(Verdict::Pass) => assert!(
                            inside,
                            "criteria: {:?} PASSes a size whose interval is not inside: {}",
                            c.name,
                            o.size_line(s)
                        ),
                        _ => {}
                    }
                }
                if blocked.is_none() && o.judged().count() > 0 {
                    let worst = o.judged().filter_map(|s| s.verdict).max();
                    assert_eq!(
                        worst,
                        Some(o.verdict),
                        "criteria: {:?}: the verdict is not its worst size's",
                        c.name
                    );
                }
            }
        }
    }
    // The whole file's verdicts in every output, as `imb-compare --references` writes them.
    use imb_compare::judge::comparison;
    use imb_compare::read::key::Metric;
    let news = [sides.slow.clone()];
    let c = comparison::build(
        Some(&sides.base),
        &news,
        Metric::T,
        0.95,
        Some(("refs.toml", list)),
        &acceptance,
    );
    render_all(&c);
}

/// Every output format of `c` (text, Markdown, CSV, JSON, JUnit): none may panic.
fn render_all(c: &imb_compare::judge::comparison::Comparison<'_>) {
    use imb_compare::render;
    for format in [
        render::Format::Text,
        render::Format::Markdown,
        render::Format::Csv,
    ] {
        let _ = render::render(c, format);
    }
    let _ = render::json::render(c);
    if let Some(cr) = &c.criteria {
        let _ = render::junit::document(&cr.file, &cr.outcomes);
    }
}
