//! The rows every executable has, MPI and not: `-help`, `-list`, `-settings`, `-json`,
//! `-force`, `-progress` and the names. Each is defined once here, its name, what it takes and
//! its setter into `Shared`; an executable places it in its calling sequence and says it in
//! its own words (`-force` bounds repetitions in one, rows in another).

use super::table::{Opt, Takes};
use super::value::ProgressMode;

/// A benchmark name from the command line, or an `-input` file of names, in argv order.
#[derive(Debug, Clone, PartialEq)]
pub enum Named {
    Name(String),
    Input(String),
}

/// What the shared rows store, in every executable's record of argv.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shared {
    /// Benchmark (or construct) names, and `-input` files, in argv order.
    pub names: Vec<Named>,
    pub list: bool,
    pub settings: Option<String>,
    pub json: Option<String>,
    pub force: bool,
    pub progress: Option<ProgressMode>,
    /// The options given, by name, each once, in argv order (the provenance's origins).
    pub given: Vec<&'static str>,
    /// Values a setter refused, with the error, when the reader leaves the order of the
    /// errors to the suite (`table::read_dashes`; `check`).
    pub wrong: Vec<(&'static str, String)>,
}

impl Shared {
    /// Option `name` was given.
    pub fn mark(&mut self, name: &'static str) {
        if !self.given.contains(&name) {
            self.given.push(name);
        }
    }
    /// Whether option `name` was given.
    pub fn was_given(&self, name: &str) -> bool {
        self.given.contains(&name)
    }
    /// The error of option `name`'s value, if its setter refused it: a suite checks each
    /// where its resolution reaches that option.
    pub fn check(&self, name: &str) -> Result<(), String> {
        match self.wrong.iter().find(|(n, _)| *n == name) {
            Some((_, e)) => Err(e.clone()),
            None => Ok(()),
        }
    }
}

/// A record of argv that holds the shared rows' values.
pub trait HasShared {
    fn shared(&mut self) -> &mut Shared;
}

type Place = (u8, u8, &'static str);

fn ignore<R>(_: &mut R, _: &str) -> Result<(), String> {
    Ok(())
}

/// `-h`, `-help`: the help text; the readers handle it before any setter.
pub const fn help<R>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("help", Takes::Help, ignore::<R>, synopsis, help)
}

fn set_list<R: HasShared>(r: &mut R, _: &str) -> Result<(), String> {
    r.shared().list = true;
    Ok(())
}

/// `-list`: the benchmarks instead of a run.
pub const fn list<R: HasShared>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("list", Takes::List, set_list::<R>, synopsis, help)
}

fn set_settings<R: HasShared>(r: &mut R, v: &str) -> Result<(), String> {
    r.shared().settings = Some(v.to_string());
    Ok(())
}

/// `-settings FILE`: the executable's settings file, read when the options are resolved.
pub const fn settings<R: HasShared>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("settings", Takes::Value, set_settings::<R>, synopsis, help)
}

fn set_json<R: HasShared>(r: &mut R, v: &str) -> Result<(), String> {
    r.shared().json = Some(v.to_string());
    Ok(())
}

/// `-json FILE`: the results as data; the file is checked when the options are resolved
/// (`safefile::OutFile::check`).
pub const fn json<R: HasShared>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("json", Takes::Value, set_json::<R>, synopsis, help)
}

fn set_force<R: HasShared>(r: &mut R, _: &str) -> Result<(), String> {
    r.shared().force = true;
    Ok(())
}

/// `-force`: run even when the run cannot finish within an hour (`plan::LONG_RUN_SECS`).
pub const fn force<R: HasShared>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("force", Takes::Flag, set_force::<R>, synopsis, help)
}

fn set_progress<R: HasShared>(r: &mut R, v: &str) -> Result<(), String> {
    r.shared().progress = Some(ProgressMode::parse(v)?);
    Ok(())
}

/// `-progress on|off|auto`: lines on stderr saying where the run is.
pub const fn progress<R: HasShared>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("progress", Takes::Value, set_progress::<R>, synopsis, help)
}

fn set_name<R: HasShared>(r: &mut R, v: &str) -> Result<(), String> {
    r.shared().names.push(Named::Name(v.to_string()));
    Ok(())
}

/// The positional arguments: names, looked up when the options are resolved.
pub const fn names<R: HasShared>(synopsis: Place, help: &'static str) -> Opt<R> {
    Opt::row("names", Takes::Names, set_name::<R>, synopsis, help)
}
