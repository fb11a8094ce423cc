//! Fuzz harnesses of imb-rs's readers of user input (scripts/fuzz): one function
//! per reader, fed raw bytes, that panics only when the reader breaks its contract — a panic
//! inside it, or an error that is not one line naming its file or argument. Hangs and memory
//! blow-ups are AFL++'s to catch (`scripts/fuzz` runs it with a time and memory limit).
//!
//! The AFL++ targets in `src/bin` call these; imb-threads' and imb-omp's command lines live in
//! binary crates, so their targets include those crates' modules themselves. The workspace's
//! corpus tests replay `fuzz/corpus` and `fuzz/regressions` through the same readers without
//! AFL (`crates/imb-compare/tests/corpus.rs`, `crates/imb-core/tests/corpus.rs`, and the
//! `corpus` unit tests of imb-threads and imb-omp).

use imb_core::cli::{self, Spec};
use imb_core::settings::Kind;
use std::path::PathBuf;

/// The text a reader is handed: what `safefile::read_text` makes of a file (a leading UTF-8
/// byte-order mark dropped), or nothing for bytes that are not UTF-8, which the readers never
/// see (that check is safefile's, and its error is tested there).
pub fn text(data: &[u8]) -> Option<&str> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    std::str::from_utf8(data).ok()
}

/// An argument vector: one argument a line (the corpus files are readable that way).
pub fn args(data: &[u8]) -> Option<Vec<String>> {
    let t = std::str::from_utf8(data).ok()?;
    let t = t.strip_suffix('\n').unwrap_or(t);
    if t.is_empty() {
        return Some(Vec::new());
    }
    Some(t.split('\n').map(str::to_string).collect())
}

/// The contract of every error: one line, not empty, naming `named` (a file or argument).
/// A control character other than a tab (a carriage return, a form feed, an escape sequence
/// from the file) breaks the line on a terminal as a newline does.
pub fn one_line(reader: &str, msg: &str, named: &str) {
    assert!(!msg.trim().is_empty(), "{reader}: an empty error message");
    assert!(
        !msg.chars().any(|c| c.is_control() && c != '\t'),
        "{reader}: an error of more than one line: {msg:?}"
    );
    assert!(
        named.is_empty() || msg.contains(named),
        "{reader}: the error does not name {named:?}: {msg:?}"
    );
}

/// The directory of the files the readers must be given as paths (`-settings`, `-input`):
/// `IMB_FUZZ_SCRATCH` (scripts/fuzz gives each target its own), else one under the temporary
/// directory. Not one per process: AFL++ forks a new process every few thousand inputs.
pub fn scratch() -> PathBuf {
    let d = std::env::var_os("IMB_FUZZ_SCRATCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("imb-fuzz"));
    std::fs::create_dir_all(&d).expect("a scratch directory");
    d
}

/// Write `data` to `name` in the scratch directory and return its path.
pub fn scratch_file(name: &str, data: &[u8]) -> String {
    let p = scratch().join(name);
    std::fs::write(&p, data).expect("a scratch file");
    p.to_string_lossy().into_owned()
}

/// imb-compare's IMB/OSU text reader.
pub fn imbtext(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::imbtext::parse("launch.txt", t) {
        one_line("imbtext", &e.to_string(), "launch.txt");
    }
}

/// imb-compare's `-json` reader.
pub fn jsondoc(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::jsondoc::parse("launch.json", t) {
        one_line("jsondoc", &e.to_string(), "launch.json");
    }
}

/// imb-compare's references file (`--references FILE.toml`).
pub fn refs(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::refs::parse("refs.toml", t) {
        one_line("refs", &e.to_string(), "refs.toml");
    }
}

/// The built-in parameters of both kinds, parsed once (they are TOML).
fn standard() -> &'static [imb_core::settings::Params; 2] {
    static P: std::sync::OnceLock<[imb_core::settings::Params; 2]> = std::sync::OnceLock::new();
    P.get_or_init(|| [Kind::Mpi1, Kind::Io].map(imb_core::settings::standard))
}

/// A `-msglen` file, then its values as a table's lengths (capped, rounded to the unit).
pub fn msglen(data: &[u8]) {
    let Some(t) = text(data) else { return };
    match imb_core::lengths::parse_msglen(t, "lengths") {
        Err(e) => one_line("msglen", &e.to_string(), "-msglen lengths"),
        Ok(v) => {
            assert!(!v.is_empty(), "msglen: Ok with no length");
            for p in standard() {
                for (unit, second) in [(1, 0), (4, 4), (8, 0)] {
                    let lens = imb_core::lengths::resolve(&v, p, unit, second);
                    let max = imb_core::lengths::maxmsg(p, unit);
                    for l in lens {
                        assert!(l.x <= max.max(unit), "msglen: {} above {max}", l.x);
                        let n = imb_core::lengths::n_sample(l.x, p.msgspersample, p.overall_vol);
                        assert!((1..=p.msgspersample).contains(&n), "msglen: n_sample {n}");
                    }
                }
            }
        }
    }
}

/// The benchmark names of each MPI executable (their `-list`), so `-input` files and names on
/// the command line are looked up as the programs look them up.
pub const MPI1_NAMES: &[&str] = &[
    "PingPong",
    "PingPing",
    "Sendrecv",
    "Exchange",
    "Allreduce",
    "Reduce",
    "Reduce_scatter",
    "Allgather",
    "Allgatherv",
    "Alltoall",
    "Alltoallv",
    "Bcast",
    "Barrier",
    "Bcast_latency",
    "Reduce_latency",
    "Jacobi2D",
    "Uniband",
    "Biband",
];
pub const EXT_NAMES: &[&str] = &[
    "Window",
    "Unidir_Put",
    "Unidir_Get",
    "Bidir_Put",
    "Bidir_Get",
    "Accumulate",
];
pub const IO_NAMES: &[&str] = &[
    "S_Write_indv",
    "S_Read_indv",
    "P_Write_shared",
    "C_Read_expl",
    "Open_Close",
];
pub const RMA_NAMES: &[&str] = &["Unidir_put", "One_put_all", "Compare_and_swap"];
pub const NBC_NAMES: &[&str] = &["Ibcast", "Iallreduce", "Ibarrier", "Ibcast_pure"];

/// The option-parsing facts of each MPI executable (`driver::run_world` builds them from the
/// suite): name, benchmarks, how many run by default, settings kind, -npmin, aggregate modes,
/// windows of messages.
pub fn specs() -> [Spec<'static>; 5] {
    let s = |exe, names: &'static [&'static str], defaults, kind, npmin, aggregate, window| Spec {
        exe,
        names,
        defaults,
        kind,
        npmin,
        aggregate,
        window,
    };
    [
        s("imb-mpi1", MPI1_NAMES, 13, Kind::Mpi1, 2, false, true),
        s("imb-ext", EXT_NAMES, 6, Kind::Mpi1, 2, true, false),
        s("imb-io", IO_NAMES, 5, Kind::Io, 1, true, false),
        s("imb-rma", RMA_NAMES, 3, Kind::Mpi1, 2, true, false),
        s("imb-nbc", NBC_NAMES, 3, Kind::Mpi1, 2, false, false),
    ]
}

/// The contract of an engine error: one line; a file's error names the option and the file.
fn core_error(reader: &str, e: &imb_core::Error) {
    let named = match e {
        imb_core::Error::File { arg, file, .. } | imb_core::Error::Line { arg, file, .. } => {
            format!("{arg} {file}")
        }
        _ => String::new(),
    };
    one_line(reader, &e.to_string(), &named);
}

/// The command line of the MPI executables (`cli::parse`, as rank 0 runs it before the
/// broadcast) for each executable and a few world sizes. Files it names are read as the
/// programs read them; the corpus names none that could change.
pub fn core_cli(data: &[u8]) {
    let Some(argv) = args(data) else { return };
    let _ = cli::prescan_thread_level(&argv);
    let raw = cli::raw::read(&argv);
    for spec in specs() {
        for np in [1, 2, 4, 6] {
            match cli::parse(&spec, &argv, np) {
                Err(e) => core_error("core_cli", &e),
                Ok(cli::Action::Run(o)) => {
                    assert!(!o.benchmarks.is_empty(), "core_cli: Ok with no benchmark");
                    assert!(
                        o.benchmarks.iter().all(|&b| b < spec.names.len()),
                        "core_cli: a benchmark index out of range"
                    );
                }
                Ok(_) => {}
            }
        }
    }
    // `raw::read` is the pure half of `parse`: it must agree on whether argv is readable.
    if let Err(e) = raw {
        core_error("core_cli raw", &e);
    }
}

/// A settings file (`-settings FILE`) of imb-mpi1/imb-ext and of imb-io, then merged with the
/// command line as the programs do.
pub fn settings(data: &[u8]) {
    if text(data).is_none() {
        return;
    }
    let path = scratch_file("settings.toml", data);
    for (kind, spec) in [(Kind::Mpi1, 0), (Kind::Io, 2)] {
        match imb_core::settings::load(&path, kind) {
            Err(e) => core_error("settings", &e),
            Ok(s) => {
                assert!(
                    s.params.minmsglog <= s.params.maxmsglog,
                    "settings: MINMSGLOG"
                );
                let spec = &specs()[spec];
                let argv: Vec<String> =
                    ["-settings", path.as_str(), "-msglog", "3:5", "-iter", "7"]
                        .map(String::from)
                        .to_vec();
                for argv in [&argv[..2], &argv[..]] {
                    if let Err(e) = cli::parse(spec, argv, 2) {
                        core_error("settings merge", &e);
                    }
                }
            }
        }
    }
}

/// An `-input` file of benchmark names, looked up in each executable's list.
pub fn input(data: &[u8]) {
    if text(data).is_none() {
        return;
    }
    let path = scratch_file("input", data);
    let argv = vec!["-input".to_string(), path];
    for spec in specs() {
        match cli::parse(&spec, &argv, 2) {
            Err(e) => core_error("input", &e),
            Ok(cli::Action::Run(o)) => assert!(!o.benchmarks.is_empty(), "input: no benchmark"),
            Ok(_) => {}
        }
    }
}
