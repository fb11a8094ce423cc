//! The shape of every crate of the workspace, checked on its sources (doc/ARCHITECTURE.md,
//! "Rules the code keeps"): no import circle, no family depending on another, MPI `unsafe` only
//! in imb-mpi, no declaration taken from the printer below it, no file over 400 lines of code,
//! no function over 100 lines. Files are read whole; only test code is left out
//! (imb_testkit::structure).
//!
//! Each rule fails on a violation missing from `KNOWN` and on an entry of `KNOWN` that is no
//! longer one, so the list follows the fixes down to empty.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use imb_testkit::structure::{self as s, Crate, Violation};

/// Today's violations, each `crate file: rule` (and the module, function or count).
/// issue 40: this list only shrinks.
const KNOWN: &[&str] = &[
    // Files over 400 lines of code.
    "imb-compare src/main.rs: over 400 code lines",
    "imb-mt src/options.rs: over 400 code lines",
    "imb-threads src/cli/mod.rs: over 400 code lines",
    // Functions over 100 lines.
    "imb-core src/cli/resolve.rs: fn over 100 lines: resolve",
    "imb-core src/driver/measure.rs: fn over 100 lines: measure_size",
    "imb-core src/plan/sizes.rs: fn over 100 lines: new",
    "imb-omp src/cli.rs: fn over 100 lines: parse_args",
    "imb-omp src/main.rs: fn over 100 lines: main",
    "imb-threads src/cli/mod.rs: fn over 100 lines: parse_args",
    "imb-threads src/main.rs: fn over 100 lines: main",
];

fn crates() -> &'static [Crate] {
    static CRATES: OnceLock<Vec<Crate>> = OnceLock::new();
    CRATES.get_or_init(|| s::workspace(&s::root()))
}

/// The rule's violations against its entries of `KNOWN`: one line per difference.
fn judge(rule: &str, check: fn(&Crate) -> Vec<Violation>) -> Vec<Violation> {
    let found: Vec<Violation> = crates().iter().flat_map(check).collect();
    let known: BTreeSet<&str> = KNOWN
        .iter()
        .copied()
        .filter(|k| k.split(": ").nth(1) == Some(rule))
        .collect();
    let keys: BTreeSet<&str> = found.iter().map(|v| v.key.as_str()).collect();
    let mut wrong: Vec<String> = found
        .iter()
        .filter(|v| !known.contains(v.key.as_str()))
        .map(|v| format!("{v}"))
        .collect();
    wrong.extend(
        known
            .difference(&keys)
            .map(|k| format!("{k}: no longer so, take it out of KNOWN")),
    );
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    found
}

#[test]
fn no_import_circle() {
    let core = crates().iter().find(|k| k.name == "imb-core").unwrap();
    assert!(
        s::graph(core).get(&Vec::new()).is_some_and(|e| e.len() > 5),
        "the scanner found almost no uses between imb-core's top-level modules: it is broken"
    );
    judge(s::CIRCLE, s::import_circles);
}

#[test]
fn no_family_depends_on_another() {
    let names: Vec<&str> = crates().iter().map(|k| k.name.as_str()).collect();
    for family in s::FAMILIES {
        assert!(names.contains(family), "{family} is no crate under crates/");
    }
    judge(s::FAMILY_DEPENDENCY, s::family_dependencies);
}

#[test]
fn mpi_unsafe_only_in_imb_mpi() {
    judge(s::MPI_UNSAFE, s::mpi_unsafe);
}

#[test]
fn no_report_import_below_the_printer() {
    judge(s::REPORT_IMPORT, s::report_imports);
}

#[test]
fn no_file_over_400_lines_of_code() {
    judge(s::FILE_SIZE, s::file_sizes);
}

/// Counted per crate on stdout (`--nocapture`), for the before → after.
#[test]
fn no_function_over_100_lines() {
    let found = judge(s::LONG_FN, s::long_functions);
    for k in crates() {
        let n = found
            .iter()
            .filter(|v| v.key.starts_with(&format!("{} ", k.name)))
            .count();
        println!("{}: {n} functions over 100 lines", k.name);
    }
}

#[test]
fn every_known_entry_names_a_rule_once() {
    let rules = [
        s::CIRCLE,
        s::FAMILY_DEPENDENCY,
        s::MPI_UNSAFE,
        s::REPORT_IMPORT,
        s::FILE_SIZE,
        s::LONG_FN,
    ];
    let mut seen = BTreeSet::new();
    for k in KNOWN {
        let rule = k.split(": ").nth(1).unwrap_or("");
        assert!(rules.contains(&rule), "{k}: names no rule");
        assert!(seen.insert(k), "{k}: twice in KNOWN");
    }
}
