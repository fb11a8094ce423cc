//! IMB 2021's message-rate benchmarks, Uniband and Biband (doc/ReadMe_IMB.md, "Uniband and
//! Biband"). The NP processes form NP/2 pairs, rank i with rank i + NP/2. In one repetition
//! every pair moves a window of W = `-window_size` messages of X bytes, all in flight at once
//! (MPI_Isend/MPI_Irecv, then MPI_Waitall), and the receiving side then sends a 1-byte
//! acknowledgement, so no window starts before the previous one has arrived. Uniband sends
//! from the lower half to the upper; Biband both ways (W each way, Mbytes/sec counts both).
//! The row is IMB 2021's Msg/sec = scale_bw · W · NP/2 / t_max, and Mbytes/sec = Msg/sec · X /
//! 2^20, the megabyte of every imb-rs table (`MSG_RATE`, this family's kind, with the Msg/sec
//! column and the message count each rank reports). Run only when named.
//!
//! Under `-off_cache` message ws of a window (0-based) is sent from and received into copy
//! ws mod copies of its buffer, as IMB 2021 does: the index within the window, not the
//! repetition, so every repetition moves the same copies.

use crate::elems::{copied, Views};
use crate::types::Elems;
use imb_core::bench::{Class, Effort, Info, Procs, Shape};
use imb_core::buffers::Defect;
use imb_core::kernel::{Benchmark, Comm, Ctx, Kernel, Loop, Measure, Sample, Timed};
use imb_core::method::Rotation;
use imb_core::table::column::{self, Column};
use imb_core::table::{Record, Reduce, RowIn, TableKind};
use imb_mpi::comm::Mpi;
use imb_mpi::inflight::{Copies, Requests};
use std::os::raw::c_int;

const fn rate(name: &'static str, scale_bw: f64, effort: fn(&Shape) -> Effort) -> Info {
    Info {
        procs: Procs::Pairs,
        table: &MSG_RATE,
        scale_bw,
        on_request: true,
        effort,
        ..Info::mpi1(name, Class::ParallelTransfer)
    }
}

static UNIBAND: Info = rate("Uniband", 1.0, |s| window(s, 1));
static BIBAND: Info = rate("Biband", 2.0, |s| window(s, 2));

/// What a rate kernel reports besides its time: the messages one repetition moves in one
/// direction, W · NP/2.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Messages(pub f64);

impl Record for Messages {
    const WIDTH: usize = 1;
    fn to_wire(&self, w: &mut [f64]) {
        w[0] = self.0;
    }
    fn from_wire(w: &[f64]) -> Self {
        Messages(w[0])
    }
}

/// IMB 2021's message rate, printed as a whole number as IMB 2021 prints it.
pub const MSG_PER_SEC: Column = Column::new_whole("Msg/sec", "msg_per_s");

/// `#bytes #repetitions Mbytes/sec Msg/sec`: IMB 2021's ParallelTransferMsgRate. No times: the
/// rate is what these benchmarks measure.
pub const MSG_RATE: TableKind = TableKind {
    name: "msg-rate",
    columns: &[
        column::BYTES,
        column::REPETITIONS,
        column::MBYTES,
        MSG_PER_SEC,
    ],
    merged: None,
    reduce: &Reduce {
        values: msg_rate,
        notes: imb_core::table::no_notes,
    },
};

/// Msg/sec = scale_bw · W · NP/2 / t_max, t_max in usec, and Mbytes/sec = Msg/sec · X / MB:
/// the run's megabyte, as in every other table of the run (2^20 bytes, IMB 2021's 10^6 under
/// `-compat 2021`), so one run's tables, and imb-compare's conversions, use one unit; 0 when
/// t_max is not positive.
fn msg_rate(r: &RowIn<Messages>) -> Vec<f64> {
    let msgs = r
        .members
        .iter()
        .map(|&w| r.all[w].rec.0)
        .fold(0.0, f64::max);
    let t = r.stats.t_max.0;
    let rate = if t > 0.0 {
        r.scale_bw * (msgs * 1e6) / t
    } else {
        0.0
    };
    vec![rate * r.x as f64 / r.megabyte.0, rate]
}

/// One repetition on one process: `ways` × W messages of X bytes in flight together, and the
/// acknowledgement that waits for them. The time grows with W (with Open MPI's shared memory,
/// faster than W: doc/ReadMe_IMB.md, "Uniband and Biband"), so `-window_size` is what lowers it.
fn window(s: &Shape, ways: usize) -> Effort {
    let msgs = ways * crate::options::window_size(s.params);
    Effort {
        msgs: msgs as f64,
        bytes: (msgs * s.x) as f64,
        lever: Some("-window_size"),
        ..Effort::call(0)
    }
}

/// One rank's side of a pair.
pub struct Pair<'a> {
    m: Mpi<'a>,
    /// In the lower half (sends in Uniband, receives the acknowledgement).
    first: bool,
    peer: usize,
    /// The messages of this size (`-data_type`, `-contig_type`); the acknowledgement is one
    /// MPI_BYTE whatever they are.
    e: Elems,
    /// The buffers, every `-off_cache` copy of them.
    v: Views<'a>,
    /// W: messages per window and direction.
    w: usize,
    reqs: Requests,
    ack: [u8; 1],
    /// W · NP/2: the messages one repetition moves (one direction).
    msgs: f64,
}

impl<'a> Pair<'a> {
    fn new(c: Ctx<'a>, per_window: usize) -> Self {
        let half = c.size / 2;
        let w = crate::options::window_size(c.params);
        let e = Elems::of(&c, false);
        let (first, peer) = (
            c.rank < half,
            if c.rank < half {
                c.rank + half
            } else {
                c.rank - half
            },
        );
        let m = Mpi::new(c.comm);
        let v = Views::new(c.send, c.recv, &e.lay, (1, 1), c.rot);
        Pair {
            m,
            first,
            peer,
            e,
            v,
            w,
            reqs: Requests::new(per_window * w),
            ack: [0],
            msgs: (w * half) as f64,
        }
    }

    /// Every receive copy a window writes (ws mod copies for ws < W) holds the peer's message.
    fn check_window(&self) -> Defect {
        let written = self.w.min(self.v.rot().recv.copies);
        (0..written).fold(Defect::NONE, |d, ws| {
            d.max(copied(self.v.got(ws), &self.e.lay, self.peer, 0))
        })
    }
}

/// Where a window's messages lie among `-off_cache`'s copies of a buffer.
#[inline(always)]
fn copies(rot: Rotation) -> Copies {
    Copies {
        stride: rot.stride,
        copies: rot.copies,
    }
}

pub struct UnibandK<'a>(Pair<'a>);
impl Kernel for UnibandK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        let rot = p.v.rot();
        let (s, r) = p.v.all();
        if p.first {
            let s = (s, copies(rot.send));
            p.m.window_send(s, p.e.msg, p.peer as c_int, &mut p.reqs, &mut p.ack);
        } else {
            let r = (r, copies(rot.recv));
            p.m.window_recv(r, p.e.msg, p.peer as c_int, &mut p.reqs, &p.ack);
        }
    }
    fn check(&mut self, _i: usize) -> Defect {
        let p = &self.0;
        if p.first {
            Defect::NONE
        } else {
            p.check_window()
        }
    }
}

pub struct BibandK<'a>(Pair<'a>);
impl Kernel for BibandK<'_> {
    #[inline(always)]
    fn step(&mut self, _i: usize) {
        let p = &mut self.0;
        let rot = p.v.rot();
        let (s, r) = p.v.all();
        p.m.window_both(
            (s, copies(rot.send)),
            (r, copies(rot.recv)),
            p.e.msg,
            p.peer as c_int,
            &mut p.reqs,
            &mut p.ack,
            p.first,
        );
    }
    fn check(&mut self, _i: usize) -> Defect {
        self.0.check_window()
    }
}

/// A kernel's timed loop (the engine's, through `kernel::bracket`) with the pair's message
/// count as its record, which `MSG_RATE` turns into the rates.
pub struct Rated<K> {
    k: K,
    msgs: f64,
}

impl<'a> Rated<UnibandK<'a>> {
    /// Uniband's kernel as the overhead example drives it.
    pub fn uniband(c: Ctx<'a>) -> Self {
        let p = Pair::new(c, 1);
        Rated {
            msgs: p.msgs,
            k: UnibandK(p),
        }
    }
}

impl<K: Kernel> Measure for Rated<K> {
    type Rec = Messages;
    fn measure(&mut self, comm: &Comm, lp: Loop, n: usize, check: bool) -> Sample<Messages> {
        let s = self.k.measure(comm, lp, n, check);
        Sample {
            secs: s.secs,
            defect: s.defect,
            excluded: s.excluded,
            rec: Messages(self.msgs),
        }
    }
}

pub struct Uniband;
impl Benchmark for Uniband {
    fn info(&self) -> &'static Info {
        &UNIBAND
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        Box::new(Rated::uniband(c))
    }
}

pub struct Biband;
impl Benchmark for Biband {
    fn info(&self) -> &'static Info {
        &BIBAND
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let p = Pair::new(c, 2);
        Box::new(Rated {
            msgs: p.msgs,
            k: BibandK(p),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::buffers::buf_value;
    use imb_core::method::{Rotation, Rotations};
    use imb_core::stats::{self, RankResult, Usec};
    use imb_core::table::Wire;

    #[test]
    fn message_rate_as_imb_2021() {
        // Two ranks, window 256 on one pair: 256 messages in 4 usec.
        let all = [0, 1].map(|k| RankResult {
            t: Usec(2.0 + 2.0 * k as f64),
            rec: Wire::encode(&Messages(256.0)),
            ..RankResult::default()
        });
        let st = stats::over(&all, &[0, 1]);
        let r = RowIn {
            all: &all,
            members: &[0, 1],
            stats: &st,
            x: 1000,
            scale_bw: 2.0,
            np: 2,
            megabyte: imb_core::table::Megabyte::IMB30,
        };
        let v = MSG_RATE.values(&r);
        assert_eq!(v[1], 2.0 * 256.0 / 4.0 * 1e6);
        assert_eq!(v[0], v[1] * 1000.0 / 1_048_576.0);
        assert_eq!(v.len() + 2, MSG_RATE.columns.len());
        assert!(MSG_RATE
            .columns
            .iter()
            .all(|c| c.whole == (c == &MSG_PER_SEC)));
    }

    /// A receiving side of W = `w` with the views `v`, rank 0 its peer.
    fn receiver(w: usize, v: Views<'_>) -> Pair<'_> {
        Pair {
            m: Mpi::unconnected(),
            first: false,
            peer: 0,
            e: Elems::imb(false, 8),
            v,
            w,
            reqs: Requests::new(w),
            ack: [0],
            msgs: 0.0,
        }
    }

    /// A window writes receive copies ws mod copies for ws < W: with W = 2 of 3 copies the
    /// first two must hold the peer's message and the third is never looked at; with W = 5
    /// every copy must.
    #[test]
    fn a_window_checks_every_copy_it_wrote() {
        let copies = |c: usize| Rotation {
            len: 8,
            stride: 64,
            copies: c,
        };
        let rot = Rotations {
            send: copies(3),
            recv: copies(3),
        };
        let msg: Vec<u8> = (0..2).flat_map(|k| buf_value(0, k).to_ne_bytes()).collect();
        let s = [0u8; 136];
        let mut r = [0u8; 136];
        r[..8].copy_from_slice(&msg);
        r[64..72].copy_from_slice(&msg);
        assert_eq!(
            receiver(2, Views::bare(&s, &mut r, rot)).check_window(),
            Defect::NONE
        );
        assert_eq!(
            receiver(5, Views::bare(&s, &mut r, rot)).check_window().pos,
            Some(0)
        );
        r[64..68].fill(0);
        assert_eq!(
            receiver(2, Views::bare(&s, &mut r, rot)).check_window().pos,
            Some(0)
        );
        // Without -off_cache every message of the window lands in the same bytes.
        r[64..72].copy_from_slice(&msg);
        let one = Rotations::NONE;
        assert_eq!(
            receiver(64, Views::bare(&s, &mut r[..8], one)).check_window(),
            Defect::NONE
        );
    }
}
