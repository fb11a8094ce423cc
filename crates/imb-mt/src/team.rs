//! A rank's threads at one size: the run-wide state they share (`Run`: their communicators,
//! datatype, CPUs), their barrier (`Rendezvous`), their buffers, and the kernel the engine
//! times (`MtKernel`), which starts the threads, binds each to its CPU, lets each run its
//! pattern and gathers what they measured into the rank's record.
//!
//! The rank's own thread is thread 0, as OpenMP's master thread is in IMB-MT; the others are
//! `std::thread`s started (and bound, and given their buffers) before any of them reads the
//! clock, and joined after the last has. Binding follows imb-threads' verified binding
//! (`imb_harness::binding`): each thread of a rank on a CPU of its own, the ranks of a node on
//! different CPUs when the node has enough; with fewer CPUs than threads the threads run
//! unbound and the table says so.

use crate::ffi::{Comm, Elem};
use crate::options::{Barrier, Datatype, Malloc, Mt};
use crate::patterns::{self, Out, Pattern, Thread};
use crate::table::Threads;
use imb_core::buffers::Defect;
use imb_core::kernel::{Comm as EngineComm, Loop, Measure, Sample};
use imb_harness::binding::{self, Placement};
use std::sync::Barrier as ThreadBarrier;

/// What every kernel of the run shares (built once, in `Hooks::run_state`).
pub struct Run {
    pub mt: Mt,
    /// Thread t's communicator: a duplicate of MPI_COMM_WORLD each under
    /// MPI_THREAD_MULTIPLE, MPI_COMM_WORLD itself otherwise (IMB-MT).
    pub comms: Vec<Comm>,
    pub elem: Elem,
    /// The CPUs the process may run on (the inherited mask).
    pub allowed: Vec<usize>,
    /// Where each thread runs.
    pub placements: Vec<Placement>,
    /// The threads run unbound: too few CPUs for them.
    pub unbound: bool,
}

/// CPUs for `threads` threads of node rank `node_rank` of `node_size`: a slice of the allowed
/// CPUs of its own when the node has enough for every rank's threads; the allowed CPUs one
/// each when the launcher gave the rank exactly its threads' count; else none (unbound).
pub fn place(
    threads: usize,
    node_rank: usize,
    node_size: usize,
    allowed: &[usize],
) -> Option<Vec<Placement>> {
    let need = threads.saturating_mul(node_size.max(1));
    let mine = if allowed.len() >= need {
        &allowed[node_rank * threads..(node_rank + 1) * threads]
    } else if allowed.len() == threads {
        allowed
    } else {
        return None;
    };
    Some(mine.iter().map(|&c| Placement::Cpu(c)).collect())
}

impl Run {
    /// Collective on MPI_COMM_WORLD: every rank builds its communicators in the same order.
    pub fn new(mt: Mt, multiple: bool) -> Run {
        let comms = if multiple {
            (0..mt.threads).map(Comm::world_dup_for).collect()
        } else {
            vec![Comm::world()]
        };
        let elem = match mt.datatype {
            Datatype::Int => Elem::int(),
            Datatype::Char => Elem::char(),
        };
        let allowed = binding::allowed_cpus().unwrap_or_default();
        let (node_rank, node_size) = Comm::node_rank_size();
        let (placements, unbound) = match place(mt.threads, node_rank, node_size, &allowed) {
            Some(p) => (p, false),
            None => (vec![Placement::Unbound; mt.threads], true),
        };
        Run {
            mt,
            comms,
            elem,
            allowed,
            placements,
            unbound,
        }
    }
}

/// IMB-MT's barrier of a rank's threads: the threads meet, thread 0 synchronises the ranks
/// (MPI_Barrier or the special barrier on MPI_COMM_WORLD), the threads meet again. One thread:
/// the ranks' barrier alone.
pub struct Rendezvous<'a> {
    threads: Option<&'a ThreadBarrier>,
    kind: Barrier,
    leader: bool,
    world: Comm,
}

impl Rendezvous<'_> {
    /// The threads of the rank meet.
    #[inline]
    pub fn threads(&self) {
        if let Some(b) = self.threads {
            b.wait();
        }
    }
    /// `-barrier`'s barrier.
    pub fn full(&self) {
        if self.kind == Barrier::Off {
            return;
        }
        self.threads();
        if self.leader {
            match self.kind {
                Barrier::Special => self.world.special_barrier(),
                _ => self.world.barrier(),
            }
        }
        self.threads();
    }
}

/// Zeroed bytes whose start is aligned to `align` (IMB-MT's aligned allocator).
struct Aligned {
    mem: Vec<u8>,
    at: usize,
    len: usize,
}

impl Aligned {
    fn new(len: usize, align: usize) -> Aligned {
        let align = align.max(1);
        let mem = vec![0u8; len + align];
        let at = (align - mem.as_ptr() as usize % align) % align;
        Aligned { mem, at, len }
    }
    fn bytes(&mut self) -> &mut [u8] {
        &mut self.mem[self.at..self.at + self.len]
    }
}

/// `n` disjoint parts of `len` bytes of `b` (empty parts for 0).
fn parts(b: &mut [u8], n: usize, len: usize) -> Vec<&mut [u8]> {
    if len == 0 {
        return (0..n).map(|_| &mut [][..]).collect();
    }
    b.chunks_exact_mut(len).take(n).collect()
}

/// Bind the calling thread; whether the OS honoured it.
fn bind(p: Placement, allowed: &[usize]) -> bool {
    binding::bind_current(p, allowed).is_ok() && binding::honoured(p, &binding::observe(p, allowed))
}

/// One benchmark at one size.
pub struct MtKernel<'a> {
    pub pattern: Pattern,
    pub run: &'a Run,
    /// Bytes of one thread's message.
    pub x: usize,
}

impl MtKernel<'_> {
    /// Thread `t`'s work once bound, on its buffers.
    fn work(
        &self,
        t: usize,
        send: &mut [u8],
        recv: &mut [u8],
        bar: &ThreadBarrier,
        n: usize,
        check: bool,
    ) -> Out {
        let mt = &self.run.mt;
        let rv = Rendezvous {
            threads: (mt.threads > 1).then_some(bar),
            kind: mt.barrier,
            leader: t == 0,
            world: Comm::world(),
        };
        let mut th = Thread {
            comm: self.run.comms[t.min(self.run.comms.len() - 1)],
            elem: self.run.elem,
            send,
            recv,
            stride: mt.stride,
            window: mt.window,
        };
        patterns::run(self.pattern, &mut th, mt.warmup, n, check, &rv)
    }

    /// Thread `t` from binding to its result; under `Malloc::Parallel` it allocates its own
    /// buffers once bound.
    fn thread(
        &self,
        t: usize,
        bufs: Option<(&mut [u8], &mut [u8])>,
        bar: &ThreadBarrier,
        n: usize,
        check: bool,
    ) -> Out {
        let (run, p) = (self.run, self.run.placements[t]);
        let first = bind(p, &run.allowed);
        let (slen, rlen) = (self.x, self.x * self.pattern.recv_blocks());
        let mut out = match bufs {
            Some((s, r)) => self.work(t, s, r, bar, n, check),
            None => {
                let (mut s, mut r) = (
                    Aligned::new(slen, run.mt.align),
                    Aligned::new(rlen, run.mt.align),
                );
                self.work(t, s.bytes(), r.bytes(), bar, n, check)
            }
        };
        out.astray =
            !(run.unbound || first && binding::honoured(p, &binding::observe(p, &run.allowed)));
        out
    }
}

impl Measure for MtKernel<'_> {
    type Rec = Threads;
    fn measure(&mut self, _: &EngineComm, _: Loop, n: usize, check: bool) -> Sample<Threads> {
        let run = self.run;
        let threads = run.mt.threads;
        let (slen, rlen) = (self.x, self.x * self.pattern.recv_blocks());
        let align = run.mt.align;
        // Buffers of every thread, before any thread starts (serial and continuous).
        let mut own: Vec<(Aligned, Aligned)> = Vec::new();
        let mut block: Option<(Aligned, Aligned)> = None;
        match run.mt.malloc {
            Malloc::Serial => {
                own = (0..threads)
                    .map(|_| (Aligned::new(slen, align), Aligned::new(rlen, align)))
                    .collect();
            }
            Malloc::Continuous => {
                block = Some((
                    Aligned::new(slen * threads, align),
                    Aligned::new(rlen * threads, align),
                ));
            }
            Malloc::Parallel => {}
        }
        let mut bufs: Vec<Option<(&mut [u8], &mut [u8])>> = match (&mut block, run.mt.malloc) {
            (Some((s, r)), _) => parts(s.bytes(), threads, slen)
                .into_iter()
                .zip(parts(r.bytes(), threads, rlen))
                .map(Some)
                .collect(),
            (None, Malloc::Serial) => own
                .iter_mut()
                .map(|(s, r)| Some((s.bytes(), r.bytes())))
                .collect(),
            _ => (0..threads).map(|_| None).collect(),
        };
        let bar = ThreadBarrier::new(threads);
        let me = &*self;
        let outs: Vec<Out> = std::thread::scope(|s| {
            let mut rest = bufs.drain(..);
            let mine = rest.next().flatten();
            let handles: Vec<_> = rest
                .enumerate()
                .map(|(k, b)| {
                    let bar = &bar;
                    s.spawn(move || me.thread(k + 1, b, bar, n, check))
                })
                .collect();
            let first = me.thread(0, mine, &bar, n, check);
            // The rank's thread goes back to the whole inherited mask.
            let _ = binding::bind_current(Placement::Unbound, &run.allowed);
            std::iter::once(first)
                .chain(handles.into_iter().map(|h| h.join().unwrap_or_default()))
                .collect()
        });
        summarise(&outs, threads, run.unbound)
    }
}

/// The rank's record from its threads' results.
fn summarise(outs: &[Out], threads: usize, unbound: bool) -> Sample<Threads> {
    let ran: Vec<&Out> = outs.iter().filter(|o| o.ran).collect();
    let min = ran.iter().map(|o| o.secs).fold(f64::INFINITY, f64::min);
    let max = ran.iter().map(|o| o.secs).fold(0.0, f64::max);
    let sum: f64 = ran.iter().map(|o| o.secs).sum();
    let wrong = outs.iter().find_map(|o| o.wrong);
    Sample {
        secs: max,
        defect: wrong.map_or(Defect::NONE, Defect::bad),
        excluded: ran.is_empty(),
        rec: Threads {
            min: if ran.is_empty() { 0.0 } else { min },
            max,
            sum,
            ran: ran.len() as f64,
            threads: threads as f64,
            astray: outs.iter().filter(|o| o.astray).count() as f64,
            unbound: if unbound { 1.0 } else { 0.0 },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_of_a_node_take_their_own_cpus() {
        let all = [0, 1, 2, 3];
        assert_eq!(
            place(2, 1, 2, &all),
            Some(vec![Placement::Cpu(2), Placement::Cpu(3)])
        );
        // The launcher gave each rank its own two CPUs.
        assert_eq!(
            place(2, 1, 2, &[6, 7]),
            Some(vec![Placement::Cpu(6), Placement::Cpu(7)])
        );
        // Two ranks of two threads on two CPUs: unbound.
        assert_eq!(place(2, 0, 2, &[0, 1, 2]), None);
    }

    #[test]
    fn aligned_parts() {
        let mut a = Aligned::new(10, 64);
        assert_eq!(a.bytes().as_ptr() as usize % 64, 0);
        assert_eq!(a.bytes().len(), 10);
        let mut b = vec![0u8; 8];
        assert_eq!(parts(&mut b, 2, 4).len(), 2);
        assert_eq!(parts(&mut b, 3, 0).len(), 3);
    }

    #[test]
    fn a_rank_without_partner_is_left_out() {
        let idle = summarise(&[Out::default(), Out::default()], 2, false);
        assert!(idle.excluded);
        assert_eq!(idle.rec.ran, 0.0);
        let o = Out {
            secs: 2.0,
            ran: true,
            wrong: Some(8),
            astray: true,
        };
        let s = summarise(&[o, Out { secs: 1.0, ..o }], 2, false);
        assert_eq!((s.rec.min, s.rec.max, s.rec.sum), (1.0, 2.0, 3.0));
        assert_eq!(s.defect.pos, Some(8));
        assert_eq!(s.rec.astray, 2.0);
    }
}
