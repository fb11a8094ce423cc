//! The rows every executable has, MPI and not: `-help`, `-list`, `-settings`, `-json`,
//! `-force`, `-progress` and the names. Each is defined once here, its name, what it takes and
//! its setter into `Shared`; an executable places it in its calling sequence and says it in
//! its own words (`-force` bounds repetitions in one, rows in another).

use super::record::{HasShared, Named};
use super::table::{Opt, Takes};
use super::value::ProgressMode;

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
