//! Options as data. Each executable family declares one table of `Opt` rows: the name, what it
//! takes, how clap parses its value, which executables list it, its place in the calling
//! sequence and its `-help` text. The IMB-style argv normaliser, the clap command and the
//! option part of `-help` are all generated from the table, so an option is one row here plus
//! its use where the parsed value is read (`resolve` for the MPI executables). The MPI
//! executables' table is `MPI`; imb-threads and imb-omp declare their own.

use clap::builder::ValueParser;
use clap::{Arg, ArgAction, Command};

/// What an option takes on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// `-h`, `-help`: the help text, everything else ignored.
    Help,
    /// A switch.
    Flag,
    /// One value; given twice, the last counts.
    Value,
    /// One value each time; all are kept in argv order (`-input`, `-include`).
    Append,
    /// The positional arguments: benchmark names (the row only carries their help).
    Names,
}

/// Which executables list an option in `-help`. Every MPI executable parses every MPI option,
/// so an option that does not apply is an error naming why, not "unknown option".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    All,
    /// Executables with AGGREGATE/NON-AGGREGATE tables (imb-ext, imb-io).
    Aggregate,
    /// Executables that create files (imb-io).
    Files,
    /// Executables with windows of messages in flight (imb-mpi1: Uniband, Biband).
    Window,
}

/// One option.
#[derive(Clone, Copy)]
pub struct Opt {
    /// The name after the dash, as typed and as clap knows it.
    pub name: &'static str,
    pub takes: Takes,
    /// The value's parser (None: the string as given).
    pub parser: Option<fn() -> ValueParser>,
    pub accept: Accept,
    /// Its text in the calling sequence, on line `synopsis.0`, at position `synopsis.1`
    /// within the line; an empty text when another option's text includes it.
    pub synopsis: (u8, u8, &'static str),
    /// Its paragraph in `-help` (empty: another option's paragraph covers it), in table
    /// order. Placeholders in braces are filled by the executable (`help_text`).
    pub help: &'static str,
}

impl Opt {
    /// An option with no synopsis text and no help paragraph of its own.
    pub const fn plain(name: &'static str, takes: Takes) -> Opt {
        Opt {
            name,
            takes,
            parser: None,
            accept: Accept::All,
            synopsis: (0, 0, ""),
            help: "",
        }
    }

    /// An option listed by every executable of its table, with its calling-sequence text and
    /// help paragraph.
    pub const fn row(
        name: &'static str,
        takes: Takes,
        synopsis: (u8, u8, &'static str),
        help: &'static str,
    ) -> Opt {
        Opt {
            name,
            takes,
            parser: None,
            accept: Accept::All,
            synopsis,
            help,
        }
    }
}

/// The names of the options that take values, and of the switches (help included), for the
/// argv normalisers.
pub fn value_names(table: &[Opt]) -> impl Iterator<Item = &'static str> + '_ {
    table
        .iter()
        .filter(|o| matches!(o.takes, Takes::Value | Takes::Append))
        .map(|o| o.name)
}

/// The names of the switches.
pub fn flag_names(table: &[Opt]) -> impl Iterator<Item = &'static str> + '_ {
    table
        .iter()
        .filter(|o| matches!(o.takes, Takes::Flag))
        .map(|o| o.name)
}

/// The clap command of a table: `--name=value` arguments and the positional `names`.
pub fn command(exe: &'static str, table: &[Opt]) -> Command {
    let mut c = Command::new(exe)
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args_override_self(true);
    for o in table {
        let arg = Arg::new(o.name).long(o.name);
        let arg = match o.takes {
            Takes::Help | Takes::Names => continue,
            Takes::Flag => arg.action(ArgAction::SetTrue),
            Takes::Value | Takes::Append => {
                let a = arg
                    .action(if o.takes == Takes::Append {
                        ArgAction::Append
                    } else {
                        ArgAction::Set
                    })
                    .num_args(1)
                    .allow_hyphen_values(true);
                match o.parser {
                    Some(p) => a.value_parser(p()),
                    None => a,
                }
            }
        };
        c = c.arg(arg);
    }
    c.arg(Arg::new("names").action(ArgAction::Append).num_args(0..))
}

/// The calling sequence: `first` (the executable's name, padded) before line 0, `pad` before
/// every further line; only the options `listed` keeps.
pub fn synopsis(table: &[Opt], listed: impl Fn(Accept) -> bool, first: &str, pad: &str) -> String {
    let mut rows: Vec<&Opt> = table
        .iter()
        .filter(|o| listed(o.accept) && !o.synopsis.2.is_empty())
        .collect();
    rows.sort_by_key(|o| (o.synopsis.0, o.synopsis.1));
    let mut s = String::new();
    let mut line = None;
    for o in rows {
        if line != Some(o.synopsis.0) {
            if line.is_some() {
                s.push('\n');
                s.push_str(pad);
            } else {
                s.push_str(first);
            }
            line = Some(o.synopsis.0);
        } else {
            s.push(' ');
        }
        s.push_str(o.synopsis.2);
    }
    s.push('\n');
    s
}

/// The help paragraphs of the options `listed` keeps, in table order, with `fill` applied.
pub fn help_text(
    table: &[Opt],
    listed: impl Fn(Accept) -> bool,
    fill: impl Fn(&str) -> String,
) -> String {
    table
        .iter()
        .filter(|o| listed(o.accept))
        .map(|o| fill(o.help))
        .collect()
}

/// For the suites with their own options (imb-threads, imb-omp): IMB style (`-name value`,
/// `-name=value`, `--name`) to clap's `--name=value`. A value option without its value, a flag
/// with one, and an unknown option are one-line errors naming them. `-h` and `-help` become
/// the `help` switch.
pub fn dashes(args: &[String], table: &[Opt]) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(bare) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
            out.push(a.clone());
            continue;
        };
        let (name, inline) = match bare.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (bare, None),
        };
        let takes = if matches!(name, "h" | "help") {
            Some(Takes::Help)
        } else {
            table
                .iter()
                .find(|o| o.name == name && o.takes != Takes::Names)
                .map(|o| o.takes)
        };
        match takes {
            Some(Takes::Value | Takes::Append) => {
                let value = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("-{name}: needs a value"))?,
                };
                out.push(format!("--{name}={value}"));
            }
            Some(t) => {
                if inline.is_some() {
                    return Err(format!("-{name}: takes no value"));
                }
                out.push(if t == Takes::Help {
                    "--help".to_string()
                } else {
                    format!("--{name}")
                });
            }
            None => return Err(format!("-{name}: unknown option (see -help)")),
        }
    }
    Ok(out)
}

/// The whole command line of a suite with its own options (imb-threads, imb-omp): `dashes`,
/// then the table's clap command (with a `help` switch). Errors are one line.
pub fn dash_matches(
    exe: &'static str,
    args: &[String],
    table: &[Opt],
) -> std::result::Result<clap::ArgMatches, String> {
    let norm = dashes(args, table)?;
    command(exe, table)
        .arg(Arg::new("help").long("help").action(ArgAction::SetTrue))
        .try_get_matches_from(&norm)
        .map_err(|e| e.to_string().lines().next().unwrap_or_default().to_string())
}

/// A whole number `min..=max` (the thread suites' counts); the error says why, and the caller
/// names the option or the file. All digits but too long for a number is above any limit.
pub fn whole(s: &str, min: usize, max: usize) -> std::result::Result<usize, String> {
    let s = s.trim();
    let v: usize = match s.parse() {
        Ok(v) => v,
        Err(_) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => usize::MAX,
        Err(_) => return Err(format!("expected a whole number ({min}..{max})")),
    };
    if v < min || v > max {
        return Err(format!("must be {min}..{max}"));
    }
    Ok(v)
}

/// Most numbers a list may hold: every thread count or CPU the suites take once (imb-omp's
/// 4096 threads). A longer list only repeats them, and a range written over and over (a
/// 128 KiB argument of `1-1024,` took 1.9 GB and 45 s to refuse) must not fill the memory.
pub const MAX_LIST: usize = 4096;

/// A list of numbers written `4`, `1,2,4` or `1-4` (the thread suites' `-threads`, imb-threads'
/// `-cpus`), each number read by `num`, which says why one is wrong; a range that goes
/// downwards is an error, and so is a list of more than [`MAX_LIST`] numbers. The callers put
/// the option in front of the message.
pub fn number_list(
    s: &str,
    num: impl Fn(&str) -> std::result::Result<usize, String>,
) -> std::result::Result<Vec<usize>, String> {
    let mut v = Vec::new();
    for part in s.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b) = (num(a)?, num(b)?);
        if b < a {
            return Err(format!(
                "range {} goes downwards (write it low-high)",
                part.trim()
            ));
        }
        if v.len().saturating_add((b - a).saturating_add(1)) > MAX_LIST {
            return Err(format!("more than {MAX_LIST} numbers"));
        }
        v.extend(a..=b);
    }
    Ok(v)
}
