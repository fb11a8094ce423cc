//! imb-io's options and settings file through the engine's reader (`imb_core::driver::parse`
//! on this suite): `-dir`, `-overwrite`, files already there, path lengths, FILENAME, and the
//! other suites' file.

use crate::options::*;
use crate::SUITE;
use imb_core::cli::Action;
use imb_core::settings::{self, load, standard};
use imb_core::values::Value;
use std::path::PathBuf;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn parse_io(s: &str, np: usize) -> imb_core::Result<Action> {
    imb_core::driver::parse(&SUITE, &args(s), np)
}

/// A fresh directory of this test's own (tests run in parallel).
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("imb-io-opts-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn io_dir_and_foreign_files() {
    let d = scratch("dir");
    let ds = d.to_string_lossy().into_owned();
    match parse_io(&format!("-dir {ds}"), 2).unwrap() {
        Action::Run(o) => {
            assert_eq!(DIR.get(&o.family).as_deref(), Some(ds.as_str()));
            assert_eq!(OVERWRITE.get(&o.family), Some(false));
        }
        a => panic!("{a:?}"),
    }
    // Files under IMB's own names are another run's: each step's names carry a token.
    std::fs::write(d.join("IMB_out_g1"), "").unwrap();
    assert!(parse_io(&format!("-dir {ds}"), 2).is_ok());
    assert!(parse_io(&format!("-dir {ds} -overwrite"), 2).is_ok());
    let e = parse_io(&format!("-dir {ds}/IMB_out_g1"), 2)
        .unwrap_err()
        .to_string();
    assert!(e.ends_with("IMB_out_g1: not a directory"), "{e}");
    // A path Open MPI's MPI-IO would overflow on is refused before anything runs.
    let fill = "x".repeat(MAX_FILE_PATH - ds.len() - "/".len() - "/IMB_out.0badf00d_g1_1".len());
    let deep = d.join(&fill);
    std::fs::create_dir_all(&deep).unwrap();
    let deep = deep.to_string_lossy().into_owned();
    assert_eq!(longest_file_path(&deep, "IMB_out", 2), MAX_FILE_PATH);
    assert!(parse_io(&format!("-dir {deep}"), 2).is_ok());
    // A trailing slash adds nothing to the paths.
    assert!(parse_io(&format!("-dir {deep}/"), 2).is_ok());
    let over = format!("{deep}x");
    std::fs::create_dir_all(&over).unwrap();
    let e = parse_io(&format!("-dir {over}"), 2)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "-dir {over}: the file paths imb-io makes there reach 228 bytes"
        )),
        "{e}"
    );
    // Ranks with more digits make longer names.
    assert!(parse_io(&format!("-dir {deep}"), 11).is_err());
    assert_eq!(longest_file_path("/d/", "B", 1), "/d/B.0badf00d_g0_0".len());
    assert_eq!(
        longest_file_path("/d", "B", 101),
        "/d/B.0badf00d_g100_100".len()
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn window_size_is_imb_mpi1s() {
    let e = parse_io("-window_size 8", 2).unwrap_err().to_string();
    assert_eq!(
        e,
        "-window_size: imb-io has no benchmark with a window of messages (imb-mpi1's Uniband \
         and Biband have)"
    );
    let Action::Help(h) = parse_io("-help", 2).unwrap() else {
        panic!("help")
    };
    assert!(
        h.contains("            [-dir <directory>] [-overwrite]\n"),
        "{h}"
    );
    assert!(h.contains("settings/settings_io.toml") && !h.contains("-window_size"));
}

/// IMB 2021 has its datatype options only in IMB-MPI1: refused, naming imb-mpi1.
#[test]
fn datatype_options_are_imb_mpi1s() {
    for (o, what) in [
        ("data_type", "imb-io writes and reads MPI_BYTE"),
        ("red_data_type", "imb-io has no reduction"),
        ("contig_type", "imb-io's accesses are contiguous"),
    ] {
        let e = parse_io(&format!("-{o} int"), 2).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("-{o}: IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {what}")
        );
    }
}

fn tmp(name: &str, text: &str) -> String {
    let p = scratch("settings").join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn error_of(name: &str, text: &str) -> String {
    let e = load(&tmp(name, text), &SETTINGS).unwrap_err().to_string();
    assert!(!e.contains('\n'), "more than one line: {e}");
    e
}

#[test]
fn the_built_in_file_and_filename() {
    let io = standard(&SETTINGS);
    assert_eq!(
        (
            io.minmsglog,
            io.maxmsglog,
            io.msgspersample,
            io.msgs_nonaggr
        ),
        (0, 24, 50, 10)
    );
    assert_eq!((io.overall_vol, io.target_cpu_secs), (16 << 20, 0.1));
    assert_eq!(FILENAME.get(&io.family).as_deref(), Some("IMB_out"));
    // A file of only an [optional] block keeps FILENAME.
    let s = load(
        &tmp("optio.toml", "[optional]\nIMB_OPTIONAL = true\n"),
        &SETTINGS,
    )
    .unwrap();
    assert_eq!(s.params, io);
}

#[test]
fn filename_is_a_plain_name_of_a_string() {
    let e = error_of(
        "range-io.toml",
        "[optional]\nIMB_OPTIONAL = true\n\nFILENAME = \"a/b\"\n",
    );
    assert!(
        e.contains(", line 4: FILENAME: \"a/b\": must be a plain file name"),
        "{e}"
    );
    let text = SETTINGS
        .toml
        .replace("FILENAME = \"IMB_out\"", "FILENAME = 7");
    let e = error_of("type-io.toml", &text);
    assert!(
        e.contains("FILENAME: invalid type: integer `7`, expected a string"),
        "{e}"
    );
    let long = format!(
        "[optional]\nIMB_OPTIONAL = true\nFILENAME = \"{}\"\n",
        "n".repeat(MAX_FILENAME + 1)
    );
    assert!(error_of("long.toml", &long).contains(", line 3: FILENAME: 201 bytes: at most 200"));
    assert_eq!(plain(&Value::Text("IMB_out".into())), Ok(()));
}

fn plain(v: &Value) -> Result<(), String> {
    (SETTINGS.keys[0].check)(v)
}

#[test]
fn the_other_suites_file_says_which_file_to_use() {
    let mpi1 = tmp("mpi.toml", settings::STANDARD.toml);
    let e = load(&mpi1, &SETTINGS).unwrap_err().to_string();
    assert!(
        e.ends_with(
            "this looks like settings.toml (the settings of imb-mpi1 and imb-ext); this \
             executable takes settings/settings_io.toml"
        ),
        "{e}"
    );
}

/// imb-io's own rows in doc/ReadMe_IMB.md (`imb_core::cli::doc`).
#[test]
fn the_readme_lists_imb_ios_rows() {
    let table =
        imb_core::cli::doc::markdown(OPTIONS.rows, |_| true, |_| "imb-io".into(), str::to_string);
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../doc/ReadMe_IMB.md");
    imb_core::cli::doc::check(&doc, "imb-io", &table).unwrap();
}
