//! imb-core: the engine of imb-rs, the Intel MPI Benchmarks methodology in Rust.
//!
//! It owns the whole path from the command line to the printed row: settings, message-length
//! ladders and `n_sample`, the plan of process counts and groups (`plan::build`), warm-up,
//! barrier synchronisation, the timed loop (`kernel::bracket`), statistics across ranks and
//! every byte of output (`report`, its lines beyond the tables as typed `note::Note`s). The
//! executables only declare their benchmarks (`bench::Info`, with a `table::TableKind`) and
//! implement one repetition of each pattern (`kernel::Kernel`); a family with needs of its own
//! registers `kernel::Hooks` in its suite; `driver::main` does the rest (doc/ARCHITECTURE.md).
//!
//! The `mpi` feature (on by default) adds the MPI side, whose MPI calls go through imb-mpi's
//! wrappers; without it the crate builds where no MPI is installed, for the thread and OpenMP
//! suites.

pub mod bench;
pub mod buffers;
pub mod cli;
pub mod cpu_exploit;
pub mod error;
pub mod grid;
pub mod header;
pub mod lengths;
pub mod method;
pub mod note;
pub mod plan;
pub mod provenance;
pub mod report;
pub mod safefile;
pub mod settings;
pub mod settle;
pub mod stats;
pub mod sysinfo;
pub mod table;
pub mod values;
pub mod vocab;
pub mod whitebox;

#[cfg(feature = "mpi")]
pub mod barrier;
#[cfg(feature = "mpi")]
pub mod comm;
#[cfg(feature = "mpi")]
pub mod driver;
#[cfg(feature = "mpi")]
pub mod hostcheck;
#[cfg(feature = "mpi")]
pub mod kernel;
#[cfg(feature = "mpi")]
pub mod pairs;

pub use error::{Error, Result};
