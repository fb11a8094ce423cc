//! `-summary` and `-progress` under mpirun: the summary comes after the last table and leaves
//! every table as an IMB parser reads it; progress goes to stderr only, and only when asked
//! for (the test's stderr is a pipe, not a terminal).

mod common;
use common::*;

const RUN: &[&str] = &[
    "PingPong",
    "Allreduce",
    "Barrier",
    "-msglog",
    "0:3",
    "-iter",
    "50",
];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    RUN.iter().chain(extra).copied().collect()
}

/// A table as a parser sees it apart from the timings: title, process block, column titles,
/// rule length, sizes and repetitions.
type Shape = (String, Vec<String>, String, usize, Vec<String>, Vec<String>);

fn shape(out: &str) -> Vec<Shape> {
    tables(out)
        .into_iter()
        .map(|t| {
            let bytes = if t.header.contains("#bytes") {
                t.column("#bytes")
            } else {
                Vec::new()
            };
            let reps = t.column("#repetitions");
            (t.title, t.procs, t.header, t.rule, bytes, reps)
        })
        .collect()
}

#[test]
fn summary_follows_the_last_table_and_leaves_the_tables_alone() {
    let d = scratch("summary");
    let plain = mpirun_in(&d, 2, RUN, 120);
    ok(&plain);
    let o = mpirun_in(&d, 2, &with(&["-summary", "-json", "r.json"]), 120);
    ok(&o);
    assert_eq!(shape(&o.stdout), shape(&plain.stdout));
    assert!(!plain.stdout.contains("# Summary"));

    // The block: after the last table's blank line, before the end marker, comments only.
    let at = o.stdout.find("\n\n# Summary: ").expect(&o.stdout);
    assert!(o.stdout.rfind("# Benchmarking").unwrap() < at);
    let block: Vec<&str> = o.stdout[at + 2..]
        .lines()
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(block.iter().all(|l| l.starts_with('#')), "{block:?}");
    let t = tables(&o.stdout);
    // Title, bare '#', column titles, one line per table.
    assert_eq!(block.len(), 3 + t.len(), "{block:?}");
    for (line, table) in block[3..].iter().zip(&t) {
        let cells: Vec<&str> = line[1..].split_whitespace().collect();
        assert_eq!(cells[0], table.title);
        // The lowest printed time is the lowest time over the non-empty messages (a 0-byte
        // call may move nothing), rounded as the table rounds it, at a size printing it.
        let col = if table.header.contains("t[usec]") {
            "t[usec]"
        } else {
            "t_max[usec]"
        };
        let times = table.column(col);
        let sized: Vec<(Option<usize>, &str)> = if table.header.contains("#bytes") {
            let all: Vec<_> = table
                .ints("#bytes")
                .into_iter()
                .map(Some)
                .zip(times.iter().map(String::as_str))
                .collect();
            assert!(all.iter().any(|(b, _)| *b > Some(0)), "{line}");
            all.into_iter().filter(|(b, _)| *b > Some(0)).collect()
        } else {
            times.iter().map(|t| (None, t.as_str())).collect()
        };
        let lowest = sized
            .iter()
            .map(|(_, v)| v.parse::<f64>().unwrap())
            .fold(f64::INFINITY, f64::min);
        assert_eq!(cells[4], format!("{lowest:.2}"), "{line}");
        let at = |b: &Option<usize>| b.map_or("-".to_string(), |b| b.to_string());
        assert!(
            sized
                .iter()
                .any(|(b, v)| at(b) == cells[6] && v.parse::<f64>().unwrap() == lowest),
            "{line}"
        );
        let bw = if table.header.contains("Mbytes/sec") {
            let best = table
                .column("Mbytes/sec")
                .iter()
                .map(|v| v.parse::<f64>().unwrap())
                .fold(f64::NEG_INFINITY, f64::max);
            format!("{best:.2}")
        } else {
            "-".to_string()
        };
        assert_eq!(cells[7], bw, "{line}");
    }
    assert!(o.stdout[at..].ends_with("\n\n# All processes entering MPI_Finalize\n\n"));

    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("r.json")).unwrap()).unwrap();
    let s = j["summary"].as_array().expect("summary in the JSON");
    assert_eq!(s.len(), t.len());
    assert_eq!(s[0]["benchmark"], "PingPong");
    assert_eq!(s[0]["latency"]["key"], "t_us");
    // Allreduce's 0-byte call is not its latency.
    assert!(s[1]["latency"]["bytes"].as_u64().unwrap() > 0, "{}", s[1]);
    assert_eq!(s[2]["latency"]["bytes"], serde_json::Value::Null);
    assert_eq!(s[1]["bandwidth"], serde_json::Value::Null);
}

#[test]
fn progress_on_goes_to_stderr_only() {
    let d = scratch("progress");
    let plain = mpirun_in(&d, 2, RUN, 120);
    ok(&plain);
    let o = mpirun_in(&d, 2, &with(&["-progress", "on"]), 120);
    ok(&o);
    assert_eq!(shape(&o.stdout), shape(&plain.stdout));
    assert!(!o.stdout.contains("imb-mpi1:"), "{}", o.stdout);
    let lines: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("imb-mpi1: "))
        .collect();
    // One line per table start (Allreduce and Barrier only run on 2 processes), and the end.
    assert!(
        lines[0]
            .starts_with("imb-mpi1: benchmark 1 of 3, PingPong on 2 processes: starting; elapsed "),
        "{}",
        o.stderr
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("imb-mpi1: benchmark 3 of 3, Barrier on 2 processes:")));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("imb-mpi1: 3 tables of 3 benchmarks done in "),
        "{}",
        o.stderr
    );
}

#[test]
fn no_progress_unless_asked_when_stderr_is_not_a_terminal() {
    let d = scratch("progress-off");
    for extra in [&[][..], &["-progress", "auto"], &["-progress", "off"]] {
        let o = mpirun_in(&d, 2, &with(extra), 120);
        ok(&o);
        assert!(!o.stderr.contains("imb-mpi1: "), "{extra:?}: {}", o.stderr);
    }
}

#[test]
fn bad_progress_value_is_one_line_naming_the_option() {
    let d = scratch("progress-bad");
    let o = direct_in(&d, &["-progress", "sometimes"], 60);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    let ours: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("imb-mpi1: error: "))
        .collect();
    assert_eq!(ours.len(), 1, "{}", o.stderr);
    assert!(ours[0].contains("-progress"), "{}", ours[0]);
    assert!(o.stdout.is_empty());
}
