//! Options as data. An executable's options are rows (`Opt`), one definition per option: its
//! name, what it takes, the typed setter that writes its value into the executable's record of
//! argv (`R`), which executables list it, its place in the calling sequence and its `-help`
//! paragraph. The argv readers, the calling sequence, the option part of `-help` and the
//! option tables of the docs are all generated from the rows, and a value is never read back
//! by name: its row wrote it into a typed field. `shared` defines the rows every executable
//! has; the MPI executables' rows are `mpi_opts::MPI`, imb-threads and imb-omp declare theirs.

use super::record::HasShared;
use crate::error::{Error, Result};

/// What an option takes on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// `-h`, `-help`: the help text, everything else ignored.
    Help,
    /// `-list`: the benchmarks, instead of a run.
    List,
    /// A switch.
    Flag,
    /// One value; given twice, the last counts.
    Value,
    /// One value each time; all are kept in argv order (`-input`, `-include`).
    Append,
    /// The positional arguments: benchmark names (its setter takes each).
    Names,
}

/// Which executables list an option in `-help`. Every MPI executable parses every engine
/// option; one that does not apply to it is refused with the reason its family gives
/// (`family::Refused`), not as "unknown option".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    All,
    /// Executables with AGGREGATE/NON-AGGREGATE tables.
    Aggregate,
}

/// How a row stores its value: parse it (the error says why it is wrong; the reader names the
/// option and the value) and write it into the record. A switch gets an empty value.
pub type Set<R> = fn(&mut R, &str) -> std::result::Result<(), String>;

/// One option.
pub struct Opt<R: 'static> {
    /// The name after the dash, as typed.
    pub name: &'static str,
    pub takes: Takes,
    pub set: Set<R>,
    pub accept: Accept,
    /// Its text in the calling sequence, on line `synopsis.0`, at position `synopsis.1`
    /// within the line; an empty text when another option's text includes it.
    pub synopsis: (u8, u8, &'static str),
    /// Its paragraph in `-help` (empty: another option's paragraph covers it), in table
    /// order. Placeholders in braces are filled by the executable (`help_text`).
    pub help: &'static str,
}

impl<R> Clone for Opt<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for Opt<R> {}

impl<R> Opt<R> {
    /// An option listed by every executable of its table, with its calling-sequence text and
    /// help paragraph.
    pub const fn row(
        name: &'static str,
        takes: Takes,
        set: Set<R>,
        synopsis: (u8, u8, &'static str),
        help: &'static str,
    ) -> Opt<R> {
        Opt {
            name,
            takes,
            set,
            accept: Accept::All,
            synopsis,
            help,
        }
    }

    /// An option with no synopsis text and no help paragraph of its own.
    pub const fn plain(name: &'static str, takes: Takes, set: Set<R>) -> Opt<R> {
        Opt::row(name, takes, set, (0, 0, ""), "")
    }

    /// The same option, listed only by the executables `accept` keeps.
    pub const fn only(self, accept: Accept) -> Opt<R> {
        Opt { accept, ..self }
    }
}

/// One argument read against the rows: an option and its value (empty for a switch), or a
/// positional argument.
pub enum Given<'t, R: 'static> {
    Opt(&'t Opt<R>, String),
    Name(String),
}

fn find<'t, R>(rows: &'t [Opt<R>], name: &str) -> Option<&'t Opt<R>> {
    rows.iter()
        .find(|o| o.name == name && !matches!(o.takes, Takes::Help | Takes::Names))
}

/// The MPI executables' argv, IMB style: `-name value`, `-name=value`, any number of leading
/// dashes; `-h`, `-help` or `--help` is the help (None), and the rest is then not read. A
/// value option without its value, a switch with one, an IMB 2021 option we do not have
/// (`refused`, with the reason) and an unknown option are one-line errors naming them; values
/// are not looked at yet.
pub fn imb_style<'t, R>(
    args: &[String],
    rows: &'t [Opt<R>],
    refused: &[(&str, &str)],
) -> Result<Option<Vec<Given<'t, R>>>> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if matches!(a.as_str(), "-h" | "-help" | "--help") {
            return Ok(None);
        }
        if !(a.len() > 1 && a.starts_with('-')) {
            out.push(Given::Name(a.clone()));
            continue;
        }
        let bare = a.trim_start_matches('-');
        let (name, inline) = match bare.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (bare, None),
        };
        match find(rows, name) {
            Some(o) if matches!(o.takes, Takes::Value | Takes::Append) => {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| Error::arg(format!("-{name}"), "needs a value"))?,
                };
                out.push(Given::Opt(o, v));
            }
            Some(o) => {
                if inline.is_some() {
                    return Err(Error::arg(format!("-{name}"), "takes no value"));
                }
                out.push(Given::Opt(o, String::new()));
            }
            None => {
                if let Some((_, why)) = refused.iter().find(|(n, _)| *n == name) {
                    return Err(Error::arg(
                        format!("-{name}"),
                        format!("an IMB 2021 option imb-rs does not have: {why}"),
                    ));
                }
                return Err(Error::arg(
                    a.clone(),
                    "unknown option (see -help for the options)",
                ));
            }
        }
    }
    Ok(Some(out))
}

/// Store what `imb_style` read, in argv order: a wrong value is `-name: invalid value "v":
/// why`. Each option given is recorded once (`Shared::given`).
pub fn apply_imb<R: HasShared>(
    rec: &mut R,
    given: Vec<Given<'_, R>>,
    rows: &[Opt<R>],
) -> Result<()> {
    let names = rows.iter().find(|o| o.takes == Takes::Names).map(|o| o.set);
    for g in given {
        match g {
            Given::Opt(o, v) => {
                (o.set)(rec, &v).map_err(|why| {
                    Error::arg(
                        format!("-{}", o.name),
                        format!("invalid value \"{v}\": {why}"),
                    )
                })?;
                rec.shared().mark(o.name);
            }
            Given::Name(n) => {
                if let Some(set) = names {
                    set(rec, &n).map_err(|why| Error::arg(n.clone(), why))?;
                }
            }
        }
    }
    Ok(())
}

/// What the argv of a suite with its own options (imb-threads, imb-omp) asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Dashed<R> {
    Help,
    List,
    Run(R),
}

/// The argv of a suite with its own options (imb-threads, imb-omp): IMB style (`-name value`,
/// `-name=value`, `--name`). A value option without its value, a switch with one, and an
/// unknown option are one-line errors naming them, wherever they stand; then `-h`/`-help`
/// wins, then `-list`; then every value is stored in argv order. A value a setter refuses is
/// kept as `-name value: why` in `Shared::wrong`: the suite reports it where its own order of
/// checks reaches the option (`Shared::check`).
pub fn read_dashes<R: HasShared + Default>(
    args: &[String],
    rows: &[Opt<R>],
) -> std::result::Result<Dashed<R>, String> {
    let mut given = Vec::new();
    let mut help = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(bare) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
            given.push(Given::Name(a.clone()));
            continue;
        };
        let (name, inline) = match bare.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (bare, None),
        };
        let row = find(rows, name);
        match row.map(|o| o.takes) {
            Some(Takes::Value | Takes::Append) => {
                let value = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("-{name}: needs a value"))?,
                };
                given.push(Given::Opt(row.expect("found"), value));
            }
            _ if inline.is_some() && (row.is_some() || matches!(name, "h" | "help")) => {
                return Err(format!("-{name}: takes no value"));
            }
            Some(_) => given.push(Given::Opt(row.expect("found"), String::new())),
            None if matches!(name, "h" | "help") => help = true,
            None => return Err(format!("-{name}: unknown option (see -help)")),
        }
    }
    if help {
        return Ok(Dashed::Help);
    }
    if given
        .iter()
        .any(|g| matches!(g, Given::Opt(o, _) if o.takes == Takes::List))
    {
        return Ok(Dashed::List);
    }
    let names = rows.iter().find(|o| o.takes == Takes::Names).map(|o| o.set);
    let mut rec = R::default();
    for g in given {
        match g {
            Given::Opt(o, v) => {
                // Given twice, the last value counts, also for its error.
                let result = (o.set)(&mut rec, &v);
                let wrong = &mut rec.shared().wrong;
                wrong.retain(|(n, _)| *n != o.name);
                if let Err(why) = result {
                    wrong.push((o.name, format!("-{} {v}: {why}", o.name)));
                }
                rec.shared().mark(o.name);
            }
            Given::Name(n) => {
                if let Some(set) = names {
                    set(&mut rec, &n).map_err(|why| format!("{n}: {why}"))?;
                }
            }
        }
    }
    Ok(Dashed::Run(rec))
}

/// The calling sequence: `first` (the executable's name, padded) before line 0, `pad` before
/// every further line; only the options `listed` keeps.
pub fn synopsis<R>(
    table: &[Opt<R>],
    listed: impl Fn(Accept) -> bool,
    first: &str,
    pad: &str,
) -> String {
    let mut rows: Vec<&Opt<R>> = table
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
pub fn help_text<R>(
    table: &[Opt<R>],
    listed: impl Fn(Accept) -> bool,
    fill: impl Fn(&str) -> String,
) -> String {
    table
        .iter()
        .filter(|o| listed(o.accept))
        .map(|o| fill(o.help))
        .collect()
}
