//! `-help` and `-list` of the MPI executables.

use super::method_opts::METHOD;
use super::mpi_opts::{FAMILY_AFTER, MPI};
use super::raw::Raw;
use super::table::{self, Accept, Opt};
use super::*;
use crate::method::Compat;

/// `-list`: the benchmarks of this executable in default run order (IMB 2021's under
/// `-compat 2021`), then the others.
pub fn list(spec: &Spec, compat: Compat) -> String {
    let (first, rest) = spec.default_names(compat);
    let mut s = format!("# Benchmarks of {} (default run order):\n", spec.exe);
    for n in &first {
        s.push_str(&format!("# {n}\n"));
    }
    if !rest.is_empty() {
        s.push_str("# Run only when named:\n");
        for n in &rest {
            s.push_str(&format!("# {n}\n"));
        }
    }
    s
}

/// The rows of `-help`: the engine's, with the family's own and then IMB 2021's method
/// options after `FAMILY_AFTER`.
pub fn rows(family: &Family) -> Vec<Opt<Raw>> {
    let at = MPI
        .iter()
        .position(|o| o.name == FAMILY_AFTER)
        .map_or(MPI.len(), |i| i + 1);
    // A family row named as an engine row stands in the engine row's place.
    let own = |o: &Opt<Raw>| {
        family
            .rows
            .iter()
            .find(|r| r.name == o.name)
            .copied()
            .unwrap_or(*o)
    };
    let mut v: Vec<Opt<Raw>> = MPI[..at].iter().map(own).collect();
    v.extend(
        family
            .rows
            .iter()
            .filter(|r| !MPI.iter().chain(METHOD).any(|o| o.name == r.name)),
    );
    v.extend(METHOD.iter().map(own));
    v.extend(MPI[at..].iter().map(own));
    // An engine option the family refuses is not one of its options.
    v.retain(|o| !family.refused.iter().any(|r| r.name == o.name));
    v
}

/// `-help`: 3.0's calling sequence, then the options imb-rs adds; only the options this
/// executable accepts (`Spec::accepts`), all from the option rows.
pub fn help(spec: &Spec) -> String {
    let listed = |a: Accept| spec.accepts(a);
    let rows = rows(spec.family);
    let mut s = String::from("\nCalling sequence:\n\n\n");
    s.push_str(&table::synopsis(
        &rows,
        listed,
        &format!("{:<12}", spec.exe),
        &" ".repeat(12),
    ));
    s.push_str("\nwhere \n\n");
    let std = settings::standard(spec.settings);
    let file = spec.settings.file;
    s.push_str(&table::help_text(&rows, listed, |h| {
        h.replace("{npmin}", &spec.npmin.to_string())
            .replace("{thread_level}", spec.family.thread_level.name())
            .replace("{min}", &std.minmsglog.to_string())
            .replace("{max}", &std.maxmsglog.to_string())
            .replace("{file}", file)
    }));
    s.push_str(&format!("List of benchmarks of {}:\n", spec.exe));
    for n in &spec.names[..spec.defaults] {
        s.push_str(&format!("{n}\n"));
    }
    if spec.defaults < spec.names.len() {
        s.push_str("\nRun only when named:\n");
        for n in &spec.names[spec.defaults..] {
            s.push_str(&format!("{n}\n"));
        }
    }
    s
}
