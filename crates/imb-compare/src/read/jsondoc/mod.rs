//! Reading an imb-rs `-json` results file (doc/OUTPUT.md, "JSON") into the same tables as its
//! text output, so launches kept either way can be compared. Schemas 1 to 4 read alike; a
//! newer schema is refused rather than half understood. Every cell a comparison may use must
//! be a number: a `null`, a string or a missing key is an input error naming its JSON path
//! (`tables[0].rows[3].t_us`), and the figures pass [`crate::read::check`]. Schema 3's provenance
//! gives the launch's status, its conditions ([`crate::conditions`]) and where each table's
//! ranks ran; schema 4's adds each host's machine (two host names on one machine count as one
//! host, for oversubscription too) and the facts that describe the run without defining it
//! (kernel, CPU, governor, MPI control variables, build).

mod doc;
mod machine;
mod parse;
mod provenance;
mod tables;
#[cfg(test)]
mod tests;

pub use doc::NEWEST_SCHEMA;
pub use parse::parse;
