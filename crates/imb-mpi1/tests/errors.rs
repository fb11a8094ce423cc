//! Bad input: one clear line naming the culprit, a non-zero exit, every rank gone within
//! seconds, no panic.

mod common;
use common::*;

/// Run and expect a non-zero exit with exactly one error line that contains `needle`. One
/// process without mpirun: rank 0 finds every input error, and `rejects_on` proves with
/// mpirun, once per kind of input, that every rank leaves together.
fn rejects(args: &[&str], needle: &str) {
    rejects_on(1, args, needle)
}

fn rejects_on(np: usize, args: &[&str], needle: &str) {
    let d = scratch("errors");
    let o = if np == 1 {
        direct_in(&d, args, 60)
    } else {
        mpirun_in(&d, np, args, 60)
    };
    assert_eq!(
        o.code.map(|c| c != 0),
        Some(true),
        "{args:?} exited 0:\n{}",
        o.stdout
    );
    let ours: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("imb-mpi1: error: "))
        .collect();
    assert_eq!(
        ours.len(),
        1,
        "{args:?}: expected one error line from rank 0:\n{}",
        o.stderr
    );
    assert!(
        ours[0].contains(needle),
        "{args:?}: {:?} lacks {needle:?}",
        ours[0]
    );
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert!(
        !o.stdout.contains("# Benchmarking"),
        "{args:?} measured something"
    );
}

#[test]
fn unknown_benchmark_lists_valid_names() {
    rejects_on(
        2,
        &["PingPong", "Pingpongg"],
        "Pingpongg: unknown benchmark; valid names: PingPong, PingPing, Sendrecv",
    );
    rejects(&["all"], "all: unknown benchmark");
}

#[test]
fn bad_option_values() {
    rejects(&["-npmin"], "-npmin: needs a value");
    rejects_on(4, &["-npmin", "x"], "-npmin: invalid value \"x\"");
    rejects(&["-npmin", "0"], "-npmin: invalid value \"0\"");
    rejects(&["-multi", "2"], "-multi: invalid value \"2\"");
    rejects(&["-multi"], "-multi: needs a value");
    rejects(&["-msglog", "9:3"], "-msglog: invalid value \"9:3\"");
    rejects(&["-iter", "ten"], "-iter: invalid value \"ten\"");
    rejects(&["-time", "0"], "-time: invalid value \"0\"");
    rejects(
        &["-thread_level", "many"],
        "-thread_level: invalid value \"many\"",
    );
    rejects(&["-foo"], "-foo: unknown option");
}

#[test]
fn bad_maps() {
    rejects_on(
        3,
        &["-map", "2x2"],
        "-map: 2x2 has 4 places but the job has 3 processes",
    );
    rejects(&["-map", "3"], "-map: invalid value \"3\"");
    rejects(&["-map", "1x3x"], "-map: invalid value \"1x3x\"");
    rejects(&["-map"], "-map: needs a value");
}

#[test]
fn bad_msglen_files() {
    let d = scratch("msglen");
    let cases: [(&str, &str, &str); 7] = [
        ("empty", "", "contains no message length"),
        ("comments", "# only\n\n", "contains no message length"),
        ("text", "0\nabc\n", ", line 2: \"abc\" is not a length"),
        ("negative", "0\n1\n-8\n", ", line 3: \"-8\" is negative"),
        (
            "overflow",
            "99999999999999999999999\n",
            ", line 1: \"99999999999999999999999\" overflows",
        ),
        ("mult", "18446744073709551615 k\n", "overflows"),
        ("comment", "64 # bytes\n", "comments must start a line"),
    ];
    for (k, (name, text, needle)) in cases.into_iter().enumerate() {
        let f = write(&d, name, text);
        // The first under mpirun (every rank leaves), the rest as one process (quicker).
        let o = if k == 0 {
            mpirun_in(&d, 2, &["-msglen", &f], 60)
        } else {
            direct_in(&d, &["-msglen", &f], 60)
        };
        let line = o
            .stderr
            .lines()
            .find(|l| l.starts_with("imb-mpi1: error: "))
            .unwrap_or("");
        assert!(
            line.starts_with(&format!("imb-mpi1: error: -msglen {f}")),
            "{name}: {line}"
        );
        assert!(line.contains(needle), "{name}: {line}");
        assert_ne!(o.code, Some(0));
    }
    rejects(
        &["-msglen", "/nonexistent/lengths"],
        "-msglen /nonexistent/lengths: cannot read it",
    );
}

#[test]
fn bad_input_files() {
    let d = scratch("input");
    let f = write(&d, "sel", "# selection\nPingPong\nBcast\nnosuch\n");
    rejects_on(
        2,
        &["-input", &f],
        &format!("-input {f}, line 4: \"nosuch\": unknown benchmark"),
    );
    rejects(
        &["-input", "/nonexistent/sel"],
        "-input /nonexistent/sel: cannot read it",
    );
}

#[test]
fn bad_settings_file() {
    let d = scratch("settings");
    let std = include_str!("../../../settings/settings.toml");
    let f = write(
        &d,
        "s.toml",
        &std.replace(
            "IMB_OPTIONAL = false",
            "IMB_OPTIONAL = true\nMSGSPERSAMPLE = -3",
        ),
    );
    rejects_on(2, &["-settings", &f], &format!("-settings {f}, line "));
}

#[test]
fn help_exits_zero_on_every_rank() {
    let o = mpirun(3, &["PingPong", "-help"]);
    assert_eq!(o.code, Some(0));
    assert!(o
        .stdout
        .starts_with("\nCalling sequence:\n\n\nimb-mpi1    [-h{elp}]\n"));
    assert_eq!(o.stdout.matches("Calling sequence").count(), 1);
    let o = mpirun(2, &["-list"]);
    assert_eq!(o.code, Some(0));
    assert!(o.stdout.contains("# Reduce_scatter\n"));
}

#[test]
fn binary_from_another_mpi_than_the_launcher_is_an_error() {
    // What a rank sees when mpirun belongs to another MPI than the one the binary was built
    // against: the launcher announced 4 processes, MPI itself starts a 1-process job.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_imb-mpi1"));
    cmd.arg("Barrier")
        .env("OMPI_COMM_WORLD_SIZE", "4")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .current_dir(std::env::temp_dir());
    let o = imb_testkit::output_within(cmd, 60, "imb-mpi1 Barrier, a singleton told of 4");
    assert_eq!(o.status.code(), Some(3));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("imb-mpi1: error: the launcher started 4 processes but MPI reports 1"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("# Benchmarking"));
}
