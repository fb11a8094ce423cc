//! What a benchmark is, seen from the engine: its metadata (`Info`). The MPI side (kernels,
//! timing, and the `Suite` a binary hands to the driver) is in `kernel`.

use crate::settings::Params;
use crate::table::{self, TableKind};

pub use crate::vocab::{Class, Mode, Procs};

/// Send and receive buffer lengths as a function of the base length L and the process count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufShape {
    /// L and L
    Plain,
    /// L and NP·L (Allgather, Allgatherv)
    GatherRecv,
    /// NP·L and NP·L (Alltoall, Alltoallv)
    AllToAll,
    /// NP·L and L (Scatter, Scatterv, Reduce_scatter_block)
    ScatterSend,
    /// 2·L and L: a message for each neighbour from its own block (IMB 2021's Exchange)
    TwoSend,
    /// max(L, OVERALL_VOL) each: room for n_sample disjoint blocks at offsets i·X (imb-ext
    /// windows, doc/METHODOLOGY.md, "The patterns")
    Window,
    /// k·L and k·L: a block per neighbour (IMB-RMA's Exchange_put/get), or room beside the
    /// window for the results and operands of the RMA atomics.
    Blocks(usize),
}

impl BufShape {
    /// (send, receive) bytes for base length `l` on `np` processes.
    pub fn lens(self, l: usize, np: usize, overall_vol: usize) -> (usize, usize) {
        match self {
            BufShape::Plain => (l, l),
            BufShape::GatherRecv => (l, np * l),
            BufShape::AllToAll => (np * l, np * l),
            BufShape::ScatterSend => (np * l, l),
            BufShape::TwoSend => (2 * l, l),
            BufShape::Window => (l.max(overall_vol), l.max(overall_vol)),
            BufShape::Blocks(k) => (k * l, k * l),
        }
    }
}

/// Everything the engine needs to know about a benchmark besides its kernel.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    /// Canonical spelling, as printed.
    pub name: &'static str,
    pub class: Class,
    pub procs: Procs,
    /// The table's columns, rows and notes.
    pub table: &'static TableKind,
    /// Sizes are multiples of this (4 for MPI_FLOAT reductions).
    pub unit: usize,
    /// The second ladder size is at least this (imb-ext: 4).
    pub second_min: usize,
    /// Reported time = measured time × this (PingPong: 0.5, half a round trip).
    pub scale_time: f64,
    /// Mbytes/sec counts this many messages per sample (Sendrecv 2, Exchange 4).
    pub scale_bw: f64,
    pub bufs: BufShape,
    /// The buffers under `-compat 2021`, when IMB 2021's pattern needs others (its
    /// Reduce_scatter gives every process X bytes of an NP·X-byte vector); None: `bufs`.
    pub bufs_2021: Option<BufShape>,
    /// Whether `-check` verifies it (adds the `defects` column).
    pub checked: bool,
    /// Modes in run order.
    pub modes: &'static [Mode],
    /// Non-aggregate repetition cap in every mode (EXT Window, IO Open_Close).
    pub nonaggr_cap: bool,
    /// Runs only when named on the command line or in `-input` (not in the default list).
    pub on_request: bool,
    /// A collective with a root (IMB 2021's `-iter_policy auto` gives these `multiple_np`).
    pub rooted: bool,
    /// The sizes this benchmark runs (others are left out with a note): a 0-byte broadcast
    /// need not synchronise, so a Sphinx latency starts at 1; the white-box stencil's tile
    /// grows with the square of its halo.
    pub min_x: usize,
    pub max_x: usize,
    /// The bytes one repetition touches, for n_sample = min(MSGSPERSAMPLE, OVERALL_VOL / this):
    /// X for a message, the tile for the stencil.
    pub sample_bytes: fn(usize) -> usize,
    /// The one size this benchmark runs, whatever the ladder or `-msglen` (IMB-RMA's
    /// Fetch_and_op and Compare_and_swap move one element); `min_x` and `max_x` should be it
    /// too, so warm-up and buffers use it.
    pub one_size: Option<usize>,
    /// What one repetition does, for the run-time bound (`plan::least`): the default is one
    /// blocking call moving X bytes; a benchmark whose repetition does more says so here.
    pub effort: fn(&Shape) -> Effort,
    /// Whether a step on this many processes can run; one that cannot is "invalid" (IMB-P2P's
    /// stencils need a grid with every side at least 2, its PingPong an even count).
    pub valid_np: fn(usize) -> bool,
    /// What the banner adds after the name on a step of this many processes (IMB-P2P's
    /// stencils name their grid: " (3 x 2)"); empty for most.
    pub banner: fn(usize) -> String,
    /// n_sample from the bytes one repetition touches, the mode's repetition cap and
    /// OVERALL_VOL: the guide's rule (`lengths::n_sample`) unless the suite counts its own way
    /// (IMB-P2P rounds the quotient to the nearest count).
    pub volume_rule: fn(usize, usize, usize) -> usize,
}

/// Where one repetition runs, as the run-time bound sees it before anything is measured.
#[derive(Debug, Clone, Copy)]
pub struct Shape<'a> {
    /// The size handed to the kernel (0 for Sync benchmarks).
    pub x: usize,
    /// Processes of the benchmark's communicator (one group's under `-multi`: groups run at
    /// the same time, so they add nothing to the time).
    pub np: usize,
    pub mode: Mode,
    pub params: &'a Params,
}

/// What one repetition does on one process, every timed loop of it together: counted, not
/// timed. `plan::least` prices each item at what it costs at the least on any machine, so the
/// sum is a lower bound of the run's time (doc/ReadMe_IMB.md, "Robustness").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effort {
    /// Steps that wait for another process or the system: a blocking call, a round trip, a
    /// barrier, a fence, a window's creation.
    pub calls: f64,
    /// Messages that are in flight together (a window's, an aggregate epoch's operations),
    /// cheaper each than a step that waits.
    pub msgs: f64,
    /// Bytes this process sends, receives, reads, writes or computes on.
    pub bytes: f64,
    /// Timed loops of the n repetitions per size, each after N_BARR barriers.
    pub loops: f64,
    /// The option that shrinks what this benchmark adds to the plain count, named first in
    /// a refusal (e.g. a family's option that sets a window's length).
    pub lever: Option<&'static str>,
}

impl Effort {
    /// One blocking call moving `bytes`, in one timed loop: IMB's repetition.
    pub const fn call(bytes: usize) -> Effort {
        Effort {
            calls: 1.0,
            msgs: 0.0,
            bytes: bytes as f64,
            loops: 1.0,
            lever: None,
        }
    }
}

/// One blocking call moving X bytes: what a repetition of every IMB 3.0 pattern does at the
/// least.
pub fn one_call(s: &Shape) -> Effort {
    Effort::call(s.x)
}

/// One call in which every process receives (Allgather) or sends (Alltoall,
/// Reduce_scatter_block) a block of X bytes per process: NP·X bytes each. A rooted collective
/// does not qualify: its root may move (`-root_shift`), and then per process its NP·X averages
/// out to X, which the bound must not exceed.
pub fn np_blocks(s: &Shape) -> Effort {
    Effort::call(s.np.saturating_mul(s.x))
}

/// Any process count the benchmark's `Procs` gives.
pub fn any_np(_: usize) -> bool {
    true
}

/// Nothing after the name.
pub fn no_banner(_: usize) -> String {
    String::new()
}

/// One repetition moves X bytes (every IMB pattern).
pub const fn message_bytes(x: usize) -> usize {
    x
}

impl Info {
    /// The buffers of a run under `compat`.
    pub fn bufs_for(&self, compat: crate::method::Compat) -> BufShape {
        match (compat, self.bufs_2021) {
            (crate::method::Compat::V2021, Some(b)) => b,
            _ => self.bufs,
        }
    }

    /// A plain MPI-1 benchmark; adjust fields with struct update syntax.
    pub const fn mpi1(name: &'static str, class: Class) -> Info {
        let (procs, table) = match class {
            Class::SingleTransfer => (Procs::Pair, &table::SINGLE),
            Class::ParallelTransfer => (Procs::Any, &table::PARALLEL),
            Class::Collective => (Procs::Any, &table::COLLECTIVE),
            Class::Sync => (Procs::Any, &table::SYNC),
        };
        Info {
            name,
            class,
            procs,
            table,
            unit: 1,
            second_min: 0,
            scale_time: 1.0,
            scale_bw: 1.0,
            bufs: BufShape::Plain,
            bufs_2021: None,
            checked: !matches!(class, Class::Sync),
            modes: &[Mode::Plain],
            nonaggr_cap: false,
            on_request: false,
            rooted: false,
            min_x: 0,
            max_x: usize::MAX,
            sample_bytes: message_bytes,
            one_size: None,
            effort: one_call,
            valid_np: any_np,
            banner: no_banner,
            volume_rule: crate::lengths::n_sample,
        }
    }
}
