//! imb-mpi1's options through the engine's reader (`imb_core::driver::parse` on this suite):
//! `-window_size` and WINDOW_SIZE, and imb-io's options refused.

use crate::options::*;
use crate::SUITE;
use imb_core::cli::Action;
use imb_core::settings::Origin;

fn parse(s: &str) -> imb_core::Result<Action> {
    let args: Vec<String> = s.split_whitespace().map(String::from).collect();
    imb_core::driver::parse(&SUITE, &args, 2)
}

fn run(s: &str) -> imb_core::cli::Options {
    match parse(s).unwrap() {
        Action::Run(o) => *o,
        a => panic!("{a:?}"),
    }
}

#[test]
fn window_size_sets_window_size_from_the_command_line() {
    let Action::Help(h) = parse("-help").unwrap() else {
        panic!("help")
    };
    assert!(h.contains("            [-window_size <W>]\n"), "{h}");
    assert!(!h.contains("-aggregate_mode") && !h.contains("-dir"), "{h}");
    assert_eq!(window_size(&run("").params), DEFAULT_WINDOW);
    let o = run("-window_size 64");
    assert_eq!(window_size(&o.params), 64);
    assert_eq!(o.origins.of("WINDOW_SIZE"), Origin::CommandLine);
    for bad in ["0", "x", "1048577"] {
        let e = parse(&format!("-window_size {bad}"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "-window_size: invalid value \"{bad}\": expected a number of messages from 1 \
                 to 1048576"
            )
        );
    }
}

#[test]
fn other_executables_options_are_refused() {
    for (cmd, want) in [
        ("-dir /tmp", "-dir: only imb-io creates files"),
        ("-overwrite", "-overwrite: only imb-io creates files"),
        ("-overwrite -dir /tmp", "-dir: only imb-io creates files"),
        (
            "-dir /tmp -aggregate_mode both",
            "-aggregate_mode: imb-mpi1 has no AGGREGATE/NON-AGGREGATE tables (imb-ext and \
             imb-io have)",
        ),
    ] {
        assert_eq!(parse(cmd).unwrap_err().to_string(), want, "{cmd}");
    }
}

/// imb-mpi1's own rows in doc/ReadMe_IMB.md (`imb_core::cli::doc`).
#[test]
fn the_readme_lists_imb_mpi1s_rows() {
    let table = imb_core::cli::doc::markdown(
        OPTIONS.rows,
        |_| true,
        |_| "imb-mpi1".into(),
        str::to_string,
    );
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../doc/ReadMe_IMB.md");
    imb_core::cli::doc::check(&doc, "imb-mpi1", &table).unwrap();
}
