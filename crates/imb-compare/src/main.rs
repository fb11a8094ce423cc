//! The imb-compare executable: compares results kept as IMB-format text or imb-rs `-json`.
//! Needs no MPI.
//!
//! - `imb-compare BASE NEW [NEW ...]`: each new run against the baseline, per table and size,
//!   with the changes beyond the noise marked; `--references FILE.toml` adds acceptance
//!   criteria (exit 1 when one fails), `--junit`, `--markdown`, `--csv` and `--plot` other
//!   outputs (doc/ACCEPTANCE.md).
//! - `imb-compare store add|list|show|rm|accept`: the results store (SQLite); a run argument
//!   that starts with `@` is a selector of stored runs (`@accepted`, `@latest`, `@LABEL`,
//!   `@FROM..TO`), wherever a run is taken; `imb-compare trend` follows one figure over them.
//! - `imb-compare agreement A B [C ...]`: each argument is one program's launches (a directory
//!   of output files, one per launch, or a single file); A is set against each of the others
//!   (doc/METHODOLOGY.md).
//!
//! Exit status: 0 done (every criterion passed), 1 a criterion failed, 2 bad input, 3 an
//! output could not be written, 4 no criterion failed but one was inconclusive (rerun with
//! more launches).

use imb_compare::conditions::Kind;
use imb_compare::judge::{comparison, criteria, trend};
use imb_compare::read::{key::Metric, sides};
use imb_compare::render::{self, agreement, plot, Format};
use imb_compare::store::{self, name, select, select::Selector, Store};
use imb_compare::{cli, Error};
use std::process::ExitCode;

/// What ended the program early.
enum Stop {
    Input(String),
    Write(Option<String>),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        match e {
            Error::StoreWrite { .. } => Stop::Write(Some(e.to_string())),
            _ => Stop::Input(e.to_string()),
        }
    }
}

/// `$IMB_RS_SYSTEM`, checked as `--system` is (store::name::name): a name from the environment files
/// runs and narrows selectors just as one typed. Empty is unset, as shells use it.
fn env_system() -> Result<Option<String>, String> {
    const VAR: &str = "$IMB_RS_SYSTEM";
    match std::env::var_os("IMB_RS_SYSTEM") {
        None => Ok(None),
        Some(v) if v.is_empty() => Ok(None),
        Some(v) => match v.to_str() {
            None => Err(format!(
                "{VAR} \"{}\" is not UTF-8: a system name is UTF-8 text",
                imb_core::safefile::shown(&v)
            )),
            Some(s) => name::name(s)
                .map(Some)
                .map_err(|m| format!("{VAR}: {}", imb_core::error::plain(&m))),
        },
    }
}

/// The results store a command names (`--db`), opened when first needed.
struct Stored {
    db: Option<String>,
    /// `--system`, else `$IMB_RS_SYSTEM`; its error is raised only where a system is used,
    /// so a bad variable does not stop a comparison of files on disk.
    system: Result<Option<String>, String>,
    /// Whether the command writes (rm, accept): the store is then opened to write.
    writing: bool,
    open: Option<Store>,
}

impl Stored {
    fn of(m: &clap::ArgMatches) -> Stored {
        // Not every store command takes --system.
        let system = match m.try_get_one::<String>("system").ok().flatten() {
            Some(s) => Ok(Some(s.clone())),
            None => env_system(),
        };
        Stored {
            db: m.get_one::<String>("db").cloned(),
            system,
            writing: false,
            open: None,
        }
    }

    fn system(&self) -> Result<Option<String>, Stop> {
        self.system.clone().map_err(Stop::Input)
    }

    /// The store, opened read-only unless `writing` was set: a store on a read-only mount
    /// can be listed, shown and compared against.
    fn get(&mut self) -> Result<&mut Store, Stop> {
        if self.open.is_none() {
            let db = store::db_path(self.db.as_deref())?;
            self.open = Some(if self.writing {
                Store::open(&db)?
            } else {
                Store::open_read(&db)?
            });
        }
        Ok(self.open.as_mut().expect("just opened"))
    }

    fn create(&mut self) -> Result<&mut Store, Stop> {
        if self.open.is_none() {
            let db = store::db_path(self.db.as_deref())?;
            self.open = Some(Store::open_or_create(&db)?);
        }
        Ok(self.open.as_mut().expect("just opened"))
    }

    /// A run named by number or by a selector that chooses exactly one.
    fn one_run(&mut self, arg: &str) -> Result<i64, Stop> {
        let system = self.system()?;
        let st = self.get()?;
        if let Ok(id) = arg.parse::<i64>() {
            return Ok(id);
        }
        if !select::is_selector(arg) {
            return Err(Stop::Input(format!(
                "{arg:?}: name a run by its number or a selector (@latest, @accepted, ...)"
            )));
        }
        let runs = st.select(&Selector::parse(arg)?, system.as_deref())?;
        match runs.as_slice() {
            [one] => Ok(one.id),
            many => Err(Stop::Input(format!(
                "{arg}: chooses {} runs ({}): name one",
                many.len(),
                many.iter()
                    .map(|r| r.id.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

fn load_all<'a>(
    paths: impl Iterator<Item = &'a String>,
    stored: &mut Stored,
) -> Result<Vec<sides::Side>, Stop> {
    let paths: Vec<&String> = paths.collect();
    let mut loaded = Vec::new();
    for p in &paths {
        if select::is_selector(p) {
            let sel = Selector::parse(p)?;
            let system = stored.system()?;
            loaded.push(stored.get()?.load(&sel, system.as_deref())?);
        } else {
            loaded.push(sides::load(p)?);
        }
    }
    // Two runs with the same file name (a/run.json, b/run.json) are told apart by their path;
    // one file named twice by its place.
    let clash: Vec<bool> = (0..loaded.len())
        .map(|k| {
            let same = |j: usize| loaded[j].label == loaded[k].label;
            (0..loaded.len()).any(|j| j != k && same(j) && paths[j] != paths[k])
        })
        .collect();
    for (k, c) in clash.into_iter().enumerate() {
        if c {
            loaded[k].label = paths[k].to_string();
        }
    }
    for k in 0..loaded.len() {
        if loaded[..k].iter().any(|s| s.label == loaded[k].label) {
            loaded[k].label = format!("{} #{}", loaded[k].label, k + 1);
        }
    }
    Ok(loaded)
}

fn print(text: &str) -> Result<(), Stop> {
    imb_core::safefile::print_all(text).map_err(Stop::Write)
}

fn agreement(m: &clap::ArgMatches) -> Result<u8, Stop> {
    let metric = *m.get_one::<Metric>("metric").expect("defaulted");
    let loaded = load_all(
        m.get_many::<String>("sides").expect("required"),
        &mut Stored::of(m),
    )?;
    print(&agreement::report(&loaded, metric, m.get_flag("brief")))?;
    Ok(0)
}

/// An output file checked before any work: a usage error (no name) is bad input, a place that
/// cannot take the file is an output that cannot be written.
fn out_file(arg: &str, path: &str) -> Result<imb_core::safefile::OutFile, Stop> {
    imb_core::safefile::OutFile::check(arg, path).map_err(|e| match e {
        imb_core::Error::Arg { .. } => Stop::Input(e.to_string()),
        other => Stop::Write(Some(other.to_string())),
    })
}

fn write_out(f: &imb_core::safefile::OutFile, arg: &str, text: &str) -> Result<(), Stop> {
    f.write(text.as_bytes())
        .map_err(|e| Stop::Write(Some(format!("{arg} {}: {e}", f.shown))))
}

fn against_base(m: &clap::ArgMatches) -> Result<u8, Stop> {
    let metric = *m.get_one::<Metric>("metric").expect("defaulted");
    let confidence = *m.get_one::<f64>("confidence").expect("defaulted");
    let format = if m.get_flag("markdown") {
        Format::Markdown
    } else if m.get_flag("csv") {
        Format::Csv
    } else {
        Format::Text
    };
    // Everything named is checked before anything is read or written.
    let refs_path = m.get_one::<String>("references");
    let junit_out = match m.get_one::<String>("junit") {
        Some(p) => Some(out_file("--junit", p)?),
        None => None,
    };
    let json_out = match m.get_one::<String>("json") {
        Some(p) => Some(out_file("--json", p)?),
        None => None,
    };
    let criteria = match refs_path {
        Some(p) => {
            let text = imb_core::safefile::read_text("--references", p)
                .map_err(|e| Stop::Input(e.to_string()))?;
            Some(criteria::parse(p, &text)?)
        }
        None => None,
    };
    let loaded = load_all(
        m.get_many::<String>("runs").expect("required"),
        &mut Stored::of(m),
    )?;
    if loaded.len() < 2 && criteria.is_none() {
        return Err(Stop::Input(
            "one run: give BASE and NEW, or --references FILE.toml to check one run".to_string(),
        ));
    }
    if let Some(list) = &criteria {
        judgeable(list, refs_path, &loaded)?;
    }
    // Dropped on any early return: what it made goes again (plot::PlotDir).
    let mut plots = match m.get_one::<String>("plot") {
        Some(dir) => Some(plot::prepare(dir).map_err(|e| Stop::Write(Some(e.to_string())))?),
        None => None,
    };
    let (base, news) = if loaded.len() == 1 {
        (None, &loaded[..])
    } else {
        (Some(&loaded[0]), &loaded[1..])
    };
    let c = comparison::build(
        base,
        news,
        metric,
        confidence,
        criteria
            .as_deref()
            .zip(refs_path)
            .map(|(l, f)| (f.as_str(), l)),
        &acceptance(m),
    );
    let mut out = render::render(&c, format);
    if let (Some(j), Some(cr)) = (&junit_out, &c.criteria) {
        write_out(
            j,
            "--junit",
            &render::junit::document(&cr.file, &cr.outcomes),
        )?;
    }
    if let Some(j) = &json_out {
        write_out(j, "--json", &render::json::render(&c))?;
    }
    if let Some(mut p) = plots.take() {
        let files = plot::write(&mut p, &c).map_err(|e| Stop::Write(Some(e.to_string())))?;
        if format == Format::Text {
            out.push_str(&format!(
                "\n# {} plot(s) and index.html in {}\n",
                files.len() - 1,
                p.path()
            ));
        }
        p.keep().map_err(|e| Stop::Write(Some(e.to_string())))?;
    }
    print(&out)?;
    Ok(c.exit_status())
}

/// Whether the runs `loaded` can be judged by the criteria `list` (from `refs_path`): a
/// baseline to hold a "baseline" reference against, and no launch on both sides.
fn judgeable(
    list: &[criteria::Criterion],
    refs_path: Option<&String>,
    loaded: &[sides::Side],
) -> Result<(), Stop> {
    if let Some(file) = refs_path {
        if loaded.len() == 1 {
            if let Some(c) = list
                .iter()
                .find(|c| c.reference == criteria::Reference::Baseline)
            {
                return Err(Stop::Input(
                    Error::Line {
                        file: file.clone(),
                        line: c.line,
                        msg: "reference \"baseline\" but one run given: name BASE before NEW"
                            .to_string(),
                    }
                    .to_string(),
                ));
            }
        }
    }
    // A launch on both sides is not evidence of anything: a verdict judged on it could pass
    // a run against itself. Under criteria that is bad input, naming the launches.
    if let Some((base, news)) = loaded.split_first() {
        for n in news {
            let shared = sides::shared_launches(n, base);
            if let Some((nf, bf)) = shared.first() {
                let more = match shared.len() {
                    1 => String::new(),
                    k => format!(" and {} more", k - 1),
                };
                return Err(Stop::Input(format!(
                    "{}: shares launches with the baseline {} ({nf} is {bf}{more}): BASE and NEW \
                     must be independent launches to judge criteria",
                    n.label, base.label
                )));
            }
        }
    }
    Ok(())
}

/// What the user accepts on purpose (`--accept-…`).
fn acceptance(m: &clap::ArgMatches) -> criteria::Acceptance {
    criteria::Acceptance {
        flagged: m.get_flag("accept-flagged"),
        oversubscribed: m.get_flag("accept-oversubscribed"),
        incomplete: m.get_flag("accept-incomplete"),
        differences: m
            .get_many::<Kind>("accept-difference")
            .into_iter()
            .flatten()
            .copied()
            .collect(),
        unrecorded: m
            .get_many::<Kind>("accept-unrecorded")
            .into_iter()
            .flatten()
            .copied()
            .collect(),
    }
}

fn store_cmd(m: &clap::ArgMatches) -> Result<u8, Stop> {
    let (cmd, sub) = m.subcommand().expect("a subcommand is required");
    let mut stored = Stored::of(sub);
    stored.writing = matches!(cmd, "rm" | "accept");
    match cmd {
        "add" => {
            let system = stored.system()?.ok_or_else(|| {
                Stop::Input(
                    "store add: name the system the runs ran on with --system NAME (or \
                     $IMB_RS_SYSTEM)"
                        .to_string(),
                )
            })?;
            let filing = store::add::Filing {
                system,
                label: sub.get_one::<String>("label").cloned(),
                tags: sub
                    .get_many::<String>("tag")
                    .into_iter()
                    .flatten()
                    .cloned()
                    .collect(),
            };
            // Every run is read and checked before the store is touched.
            let mut prepared = Vec::new();
            for r in sub.get_many::<String>("runs").expect("required") {
                prepared.push(store::add::prepare(r)?);
            }
            let st = stored.create()?;
            let mut out = String::new();
            for a in st.add_all(&prepared, &filing)? {
                out.push_str(&imb_core::error::plain(&a.line()));
                out.push('\n');
            }
            print(&out)?;
        }
        "list" => {
            let system = stored.system()?;
            let st = stored.get()?;
            let runs = match sub.get_one::<String>("selector") {
                Some(sel) => st.select(&Selector::parse(sel)?, system.as_deref())?,
                None => st
                    .runs()?
                    .into_iter()
                    .filter(|r| system.as_ref().is_none_or(|s| &r.system == s))
                    .collect(),
            };
            let db = st.db.clone();
            print(&store::listing::list_text(&db, &runs))?;
        }
        "show" => {
            let id = stored.one_run(sub.get_one::<String>("run").expect("required"))?;
            let text = stored.get()?.show_text(id)?;
            print(&text)?;
        }
        "rm" => {
            let ids: Vec<i64> = sub
                .get_many::<i64>("runs")
                .expect("required")
                .copied()
                .collect();
            let lines = stored.get()?.remove(&ids)?;
            print(&format!("{}\n", lines.join("\n")))?;
        }
        "accept" => {
            let id = stored.one_run(sub.get_one::<String>("run").expect("required"))?;
            let line = stored.get()?.accept(id)?;
            print(&format!("{}\n", imb_core::error::plain(&line)))?;
        }
        _ => unreachable!("clap knows the subcommands"),
    }
    Ok(0)
}

fn trend_cmd(m: &clap::ArgMatches) -> Result<u8, Stop> {
    let q = trend::Query {
        benchmark: m.get_one::<String>("benchmark").expect("required").clone(),
        bytes: m.get_one::<u64>("bytes").copied(),
        processes: m.get_one::<usize>("processes").copied(),
        metric: *m.get_one::<Metric>("metric").expect("defaulted"),
        confidence: *m.get_one::<f64>("confidence").expect("defaulted"),
    };
    let sel = match m.get_one::<String>("selector") {
        Some(s) => Some(Selector::parse(s)?),
        None => None,
    };
    let mut stored = Stored::of(m);
    let system = stored.system()?;
    let t = stored.get()?.trend(q, sel.as_ref(), system.as_deref())?;
    let mut out = t.text();
    if let Some(dir) = m.get_one::<String>("plot") {
        // Dropped on an error: what it made goes again (plot::PlotDir).
        let mut p = plot::prepare(dir).map_err(|e| Stop::Write(Some(e.to_string())))?;
        let files = plot::trend::write(&mut p, &t).map_err(|e| Stop::Write(Some(e.to_string())))?;
        out.push_str(&format!("# {} and index.html in {}\n", files[0], p.path()));
        p.keep().map_err(|e| Stop::Write(Some(e.to_string())))?;
    }
    print(&out)?;
    Ok(0)
}

/// The parsed command line, or the exit status after help, the version or a usage error.
fn matches() -> Result<clap::ArgMatches, ExitCode> {
    cli::parse(std::env::args_os().collect()).map_err(|u| match u {
        cli::Usage::Error(msg) => {
            eprintln!("imb-compare: {msg}");
            ExitCode::from(2)
        }
        cli::Usage::Shown(e) => {
            // --help and --version, as clap prints them.
            let _ = e.print();
            ExitCode::SUCCESS
        }
    })
}

fn main() -> ExitCode {
    let m = match matches() {
        Ok(m) => m,
        Err(code) => return code,
    };
    let done = match m.subcommand() {
        Some(("agreement", sub)) => agreement(sub),
        Some(("store", sub)) => store_cmd(sub),
        Some(("trend", sub)) => trend_cmd(sub),
        _ => against_base(&m),
    };
    match done {
        Ok(code) => ExitCode::from(code),
        Err(Stop::Input(msg)) => {
            eprintln!("imb-compare: {msg}");
            ExitCode::from(2)
        }
        Err(Stop::Write(None)) => ExitCode::from(imb_core::safefile::EXIT_CLOSED),
        Err(Stop::Write(Some(msg))) => {
            eprintln!("imb-compare: {msg}");
            ExitCode::from(imb_core::safefile::EXIT_WRITE)
        }
    }
}
