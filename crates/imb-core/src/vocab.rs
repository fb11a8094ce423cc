//! The words every layer of the engine shares, kept below all of them so that no module has to
//! reach up for them: benchmark classes, process counts and modes (used by `bench`, `plan`,
//! `cli` and `report`), the `-map` grid and a step's `Layout` (made by `plan`, printed by
//! `report`), how `-multi` reports groups, and the activity classes of white-box section
//! timers.

use serde::{Deserialize, Serialize};

/// The guide's benchmark classes (3.3.1, 4.2.1); they decide process counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    SingleTransfer,
    ParallelTransfer,
    Collective,
    Sync,
}

/// How many processes a benchmark runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Procs {
    /// Exactly two (MPI-1/EXT single transfer): larger counts are skipped silently, one
    /// process is "invalid".
    Pair,
    /// Exactly one (IO `S_`), whatever `-npmin` says.
    One,
    /// The P_min, 2·P_min, …, P ladder.
    Any,
    /// That ladder from at least 2 processes; one process is "invalid" (a Sphinx latency needs
    /// a process besides the root).
    AtLeastTwo,
    /// That ladder over even counts only (IMB 2021's message-rate benchmarks pair rank i
    /// with i + NP/2): P_min rounded up and P rounded down to even; one process is "invalid", an odd
    /// last process waits in MPI_Barrier.
    Pairs,
    /// All the processes of the run, in one step, whatever `-npmin` says (IMB 2021's IMB-P2P
    /// runs each benchmark once, on the whole world; `Info::valid_np` says where it cannot).
    World,
}

/// A run mode (EXT/IO aggregate or not; MPI-1 has only `Plain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Plain,
    Aggregate,
    NonAggregate,
}

/// A mode's name as the banner prints it.
pub fn mode_name(m: Mode) -> Option<&'static str> {
    match m {
        Mode::Plain => None,
        Mode::Aggregate => Some("AGGREGATE"),
        Mode::NonAggregate => Some("NON-AGGREGATE"),
    }
}

/// The `-map PxQ` grid (validated: P·Q = np).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub p: usize,
    pub q: usize,
}

/// Who does what in one step of a benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Processes per group (NP).
    pub np: usize,
    /// Groups in banner order (increasing world rank of the leader); each lists its members'
    /// world ranks in group-rank order.
    pub groups: Vec<Vec<usize>>,
    /// The index-based group number of each listed group (IO file names use it).
    pub index_group: Vec<usize>,
    /// World ranks that only wait in MPI_Barrier.
    pub idle: usize,
    /// Rank-order rows for the single-group banner with `-map` (P > 1, Q > 1).
    pub rows: Option<Vec<Vec<usize>>>,
    /// True when the benchmark is shown as `Multi-<Name>` (more than one group).
    pub multi: bool,
}

impl Layout {
    /// (group number in banner order, rank in group) of a world rank, if it is active.
    pub fn role(&self, world_rank: usize) -> Option<(usize, usize)> {
        self.groups
            .iter()
            .enumerate()
            .find_map(|(g, m)| m.iter().position(|&r| r == world_rank).map(|pos| (g, pos)))
    }
}

/// `-multi 0|1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Multi {
    /// One row over all processes of all groups.
    Merged,
    /// One row per group.
    PerGroup,
}

/// The activity classes of white-box benchmarking (doc/METHODOLOGY.md, "White-box
/// benchmarking (Jacobi2D)").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Communication,
    DataMovement,
    Computation,
}

impl Activity {
    pub const ALL: [Activity; 3] = [
        Activity::Communication,
        Activity::DataMovement,
        Activity::Computation,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Activity::Communication => "communication",
            Activity::DataMovement => "data movement",
            Activity::Computation => "computation",
        }
    }
}

/// A named code section and its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub name: &'static str,
    pub class: Activity,
}
