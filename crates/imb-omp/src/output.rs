//! Standard output of a run: every piece (header, one table) is written and flushed at once, so
//! a crash keeps every finished table; a failed write ends the run (doc/OMP.md, "Output": exit 3 with
//! one line, or a quiet 141 when the reader of a pipe went away). The pieces live in
//! `imb_core::safefile`, shared with the other MPI-free suite.

pub use imb_core::safefile::reader_gone;

/// Print and flush at once. Err(None): stdout was closed by its reader; Err(Some(line)): any
/// other failure (a full disk).
pub fn out(s: &str) -> Result<(), Option<String>> {
    imb_core::safefile::print_all(s)
}

/// The exit status after the last output (`imb_core::safefile::exit_after`).
pub fn finish(r: Result<(), Option<String>>) -> std::process::ExitCode {
    imb_core::safefile::exit_after("imb-omp", r)
}
