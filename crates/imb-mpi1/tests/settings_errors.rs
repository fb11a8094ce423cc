//! Errors in a `-settings` file (doc/ReadMe_IMB.md, "-settings FILE"): one line naming the file
//! and the line of the value or key, exit status 2, nothing measured, for either block.

mod common;
use common::*;

#[test]
fn settings_errors_name_the_file_and_line() {
    let d = scratch("settings-errors");
    let std = include_str!("../../../settings/settings.toml");
    let std_type = std.replace("N_BARR = 2 ", "N_BARR = \"two\" ");
    let n_barr = std_type
        .lines()
        .position(|l| l.starts_with("N_BARR"))
        .unwrap()
        + 1;
    for (name, text, line, msg) in [
        (
            "optional.toml",
            "[optional]\nIMB_OPTIONAL = true\nMSGSPERSAMPLE = \"many\"\n".to_string(),
            3,
            "MSGSPERSAMPLE: invalid type: string \"many\", expected a whole number of at least 0"
                .to_string(),
        ),
        (
            "standard.toml",
            std_type.clone(),
            n_barr,
            "N_BARR: invalid type: string \"two\", expected a whole number of at least 0"
                .to_string(),
        ),
        (
            "twice.toml",
            "[optional]\nIMB_OPTIONAL = true\n[optional]\n".to_string(),
            3,
            "invalid table header: duplicate key `optional` in document root".to_string(),
        ),
    ] {
        let f = write(&d, name, &text);
        let o = direct_in(&d, &["PingPong", "-settings", &f], 60);
        assert_eq!(o.code, Some(2), "{name}: {}", o.stderr);
        let ours: Vec<&str> = o
            .stderr
            .lines()
            .filter(|l| l.starts_with("imb-mpi1: "))
            .collect();
        assert_eq!(
            ours,
            [format!(
                "imb-mpi1: error: -settings {f}, line {line}: {msg}"
            )],
            "{name}: {}",
            o.stderr
        );
        assert!(!o.stderr.contains("\nduplicate key"), "{}", o.stderr);
        assert!(!o.stdout.contains("# Benchmarking"), "{name}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}
