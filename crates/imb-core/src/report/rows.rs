//! `-progress` of the suites without MPI (imb-threads, imb-omp; doc/THREADS.md, doc/OMP.md):
//! the same lines as the MPI executables' (`progress`), counted in rows instead of message
//! sizes. The executable knows every table's rows before it runs and gives each row a weight
//! (its least run time, or 1 when all rows cost alike); the estimate scales the elapsed time by
//! the weight still to do over the weight done. A line is written when a table starts, after a
//! row when the interval has passed since the last line, and at the end.

use super::progress::{done_line, emit, line, Pace};
use std::io::Write;
use std::time::Duration;

/// The table in progress.
struct Current {
    bench: usize,
    what: String,
    weights: Vec<f64>,
    done: usize,
}

/// Progress lines of a run of tables of rows (stderr in a run, a Vec in tests).
pub struct RowProgress<W: Write> {
    out: W,
    exe: String,
    benchmarks: usize,
    pace: Pace,
    tables: usize,
    current: Option<Current>,
}

impl<W: Write> RowProgress<W> {
    /// A run of `benchmarks` benchmarks whose rows weigh `total_w` in all; between rows at
    /// most one line per `interval`.
    pub fn new(out: W, exe: &str, benchmarks: usize, total_w: f64, interval: Duration) -> Self {
        RowProgress {
            out,
            exe: exe.to_string(),
            benchmarks,
            pace: Pace::new(total_w, interval),
            tables: 0,
            current: None,
        }
    }
    pub fn into_inner(self) -> W {
        self.out
    }

    /// A table starts: benchmark `bench` (from 1) of the run, `what` (its name, and its
    /// thread count if the benchmark has a table per count), its rows' weights. Rows the
    /// table before did not measure (cut short, or a note instead) count as done.
    pub fn table(&mut self, bench: usize, what: &str, weights: Vec<f64>) {
        self.close();
        self.tables += 1;
        self.current = Some(Current {
            bench,
            what: what.to_string(),
            weights,
            done: 0,
        });
        self.show();
    }

    /// `done` rows of the table in progress are measured (asked before each row, between
    /// timings: never inside one).
    pub fn rows_done(&mut self, done: usize) {
        let Some(c) = self.current.as_mut() else {
            return;
        };
        let done = done.min(c.weights.len());
        if done <= c.done {
            return;
        }
        self.pace.add(c.weights[c.done..done].iter().sum());
        c.done = done;
        if self.pace.due() {
            self.show();
        }
    }

    /// The last line.
    pub fn finish(&mut self) {
        self.close();
        let line = done_line(&self.exe, self.tables, self.benchmarks, self.pace.elapsed());
        emit(&mut self.out, &line);
    }

    fn close(&mut self) {
        if let Some(c) = self.current.take() {
            self.pace.add(c.weights[c.done..].iter().sum());
        }
    }

    fn show(&mut self) {
        let Some(c) = &self.current else {
            return;
        };
        let (elapsed, left) = self.pace.mark();
        let at = match c.done {
            0 => "starting".to_string(),
            k => format!("row {k} of {} done", c.weights.len()),
        };
        let l = line(
            &self.exe,
            (c.bench, self.benchmarks),
            &c.what,
            &at,
            elapsed,
            left,
        );
        emit(&mut self.out, &l);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(p: RowProgress<Vec<u8>>) -> String {
        String::from_utf8(p.into_inner()).unwrap()
    }

    #[test]
    fn rows_count_within_a_table_and_the_rest_counts_at_its_end() {
        let mut p = RowProgress::new(Vec::new(), "imb-threads", 2, 4.0, Duration::ZERO);
        p.table(1, "Yield", vec![1.0, 1.0, 1.0]);
        p.rows_done(0);
        p.rows_done(1);
        p.rows_done(1);
        // More rows than planned count as the last planned one.
        p.rows_done(7);
        // The second table starts with all of the first done (3 of 4): an estimate.
        p.table(2, "Barrier", vec![1.0]);
        p.finish();
        let t = text(p);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 5, "{t}");
        assert!(
            lines[0].starts_with("imb-threads: benchmark 1 of 2, Yield: starting; elapsed 0:00")
        );
        assert!(
            lines[1].starts_with("imb-threads: benchmark 1 of 2, Yield: row 1 of 3 done; elapsed ")
                && lines[1].ends_with(" left"),
            "{}",
            lines[1]
        );
        assert!(lines[2].contains("Yield: row 3 of 3 done;"), "{}", lines[2]);
        assert!(lines[3].starts_with("imb-threads: benchmark 2 of 2, Barrier: starting;"));
        assert!(lines[3].contains(", about "), "{}", lines[3]);
        assert!(lines[4].starts_with("imb-threads: 2 tables of 2 benchmarks done in "));
    }

    #[test]
    fn within_the_interval_only_table_starts_and_the_end() {
        let mut p = RowProgress::new(Vec::new(), "imb-omp", 1, 2.0, Duration::from_secs(3600));
        p.table(1, "sync on 2 threads", vec![1.0; 2]);
        p.rows_done(1);
        p.rows_done(2);
        p.finish();
        let t = text(p);
        assert_eq!(t.lines().count(), 2, "{t}");
        assert!(t.starts_with("imb-omp: benchmark 1 of 1, sync on 2 threads: starting;"));
        assert!(t.ends_with("\nimb-omp: 1 tables of 1 benchmarks done in 0:00\n"));
    }

    #[test]
    fn rows_before_any_table_are_ignored() {
        let mut p = RowProgress::new(Vec::new(), "x", 1, 1.0, Duration::ZERO);
        p.rows_done(3);
        assert_eq!(text(p), "");
    }
}
