//! `-progress`: where a long run is, on stderr, never on stdout (doc/OUTPUT.md, "Progress").
//! The driver hands the sink the run's `plan::Work`, read off the plan before anything runs: every
//! table in run order with the weight of each measured size. A line is written when a table
//! starts, after a size when `interval` has passed since the last line, and at the end. The
//! estimate of the time left scales the elapsed time by the weight still to do over the
//! weight done. Lines are whole lines (no cursor control), so they read the same on a
//! terminal, in a log file and through a launcher's pipe.

use super::{Banner, Sink, Verdict};
use crate::plan::{TableWork, Work};
use crate::vocab::mode_name;
use std::io::Write;
use std::time::{Duration, Instant};

/// Where the run is: a table and how many of its sizes are done (the last one's bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Position<'a> {
    pub table: &'a TableWork,
    pub benchmarks: usize,
    pub done: usize,
    pub bytes: Option<usize>,
}

/// "0:07", "12:05", "1:02:03".
pub fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The time left: the elapsed time scaled by the weight to do over the weight done (None
/// before any weight is done).
pub fn estimate(elapsed: f64, done_w: f64, total_w: f64) -> Option<f64> {
    (done_w > 0.0).then(|| elapsed * (total_w - done_w).max(0.0) / done_w)
}

/// One progress line of an MPI table (pure).
pub fn progress_line(exe: &str, p: &Position, elapsed: f64, left: Option<f64>) -> String {
    let t = p.table;
    let procs = if t.groups > 1 {
        format!("{} groups of {} processes", t.groups, t.np)
    } else if t.np == 1 {
        "1 process".to_string()
    } else {
        format!("{} processes", t.np)
    };
    let mode = mode_name(t.mode)
        .map(|m| format!(", {m}"))
        .unwrap_or_default();
    let at = match (p.done, p.bytes) {
        (0, _) => "starting".to_string(),
        (k, Some(x)) => format!("size {k} of {} done ({x} bytes)", t.sizes.len()),
        (k, None) => format!("size {k} of {} done", t.sizes.len()),
    };
    line(
        exe,
        (t.bench, p.benchmarks),
        &format!("{} on {procs}{mode}", t.name),
        &at,
        elapsed,
        left,
    )
}

/// The shape every executable's progress line shares: `EXE: benchmark K of N, WHAT: AT;
/// elapsed E[, about L left]` (pure).
pub fn line(
    exe: &str,
    (bench, benchmarks): (usize, usize),
    what: &str,
    at: &str,
    elapsed: f64,
    left: Option<f64>,
) -> String {
    let left = left
        .map(|s| format!(", about {} left", clock(s)))
        .unwrap_or_default();
    format!(
        "{exe}: benchmark {bench} of {benchmarks}, {what}: {at}; elapsed {}{left}\n",
        clock(elapsed)
    )
}

/// The last line: `EXE: T tables of N benchmarks done in E` (pure).
pub fn done_line(exe: &str, tables: usize, benchmarks: usize, elapsed: f64) -> String {
    format!(
        "{exe}: {tables} tables of {benchmarks} benchmarks done in {}\n",
        clock(elapsed)
    )
}

/// A size expected to take longer than this says so on stderr before it runs, with or without
/// `-progress` or `-force` (doc/ReadMe_IMB.md, "Robustness").
pub const LONG_SIZE_SECS: f64 = 60.0;

/// The line of a size expected to run past `LONG_SIZE_SECS`, None for a shorter one (pure):
/// `EXE: NAME on P processes, X bytes: a long size (N repetitions): at least L on any machine,
/// about E from the repetitions timed so far; the run goes on`. `least` is the size's least
/// time on any machine (`plan::size_least`); `expected` what the run's timed repetitions make
/// of it (None before any), and whether it is an upper bound (a single repetition timed with
/// its loop's fixed costs, a file sync say, which n repetitions share) or an estimate (the
/// loops of the size before). Either above the limit makes the size long.
pub fn long_size_line(
    exe: &str,
    (name, np, bytes): (&str, usize, Option<usize>),
    n: usize,
    least: f64,
    expected: Option<(f64, bool)>,
) -> Option<String> {
    if least.max(expected.map_or(0.0, |e| e.0)) <= LONG_SIZE_SECS {
        return None;
    }
    let procs = if np == 1 { "process" } else { "processes" };
    let size = bytes.map(|x| format!(", {x} bytes")).unwrap_or_default();
    let about = match expected {
        Some((e, true)) => format!(
            ", at most about {} from one repetition timed with its loop's fixed costs",
            clock(e)
        ),
        Some((e, false)) => format!(", about {} from the repetitions timed so far", clock(e)),
        None => String::new(),
    };
    Some(format!(
        "{exe}: {name} on {np} {procs}{size}: a long size ({n} repetitions): at least {} on any \
         machine{about}; the run goes on\n",
        clock(least)
    ))
}

/// Between two progress lines inside a table, at least this long.
pub const INTERVAL: Duration = Duration::from_secs(5);

/// The clock of a progress sink: the time since the start, the weight done out of the
/// total, and whether the interval since the last line has passed.
#[derive(Debug, Clone)]
pub struct Pace {
    start: Instant,
    last: Instant,
    interval: Duration,
    total_w: f64,
    done_w: f64,
}

impl Pace {
    pub fn new(total_w: f64, interval: Duration) -> Self {
        let now = Instant::now();
        Pace {
            start: now,
            last: now,
            interval,
            total_w,
            done_w: 0.0,
        }
    }
    /// Weight `w` more is done.
    pub fn add(&mut self, w: f64) {
        self.done_w += w;
    }
    /// The interval since the last line has passed.
    pub fn due(&self) -> bool {
        self.last.elapsed() >= self.interval
    }
    /// For a line written now: the time elapsed and the estimate of the time left; the
    /// interval restarts.
    pub fn mark(&mut self) -> (f64, Option<f64>) {
        self.last = Instant::now();
        let elapsed = (self.last - self.start).as_secs_f64();
        (elapsed, estimate(elapsed, self.done_w, self.total_w))
    }
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// Write a line; progress is a courtesy: a closed or full stderr must not end the run.
pub fn emit(out: &mut impl Write, line: &str) {
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}

/// The progress sink (rank 0; stderr in a run, a Vec in tests).
pub struct Progress<W: Write> {
    out: W,
    exe: String,
    work: Work,
    pace: Pace,
    /// The table in progress (index into `work.tables`).
    table: Option<usize>,
    done: usize,
}

impl<W: Write> Progress<W> {
    /// A sink for the run `work` of executable `exe`; between sizes it writes at most one line
    /// per `interval`.
    pub fn new(out: W, exe: &str, work: Work, interval: Duration) -> Self {
        Progress {
            out,
            exe: exe.to_string(),
            pace: Pace::new(work.total(), interval),
            work,
            table: None,
            done: 0,
        }
    }
    pub fn into_inner(self) -> W {
        self.out
    }

    fn show(&mut self, bytes: Option<usize>) {
        let Some(table) = self.table.and_then(|i| self.work.tables.get(i)) else {
            return;
        };
        let (elapsed, left) = self.pace.mark();
        let p = Position {
            table,
            benchmarks: self.work.benchmarks,
            done: self.done,
            bytes,
        };
        emit(&mut self.out, &progress_line(&self.exe, &p, elapsed, left));
    }
}

impl<W: Write> Sink for Progress<W> {
    fn banner(&mut self, _b: &Banner) {
        self.table = Some(self.table.map_or(0, |i| i + 1));
        self.done = 0;
        self.show(None);
    }
    fn measured(&mut self, bytes: Option<usize>) {
        let Some(t) = self.table.and_then(|i| self.work.tables.get(i)) else {
            return;
        };
        self.pace
            .add(t.sizes.get(self.done).map_or(0.0, |(_, w)| *w));
        self.done += 1;
        if self.pace.due() {
            self.show(bytes);
        }
    }
    fn finish(&mut self, _verdicts: Option<&[Verdict]>) {
        let line = done_line(
            &self.exe,
            self.table.map_or(0, |i| i + 1),
            self.work.benchmarks,
            self.pace.elapsed(),
        );
        emit(&mut self.out, &line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Mode;

    /// A size says it is long when its least time or the run's own estimate passes a minute,
    /// naming the benchmark, the size, the repetitions and the range.
    #[test]
    fn a_long_size_says_so_in_one_line() {
        let what = ("PingPong", 2, Some(0));
        assert_eq!(
            long_size_line("imb-mpi1", what, 1000, 0.5, Some((59.0, true))),
            None
        );
        assert_eq!(long_size_line("imb-mpi1", what, 1000, 60.0, None), None);
        assert_eq!(
            long_size_line("imb-mpi1", what, 2147483647, 214.7, None).unwrap(),
            "imb-mpi1: PingPong on 2 processes, 0 bytes: a long size (2147483647 repetitions): \
             at least 3:35 on any machine; the run goes on\n"
        );
        let barrier = ("Barrier", 1, None);
        let l = long_size_line("imb-io", barrier, 10, 1.0, Some((4000.0, false))).unwrap();
        assert_eq!(
            l,
            "imb-io: Barrier on 1 process: a long size (10 repetitions): at least 0:01 on any \
             machine, about 1:06:40 from the repetitions timed so far; the run goes on\n"
        );
        assert!(
            long_size_line("imb-io", barrier, 10, 1.0, Some((61.0, true)))
                .unwrap()
                .contains(
                    "at least 0:01 on any machine, at most about 1:01 from one repetition timed \
                 with its loop's fixed costs; the run goes on"
                )
        );
        assert_eq!(l.matches('\n').count(), 1);
    }

    fn work() -> Work {
        let t = |bench, name: &str, np, mode, sizes: Vec<(Option<usize>, f64)>| TableWork {
            bench,
            name: name.into(),
            np,
            groups: 1,
            mode,
            sizes,
        };
        Work {
            benchmarks: 2,
            tables: vec![
                t(
                    1,
                    "PingPong",
                    2,
                    Mode::Plain,
                    vec![(Some(0), 1.0), (Some(1), 1.0)],
                ),
                t(2, "Unidir_Put", 2, Mode::Aggregate, vec![(Some(8), 2.0)]),
            ],
        }
    }

    #[test]
    fn clock_and_estimate() {
        assert_eq!(clock(7.4), "0:07");
        assert_eq!(clock(725.0), "12:05");
        assert_eq!(clock(3723.0), "1:02:03");
        assert_eq!(clock(-1.0), "0:00");
        assert_eq!(estimate(10.0, 0.0, 4.0), None);
        assert_eq!(estimate(10.0, 1.0, 4.0), Some(30.0));
        assert_eq!(estimate(10.0, 4.0, 4.0), Some(0.0));
    }

    #[test]
    fn lines() {
        let w = work();
        let p = |table, done, bytes| Position {
            table,
            benchmarks: 2,
            done,
            bytes,
        };
        assert_eq!(
            progress_line("imb-ext", &p(&w.tables[0], 0, None), 0.2, None),
            "imb-ext: benchmark 1 of 2, PingPong on 2 processes: starting; elapsed 0:00\n"
        );
        assert_eq!(
            progress_line("imb-ext", &p(&w.tables[1], 1, Some(8)), 65.0, Some(190.0)),
            "imb-ext: benchmark 2 of 2, Unidir_Put on 2 processes, AGGREGATE: size 1 of 1 \
             done (8 bytes); elapsed 1:05, about 3:10 left\n"
        );
        let mut multi = w.tables[0].clone();
        multi.groups = 3;
        let barrier = TableWork {
            np: 1,
            sizes: vec![(None, 1.0)],
            ..w.tables[0].clone()
        };
        assert!(progress_line("x", &p(&multi, 0, None), 0.0, None)
            .contains("on 3 groups of 2 processes:"));
        assert!(progress_line("x", &p(&barrier, 1, None), 0.0, None)
            .contains("on 1 process: size 1 of 1 done; elapsed"));
    }

    #[test]
    fn sink_writes_table_starts_and_end_only_within_interval() {
        let l = crate::plan::layout(2, 2, None, false);
        let banner = Banner {
            name: "PingPong",
            suffix: "",
            process: None,
            layout: &l,
            mode: Mode::Plain,
            cols: super::super::Columns {
                kind: crate::table::SINGLE.columns,
                group: false,
                defects: false,
            },
        };
        let mut s = Progress::new(Vec::new(), "imb-mpi1", work(), Duration::from_secs(3600));
        s.banner(&banner);
        s.measured(Some(0));
        s.measured(Some(1));
        s.banner(&banner);
        s.measured(Some(8));
        s.finish(None);
        let text = String::from_utf8(s.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("imb-mpi1: benchmark 1 of 2, PingPong"));
        // The second table starts with half the weight done: an estimate is shown.
        assert!(lines[1].starts_with("imb-mpi1: benchmark 2 of 2, Unidir_Put"));
        assert!(lines[1].contains(" left"), "{}", lines[1]);
        assert!(lines[2].starts_with("imb-mpi1: 2 tables of 2 benchmarks done in "));

        // With no interval every size gets a line.
        let mut s = Progress::new(Vec::new(), "imb-mpi1", work(), Duration::ZERO);
        s.banner(&banner);
        s.measured(Some(0));
        let text = String::from_utf8(s.into_inner()).unwrap();
        assert!(text
            .lines()
            .nth(1)
            .unwrap()
            .contains("size 1 of 2 done (0 bytes)"));
    }
}
