//! imb-compare on real runs of imb-mpi1 under mpirun: a run against itself passes every
//! criterion; a run forced onto a slower transport (Open MPI's TCP loopback instead of shared
//! memory) fails the latency criterion, exits 1, and the JUnit file names it.
//!
//! No test here judges a timing on its own: the criterion allows the new run twice the
//! baseline's small-message latency at every size from 0 to 1 KiB, where TCP through the
//! kernel costs some 20 times shared memory's; a loaded machine can slow the shared-memory
//! baseline too, so the pair is launched again (up to 3 times) until one pair shows what the
//! transport does, and the test fails only if none does.

use std::path::{Path, PathBuf};
use std::process::Command;

/// imb-mpi1 of this build: beside the test's own directory, built first when missing.
fn imb_mpi1() -> String {
    let exe = std::env::current_exe().unwrap();
    let profile_dir: PathBuf = exe.parent().unwrap().parent().unwrap().to_path_buf();
    let bin = profile_dir.join("imb-mpi1");
    if !bin.exists() {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "-p", "imb-mpi1"]);
        if profile_dir.ends_with("release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().unwrap().success(), "cargo build -p imb-mpi1");
    }
    bin.to_string_lossy().into_owned()
}

fn compare(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_imb-compare"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// PingPong from 0 bytes to 256 KiB, 100 repetitions a size, text to `NAME.txt` and
/// `-json NAME.json` in `dir`, with extra environment for every rank.
fn pingpong(dir: &Path, name: &str, env: &[(&str, &str)]) -> String {
    let json = format!("{name}.json");
    let out = imb_testkit::mpirun_env(
        &imb_mpi1(),
        dir,
        2,
        &[
            "PingPong", "-msglog", "0:18", "-iter", "100", "-json", &json,
        ],
        env,
        120,
    );
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    std::fs::write(dir.join(format!("{name}.txt")), &out.stdout).unwrap();
    dir.join(json).to_string_lossy().into_owned()
}

const REFS: &str = r#"
[[criterion]]
name = "PingPong small-message latency"
benchmark = "PingPong"
processes = 2
bytes = [0, 1024]
metric = "t"
reference = "baseline"
upper = 1.0

[[criterion]]
name = "PingPong bandwidth"
benchmark = "PingPong"
bytes = [65536, 262144]
metric = "mbytes"
reference = "baseline"
lower = -0.5
"#;

#[test]
fn self_and_slower_transport() {
    let dir = imb_testkit::scratch("compare-transport");
    let refs = imb_testkit::write(&dir, "acc.toml", REFS);
    let junit = dir.join("junit.xml").to_string_lossy().into_owned();
    let base = pingpong(&dir, "shm", &[]);
    // The same launch as text and as -json: every criterion passes. Oversubscription would
    // fail the criteria for its own reason, not the one tested here (refs' unit tests cover it).
    let text = dir.join("shm.txt").to_string_lossy().into_owned();
    for new in [&base, &text] {
        let (code, out, err) =
            compare(&["--references", &refs, "--accept-oversubscribed", &base, new]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("# 0 of 2 criteria failed"), "{out}");
        assert!(
            out.contains("PASS PingPong small-message latency ["),
            "{out}"
        );
    }
    if !imb_testkit::open_mpi() {
        eprintln!("not Open MPI: the forced TCP transport (--mca btl self,tcp) is not tried");
        return;
    }
    let mut last = String::new();
    for attempt in 1..=3 {
        let base = if attempt == 1 {
            base.clone()
        } else {
            pingpong(&dir, "shm", &[])
        };
        let tcp = pingpong(&dir, "tcp", &[("OMPI_MCA_btl", "self,tcp")]);
        let (code, out, err) = compare(&[
            "--references",
            &refs,
            "--junit",
            &junit,
            "--accept-oversubscribed",
            &base,
            &tcp,
        ]);
        assert!(matches!(code, Some(0 | 1)), "{out}{err}");
        let failed = out.contains("FAIL PingPong small-message latency [tcp.json]: ");
        if code == Some(1) && failed {
            let xml = std::fs::read_to_string(&junit).unwrap();
            let doc = roxmltree::Document::parse(&xml).unwrap();
            let names: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name("testcase"))
                .filter(|n| n.children().any(|c| c.has_tag_name("failure")))
                .filter_map(|n| n.attribute("name"))
                .collect();
            assert!(names.contains(&"PingPong small-message latency"), "{xml}");
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
        eprintln!("attempt {attempt}: the TCP run was not told apart:\n{out}");
        last = out;
    }
    panic!("three pairs of launches never showed TCP's latency:\n{last}");
}
