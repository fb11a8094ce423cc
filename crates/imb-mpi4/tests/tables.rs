//! imb-mpi4's tables under a real mpirun: every benchmark at np 1 to 4 on a short ladder, the
//! column sets and rules of IMB-MPI4, its default list, the header's note of the functions
//! found (text and -json), and the options it refuses.

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
    for np in 1..=4 {
        let names = names_for(np);
        let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
        args.extend(["-msglog", "0:2", "-iter", "10"]);
        let o = mpirun(np, &args);
        ok(&o);
        assert!(o.stdout.contains(", MPI-4 part    \n"), "{}", o.stdout);
        assert!(
            o.stdout.contains("\n# !! Persistent collectives: MPI"),
            "{}",
            o.stdout
        );
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
            if t.title.starts_with("Barrier") {
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
fn default_run_is_imb_2021s_list() {
    let o = mpirun(2, &["-msglog", "0:1", "-iter", "5"]);
    ok(&o);
    let titles: Vec<String> = tables(&o.stdout).into_iter().map(|t| t.title).collect();
    assert_eq!(titles, defaults());
}

#[test]
fn json_keeps_the_functions_found() {
    let d = scratch("json");
    let f = d.join("out.json").to_string_lossy().into_owned();
    let args = [
        "Bcast_persist",
        "Barrier_persist_pure",
        "-msglog",
        "0:1",
        "-json",
        &f,
    ];
    let o = mpirun_in(&d, 2, &args, 60);
    ok(&o);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(doc["suite"], "imb-mpi4");
    assert_eq!(doc["header"]["part"], "MPI-4 part");
    let notes = doc["header"]["notes"].as_array().unwrap();
    let note = notes
        .iter()
        .find(|n| n["kind"] == "persistent_collectives")
        .expect("the functions' note");
    let prefix = note["prefix"].as_str().unwrap();
    assert!(prefix == "MPI_" || prefix == "MPIX_", "{prefix}");
    let functions: Vec<&str> = note["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let want: Vec<String> = OPS.iter().map(|o| format!("{prefix}{o}_init")).collect();
    assert_eq!(functions, want);
    // Under Open MPI 4.1 they are its extension's.
    if open_mpi() {
        assert_eq!(prefix, "MPIX_");
    }
    let tables = doc["tables"].as_array().unwrap();
    assert_eq!(
        tables[0]["keys"],
        serde_json::json!([
            "bytes",
            "repetitions",
            "t_ovrl_us",
            "t_pure_us",
            "t_cpu_us",
            "overlap_pct"
        ])
    );
    assert_eq!(
        tables[1]["keys"],
        serde_json::json!(["repetitions", "t_min_us", "t_max_us", "t_avg_us"])
    );
}

/// A persistent request's root and buffers are fixed: `-root_shift` and `-off_cache` end
/// every rank before any table with one line naming the option.
#[test]
fn root_shift_and_off_cache_are_refused() {
    for (opt, val) in [("-root_shift", "on"), ("-off_cache", "-1")] {
        let o = mpirun(2, &[opt, val, "Bcast_persist"]);
        assert_eq!(o.code, Some(2), "{opt}: {}", o.stderr);
        assert!(!o.stdout.contains("Benchmarking"), "{}", o.stdout);
        let lines: Vec<&str> = o
            .stderr
            .lines()
            .filter(|l| l.starts_with("imb-mpi4: error: "))
            .collect();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.contains(&format!("{opt}: "))),
            "{}",
            o.stderr
        );
    }
}

#[test]
fn list_names_every_benchmark() {
    let o = mpirun(1, &["-list"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let names = all_names();
    let mut listed: Vec<&str> = o
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter(|l| names.iter().any(|n| n == l))
        .collect();
    assert_eq!(listed.len(), 26);
    listed.sort_unstable();
    let mut want: Vec<&str> = names.iter().map(String::as_str).collect();
    want.sort_unstable();
    assert_eq!(listed, want);
}
