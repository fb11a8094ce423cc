//! imb-rma's tables under a real mpirun: every benchmark at np 1 to 4, its process counts,
//! MODE banners (NON-AGGREGATE first), column sets, sizes and repetition counts; -multi,
//! -map and -json.

mod common;
use common::*;

/// The process counts of a benchmark on `np` processes (-npmin 2).
fn counts(name: &str, np: usize) -> Vec<usize> {
    if is_pair(name) || name == "Truly_passive_put" {
        if np < 2 {
            vec![]
        } else {
            vec![2]
        }
    } else {
        match np {
            1 => vec![1],
            2 => vec![2],
            n => vec![2, n],
        }
    }
}

fn header_of(name: &str) -> (&'static str, usize) {
    if name == "Truly_passive_put" {
        (TRULY, 52)
    } else if name.starts_with("All_") || name.starts_with("Exchange") {
        (COLL, 65)
    } else {
        (SINGLE, 52)
    }
}

#[test]
fn every_benchmark_np1_to_np4() {
    let d = scratch("all");
    let lens = write(&d, "lens", "0\n4\n12\n");
    for np in 1..=4 {
        let mut args = ALL.to_vec();
        args.extend(["-msglen", &lens, "-iter", "10", "-npmin", "2"]);
        // Open MPI's default osc/rdma cannot create a window on one process.
        let o = mpirun_env(&d, np, &args, if np == 1 { &OSC_UCX } else { &[] });
        ok(&o);
        assert!(o.stdout.contains(", MPI-RMA part "), "{}", o.stdout);
        let t = tables(&o.stdout);
        let mut want = Vec::new();
        for name in ALL {
            for n in counts(name, np) {
                if is_pair(name) {
                    want.push((name, n, Some(NONAGG)));
                    want.push((name, n, Some(AGG)));
                } else {
                    want.push((name, n, None));
                }
            }
        }
        let got: Vec<_> = t
            .iter()
            .map(|t| {
                let n: usize = t.procs[0]
                    .trim_start_matches("# #processes = ")
                    .trim()
                    .parse()
                    .unwrap();
                (t.title.as_str(), n, t.mode.as_deref())
            })
            .collect();
        assert_eq!(got, want, "np {np}");
        if np == 1 {
            assert!(o
                .stdout
                .contains("# !! Benchmark Unidir_put invalid for 1 process   !! "));
        }
        for t in &t {
            let (header, rule) = header_of(&t.title);
            assert_eq!((t.header.as_str(), t.rule), (header, rule), "{}", t.title);
            let bytes = match t.title.as_str() {
                "Fetch_and_op" | "Compare_and_swap" => vec![4],
                _ => vec![0, 4, 12],
            };
            assert_eq!(t.ints("#bytes"), bytes, "{} np {np}", t.title);
            let reps = if t.mode.as_deref() == Some(NONAGG) {
                100
            } else {
                10
            };
            assert!(
                t.ints("#repetitions").iter().all(|&r| r == reps),
                "{} {:?}",
                t.title,
                t.mode
            );
        }
    }
}

#[test]
fn default_list_leaves_out_the_get_local_pair_and_aggregate_mode_picks_one_table() {
    let d = scratch("defaults");
    let o = mpirun_in(&d, 2, &["-msglog", "2", "-iter", "5"], 180);
    ok(&o);
    let titles: Vec<String> = tables(&o.stdout).into_iter().map(|t| t.title).collect();
    assert!(!titles
        .iter()
        .any(|t| t == "Get_local" || t == "Get_all_local"));
    assert_eq!(titles.first().map(String::as_str), Some("Unidir_put"));
    assert_eq!(titles.last().map(String::as_str), Some("Truly_passive_put"));
    for (mode, line) in [("aggregate", AGG), ("non_aggregate", NONAGG)] {
        let o = mpirun_in(
            &d,
            2,
            &[
                "Unidir_put",
                "One_put_all",
                "-msglog",
                "2",
                "-aggregate_mode",
                mode,
            ],
            60,
        );
        ok(&o);
        let got: Vec<_> = tables(&o.stdout)
            .iter()
            .map(|t| (t.title.clone(), t.mode.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("Unidir_put".to_string(), Some(line.to_string())),
                ("One_put_all".to_string(), None)
            ],
            "{mode}"
        );
    }
}

#[test]
fn multi_0_and_1_map_and_json() {
    let d = scratch("multi");
    let names = [
        "Unidir_put",
        "One_put_all",
        "Exchange_put",
        "Truly_passive_put",
    ];
    for multi in ["0", "1"] {
        let mut args = names.to_vec();
        args.extend(["-msglog", "2", "-iter", "10", "-multi", multi]);
        // The default one-sided component: `-multi` keeps the groups' windows apart.
        let o = mpirun_in(&d, 4, &args, 180);
        ok(&o);
        let t = tables(&o.stdout);
        for t in &t {
            // One group of 4 is no Multi- table.
            let groups = t.procs[0].contains(" groups of 2 processes ");
            assert_eq!(t.title.starts_with("Multi-"), groups, "{}", t.title);
            let base = t.title.trim_start_matches("Multi-");
            let (mut header, _) = header_of(base);
            if multi == "0" && base == "Unidir_put" {
                header = PARALLEL;
            }
            let header = if multi == "1" {
                format!("        Group{}", header)
            } else {
                header.to_string()
            };
            assert_eq!(t.header, header, "{} -multi {multi}", t.title);
        }
        // Unidir_put: two modes, One_put_all and Exchange_put at 2 (and 4: one group),
        // Truly_passive_put.
        assert!(t.len() >= 5, "{}", o.stdout);
    }
    let json = d.join("out.json");
    let json_s = json.to_str().unwrap();
    let o = mpirun_in(
        &d,
        4,
        &[
            "One_put_all",
            "Truly_passive_put",
            "-msglog",
            "1",
            "-map",
            "2x2",
            "-json",
            json_s,
        ],
        120,
    );
    ok(&o);
    assert!(o.stdout.contains("rank order (rowwise)"), "{}", o.stdout);
    let text = std::fs::read_to_string(&json).unwrap();
    for key in [
        "\"t_pure_us\"",
        "\"t_ovrl_us\"",
        "\"mbytes_per_s\"",
        "MPI-RMA part",
    ] {
        assert!(text.contains(key), "{key}: {text}");
    }
}
