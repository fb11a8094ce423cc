//! The IMB 3.0 guide's sample commands and the -map/-multi banners IMB 3.0 prints (doc/OUTPUT.md,
//! "Process block"), under a real mpirun.

mod common;
use common::*;

const SAMPLE1_REPS: [usize; 24] = [
    1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000,
    1000, 640, 320, 160, 80, 40, 20, 10,
];

#[test]
fn sample1_pingpong_allreduce_np2() {
    let o = mpirun(2, &["PingPong", "Allreduce"]);
    ok(&o);
    assert!(o
        .stdout
        .starts_with("#---------------------------------------------------\n#    imb-rs "));
    assert!(o
        .stdout
        .contains("\n# List of Benchmarks to run:\n\n# PingPong\n# Allreduce\n\n#---"));
    assert!(o.stdout.contains(
        "# Minimum message length in bytes:   0\n# Maximum message length in bytes:   4194304\n"
    ));
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 2);
    let pp = &t[0];
    assert_eq!(pp.title, "PingPong");
    assert_eq!(pp.procs, vec!["# #processes = 2 "]);
    assert_eq!(pp.rule, 52);
    assert_eq!(
        pp.header,
        "       #bytes #repetitions      t[usec]   Mbytes/sec"
    );
    assert_eq!(pp.ints("#repetitions"), SAMPLE1_REPS);
    let bytes = pp.ints("#bytes");
    assert_eq!(bytes[..3], [0, 1, 2]);
    assert_eq!(*bytes.last().unwrap(), 4194304);
    let ar = &t[1];
    assert_eq!(
        ar.header,
        "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
    );
    assert_eq!(ar.rule, 65);
    assert_eq!(ar.ints("#bytes")[..3], [0, 4, 8]);
    assert_eq!(ar.ints("#repetitions"), SAMPLE1_REPS[2..]);
    // every row: right-aligned in 13 columns, two decimals, no trailing blank
    for line in o
        .stdout
        .lines()
        .filter(|l| l.starts_with("   ") && !l.contains('#'))
    {
        assert_eq!(line.len() % 13, 0, "{line:?}");
        assert!(!line.ends_with(' '));
    }
    // throughput = X / 1.048576 / t
    for r in &pp.rows {
        let (x, t, mb): (f64, f64, f64) = (
            r[0].parse().unwrap(),
            r[2].parse().unwrap(),
            r[3].parse().unwrap(),
        );
        if t > 0.5 {
            assert!((mb - x / 1.048576 / t).abs() <= 0.02 * mb + 0.01, "{r:?}");
        }
    }
}

fn lengths_file(name: &str) -> (std::path::PathBuf, String) {
    let d = scratch(name);
    let f = write(&d, "Lengths", "0\n100\n1000\n10000\n100000\n1000000\n");
    (d, f)
}

#[test]
fn sample2_np4_map_2x2() {
    let (d, f) = lengths_file("s2np4");
    let o = mpirun_in(
        &d,
        4,
        &[
            "pingping",
            "allreduce",
            "-map",
            "2x2",
            "-msglen",
            &f,
            "-multi",
            "0",
        ],
        120,
    );
    ok(&o);
    assert!(o
        .stdout
        .contains("# (Multi-)PingPing\n# (Multi-)Allreduce\n"));
    assert!(o.stdout.contains("# Message lengths were user defined\n"));
    let t = tables(&o.stdout);
    let titles: Vec<_> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["Multi-PingPing", "Multi-Allreduce", "Allreduce"]);
    let groups = vec![
        "# ( 2 groups of 2 processes each running simultaneous ) ".to_string(),
        "# Group  0:     0    2".into(),
        "# ".into(),
        "# Group  1:     1    3".into(),
        "# ".into(),
    ];
    assert_eq!(t[0].procs, groups);
    assert_eq!(t[1].procs, groups);
    assert_eq!(
        t[2].procs,
        [
            "# #processes = 4; rank order (rowwise): ",
            "#     0    2",
            "# ",
            "#     1    3",
            "# "
        ]
    );
    // -multi 0: single transfer shows min/max/avg and throughput
    assert_eq!(
        t[0].header,
        "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec"
    );
    for tb in &t {
        assert_eq!(
            tb.ints("#repetitions"),
            [1000, 1000, 1000, 1000, 419, 41],
            "{}",
            tb.title
        );
    }
    assert_eq!(t[0].ints("#bytes"), [0, 100, 1000, 10000, 100000, 1000000]);
}

#[test]
fn sample2_guide_command_np4_is_rejected_map_must_fit() {
    // The guide's command (-map 2x3) on 4 processes: 3.0 accepted P·Q > np; we require P·Q = np.
    let (d, f) = lengths_file("s2np4bad");
    let o = mpirun_in(
        &d,
        4,
        &[
            "pingping",
            "allreduce",
            "-map",
            "2x3",
            "-msglen",
            &f,
            "-multi",
            "0",
        ],
        60,
    );
    assert_eq!(o.code, Some(2));
    assert!(o
        .stderr
        .contains("imb-mpi1: error: -map: 2x3 has 6 places but the job has 4 processes"));
}

#[test]
fn sample2_np6_map_2x3() {
    let (d, f) = lengths_file("s2np6");
    let o = mpirun_in(
        &d,
        6,
        &[
            "pingping",
            "allreduce",
            "-map",
            "2x3",
            "-msglen",
            &f,
            "-multi",
            "0",
        ],
        180,
    );
    ok(&o);
    let t = tables(&o.stdout);
    let titles: Vec<_> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Multi-PingPing",
            "Multi-Allreduce",
            "Allreduce",
            "Allreduce"
        ]
    );
    let three = [
        "# ( 3 groups of 2 processes each running simultaneous ) ",
        "# Group  0:     0    2",
        "# ",
        "# Group  1:     3    5",
        "# ",
        "# Group  2:     4    1",
        "# ",
    ];
    assert_eq!(t[0].procs, three);
    assert_eq!(t[1].procs, three);
    assert_eq!(
        t[2].procs,
        [
            "# #processes = 4; rank order (rowwise): ",
            "#     0    2    4",
            "# ",
            "#     1",
            "# ",
            "# ( 2 additional processes waiting in MPI_Barrier)"
        ]
    );
    assert_eq!(
        t[3].procs,
        [
            "# #processes = 6; rank order (rowwise): ",
            "#     0    2    4",
            "# ",
            "#     1    3    5",
            "# "
        ]
    );
    for tb in &t {
        assert_eq!(tb.ints("#repetitions"), [1000, 1000, 1000, 1000, 419, 41]);
    }
}

#[test]
fn map_without_multi_idles_the_rest() {
    let o = mpirun(
        6,
        &[
            "PingPong", "Sendrecv", "Barrier", "-map", "2x3", "-msglog", "2",
        ],
    );
    ok(&o);
    let t = tables(&o.stdout);
    let procs: Vec<_> = t.iter().map(|t| t.procs.clone()).collect();
    assert_eq!(
        procs[0],
        [
            "# #processes = 2; rank order (rowwise): ",
            "#     0    2",
            "# ",
            "# ( 4 additional processes waiting in MPI_Barrier)"
        ]
    );
    assert_eq!(t.iter().filter(|t| t.title == "Sendrecv").count(), 3);
    assert_eq!(t[2].procs[1..4], ["#     0    2    4", "# ", "#     1"]);
    assert_eq!(
        t.last().unwrap().header,
        " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
    );
}

#[test]
fn multi1_rows_per_group() {
    let o = mpirun(4, &["-multi", "1", "PingPong", "Barrier", "-msglog", "0:3"]);
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t[0].title, "Multi-PingPong");
    assert_eq!(
        t[0].header,
        "        Group       #bytes #repetitions      t[usec]   Mbytes/sec"
    );
    assert_eq!(t[0].rule, 65);
    assert_eq!(
        t[0].column("Group"),
        ["0", "1", "0", "1", "0", "1", "0", "1", "0", "1"]
    );
    assert!(o
        .stdout
        .contains("Mbytes/sec\n\n            0            0         1000"));
    let titles: Vec<_> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["Multi-PingPong", "Multi-Barrier", "Barrier"]);
    assert_eq!(t[2].column("Group"), ["0"]);
    assert_eq!(t[2].procs, ["# #processes = 4 "]);
}

#[test]
fn multi_with_remainder_waits() {
    let o = mpirun(5, &["-multi", "0", "Sendrecv", "-msglog", "1"]);
    ok(&o);
    let t = tables(&o.stdout);
    assert_eq!(t.len(), 3);
    assert_eq!(
        t[0].procs[0],
        "# ( 2 groups of 2 processes each running simultaneous ) "
    );
    assert_eq!(
        t[0].procs.last().unwrap(),
        "# ( 1 additional process waiting in MPI_Barrier)"
    );
    assert_eq!(t[1].title, "Sendrecv");
    assert_eq!(
        t[1].procs,
        [
            "# #processes = 4 ",
            "# ( 1 additional process waiting in MPI_Barrier)"
        ]
    );
}
