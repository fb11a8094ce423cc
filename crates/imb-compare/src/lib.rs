//! imb-compare: reads results in IMB's text layout (imb-rs, IMB 3.0, IMB 2021), OSU's, and
//! imb-rs `-json` files, and compares programs or runs. It needs no MPI.
//!
//! `imb-compare BASE NEW…` ([`versus`]) sets new runs against a baseline size by size, checks
//! acceptance criteria ([`refs`]) and writes the verdicts as text, Markdown or CSV ([`render`]),
//! JUnit XML ([`junit`]) and SVG plots ([`plot`]) (doc/ACCEPTANCE.md).
//!
//! `agreement` sets several launches of one program against several launches of others (the
//! side-by-side check of doc/METHODOLOGY.md, "Agreement with IMB 3.0"): per benchmark and size
//! the median of each side, their ratio, each side's launch-to-launch spread and whether the
//! launches of the two sides overlap at all.

pub mod agree;
pub mod error;
pub mod imbtext;
pub mod jsondoc;
pub mod junit;
pub mod plot;
pub mod refs;
pub mod render;
pub mod report;
pub mod sides;
pub mod stats;
pub mod versus;

pub use error::Error;
