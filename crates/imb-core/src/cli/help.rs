//! `-help` and `-list` of the MPI executables.

use super::mpi_opts::MPI;
use super::table::{self, Accept};
use super::*;

/// `-list`: the benchmarks of this executable in default run order.
pub fn list(spec: &Spec) -> String {
    let mut s = format!("# Benchmarks of {} (default run order):\n", spec.exe);
    for n in &spec.names[..spec.defaults] {
        s.push_str(&format!("# {n}\n"));
    }
    if spec.defaults < spec.names.len() {
        s.push_str("# Run only when named:\n");
        for n in &spec.names[spec.defaults..] {
            s.push_str(&format!("# {n}\n"));
        }
    }
    s
}

/// `-help`: 3.0's calling sequence, then the options imb-rs adds; only the options this
/// executable accepts (`Spec::accepts`), all from the option table.
pub fn help(spec: &Spec) -> String {
    let listed = |a: Accept| spec.accepts(a);
    let mut s = String::from("\nCalling sequence:\n\n\n");
    s.push_str(&table::synopsis(
        MPI,
        listed,
        &format!("{:<12}", spec.exe),
        &" ".repeat(12),
    ));
    s.push_str("\nwhere \n\n");
    let std = settings::standard(spec.kind);
    let file = if spec.kind == Kind::Io {
        "settings/settings_io.toml"
    } else {
        "settings/settings.toml"
    };
    s.push_str(&table::help_text(MPI, listed, |h| {
        h.replace("{npmin}", &spec.npmin.to_string())
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
