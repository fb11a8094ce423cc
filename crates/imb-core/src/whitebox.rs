//! White-box timing (doc/METHODOLOGY.md, "White-box benchmarking (Jacobi2D)"): named section timers
//! with an activity class each (communication, data movement, computation), and the decomposition
//! of an application kernel's time from its three incremental variants: what such a kernel
//! reports (`Times`), the table's columns and its values and notes, which a benchmark's white-box
//! kind (imb-mpi1's Jacobi2D) assembles with the names of its own sections.
//!
//! The paper switches timers on with conditional compilation; here a kernel is generic over
//! `Timer`, so the variant timed with `Off` has the calls compiled out (zero-sized marks,
//! empty inline bodies) and the instrumented variant is a separate monomorphisation.

pub use crate::note::SectionsRow;
use crate::note::{Note, SectionClass};
use crate::stats::{self, RankResult, Usec};
use crate::table::column::{self, Column};
use crate::table::{Record, RowIn, TableIn};

pub use crate::vocab::{Activity, Section};

/// What a white-box kernel reports on each rank (its `table::Record`), in seconds per
/// repetition.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Times {
    /// The communication skeleton alone.
    pub skeleton: f64,
    /// Skeleton plus the data movements of communication (pack, unpack).
    pub movement: f64,
    /// The whole code.
    pub full: f64,
    /// Section timers of the instrumented whole code, summed per class (`Activity::ALL`
    /// order).
    pub sections: [f64; 3],
    /// The communication time that Exchange and PingPong at the same size predict.
    pub pred_exchange: f64,
    pub pred_pingpong: f64,
}

impl Record for Times {
    const WIDTH: usize = 8;
    fn to_wire(&self, w: &mut [f64]) {
        let [comm, moved, comp] = self.sections;
        w.copy_from_slice(&[
            self.skeleton,
            self.movement,
            self.full,
            comm,
            moved,
            comp,
            self.pred_exchange,
            self.pred_pingpong,
        ]);
    }
    fn from_wire(w: &[f64]) -> Self {
        Times {
            skeleton: w[0],
            movement: w[1],
            full: w[2],
            sections: [w[3], w[4], w[5]],
            pred_exchange: w[6],
            pred_pingpong: w[7],
        }
    }
}

/// The white-box table's columns: the decomposition, the full kernel, then what Exchange and
/// PingPong at the same size predict for the communication.
pub const COLUMNS: &[Column] = &[
    column::BYTES,
    column::REPETITIONS,
    Column::new("comm[usec]", "comm_us"),
    Column::new("move[usec]", "move_us"),
    Column::new("comp[usec]", "comp_us"),
    Column::new("total[usec]", "total_us"),
    Column::new("pred_Exch", "pred_exchange_us"),
    Column::new("pred_PPong", "pred_pingpong_us"),
];

/// A white-box kind's values (`table::Reduce::values`).
pub fn values(r: &RowIn<Times>) -> Vec<f64> {
    row_values(r.all, r.members)
}

/// A white-box kind's notes: the section timers of every size, over every member, named by
/// the benchmark's `sections`.
pub fn table_notes(sections: &[Section], t: &TableIn<Times>) -> Vec<Note> {
    let members: Vec<usize> = t.layout.groups.iter().flatten().copied().collect();
    let rows: Vec<SectionsRow> = t
        .sizes
        .iter()
        .map(|s| sections_row(s.x, &s.all, &members))
        .collect();
    sections_note(sections, &rows).into_iter().collect()
}

/// A white-box row from the gathered records, each a mean over `members` in usec:
/// communication (the skeleton), data movement (the movement kernel minus the skeleton),
/// computation (the full kernel minus the movement kernel), the full kernel, and the two
/// predictions. The first three add up to the fourth by construction.
pub fn row_values(all: &[RankResult<Times>], members: &[usize]) -> Vec<f64> {
    let avg = |of: fn(&Times) -> f64| stats::figure(all, members, |t| usec(of(t))).2;
    let (skel, moved, full) = (avg(|t| t.skeleton), avg(|t| t.movement), avg(|t| t.full));
    vec![
        skel,
        moved - skel,
        full - moved,
        full,
        avg(|t| t.pred_exchange),
        avg(|t| t.pred_pingpong),
    ]
}

fn usec(secs: f64) -> f64 {
    Usec::from_secs(secs).0
}

/// One size's section timers: min/max/avg over `members` per activity class, in usec.
pub fn sections_row(x: usize, all: &[RankResult<Times>], members: &[usize]) -> SectionsRow {
    SectionsRow {
        bytes: x,
        classes: Activity::ALL
            .map(|a| stats::figure(all, members, |t| usec(t.sections[a as usize]))),
    }
}

/// Section timing as a kernel sees it: `start` before a section, `stop` after it.
pub trait Timer {
    type Mark: Copy;
    fn start(&mut self) -> Self::Mark;
    /// Add the time since `m` to section `s` (an index into the benchmark's sections).
    fn stop(&mut self, s: usize, m: Self::Mark);
}

/// Timers off: nothing is read or stored.
#[derive(Debug, Clone, Copy, Default)]
pub struct Off;

impl Timer for Off {
    type Mark = ();
    #[inline(always)]
    fn start(&mut self) {}
    #[inline(always)]
    fn stop(&mut self, _s: usize, _m: ()) {}
}

/// Timers on: one accumulator per section, read with `clock` (MPI_Wtime in the MPI suites).
#[derive(Debug, Clone)]
pub struct On {
    sections: &'static [Section],
    clock: fn() -> f64,
    acc: Vec<f64>,
}

impl On {
    /// Accumulators are allocated here, before any timing.
    pub fn new(sections: &'static [Section], clock: fn() -> f64) -> Self {
        On {
            sections,
            clock,
            acc: vec![0.0; sections.len()],
        }
    }
    pub fn reset(&mut self) {
        self.acc.iter_mut().for_each(|a| *a = 0.0);
    }
    /// Seconds per section.
    pub fn seconds(&self) -> &[f64] {
        &self.acc
    }
    /// Seconds per activity class, in `Activity::ALL` order.
    pub fn by_class(&self) -> [f64; 3] {
        let mut c = [0.0; 3];
        for (s, t) in self.sections.iter().zip(&self.acc) {
            c[s.class as usize] += t;
        }
        c
    }
}

impl Timer for On {
    type Mark = f64;
    #[inline(always)]
    fn start(&mut self) -> f64 {
        (self.clock)()
    }
    #[inline(always)]
    fn stop(&mut self, s: usize, m: f64) {
        self.acc[s] += (self.clock)() - m;
    }
}

/// The note after a white-box table (None without rows): the section timers of the
/// instrumented full kernel, named per class, and min/max/avg over the ranks per class and size.
pub fn sections_note(sections: &[Section], rows: &[SectionsRow]) -> Option<Note> {
    if rows.is_empty() {
        return None;
    }
    let classes = Activity::ALL
        .iter()
        .filter_map(|&a| {
            let names: Vec<String> = sections
                .iter()
                .filter(|s| s.class == a)
                .map(|s| s.name.to_string())
                .collect();
            (!names.is_empty()).then(|| SectionClass {
                class: a.label().to_string(),
                sections: names,
            })
        })
        .collect();
    Some(Note::Sections {
        classes,
        rows: rows.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    static SECTIONS: [Section; 3] = [
        Section {
            name: "pack",
            class: Activity::DataMovement,
        },
        Section {
            name: "halo",
            class: Activity::Communication,
        },
        Section {
            name: "unpack",
            class: Activity::DataMovement,
        },
    ];

    #[test]
    fn sections_add_up_per_class() {
        thread_local!(static NOW: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) });
        fn tick() -> f64 {
            NOW.with(|n| {
                n.set(n.get() + 1.0);
                n.get()
            })
        }
        let mut t = On::new(&SECTIONS, tick);
        for s in 0..3 {
            let m = t.start();
            t.stop(s, m);
        }
        assert_eq!(t.seconds(), &[1.0, 1.0, 1.0]);
        assert_eq!(t.by_class(), [1.0, 2.0, 0.0]);
        t.reset();
        assert_eq!(t.by_class(), [0.0; 3]);
    }

    #[test]
    fn decomposition_adds_up_by_construction() {
        let us = |v: f64| v * 1e-6;
        let near = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        let mut all = [RankResult::<Times>::default(); 2];
        for (r, (skel, moved, full)) in all.iter_mut().zip([(3.0, 4.5, 9.0), (5.0, 5.0, 12.0)]) {
            r.rec = Times {
                skeleton: us(skel),
                movement: us(moved),
                full: us(full),
                sections: [us(skel), 0.0, 0.0],
                ..Times::default()
            };
        }
        let v = row_values(&all, &[0, 1]);
        assert!(near(&v[..4], &[4.0, 0.75, 5.75, 10.5]), "{v:?}");
        assert!(near(&[v[0] + v[1] + v[2]], &[v[3]]));
        let s = sections_row(64, &all, &[0, 1]);
        let (lo, hi, avg) = s.classes[0];
        assert!(near(&[lo, hi, avg], &[3.0, 5.0, 4.0]), "{s:?}");
        let back = Times::from_wire(&{
            let mut w = [0.0; Times::WIDTH];
            all[1].rec.to_wire(&mut w);
            w
        });
        assert_eq!(back, all[1].rec);
    }

    #[test]
    fn off_is_zero_sized() {
        assert_eq!(std::mem::size_of::<Off>(), 0);
        assert_eq!(std::mem::size_of::<<Off as Timer>::Mark>(), 0);
    }

    #[test]
    fn notes_are_a_grid_of_min_max_avg() {
        let rows = [SectionsRow {
            bytes: 1024,
            classes: [(1.0, 2.0, 1.5), (0.25, 0.5, 0.375), (10.0, 12.0, 11.0)],
        }];
        let n = sections_note(&SECTIONS, &rows).unwrap().lines();
        assert_eq!(n.len(), 4);
        assert_eq!(
            n[1],
            "sections: communication (halo); data movement (pack, unpack)"
        );
        let n = &n[1..];
        let cells: Vec<&str> = n[2].split_whitespace().collect();
        assert_eq!(
            cells,
            [
                "1024",
                "1.00/2.00/1.50",
                "0.25/0.50/0.38",
                "10.00/12.00/11.00"
            ]
        );
        assert_eq!(n[1].split_whitespace().next(), Some("#bytes"));
        assert!(sections_note(&SECTIONS, &[]).is_none());
    }
}
