//! A rank's threads at one size: the run-wide state they share (`Run`: their communicators,
//! datatype, CPUs), their barrier (a `Rendezvous` each), their buffers, and the kernel the engine
//! times (`MtKernel`), which starts the threads, binds each to its CPU, lets each run its
//! pattern and gathers what they measured into the rank's record.
//!
//! The rank's own thread is thread 0, as OpenMP's master thread is in IMB-MT; the others are
//! `std::thread`s started (and bound, and given their buffers) before any of them reads the
//! clock, and joined after the last has. Binding follows imb-threads' verified binding
//! (`imb_harness::binding`): each thread of a rank on a CPU of its own, the ranks of a node on
//! different CPUs when the node has enough (`place`, from every node rank's CPU mask); with
//! fewer CPUs than threads, or CPU sets the ranks share in part, the threads run unbound and
//! the table says so.

use crate::options::{Datatype, Malloc, Mt};
use crate::patterns::{self, Out, Pattern, Thread};
use crate::rendezvous::Rendezvous;
use crate::table::Threads;
use imb_core::buffers::Defect;
use imb_core::kernel::{Comm as EngineComm, Loop, Measure, Sample};
use imb_harness::binding::{self, Placement};
use imb_mpi::thread;
use imb_mpi::threaded::{Comm, Elem, MASK_WORDS};
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

/// `cpus` as a mask of `MASK_WORDS` words; None when a CPU lies beyond it.
pub fn mask_of(cpus: &[usize]) -> Option<[u64; MASK_WORDS]> {
    let mut m = [0u64; MASK_WORDS];
    for &c in cpus {
        *m.get_mut(c / 64)? |= 1 << (c % 64);
    }
    Some(m)
}

/// CPUs for `threads` threads of node rank `me`, given every node rank's mask (`masks`; an
/// empty mask: unknown): when every rank of the node may run on the same CPUs (a launch
/// without binding), a slice of them of its own if there are enough for every rank's
/// threads; when the ranks' masks do not overlap (the launcher gave each its own CPUs), the
/// first `threads` of its own if it has that many; else none (unbound). Two ranks' threads
/// are never bound to one CPU: a spinning MPI call would starve the other thread there.
pub fn place(threads: usize, me: usize, masks: &[[u64; MASK_WORDS]]) -> Option<Vec<Placement>> {
    let cpus = |m: &[u64; MASK_WORDS]| -> Vec<usize> {
        (0..MASK_WORDS * 64)
            .filter(|&c| m[c / 64] & (1 << (c % 64)) != 0)
            .collect()
    };
    let mine = cpus(masks.get(me)?);
    let known = masks.iter().all(|m| m.iter().any(|&w| w != 0));
    let same = masks.iter().all(|m| m == &masks[me]);
    let disjoint = masks.iter().enumerate().all(|(i, a)| {
        masks[i + 1..]
            .iter()
            .all(|b| a.iter().zip(b).all(|(x, y)| x & y == 0))
    });
    let need = threads.saturating_mul(masks.len().max(1));
    let chosen = if !known || threads == 0 {
        return None;
    } else if same && mine.len() >= need {
        &mine[me * threads..(me + 1) * threads]
    } else if disjoint && mine.len() >= threads {
        &mine[..threads]
    } else {
        return None;
    };
    Some(chosen.iter().map(|&c| Placement::Cpu(c)).collect())
}

impl Run {
    /// Collective on MPI_COMM_WORLD: every rank builds its communicators in the same order.
    pub fn new(mt: Mt, multiple: bool) -> Run {
        if multiple && mt.threads > 1 {
            still_multiple(mt.threads);
        }
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
        // Every rank takes part in the gather, also one whose mask is not known (all zero).
        let mine = mask_of(&allowed).unwrap_or([0; MASK_WORDS]);
        let (node_rank, masks) = Comm::node_masks(&mine);
        let (placements, unbound) = match place(mt.threads, node_rank, &masks) {
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

/// End the run (every rank) unless MPI still runs at MPI_THREAD_MULTIPLE, which
/// MPI_Init_thread granted (`before_run` checked it): a call made since may have lowered the
/// library's level without an error (Open MPI 4.1's MPI_T_init_thread sets it to the level
/// MPI_T is asked for), and `threads` threads calling a library that believes it has one
/// corrupt its state: a communicator freed while in use, a segmentation fault in a later call.
fn still_multiple(threads: usize) {
    let level = thread::granted_level();
    if level < thread::level_multiple() {
        imb_mpi::rc::abort(
            &format!(
                "MPI now reports {} where MPI_Init_thread granted MPI_THREAD_MULTIPLE (a later \
                 call lowered it); {threads} threads per rank calling MPI would corrupt the \
                 library's state",
                thread::level_name(level)
            ),
            3,
        );
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

    fn masks(of: &[&[usize]]) -> Vec<[u64; MASK_WORDS]> {
        of.iter().map(|c| mask_of(c).unwrap()).collect()
    }

    #[test]
    fn ranks_of_a_node_take_their_own_cpus() {
        let all: &[usize] = &[0, 1, 2, 3];
        assert_eq!(
            place(2, 1, &masks(&[all, all])),
            Some(vec![Placement::Cpu(2), Placement::Cpu(3)])
        );
        // The launcher gave each rank its own two CPUs.
        assert_eq!(
            place(2, 1, &masks(&[&[4, 5], &[6, 7]])),
            Some(vec![Placement::Cpu(6), Placement::Cpu(7)])
        );
        // Two ranks of two threads on three CPUs: unbound.
        let three: &[usize] = &[0, 1, 2];
        assert_eq!(place(2, 0, &masks(&[three, three])), None);
        assert_eq!(mask_of(&[MASK_WORDS * 64]), None);
    }

    /// Four ranks of two threads on two CPUs, each rank given both: binding each rank's
    /// threads to "its" two CPUs put all four ranks' thread 0 on one CPU.
    #[test]
    fn ranks_sharing_their_cpus_run_unbound() {
        let two: &[usize] = &[0, 1];
        for me in 0..4 {
            assert_eq!(place(2, me, &masks(&[two, two, two, two])), None, "{me}");
        }
        // Overlapping but not equal masks: unbound too.
        assert_eq!(place(1, 0, &masks(&[&[0, 1], &[1, 2]])), None);
        // A rank whose mask is not known: unbound.
        assert_eq!(
            place(1, 0, &[mask_of(&[0]).unwrap(), [0; MASK_WORDS]]),
            None
        );
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
