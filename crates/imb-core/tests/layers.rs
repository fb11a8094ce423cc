//! The shape of imb-core that is its own (doc/ARCHITECTURE.md, "Rules the code keeps"): no
//! engine file names a family; and every crate inheriting the workspace's `rust-version` and
//! lints. The rules every crate's code keeps (no import circle, no family depending on another,
//! MPI `unsafe` only in imb-mpi, no report below the printer, file and function sizes) are
//! checked by imb-testkit's `tests/structure.rs`, on the same reading of the sources
//! (`imb_testkit::structure`): whole files, test code left out.

use std::path::Path;

use imb_testkit::structure::{read_crate, root, workspace, Kind};

/// The engine holds no family's names: a family's files, options, settings keys, benchmarks
/// and executables live in its crate, behind the engine's general hooks (doc/ARCHITECTURE.md,
/// "Where a change goes"). Comments may name them as examples; code may not.
#[test]
fn no_engine_file_names_a_family() {
    const FAMILY: &[&str] = &[
        "IMB_out",
        "FILENAME",
        "settings_io",
        "Kind::Io",
        "window_size",
        "\"-dir\"",
        "Uniband",
        "Biband",
        "Jacobi",
        "_latency",
        "Truly_passive",
        "CPU_Exploit",
        "imb-io",
        "imb-ext",
        "imb-rma",
        "imb-nbc",
    ];
    let core = read_crate(Path::new(env!("CARGO_MANIFEST_DIR")));
    let mut found = Vec::new();
    for f in core.files_of(Kind::Src) {
        for (k, line) in f.code_with_literals().lines().enumerate() {
            for w in FAMILY.iter().filter(|w| line.contains(*w)) {
                found.push(format!("imb-core {}:{}: {w}", f.rel, k + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "family names in the engine:\n{}",
        found.join("\n")
    );
}

/// A newer Rust must not be needed by accident: every crate declares the workspace's
/// `rust-version` (clippy's incompatible_msrv then flags std items newer than it) and takes the
/// workspace's lints (undocumented unsafe blocks are errors).
#[test]
fn every_crate_inherits_rust_version_and_lints() {
    let ws = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(
        ws.contains("rust-version = \""),
        "the workspace declares rust-version"
    );
    assert!(ws.contains("undocumented_unsafe_blocks = \"deny\""));
    let mut missing = Vec::new();
    for k in workspace(&root()) {
        for need in ["rust-version.workspace = true", "[lints]\nworkspace = true"] {
            if !k.manifest.contains(need) {
                missing.push(format!("{} Cargo.toml: lacks {need:?}", k.name));
            }
        }
    }
    assert!(missing.is_empty(), "\n{}", missing.join("\n"));
}
