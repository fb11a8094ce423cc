//! The one MPI layer of imb-rs (doc/ARCHITECTURE.md, "Crates"): thin, safe, zero-cost wrappers
//! over the MPI calls the benchmark families make that rsmpi's safe API does not offer as the
//! timed loops need them. It is the only crate whose `unsafe` blocks call MPI; the families
//! above it call these wrappers and never each other.
//!
//! Each module is one area of MPI: `comm` (a communicator's handles, `Mpi`), `p2p`, `coll` and
//! `rooted` (the timed loops' calls on it), `inflight` (windows of messages in flight),
//! `datatype` (the messages' datatypes and user op), `threaded` (calls any of a rank's threads
//! may make), `thread` (thread levels), `io` (MPI-IO), `info` (MPI_Info hints), `tool` (MPI_T),
//! `attr` (predefined attributes), `handles` (the constants mpi.h alone can say), `window`
//! (one-sided windows, their transfers, atomics and synchronisation), `nonblocking`
//! (non-blocking collectives), `persistent` (MPI 4.0's persistent collectives, or Open MPI's
//! `MPIX_` ones, found at run time) and `rc` (return codes, counts and pointers, which every
//! wrapper checks and converts through).
//! Wrappers on timed paths are `#[inline(always)]` and allocate nothing; a failed call ends
//! every rank with one line (`rc`). The buffers a `Msg` describes must hold it: the families
//! check that once, when they build a kernel, never inside the timed loop.

pub mod attr;
pub mod coll;
pub mod comm;
pub mod datatype;
pub mod handles;
pub mod inflight;
pub mod info;
pub mod io;
pub mod nonblocking;
pub mod p2p;
pub mod persistent;
pub mod rc;
pub mod rooted;
pub mod thread;
pub mod threaded;
pub mod tool;
pub mod window;
