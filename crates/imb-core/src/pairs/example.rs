//! An overhead example's start: PAIRS from the command line, MPI, the standard settings, the
//! registered benchmark and its buffers, the table's opening lines and the one-sided cases.

use super::Pairing;
use crate::bench::Mode;
use crate::buffers::Buffer;
use crate::kernel::{Benchmark, Comm};
use crate::lengths::n_sample;
use crate::settings::{standard, Params, Spec};
use mpi::environment::Universe;
use mpi::traits::*;

/// What every example starts from. `world` is declared before the universe, so it is dropped
/// first, before MPI_Finalize.
pub struct Example {
    pub world: Comm,
    pub params: Params,
    /// Alternating pairs per case: the first argument, or the example's default.
    pub pairs: usize,
    _universe: Universe,
}

/// PAIRS (the first argument, or `default`), MPI started on exactly `np` ranks where given,
/// and the standard settings of `spec`.
pub fn start(default: usize, np: Option<i32>, spec: &Spec) -> Example {
    let pairs = std::env::args()
        .nth(1)
        .map_or(default, |a| a.parse().expect("PAIRS is a number"));
    let universe = mpi::initialize().expect("MPI starts");
    let world = universe.world();
    if let Some(np) = np {
        assert_eq!(world.size(), np, "run with mpirun -np {np}");
    }
    Example {
        world,
        params: standard(spec),
        pairs,
        _universe: universe,
    }
}

impl Example {
    /// The pairing of this example: the slowest rank's figure, buffers as they are.
    pub fn pairing(&self) -> Pairing<'_> {
        Pairing::new(&self.world, &self.params, self.pairs)
    }

    /// Send and receive buffers of `len` bytes, the send buffer filled as the driver fills it.
    pub fn buffers(&self, len: usize) -> (Buffer, Buffer) {
        let mut b = (
            Buffer::new(len).expect("send"),
            Buffer::new(len).expect("recv"),
        );
        b.0.fill(self.world.rank() as usize);
        b
    }
}

/// The registered benchmark `name` of a suite's list.
pub fn find(list: &'static [&'static dyn Benchmark], name: &str) -> &'static dyn Benchmark {
    let b = list.iter().find(|b| b.info().name == name);
    *b.unwrap_or_else(|| panic!("{name} is registered"))
}

/// The two lines above a table: which benchmark of which crate, and how it was paired.
pub fn intro(name: &str, krate: &str, how: String) -> [String; 2] {
    [
        format!(
            "imb-rs harness overhead: our {name} (imb-core Timed::run over the {krate} kernel)"
        ),
        format!("beside a raw-FFI loop of the same pattern, {how}"),
    ]
}

/// (X, mode, n) for each of `modes`, then each size: n is `n_sample` under the mode's cap
/// (MSGSPERSAMPLE for AGGREGATE, MSGS_NONAGGR for NON-AGGREGATE), as the one-sided families'.
pub fn one_sided_cases(p: &Params, modes: [Mode; 2], sizes: &[usize]) -> Vec<(usize, Mode, usize)> {
    let cap = |m| {
        if m == Mode::Aggregate {
            p.msgspersample
        } else {
            p.msgs_nonaggr
        }
    };
    let each = |m| {
        sizes
            .iter()
            .map(move |&x| (x, m, n_sample(x, cap(m), p.overall_vol)))
    };
    modes.into_iter().flat_map(each).collect()
}
