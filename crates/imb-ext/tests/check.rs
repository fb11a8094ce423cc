//! imb-ext check mode and settings-file info hints under a real mpirun.

mod common;
use common::*;

#[test]
fn check_every_benchmark_odd_lengths_np2_np3() {
    let d = scratch("check");
    let lens = write(&d, "lens", "0\n1\n3\n4\n100003\n");
    for np in [2, 3] {
        let o = mpirun_in(&d, np, &["-msglen", &lens, "-check"], 120);
        ok(&o);
        let t = tables(&o.stdout);
        assert_eq!(t.len(), if np == 2 { 11 } else { 14 });
        for t in &t {
            // sizes are rounded up to whole floats
            assert_eq!(t.ints("#bytes"), [0, 4, 4, 4, 100004], "{}", t.title);
            if t.title == "Window" {
                assert!(!t.header.contains("defects"));
            } else {
                let d = t.column("defects");
                assert!(
                    d.iter().all(|d| d == "0.00"),
                    "{} {:?}: {d:?}",
                    t.title,
                    t.mode
                );
            }
        }
        assert!(
            o.stdout
                .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"),
            "{}",
            o.stdout
        );
    }
}

fn settings_with_info(dir: &std::path::Path, name: &str, info: &str) -> String {
    let std = include_str!("../../../settings/settings.toml");
    write(dir, name, &format!("{std}\n[info]\n{info}\n"))
}

#[test]
fn info_hints_from_the_settings_file() {
    let d = scratch("info");
    // A valid hint: printed in the header, used by every window.
    let f = settings_with_info(&d, "ok.toml", "no_locks = \"true\"");
    let o = mpirun_in(&d, 2, &["-settings", &f, "-msglog", "2", "-check"], 60);
    ok(&o);
    assert!(o
        .stdout
        .contains("# Got 1 Info-keys:\n\n# no_locks = \"true\"\n"));
    assert_eq!(tables(&o.stdout).len(), 11);
    // Open MPI ignores keys it does not know (MPI leaves that to the implementation).
    let f = settings_with_info(&d, "unknown.toml", "imb_no_such_key = \"1\"");
    let o = mpirun_in(
        &d,
        2,
        &["Window", "Accumulate", "-settings", &f, "-msglog", "2"],
        60,
    );
    ok(&o);
}

#[test]
fn bad_info_hints_fail_cleanly() {
    let d = scratch("badinfo");
    // Not a string: a settings error before any benchmark, on every rank.
    let f = settings_with_info(&d, "type.toml", "no_locks = true");
    let o = mpirun_in(&d, 2, &["-settings", &f], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    let first = o.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!("imb-ext: error: -settings {f}, line "))
            && first.ends_with("expected a string"),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("# Benchmarking"));
    // A value Open MPI rejects: MPI_Win_create fails, named in one line, every rank ends.
    let f = settings_with_info(&d, "value.toml", "accumulate_ops = \"nonsense\"");
    for bench in ["Window", "Unidir_Get", "Accumulate"] {
        let o = mpirun_in(&d, 2, &[bench, "-settings", &f, "-msglog", "2"], 60);
        // Not 0. Open MPI's tear-down after MPI_Abort now and then ends a rank (code 139)
        // or, rarely under load, mpirun itself by a signal (no code): a failure either way.
        assert!(
            o.code != Some(0),
            "{bench}: exit {:?}\n{}\n{}",
            o.code,
            o.stdout,
            o.stderr
        );
        assert!(
            o.stderr.contains(
                "imb-ext: error: MPI_Win_create with the [info] hints accumulate_ops = \"nonsense\" failed: "
            ),
            "{bench}: {}",
            o.stderr
        );
    }
}
