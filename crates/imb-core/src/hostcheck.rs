//! What the host can bear, asked collectively before anything is measured: whether more ranks
//! share a host than CPUs they may run on (the header then says the times are not results),
//! and whether a step's buffers fit in the host's available memory (an error, not an OOM kill).

use crate::kernel::Comm;
use crate::note::Note;
use crate::sysinfo;
use imb_harness::binding;
use mpi::collective::SystemOperation;
use mpi::traits::*;

/// CPUs a mask can name here (16 words of 64); larger numbers are ignored.
const MASK_WORDS: usize = 16;

/// What this rank's host (as MPI sees it, MPI_COMM_TYPE_SHARED) holds of the job: its ranks, the
/// CPUs they may use and the memory available. Everything is read once, in `new`, before any
/// benchmark: nothing is allocated or read between a benchmark's MPI calls. (Open MPI 4.1.4's
/// MPI_Win_create reads uninitialised memory when it refuses a hint, per valgrind; reading
/// /proc/meminfo just before it turned that into a deterministic crash.)
pub struct Host {
    ranks: usize,
    cpus: usize,
    /// MemAvailable when the run started: buffers of earlier steps are freed before the next
    /// step's are made, so the start is the state each step meets.
    avail: Option<u64>,
}

impl Host {
    /// Collective over the world.
    pub fn new(world: &Comm) -> Host {
        let node = world.split_shared(world.rank());
        let mut mask = [0u64; MASK_WORDS];
        for c in binding::allowed_cpus().unwrap_or_default() {
            if c < 64 * MASK_WORDS {
                mask[c / 64] |= 1 << (c % 64);
            }
        }
        let mut union = [0u64; MASK_WORDS];
        node.all_reduce_into(&mask[..], &mut union[..], SystemOperation::bitwise_or());
        Host {
            ranks: node.size() as usize,
            cpus: union.iter().map(|w| w.count_ones() as usize).sum(),
            avail: sysinfo::mem_available(),
        }
    }

    /// Ranks of this job on this host.
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// The `# !!` line when some host runs more ranks than the CPUs in the union of their
    /// affinity masks (unbound ranks count every CPU of their mask). Collective over the world;
    /// the line is returned on world rank 0.
    // `as_chunks::<2>()` (Rust 1.88) for the pairs below once rust-version is 1.88; until
    // then newer clippys lint `chunks_exact(2)`, and older ones do not know that lint.
    #[allow(unknown_lints, clippy::chunks_exact_to_as_chunks)]
    pub fn oversubscription(&self, world: &Comm) -> Option<Note> {
        let mine = [self.ranks as u64, self.cpus as u64];
        let root = world.process_at_rank(0);
        if world.rank() == 0 {
            let mut all = vec![0u64; 2 * world.size() as usize];
            root.gather_into_root(&mine[..], &mut all[..]);
            all.chunks_exact(2)
                .filter(|c| c[0] > c[1])
                .max_by_key(|c| c[0] * 1000 / c[1].max(1))
                .map(|c| Note::Oversubscribed {
                    what: "processes".to_string(),
                    count: c[0] as usize,
                    cpus: c[1] as usize,
                })
        } else {
            root.gather_into(&mine[..]);
            None
        }
    }

    /// An error line when `bytes` per rank, for every rank of this host, exceed the host's
    /// available memory. Local: every rank decides for itself, the driver then agrees.
    pub fn memory_short(&self, bytes: u64) -> Option<String> {
        let avail = self.avail?;
        let need = bytes.saturating_mul(self.ranks() as u64);
        (need > avail).then(|| {
            let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
            format!(
                "buffers need {:.2} GiB per process, {:.2} GiB for the {} processes on this \
                 host, but only {:.2} GiB is available (MemAvailable); lower OVERALL_VOL or \
                 MAXMSGLOG, or skip large sizes with -mem",
                gib(bytes),
                gib(need),
                self.ranks(),
                gib(avail)
            )
        })
    }
}
