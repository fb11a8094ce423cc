//! The imb-compare executable: compares results kept as IMB-format text. Needs no MPI.
//!
//! `imb-compare agreement A B [C ...]`: each argument is one program's launches (a directory of
//! output files, one per launch, or a single file); A is set against each of the others.

use clap::{Arg, ArgAction, Command};
use imb_compare::agree::Metric;
use imb_compare::report;
use imb_compare::sides;
use std::process::ExitCode;

fn command() -> Command {
    Command::new("imb-compare")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Compare IMB-format results (imb-rs, IMB 3.0, IMB 2021, OSU); needs no MPI")
        .subcommand_required(true)
        .subcommand(
            Command::new("agreement")
                .about(
                    "One program's launches against others': per benchmark and size the medians, \
                     their ratio, each side's launch-to-launch CV and a verdict (doc/METHODOLOGY.md)",
                )
                .arg(
                    Arg::new("metric")
                        .long("metric")
                        .value_name("M")
                        .default_value("t")
                        .value_parser(Metric::parse)
                        .help(
                            "t (t[usec], else t_avg, else t_ovrl), t_avg, t_min, t_max, mbytes, \
                             t_ovrl or t_pure",
                        ),
                )
                .arg(
                    Arg::new("brief")
                        .long("brief")
                        .action(ArgAction::SetTrue)
                        .help("only the thread levels and the summary, no size-by-size tables"),
                )
                .arg(
                    Arg::new("sides")
                        .value_name("SIDE")
                        .num_args(2..)
                        .required(true)
                        .help("a directory of one program's launch outputs, or one output file"),
                ),
        )
}

fn main() -> ExitCode {
    let m = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let Some(("agreement", m)) = m.subcommand() else {
        unreachable!("clap requires a subcommand");
    };
    let metric = *m.get_one::<Metric>("metric").expect("defaulted");
    let mut loaded = Vec::new();
    for path in m.get_many::<String>("sides").expect("required") {
        match sides::load(path) {
            Ok(s) => loaded.push(s),
            Err(e) => {
                eprintln!("imb-compare: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let text = report::report(&loaded, metric, m.get_flag("brief"));
    match imb_core::safefile::print_all(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(None) => ExitCode::from(imb_core::safefile::EXIT_CLOSED),
        Err(Some(msg)) => {
            eprintln!("imb-compare: {msg}");
            ExitCode::from(imb_core::safefile::EXIT_WRITE)
        }
    }
}
