//! imb-compare's command line: the clap command, and its errors made one line as every other
//! error of ours. In the library, not the binary, so that the fuzz target of the command line
//! (fuzz/, `compare_cli`) parses exactly what the program parses.

mod args;
mod command;

pub use command::command;

use clap::parser::ValueSource;
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
