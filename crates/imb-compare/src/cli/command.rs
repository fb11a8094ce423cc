//! The clap command: a comparison's options and runs, and the subcommands `store`, `trend`
//! and `agreement`, in the order `--help` lists them.

use super::args::{
    confidence, db_arg, file, flag, metric_arg, output_file, path, system_arg, value, SELECTS,
};
use crate::conditions::Kind;
use crate::store::name::name;
use clap::{Arg, ArgAction, ArgGroup, Command};

pub(super) fn store_command() -> Command {
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

/// The whole command line: a comparison's options and runs, and the subcommands.
pub fn command() -> Command {
    let c = Command::new("imb-compare")
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
        .subcommand_negates_reqs(true);
    accept_args(output_args(c))
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
        .subcommand(trend_command())
        .subcommand(agreement_command())
}

/// A comparison's metric, confidence, criteria and outputs.
fn output_args(c: Command) -> Command {
    c.arg(metric_arg())
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
        .arg(
            output_file(
                "junit",
                "FILE",
                "the criteria as JUnit XML (needs --references)",
            )
            .requires("references"),
        )
        .arg(output_file(
            "json",
            "FILE",
            "the whole comparison and the criteria as JSON",
        ))
        .arg(flag("markdown", "Markdown tables instead of text"))
        .arg(flag(
            "csv",
            "CSV instead of text (the criteria's when --references is given)",
        ))
        .group(ArgGroup::new("format").args(["markdown", "csv"]))
        .arg(output_file(
            "plot",
            "DIR",
            "SVG plots (the metric and Mbytes/sec vs size, each run's launch spread, the \
         criteria's bounds) and DIR/index.html with the verdicts",
        ))
}

/// What a comparison's criteria may judge on purpose (`--accept-…`).
fn accept_args(c: Command) -> Command {
    c.arg(flag(
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
}

/// `trend`: one figure over the stored runs.
fn trend_command() -> Command {
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
        .arg(output_file(
            "plot",
            "DIR",
            "an SVG of the trend (DIR/trend-BENCHMARK-BYTES.svg) and DIR/index.html",
        ))
        .arg(db_arg())
        .arg(system_arg(
            "the system whose runs are followed (else $IMB_RS_SYSTEM)",
        ))
        .arg(
            Arg::new("selector")
                .value_name("SELECTOR")
                .help("only the runs it chooses (@tag=nightly, @2026-05-01.., ...)"),
        )
}

/// `agreement`: one program's launches against others'.
fn agreement_command() -> Command {
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
        )
}
