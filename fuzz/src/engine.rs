//! imb-core's readers: the MPI executables' command line, settings files, `-msglen` and
//! `-input` files. The families' options and settings files are compiled in from their
//! crates, unchanged (they touch no MPI), so each executable's reading is the program's.

use super::common::{args, one_line, scratch_file, text};
use imb_core::cli::{self, Spec};
use imb_core::error::plain;

// Their other items are the benchmarks', not the readers'.
#[allow(dead_code)]
#[path = "../../crates/imb-refusals/src/lib.rs"]
mod ext_options;
#[allow(dead_code)]
#[path = "../../crates/imb-io/src/options.rs"]
mod io_options;
#[allow(dead_code)]
#[path = "../../crates/imb-mpi1/src/options.rs"]
mod mpi1_options;
#[allow(dead_code)]
#[path = "../../crates/imb-mt/src/options.rs"]
mod mt_options;
#[allow(dead_code)]
#[path = "../../crates/imb-p2p/src/options.rs"]
mod p2p_options;

/// The settings files of imb-mpi1, imb-io and imb-p2p.
fn settings_specs() -> [&'static imb_core::settings::Spec; 3] {
    [
        &mpi1_options::SETTINGS,
        &io_options::SETTINGS,
        &p2p_options::SETTINGS,
    ]
}

/// The built-in parameters of both files, parsed once (they are TOML).
fn standard() -> &'static [imb_core::settings::Params; 3] {
    static P: std::sync::OnceLock<[imb_core::settings::Params; 3]> = std::sync::OnceLock::new();
    P.get_or_init(|| settings_specs().map(imb_core::settings::standard))
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
pub const P2P_NAMES: &[&str] = &["PingPong", "Unirandom", "Stencil2D", "SendRecv_Replace"];
pub const MT_NAMES: &[&str] = &["PingPongMT", "UniBandMT", "BarrierMT", "AllReduceMT"];

/// The option-parsing facts of each MPI executable (`driver::parse` builds them from the
/// suite): name, benchmarks, how many run by default, settings file, -npmin, aggregate modes,
/// the family's options.
pub fn specs() -> [Spec<'static>; 7] {
    let s =
        |exe, names: &'static [&'static str], defaults, settings, npmin, aggregate, family| Spec {
            exe,
            names,
            defaults,
            defaults_2021: &[],
            settings,
            npmin,
            aggregate,
            family,
        };
    let (ext, ext_opts) = (&ext_options::SETTINGS, &ext_options::OPTIONS);
    [
        s(
            "imb-mpi1",
            MPI1_NAMES,
            13,
            &mpi1_options::SETTINGS,
            2,
            false,
            &mpi1_options::OPTIONS,
        ),
        s("imb-ext", EXT_NAMES, 6, ext, 2, true, ext_opts),
        s(
            "imb-io",
            IO_NAMES,
            5,
            &io_options::SETTINGS,
            1,
            true,
            &io_options::OPTIONS,
        ),
        s("imb-rma", RMA_NAMES, 3, ext, 2, true, ext_opts),
        s(
            "imb-nbc",
            NBC_NAMES,
            3,
            ext,
            2,
            false,
            &ext_options::WITHOUT_AGGREGATE,
        ),
        s(
            "imb-p2p",
            P2P_NAMES,
            4,
            &p2p_options::SETTINGS,
            2,
            false,
            &p2p_options::OPTIONS,
        ),
        s(
            "imb-mt",
            MT_NAMES,
            4,
            &imb_core::settings::STANDARD,
            2,
            false,
            &mt_options::OPTIONS,
        ),
    ]
}

/// The contract of an engine error: one line; a file's error names the option and the file.
fn core_error(reader: &str, e: &imb_core::Error) {
    let named = match e {
        // As the error shows them: control characters escaped.
        imb_core::Error::File { arg, file, .. } | imb_core::Error::Line { arg, file, .. } => {
            format!("{} {}", plain(arg), plain(file))
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
    let raw = cli::read(&argv, specs()[0].family, specs()[0].aggregate);
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
    // `cli::read` is the pure half of `parse`: it must agree on whether argv is readable.
    if let Err(e) = raw {
        core_error("core_cli raw", &e);
    }
}

/// A settings file (`-settings FILE`) of imb-mpi1, imb-io and imb-p2p, then merged with the
/// command line as the programs do.
pub fn settings(data: &[u8]) {
    if text(data).is_none() {
        return;
    }
    let path = scratch_file("settings.toml", data);
    for (file, spec) in settings_specs().into_iter().zip([0, 2, 5]) {
        match imb_core::settings::load(&path, file) {
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
