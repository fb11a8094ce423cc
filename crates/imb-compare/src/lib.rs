//! imb-compare: reads results in IMB's text layout (imb-rs, IMB 3.0, IMB 2021), OSU's, and
//! imb-rs `-json` files, and compares programs or runs. It needs no MPI.
//!
//! Its modules are layers, each using only those below it:
//!
//! 1. [`read`]: a run's launch files (IMB or OSU text, `-json`) read into runs and tables, every
//!    figure checked; beside it, [`store`] keeps runs in an SQLite results store and reads them
//!    back through the same readers (`store add`, `list`, `show`, `rm`, `accept`; a selector,
//!    `@accepted`, `@latest`, a label or a date range, names stored runs wherever a run is
//!    taken).
//! 2. [`conditions`]: what defines the runs' results and where they differ.
//! 3. [`judge`]: statistics, the interval rule, new runs against a baseline size by size,
//!    acceptance criteria (doc/ACCEPTANCE.md), agreement between programs (the side-by-side
//!    check of doc/METHODOLOGY.md, "Agreement with IMB 3.0"), a figure's trend over stored runs,
//!    all gathered in one value ([`judge::comparison`]).
//! 4. [`render`]: that value written as text or Markdown (one markup renderer), CSV, JSON or
//!    JUnit XML, and as SVG plots; the agreement report and the trend table.
//! 5. [`cli`] and the executable (`main.rs`): the command line.

pub mod cli;
pub mod conditions;
pub mod error;
pub mod judge;
pub mod read;
pub mod render;
pub mod store;

pub use error::Error;
