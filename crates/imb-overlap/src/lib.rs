//! imb-overlap: IMB 2021's overlap method for collectives, what imb-nbc (non-blocking calls)
//! and imb-mpi4 (MPI 4.0 persistent requests) share so that neither depends on the other
//! (doc/METHODOLOGY.md, "imb-nbc"): the operation the loops time (`op`), the loops, benchmark
//! type and table kinds (`overlap`), the CPU work and its calibration (`cpu`, `cpu2021`
//! under `-compat 2021`), which reaches every kernel through the suites'
//! `Hooks::run_state` (`calibrate_for`), and the metadata of an overlap benchmark or its
//! `_pure` variant (`info`, `Root`). The MPI calls are imb-mpi's
//! (`imb_mpi::nonblocking`, `imb_mpi::persistent`).

pub mod cpu;
pub mod cpu2021;
pub mod op;
pub mod overlap;

pub use overlap::overlap_pct;

use imb_core::bench::{BufShape, Class, Info};
use imb_core::cli::Options;
use imb_core::kernel::RunState;
use imb_core::method::Compat;
use overlap::{OVERLAP, OVERLAP_SYNC};
use std::any::Any;

/// Whether a pattern has a root, and whether IMB 2021 counts its benchmarks as rooted (its
/// `-iter_policy auto` gives those `multiple_np`): imb-mpi4's persistent benchmarks IMB 2021
/// flags as it flags imb-nbc's.
#[derive(Clone, Copy)]
pub enum Root {
    None,
    /// Both the overlap benchmark and its `_pure` variant.
    Both,
    /// The overlap benchmark only: IMB 2021 leaves Ireduce_pure out, though its root moves.
    Overlap,
}

/// The metadata of an overlap benchmark (`pure` false) or its `_pure` variant.
pub const fn info(
    name: &'static str,
    class: Class,
    bufs: BufShape,
    unit: usize,
    pure: bool,
    root: Root,
) -> Info {
    let base = Info::mpi1(name, class);
    // A rooted pattern's NP blocks of X pass through the root alone, and under `-root_shift
    // on` each rank is the root only every NP-th call, so the bound, which cannot see that
    // option, counts X for it, as imb-mpi1 does for its rotating roots.
    let blocks = matches!(root, Root::None) && !matches!(bufs, BufShape::Plain);
    Info {
        table: match (pure, class) {
            (true, _) => base.table,
            (false, Class::Sync) => &OVERLAP_SYNC,
            (false, _) => &OVERLAP,
        },
        bufs,
        unit,
        on_request: pure,
        rooted: match root {
            Root::None => false,
            Root::Both => true,
            Root::Overlap => !pure,
        },
        effort: match (pure, blocks) {
            (true, false) => |s| overlap::effort(1, s.x),
            (true, true) => |s| overlap::effort(1, s.np.saturating_mul(s.x)),
            (false, false) => |s| overlap::effort(2, s.x),
            (false, true) => |s| overlap::effort(2, s.np.saturating_mul(s.x)),
        },
        ..base
    }
}

/// When an overlap benchmark is selected, every rank calibrates its own CPU work, once per
/// process: at start-up under the default profile; under `-compat 2021` at the first call
/// that needs it, as IMB 2021 does (this builds the empty calibration its kernels fill). IMB-NBC
/// prints no block for it, so neither do we. imb-nbc's and imb-mpi4's `Hooks::run_state`.
pub fn calibrate_for(selected: &[&'static Info], opts: &Options) -> Option<RunState> {
    let overlap = selected
        .iter()
        .any(|i| *i.table == OVERLAP || *i.table == OVERLAP_SYNC);
    overlap.then(|| {
        let state: Box<dyn Any> = match opts.method.compat {
            Compat::V30 => Box::new(cpu::Calibration::measure()),
            Compat::V2021 => Box::new(cpu2021::Calibration::default()),
        };
        (state, None)
    })
}
