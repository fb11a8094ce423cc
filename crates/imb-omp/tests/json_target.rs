//! imb-omp's `-json FILE` checked before the run (doc/OUTPUT.md, "Temporary files"): the file
//! the standard output goes to, and a directory that takes no file, are one-line input errors
//! with exit status 2, and nothing is measured.

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_imb-omp");

#[test]
fn json_to_stdout_or_to_a_directory_without_files_is_refused() {
    let d = std::env::temp_dir().join(format!("imb-omp-target-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let out = d.join("out.txt");
    let stdout = "this is where the standard output of this program goes; writing it would \
                  replace that output (give -json a file of its own)";
    for (target, why) in [
        ("/dev/stdout", stdout),
        ("out.txt", stdout),
        (
            "/proc/x.json",
            "cannot create files in /proc: No such file or directory (os error 2)",
        ),
    ] {
        let o = Command::new(BIN)
            .args(["-json", target])
            .current_dir(&d)
            .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "-json {target}: {err}");
        assert_eq!(
            err,
            format!("imb-omp: error: -json {target}: {why}\n"),
            "-json {target}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "", "-json {target}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "-json {target}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}
