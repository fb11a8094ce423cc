//! Fuzz harnesses of imb-rs's readers of user input (scripts/fuzz): one function
//! per reader, fed raw bytes, that panics only when the reader breaks its contract — a panic
//! inside it, or an error that is not one line naming its file or argument. Hangs and memory
//! blow-ups are AFL++'s to catch (`scripts/fuzz` runs it with a time and memory limit).
//!
//! The AFL++ targets in `src/bin` call these; imb-threads' and imb-omp's command lines live in
//! binary crates, so their targets include those crates' modules themselves. The workspace's
//! corpus tests replay `fuzz/corpus` and `fuzz/regressions` through these very functions,
//! without AFL: `crates/imb-compare/tests/corpus.rs` compiles `common` and `compare`,
//! `crates/imb-core/tests/corpus.rs` `common` and `engine`; imb-threads and imb-omp have
//! `corpus` unit tests of their own.

pub mod common;
pub mod compare;
pub mod engine;

pub use common::*;
pub use compare::*;
pub use engine::*;
