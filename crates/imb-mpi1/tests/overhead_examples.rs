//! The overhead examples on imb_core::pairs, under a real mpirun with 2 pairs: their opening
//! lines, header and one row per size with a verdict. Built by `cargo test -p imb-mpi1` (the
//! examples are built with the tests); the ratios are never judged.

/// The example `name` beside this test binary (target/<profile>/examples/), if built.
fn example(name: &str) -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.parent()?.join("examples").join(name);
    path.is_file().then(|| path.to_string_lossy().into_owned())
}

fn run(name: &str) -> Option<Vec<String>> {
    let Some(bin) = example(name) else {
        eprintln!("{name} is not built (cargo test -p imb-mpi1 builds it): skipped");
        return None;
    };
    let o = imb_testkit::mpirun_in(&bin, &std::env::temp_dir(), 2, &["2"], 300);
    assert_eq!(o.code, Some(0), "{}\n{}", o.stdout, o.stderr);
    Some(o.stdout.lines().map(String::from).collect())
}

#[test]
fn pingpong_overhead_prints_one_row_per_size() {
    let Some(lines) = run("pingpong_overhead") else {
        return;
    };
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines[1].contains(", 2 alternating pairs per size, one launch"));
    assert_eq!(
        lines[2],
        "#       bytes  reps   ours[usec]    raw[usec]   ratio(median)   ratio IQR      target"
    );
    for (row, (bytes, target)) in lines[3..].iter().zip([
        ("0", "t ours/raw <= 1.02"),
        ("4194304", "MB/s ours/raw >= 0.98"),
    ]) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[0], bytes, "{row}");
        assert!(row.contains(target), "{row}");
        assert!(row.ends_with("PASS") || row.ends_with("FAIL"), "{row}");
        assert!(cells[5].contains(".."), "{row}");
    }
}

#[test]
fn jacobi_overhead_prints_the_timers_column() {
    let Some(lines) = run("jacobi_overhead") else {
        return;
    };
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(
        lines[2],
        "#   bytes  reps  ours[usec]   raw[usec]  ours/raw(median)  timers on/off(median)"
    );
    for row in &lines[3..] {
        let cells: Vec<f64> = row.split_whitespace().map(|c| c.parse().unwrap()).collect();
        assert_eq!(cells.len(), 6, "{row}");
    }
}
