//! The one MPI layer of imb-rs (doc/ARCHITECTURE.md, "Crates"): thin, safe, zero-cost wrappers
//! over the MPI calls the benchmark families make that rsmpi's safe API does not offer as the
//! timed loops need them. It is the only crate whose `unsafe` blocks call MPI; the families
//! above it call these wrappers and never each other.

// One-sided windows and atomics, non-blocking collectives, persistent collectives (MPI 4.0 or
// Open MPI's MPIX_, found at run time).
pub mod nonblocking;
pub mod persistent;
pub mod window;
