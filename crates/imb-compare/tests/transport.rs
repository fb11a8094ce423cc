//! imb-compare on real runs of imb-mpi1 under mpirun, 5 launches a side (the fewest for which
//! a file of two bound tests can show a FAIL at 95 %): a run against itself (its text and its
//! `-json` files, one launch each) is compared without a word of change, and refused as
//! evidence under criteria (the launches are on both sides); a run forced onto a slower
//! transport (Open MPI's TCP loopback instead of shared memory) fails the latency criterion,
//! exits 1, and the JUnit file names it.
//!
//! No test here judges a timing on its own: the latency criterion allows the new run's median
//! twice the baseline's at every size from 0 to 1 KiB, where TCP through the kernel costs some
//! 20 times shared memory's; a loaded machine can slow the shared-memory launches too, so the
//! sets are launched again (up to 3 times) until one shows what the transport does, and the
//! test fails only if none does.

use std::path::Path;

mod common;
use common::{imb_mpi1, run as compare};

/// PingPong from 0 bytes to 256 KiB, 100 repetitions a size, `LAUNCHES` launches into `dir/NAME/`
/// (text `k.txt` and `-json k.json` each, as doc/ACCEPTANCE.md §1 keeps them), with extra
/// environment for every rank.
fn pingpong(dir: &Path, name: &str, env: &[(&str, &str)]) -> String {
    let side = dir.join(name);
    let _ = std::fs::remove_dir_all(&side);
    std::fs::create_dir_all(&side).unwrap();
    for k in 1..=LAUNCHES {
        let json = format!("{k}.json");
        let out = imb_testkit::mpirun_env(
            &imb_mpi1(),
            &side,
            2,
            &[
                "PingPong", "-msglog", "0:18", "-iter", "100", "-json", &json,
            ],
            env,
            120,
        );
        assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
        std::fs::write(side.join(format!("{k}.txt")), &out.stdout).unwrap();
    }
    side.to_string_lossy().into_owned()
}

const LAUNCHES: usize = 5;

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
    // The directory holds each launch as text and as -json: they count once.
    let (code, out, err) = compare(&["--accept-oversubscribed", &base, &base]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("# base shm: {LAUNCHES} launch(es), imb-rs ")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "# note: shm: {LAUNCHES} file(s) repeat a launch read from another"
        )),
        "{out}"
    );
    // A run against itself is no evidence: under criteria it is bad input naming the launches.
    let (code, out, err) = compare(&[
        "--references",
        &refs,
        "--accept-oversubscribed",
        &base,
        &base,
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("shares launches with the baseline"), "{err}");
    assert!(err.contains(&format!("and {} more", LAUNCHES - 1)), "{err}");
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
        assert!(matches!(code, Some(0 | 1 | 4)), "{out}{err}");
        let failed = out.contains("FAIL PingPong small-message latency [tcp]: ");
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
    panic!("three sets of launches never showed TCP's latency:\n{last}");
}
