//! IMB 2021's method options and `-compat` through a real mpirun: the header's method block,
//! `-json`'s method note and parameters, the repetition policies' counts, IMB 2021's default
//! list, -msgsize, and the refusals. Timings are never judged; repetition counts are rules.

mod common;
use common::*;
use imb_testkit::json::{param, read_json};

fn reps(t: &Table) -> Vec<usize> {
    t.ints("#repetitions")
}

#[test]
fn compat_2021_header_json_and_dynamic_counts() {
    let dir = scratch("method_compat");
    let json = dir.join("r.json");
    let j = json.to_str().unwrap();
    let o = mpirun_in(
        &dir,
        2,
        &[
            "-compat", "2021", "-msglog", "0:6", "-iter", "40", "PingPong", "Bcast", "-json", j,
        ],
        120,
    );
    ok(&o);
    assert!(
        o.stdout.contains(
            "# !! Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:"
        ),
        "{}",
        o.stdout
    );
    for line in [
        "# !!   collectives timed call by call, an untimed barrier after each call (-sync on)",
        "# !!   rooted collectives keep root 0 (-root_shift off)",
        "# !!   Mbytes/sec counts MB = 10^6 bytes",
    ] {
        assert!(o.stdout.contains(line), "{line}");
    }
    // The dynamic policy: never above the volume rule's count, never more repetitions for a
    // larger size than for a smaller one.
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 2);
    for tb in &t {
        let n = reps(tb);
        assert!(n.iter().all(|&n| (1..=40).contains(&n)), "{n:?}");
        assert!(n.windows(2).all(|w| w[1] <= w[0]), "{} {n:?}", tb.title);
    }
    let doc = read_json(&json);
    let notes = doc["header"]["notes"].as_array().unwrap();
    let m = notes
        .iter()
        .find(|n| n["kind"] == "method")
        .expect("a method note");
    assert_eq!(m["method"]["compat"], "2021");
    assert_eq!(m["method"]["iter_policy"], "dynamic");
    let prov = &doc["provenance"];
    assert_eq!(param(prov, "-compat")["value"], "2021");
    assert_eq!(param(prov, "-sync")["value"], "on");
    assert_eq!(param(prov, "-iter_policy")["value"], "dynamic");
}

#[test]
fn standard_runs_say_nothing_new() {
    let o = mpirun(2, &["-msglog", "0:2", "-iter", "20", "Allreduce"]);
    ok(&o);
    assert!(!o.stdout.contains("Measured "), "{}", o.stdout);
}

#[test]
fn iter_policies_off_and_multiple_np() {
    // off: MSGSPERSAMPLE at every size, where the volume rule (1 MiB here) gives 16 at 64 KiB.
    let o = mpirun(
        2,
        &[
            "-iter_policy",
            "off",
            "-iter",
            "30,1",
            "-msglog",
            "15:16",
            "PingPong",
        ],
    );
    ok(&o);
    assert_eq!(reps(&tables(&o.stdout)[0]), [30, 30, 30]);
    assert!(o
        .stdout
        .contains("# !!   -iter_policy off: repetitions not from the volume rule"));
    // multiple_np: multiples of the process count, falling with the size.
    let o = mpirun(
        3,
        &[
            "-iter_policy",
            "multiple_np",
            "-npmin",
            "3",
            "-iter",
            "100",
            "-msglog",
            "0:4",
            "Bcast",
            "-check",
        ],
    );
    ok(&o);
    let n = reps(&tables(&o.stdout)[0]);
    assert!(n.iter().all(|&n| n % 3 == 0 && n > 0), "{n:?}");
    assert!(n.windows(2).all(|w| w[1] <= w[0]), "{n:?}");
}

#[test]
fn the_other_method_options_run_and_check() {
    let o = mpirun(
        3,
        &[
            "-sync",
            "off",
            "-root_shift",
            "off",
            "-imb_barrier",
            "on",
            "-warm_up",
            "off",
            "-msg_pause",
            "on",
            "-msglog",
            "0:3",
            "-iter",
            "20",
            "-check",
            "Allreduce",
            "Reduce",
            "Bcast",
            "Gather",
            "Scatter",
            "Barrier",
        ],
    );
    ok(&o);
    for line in [
        "# !! Measured with IMB 2021's options, not as the IMB 3.0 guide says:",
        "# !!   collectives timed call by call, no barrier between calls (-sync off)",
        "# !!   barriers are IMB 2021's dissemination barrier (-imb_barrier on)",
        "# !!   no warm-up (-warm_up off)",
        "# !!   a pause after every size (-msg_pause on)",
    ] {
        assert!(o.stdout.contains(line), "{line}\n{}", o.stdout);
    }
    assert!(
        o.stdout.contains("ALL BENCHMARKS SUCCESSFUL"),
        "{}",
        o.stdout
    );
}

#[test]
fn compat_2021_lists_imb_2021_defaults() {
    let o = direct_in(&std::env::temp_dir(), &["-list", "-compat", "2021"], 60);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let names: Vec<&str> = o
        .stdout
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("# Run only"))
        .map(|l| l.trim_start_matches("# "))
        .collect();
    assert_eq!(names.len(), 19, "{names:?}");
    assert_eq!(names[6], "Reduce_local");
    assert_eq!(names[18], "Barrier");
}

#[test]
fn msgsize_gives_the_lengths() {
    let o = mpirun(2, &["-msgsize", "0,7,100", "-iter", "10", "PingPong"]);
    ok(&o);
    assert_eq!(tables(&o.stdout)[0].ints("#bytes"), [0, 7, 100]);
    assert!(
        o.stdout.contains("# Message lengths were user defined"),
        "{}",
        o.stdout
    );
    let o = mpirun(1, &["-msgsize", "4,x"]);
    assert_eq!(o.code, Some(2));
    assert!(
        o.stderr.contains("-msgsize: invalid value \"4,x\""),
        "{}",
        o.stderr
    );
}

#[test]
fn refused_with_the_reason() {
    for (args, want) in [
        (
            &["-load", "a.yaml"][..],
            "-load: an IMB 2021 option imb-rs does not have: ",
        ),
        (&["-data_type", "float16"][..], "MPIX_C_FLOAT16"),
        (
            &["-off_cache", "1,0"][..],
            "-off_cache: invalid value \"1,0\": expected <cache MiB>[,<line bytes>]",
        ),
        (&["-mem_alloc_type", "device"][..], "GPU memory"),
    ] {
        let o = mpirun(1, args);
        assert_eq!(o.code, Some(2), "{args:?}");
        assert!(o.stderr.contains(want), "{args:?}: {}", o.stderr);
    }
}

#[test]
fn compat_2021_lists_multi_benchmarks_by_their_names() {
    let args = ["-multi", "0", "PingPong", "-msglog", "0:1", "-iter", "5"];
    let o = mpirun(4, &args);
    ok(&o);
    assert!(o.stdout.contains("\n# (Multi-)PingPong\n"), "{}", o.stdout);
    let o = mpirun(4, &[&["-compat", "2021"][..], &args].concat());
    ok(&o);
    assert!(o.stdout.contains("\n# PingPong\n"), "{}", o.stdout);
}
