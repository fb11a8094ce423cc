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

/// IMB 2021's datatype options: every value it has, stored as the settings keys with the
/// command line as their origin, read back by `types`; the resized layouts span twice X.
#[test]
fn datatypes_set_their_keys() {
    let o = run("");
    assert_eq!(types(&o.params), Types::IMB);
    assert_eq!(o.span, 1);
    for (w, b) in [
        ("byte", Base::Byte),
        ("char", Base::Char),
        ("INT", Base::Int),
        ("float", Base::Float),
        ("double", Base::Double),
    ] {
        assert_eq!(types(&run(&format!("-data_type {w}")).params).data, b);
        if b != Base::Byte {
            assert_eq!(types(&run(&format!("-red_data_type {w}")).params).red, b);
        }
    }
    for (w, c, span) in [
        ("base", Contig::Base, 1),
        ("base_vec", Contig::BaseVec, 1),
        ("resize", Contig::Resize, 2),
        ("resize_vec", Contig::ResizeVec, 2),
    ] {
        let o = run(&format!("-contig_type {w}"));
        assert_eq!((types(&o.params).contig, o.span), (c, span));
    }
    let o = run("-data_type int -red_data_type double -contig_type resize_vec");
    for key in ["DATA_TYPE", "RED_DATA_TYPE", "CONTIG_TYPE"] {
        assert_eq!(o.origins.of(key), Origin::CommandLine, "{key}");
    }
    assert_eq!(DATA_TYPE.get(&o.params.family).as_deref(), Some("int"));
    let std = imb_core::settings::standard(&SETTINGS);
    assert_eq!(
        imb_core::settings::differences(&o.params, &std)
            .into_iter()
            .map(|(k, v, s)| format!("{k} = {v} (standard {s})"))
            .collect::<Vec<_>>(),
        [
            "DATA_TYPE = int (standard byte)",
            "RED_DATA_TYPE = double (standard float)",
            "CONTIG_TYPE = resize_vec (standard base)",
        ]
    );
    let Action::Help(h) = parse("-help").unwrap() else {
        panic!("help")
    };
    assert!(
        h.contains("[-data_type <type>] [-red_data_type <type>] [-contig_type <layout>]"),
        "{h}"
    );
}

/// A value IMB 2021 does not have, or that imb-rs cannot send, is refused with the reason.
#[test]
fn datatype_values_are_checked() {
    let err = |s: &str| parse(s).unwrap_err().to_string();
    assert_eq!(
        err("-data_type long"),
        "-data_type: invalid value \"long\": expected byte, char, int, float or double"
    );
    assert!(err("-data_type float16").contains("MPIX_C_FLOAT16, which Open MPI 4.1 does not"));
    assert!(err("-red_data_type bfloat16").contains("MPIX_C_BF16, which neither"));
    assert_eq!(
        err("-red_data_type byte"),
        "-red_data_type: invalid value \"byte\": MPI_SUM does not add MPI_BYTEs; expected \
         char, int, float or double"
    );
    assert_eq!(
        err("-contig_type vector"),
        "-contig_type: invalid value \"vector\": expected base, base_vec, resize or resize_vec"
    );
}
