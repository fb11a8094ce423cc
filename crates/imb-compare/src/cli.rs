//! imb-compare's command line: the clap command, and its errors made one line as every other
//! error of ours. In the library, not the binary, so that the fuzz target of the command line
//! (fuzz/, `compare_cli`) parses exactly what the program parses.

use crate::conditions::Kind;
use crate::read::key::Metric;
use crate::store::name::name;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgGroup, Command};
use std::ffi::OsString;

/// Why the command line was not a run.
pub enum Usage {
    /// A usage error, one line (exit status 2).
    Error(String),
    /// `--help` or `--version`: clap's text, to print as it is (exit status 0).
    Shown(clap::Error),
}

/// The options whose value is a path or a name, which a non-UTF-8 argument may be.
const VALUED: [&str; 8] = [
    "--label",
    "--tag",
    "--system",
    "--db",
    "--plot",
    "--references",
    "--junit",
    "--json",
];

/// The parsed command line (`args` with the program's name first).
pub fn parse(args: Vec<OsString>) -> Result<clap::ArgMatches, Usage> {
    // clap would say only that some argument is not UTF-8; name it.
    if let Some((k, a)) = args
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, a)| a.to_str().is_none())
    {
        // The option it is the value of, when it is one (`--label X` or `--label=X`).
        let bytes = std::os::unix::ffi::OsStrExt::as_bytes(a.as_os_str());
        let option = match bytes.iter().position(|&b| b == b'=') {
            Some(eq) if bytes.starts_with(b"--") => {
                Some(String::from_utf8_lossy(&bytes[..eq]).into_owned())
            }
            _ => args[k - 1]
                .to_str()
                .filter(|p| k > 1 && VALUED.contains(p))
                .map(str::to_string),
        };
        return Err(Usage::Error(format!(
            "{}argument {k} \"{}\" is not UTF-8: paths, names and selectors are UTF-8 text",
            option.map(|o| format!("{o}: ")).unwrap_or_default(),
            imb_core::safefile::shown(a)
        )));
    }
    let m = command().try_get_matches_from(&args).map_err(|e| {
        if e.use_stderr() {
            // clap quotes an argument as given: an escape sequence in it would act on the
            // terminal and a CR break the line.
            Usage::Error(imb_core::error::plain(&one_line(&e)).into_owned())
        } else {
            Usage::Shown(e)
        }
    })?;
    before_subcommand(&args, &m).map_err(Usage::Error)?;
    Ok(m)
}

/// The options that may come before a subcommand as well as after it (`imb-compare --db FILE
/// store list`): where the store is and which system, the same for every command.
const GLOBAL: [&str; 2] = ["--db", "--system"];

/// What clap lets through once top-level options may precede a subcommand, and must not: a
/// comparison's option before a subcommand (it would be ignored, not applied), a global option
/// given both before and after it (clap keeps the later one without a word), and `--system`
/// on `store rm`, which removes runs by number whatever their system.
fn before_subcommand(args: &[OsString], m: &clap::ArgMatches) -> Result<(), String> {
    let Some((sub, sm)) = m.subcommand() else {
        return Ok(());
    };
    for a in command().get_arguments().filter(|a| !a.is_global_set()) {
        if m.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine) {
            let long = a.get_long().unwrap_or_else(|| a.get_id().as_str());
            return Err(format!(
                "--{long} before {sub}: only --db and --system go before a subcommand; give \
                 {sub}'s own options after it"
            ));
        }
    }
    let given: Vec<&str> = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .take_while(|a| *a != "--")
        .collect();
    for g in GLOBAL {
        let times = given
            .iter()
            .filter(|a| **a == g || a.strip_prefix(g).is_some_and(|r| r.starts_with('=')))
            .count();
        if times > 1 {
            return Err(format!(
                "{g} given {times} times (before and after a subcommand): give it once"
            ));
        }
    }
    if let Some(("rm", rm)) = sm.subcommand() {
        if rm.value_source("system") == Some(ValueSource::CommandLine) {
            return Err(
                "--system: store rm removes runs by number, of any system; leave --system out"
                    .to_string(),
            );
        }
    }
    Ok(())
}

fn metric_arg() -> Arg {
    Arg::new("metric")
        .long("metric")
        .value_name("M")
        .default_value("t")
        .value_parser(Metric::parse)
        .help(
            "t (t[usec], else t_avg, else t_ovrl), t_avg, t_min, t_max, mbytes, t_ovrl, t_pure \
             or msg_per_s (Msg/sec)",
        )
}

fn confidence(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.5..=0.999).contains(&x) => Ok(x),
        _ => Err(format!("{s:?}: a fraction from 0.5 to 0.999, e.g. 0.95")),
    }
}

/// A path argument: an empty one would name the current directory (or nothing), never what the
/// user meant, so it is a usage error naming the argument.
fn path(s: &str) -> Result<String, String> {
    if s.is_empty() {
        Err("an empty path: name a file or directory".to_string())
    } else {
        Ok(s.to_string())
    }
}

fn db_arg() -> Arg {
    Arg::new("db")
        .long("db")
        .value_name("FILE")
        .value_parser(path)
        .help("the results store (else $IMB_RS_DB, else $XDG_DATA_HOME/imb-rs/results.sqlite)")
}

fn system_arg(help: &'static str) -> Arg {
    Arg::new("system")
        .long("system")
        .value_name("NAME")
        .value_parser(name)
        .help(help)
}

const SELECTS: &str = "selectors (@...) choose runs of this system (else $IMB_RS_SYSTEM)";

fn store_command() -> Command {
    let run_arg = || {
        Arg::new("run")
            .value_name("RUN")
            .required(true)
            .help("a run number, or a selector that chooses one run (@latest, @accepted, ...)")
    };
    Command::new("store")
        .about(
            "The results store (SQLite): add runs, list, show and remove them, accept one as a \
             system's baseline (doc/ACCEPTANCE.md, \"9. The results store\")",
        )
        .subcommand_required(true)
        .subcommand(
            Command::new("add")
                .about("Add runs: each RUN (a directory of launch files, or one file) is one run")
                .arg(db_arg())
                .arg(system_arg(
                    "the system the runs ran on (else $IMB_RS_SYSTEM): a cluster, a partition",
                ))
                .arg(
                    Arg::new("label")
                        .long("label")
                        .value_name("LABEL")
                        .value_parser(name)
                        .help("a name for the runs (a selector @LABEL chooses them)"),
                )
                .arg(
                    Arg::new("tag")
                        .long("tag")
                        .value_name("TAG")
                        .value_parser(name)
                        .action(ArgAction::Append)
                        .help("a free tag (repeat for more; @tag=TAG chooses them)"),
                )
                .arg(
                    Arg::new("runs")
                        .value_name("RUN")
                        .num_args(1..)
                        .required(true)
                        .value_parser(path)
                        .help("a directory of one run's launch files, or one output file"),
                ),
        )
        .subcommand(
            Command::new("list")
                .about("One line a stored run: date, system, label, launches, program, MPI, hosts, tables, tags")
                .arg(db_arg())
                .arg(system_arg("only this system's runs (else $IMB_RS_SYSTEM)"))
                .arg(
                    Arg::new("selector")
                        .value_name("SELECTOR")
                        .help("only the runs it chooses (@latest, @LABEL, @FROM..TO, ...)"),
                ),
        )
        .subcommand(
            Command::new("show")
                .about("A stored run launch by launch, with its files")
                .arg(db_arg())
                .arg(system_arg(SELECTS))
                .arg(run_arg()),
        )
        .subcommand(
            Command::new("rm")
                .about("Remove stored runs with their launches and files, all or none")
                .arg(db_arg())
                .arg(
                    Arg::new("runs")
                        .value_name("RUN")
                        .num_args(1..)
                        .required(true)
                        // Run numbers start at 1: 0 or -1 names no run.
                        .value_parser(clap::value_parser!(i64).range(1..))
                        .help("a run number (imb-compare store list shows them)"),
                ),
        )
        .subcommand(
            Command::new("accept")
                .about("Make a stored run its system's accepted baseline (the selector @accepted)")
                .arg(db_arg())
                .arg(system_arg(SELECTS))
                .arg(run_arg()),
        )
}

pub fn command() -> Command {
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(help)
    };
    let value = |name: &'static str, v: &'static str, help: &'static str| {
        Arg::new(name).long(name).value_name(v).help(help)
    };
    let file = |name: &'static str, v: &'static str, help: &'static str| {
        value(name, v, help).value_parser(path)
    };
    Command::new("imb-compare")
        .version(env!("CARGO_PKG_VERSION"))
        .about(
            "Compare IMB-format results (imb-rs text or -json, IMB 3.0, IMB 2021, OSU) with a \
             baseline and acceptance criteria; needs no MPI (doc/ACCEPTANCE.md)",
        )
        .override_usage(
            "imb-compare [OPTIONS] BASE NEW [NEW ...]\n       \
             imb-compare --references FILE.toml [OPTIONS] [BASE] NEW [NEW ...]\n       \
             imb-compare agreement [OPTIONS] A B [C ...]\n       \
             imb-compare store add|list|show|rm|accept [OPTIONS] ...\n       \
             imb-compare trend [OPTIONS] BENCHMARK [--bytes N]",
        )
        .subcommand_negates_reqs(true)
        .arg(metric_arg())
        .arg(
            value(
                "confidence",
                "C",
                "the confidence of every interval (beyond noise, criteria)",
            )
            .default_value("0.95")
            .allow_negative_numbers(true)
            .value_parser(confidence),
        )
        .arg(file(
            "references",
            "FILE.toml",
            "acceptance criteria: each PASS, FAIL or INCONCLUSIVE; exit 1 if one fails, 4 if none \
             fails and one is inconclusive",
        ))
        .arg(file("junit", "FILE", "the criteria as JUnit XML (needs --references)").requires("references"))
        .arg(file("json", "FILE", "the whole comparison and the criteria as JSON"))
        .arg(flag("markdown", "Markdown tables instead of text"))
        .arg(flag("csv", "CSV instead of text (the criteria's when --references is given)"))
        .group(ArgGroup::new("format").args(["markdown", "csv"]))
        .arg(file(
            "plot",
            "DIR",
            "SVG plots (the metric and Mbytes/sec vs size, each run's launch spread, the \
             criteria's bounds) and DIR/index.html with the verdicts",
        ))
        .arg(flag(
            "accept-flagged",
            "let flagged figures (UNSETTLED, UNRELIABLE, DEFECT) decide criteria, and leave \
             rows without a figure (TIME-OUT, OUT-OF-MEMORY, INT-OVERFLOW) out; without it, \
             both make their size inconclusive",
        ))
        .arg(flag(
            "accept-oversubscribed",
            "let oversubscribed runs decide criteria (they fail them otherwise)",
        ))
        .arg(flag(
            "accept-incomplete",
            "let runs cut short decide criteria on what they have (inconclusive otherwise)",
        ))
        .arg(
            value(
                "accept-difference",
                "KIND,...",
                "judge criteria across these differences of conditions (they fail otherwise): \
                 program, mpi, thread-level, parameters, placement, layout, binding, threads",
            )
            .value_delimiter(',')
            .action(ArgAction::Append)
            .value_parser(Kind::parse),
        )
        .arg(
            value(
                "accept-unrecorded",
                "KIND,...",
                "judge criteria although a run does not record these conditions (inconclusive \
                 otherwise; IMB 3.0 text records no MPI library, no placement and no binding): \
                 program, mpi, thread-level, parameters, placement, binding, threads",
            )
            .value_delimiter(',')
            .action(ArgAction::Append)
            .value_parser(Kind::parse),
        )
        .arg(
            Arg::new("runs")
                .value_name("RUN")
                .num_args(1..)
                .required(true)
                .value_parser(path)
                .help(
                    "an output file (IMB text or -json), a directory of one run's launches, or \
                     stored runs (@accepted, @latest, @LABEL, @FROM..TO, ...)",
                ),
        )
        // Global: also before a subcommand (each subcommand's own, with its own help, takes
        // the value); before_subcommand refuses the other options there.
        .arg(db_arg().global(true))
        .arg(system_arg(SELECTS).global(true))
        .subcommand(store_command())
        .subcommand(
            Command::new("trend")
                .about(
                    "One figure per stored run over time, with each run's spread and its change \
                     points (doc/ACCEPTANCE.md, \"Trends\")",
                )
                .arg(
                    Arg::new("benchmark")
                        .value_name("BENCHMARK")
                        .required(true)
                        .help("as printed after # Benchmarking: PingPong, Allreduce, Multi-Bcast, ..."),
                )
                .arg(
                    Arg::new("bytes")
                        .long("bytes")
                        .value_name("N")
                        .value_parser(clap::value_parser!(u64))
                        .help(
                            "the message size, for a table with sizes (not Barrier's and other \
                             tables whose rows have no #bytes)",
                        ),
                )
                .arg(
                    Arg::new("processes")
                        .long("processes")
                        .value_name("P")
                        .value_parser(clap::builder::RangedU64ValueParser::<usize>::new().range(1..))
                        .help("the table's process count, when the runs have several"),
                )
                .arg(metric_arg())
                .arg(
                    value(
                        "confidence",
                        "C",
                        "the confidence of each run's interval against the runs before it",
                    )
                    .default_value("0.95")
                    .allow_negative_numbers(true)
                    .value_parser(confidence),
                )
                .arg(file(
                    "plot",
                    "DIR",
                    "an SVG of the trend (DIR/trend-BENCHMARK-BYTES.svg) and DIR/index.html",
                ))
                .arg(db_arg())
                .arg(system_arg("the system whose runs are followed (else $IMB_RS_SYSTEM)"))
                .arg(
                    Arg::new("selector")
                        .value_name("SELECTOR")
                        .help("only the runs it chooses (@tag=nightly, @2026-05-01.., ...)"),
                ),
        )
        .subcommand(
            Command::new("agreement")
                .about(
                    "One program's launches against others': per benchmark and size the medians, \
                     their ratio, each side's launch-to-launch CV and a verdict (doc/METHODOLOGY.md)",
                )
                .arg(metric_arg())
                .arg(flag(
                    "brief",
                    "only the thread levels and the summary, no size-by-size tables",
                ))
                .arg(db_arg())
                .arg(system_arg(SELECTS))
                .arg(
                    Arg::new("sides")
                        .value_name("SIDE")
                        .num_args(2..)
                        .required(true)
                        .value_parser(path)
                        .help(
                            "a directory of one program's launch outputs, one output file, or \
                             stored runs (@...)",
                        ),
                ),
        )
}

/// clap's error as one line, as every other error of ours: its first line, then the lines up
/// to its usage block (a list of missing arguments, a tip) folded in.
pub fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut line = String::new();
    for l in text.lines().map(str::trim) {
        if l.starts_with("Usage:") || l.starts_with("For more information") {
            break;
        }
        if l.is_empty() {
            continue;
        }
        if line.is_empty() {
            line.push_str(l.strip_prefix("error: ").unwrap_or(l));
        } else if let Some(tip) = l.strip_prefix("tip: ") {
            line.push_str(&format!(" ({tip})"));
        } else if line.ends_with(':') {
            line.push_str(&format!(" {l}"));
        } else {
            line.push_str(&format!(", {l}"));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn usage_errors_are_one_line() {
        for argv in [
            &["imb-compare"][..],
            &["imb-compare", "--plot", "", "a", "b"],
            &["imb-compare", "--confidence", "-1", "a", "b"],
            &["imb-compare", "--junit", "j.xml", "a", "b"],
            &["imb-compare", "--markdown", "--csv", "a", "b"],
            &["imb-compare", "agreement", "a"],
            &["imb-compare", "store", "frobnicate"],
            &["imb-compare", "trend", "--bytes", "8"],
            &["imb-compare", "--metric", "t", "store", "list"],
            &["imb-compare", "--db", "a", "store", "list", "--db", "b"],
            &["imb-compare", "--system", "s", "store", "rm", "1"],
            &["imb-compare", "store", "rm", "0"],
            &["imb-compare", "store", "rm", "--", "-1"],
            &[
                "imb-compare",
                "trend",
                "PingPong",
                "--bytes",
                "8",
                "--processes",
                "0",
            ],
            &["imb-compare", "--no-such-option\u{1b}[2J", "a", "b"],
        ] {
            let args = argv.iter().map(OsString::from).collect();
            match parse(args) {
                Err(Usage::Error(m)) => {
                    assert!(!m.is_empty(), "{argv:?}");
                    assert!(
                        !m.chars().any(|c| c.is_control() && c != '\t'),
                        "{argv:?}: {m:?}"
                    );
                }
                _ => panic!("{argv:?}: not a usage error"),
            }
        }
    }
}
