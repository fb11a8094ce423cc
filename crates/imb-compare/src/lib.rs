//! imb-compare: reads results in IMB's text layout (imb-rs, IMB 3.0, IMB 2021), OSU's, and
//! imb-rs `-json` files, and compares programs or runs. It needs no MPI.
//!
//! `imb-compare BASE NEW…` reads each run's launches ([`sides`], [`imbtext`], [`jsondoc`], every
//! figure checked by [`check`]), states what defines their results and where they differ
//! ([`conditions`]), sets new runs against a baseline size by size ([`versus`]), checks
//! acceptance criteria by an interval rule ([`refs`], [`stats`]), gathers it all in one value
//! ([`comparison`]) and writes it as text, Markdown, CSV, JSON or JUnit XML ([`export`]) and
//! as SVG plots ([`plot`]) (doc/ACCEPTANCE.md).
//!
//! `store` keeps runs in an SQLite results store ([`store`]): `store add`, `list`, `show`, `rm`
//! and `accept`; a selector (`@accepted`, `@latest`, a label, a date range) names stored runs
//! wherever a run is taken, and `trend` follows one figure over the stored runs.
//!
//! `agreement` sets several launches of one program against several launches of others (the
//! side-by-side check of doc/METHODOLOGY.md, "Agreement with IMB 3.0"): per benchmark and size
//! the median of each side, their ratio, each side's launch-to-launch spread and whether the
//! launches of the two sides overlap at all.

pub mod agree;
pub mod check;
pub mod cli;
pub mod comparison;
pub mod conditions;
pub mod error;
pub mod export;
pub mod family;
pub mod imbtext;
pub mod jsondoc;
pub mod plot;
pub mod refs;
pub mod report;
pub mod run;
pub mod sides;
pub mod stats;
pub mod store;
pub mod versus;

pub use error::Error;
