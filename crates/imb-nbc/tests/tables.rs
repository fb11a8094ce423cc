//! imb-nbc's tables under a real mpirun: every benchmark at np 1 to 4 on a short ladder, the
//! column sets and rules of IMB-NBC, -multi, -map and -json.

mod common;
use common::*;

/// The process counts a run on `np` processes steps through (NPmin 2).
fn ladder(np: usize) -> Vec<usize> {
    match np {
        1 => vec![1],
        2 => vec![2],
        3 => vec![2, 3],
        _ => vec![2, 4],
    }
}

fn floats(t: &Table, col: &str) -> Vec<f64> {
    t.column(col).iter().map(|v| v.parse().unwrap()).collect()
}

#[test]
fn every_benchmark_np1_to_np4() {
    let names = all_names();
    let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
    args.extend(["-msglog", "0:2", "-iter", "10"]);
    for np in 1..=4 {
        let o = mpirun(np, &args);
        ok(&o);
        assert!(o.stdout.contains(", MPI-NBC part  \n"), "{}", o.stdout);
        // IMB-NBC prints no CPU_Exploit block.
        assert!(!o.stdout.contains("CPU_Exploit"));
        let t = tables(&o.stdout);
        let want: Vec<(String, usize)> = names
            .iter()
            .flat_map(|n| ladder(np).into_iter().map(move |p| (n.clone(), p)))
            .collect();
        let got: Vec<(String, usize)> = t
            .iter()
            .map(|t| {
                let p = t.procs[0]
                    .trim_start_matches("# #processes = ")
                    .trim_end()
                    .parse()
                    .unwrap();
                (t.title.clone(), p)
            })
            .collect();
        assert_eq!(got, want, "np {np}");
        for t in &t {
            let (header, rule) = layout(&t.title);
            assert_eq!((t.header.as_str(), t.rule), (header, rule), "{}", t.title);
            if t.title.starts_with("Ibarrier") {
                assert_eq!(t.ints("#repetitions"), [10], "{}", t.title);
                continue;
            }
            let sizes: &[usize] = if reduction(&t.title) {
                &[0, 4]
            } else {
                &[0, 1, 2, 4]
            };
            assert_eq!(t.ints("#bytes"), sizes, "{} np {np}", t.title);
            assert!(t.ints("#repetitions").iter().all(|&r| r == 10));
            if !t.title.ends_with("_pure") {
                // The formula's range, not a judgement of the timing.
                assert!(floats(t, "overlap[%]")
                    .iter()
                    .all(|o| (0.0..=100.0).contains(o)));
            }
        }
    }
}

#[test]
fn default_run_is_the_thirteen_overlap_benchmarks() {
    let o = mpirun(2, &["-msglog", "0:1", "-iter", "5"]);
    ok(&o);
    let titles: Vec<String> = tables(&o.stdout).into_iter().map(|t| t.title).collect();
    assert_eq!(titles, OVERLAP);
}

#[test]
fn multi_merged_and_per_group() {
    let names = ["Iallreduce", "Ibarrier", "Ialltoall_pure", "Igather"];
    for (multi, group) in [("0", false), ("1", true)] {
        let mut args = names.to_vec();
        args.extend([
            "-multi", multi, "-msglog", "0:2", "-iter", "10", "-npmin", "2",
        ]);
        let o = mpirun(4, &args);
        ok(&o);
        let t = tables(&o.stdout);
        let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
        // Two groups of two, then one group of four.
        let want: Vec<String> = names
            .iter()
            .flat_map(|n| [format!("Multi-{n}"), n.to_string()])
            .collect();
        assert_eq!(titles, want, "-multi {multi}");
        for t in &t {
            let (header, _) = layout(&t.title);
            let first = t.header.split_whitespace().next().unwrap();
            assert_eq!(first == "Group", group, "{} {}", t.title, t.header);
            assert!(t.header.ends_with(header.trim_start()), "{}", t.header);
            if t.title.starts_with("Multi-") {
                assert!(t
                    .procs
                    .iter()
                    .any(|l| l.contains("2 groups of 2 processes")));
            }
        }
    }
}

#[test]
fn map_renumbers_the_ranks() {
    let o = mpirun(
        4,
        &[
            "Iallgather",
            "Ibcast_pure",
            "-map",
            "2x2",
            "-npmin",
            "4",
            "-msglog",
            "0:2",
            // Four ranks on two cores: MPICH's polling ranks make each call milliseconds.
            "-iter",
            "10",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 2);
    for t in &t {
        assert!(
            t.procs[0].starts_with("# #processes = 4; rank order (rowwise)"),
            "{:?}",
            t.procs
        );
    }
}

#[test]
fn json_rows_carry_the_overlap_keys() {
    let d = scratch("json");
    let f = d.join("out.json").to_string_lossy().into_owned();
    let o = mpirun_in(
        &d,
        2,
        &[
            "Ibcast",
            "Ibarrier",
            "Ibcast_pure",
            "-msglog",
            "0:1",
            "-json",
            &f,
        ],
        60,
    );
    ok(&o);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(doc["suite"], "imb-nbc");
    assert_eq!(doc["header"]["part"], "MPI-NBC part");
    let tables = doc["tables"].as_array().unwrap();
    let keys: Vec<&serde_json::Value> = tables.iter().map(|t| &t["keys"]).collect();
    assert_eq!(
        keys,
        [
            &serde_json::json!([
                "bytes",
                "repetitions",
                "t_ovrl_us",
                "t_pure_us",
                "t_cpu_us",
                "overlap_pct"
            ]),
            &serde_json::json!([
                "repetitions",
                "t_ovrl_us",
                "t_pure_us",
                "t_cpu_us",
                "overlap_pct"
            ]),
            &serde_json::json!(["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us"]),
        ]
    );
    assert_eq!(tables[0]["rows"].as_array().unwrap().len(), 3);
}

#[test]
fn list_and_help_name_the_suite() {
    let o = mpirun(1, &["-list"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let names = all_names();
    let listed: Vec<&str> = o
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter(|l| names.iter().any(|n| n == l))
        .collect();
    assert_eq!(listed, names);
    assert!(o.stdout.contains("# Run only when named:"));
    let o = mpirun(1, &["-help"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("imb-nbc"), "{}", o.stdout);
    // No AGGREGATE/NON-AGGREGATE tables, no files.
    assert!(!o.stdout.contains("-aggregate_mode"));
    assert!(!o.stdout.contains("-dir"));
}
