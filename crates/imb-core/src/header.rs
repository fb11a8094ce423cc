//! The header's facts, as data: what the driver gathers (`sysinfo`, the settings, the method's
//! and optional mode's blocks) and a family's `Hooks::header` sets, before any sink renders
//! them (the text header, `-json`'s `header`; doc/OUTPUT.md, "Header"). It sits below `kernel`
//! so that a family sets its header's facts without reaching into the printer.

use crate::note::Note;
use serde::Serialize;

/// The header's facts (gathered by `sysinfo` and the driver).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    pub version: String,
    pub part: String,
    pub date: String,
    pub machine: String,
    pub system: String,
    pub release: String,
    pub uversion: String,
    pub mpi_version: (i32, i32),
    pub thread_env: String,
    /// IO prints "io portion" lines and no datatype lines.
    pub io: bool,
    /// (min, max) of the ladder, or None when `-msglen` gave the lengths.
    pub min_max: Option<(usize, usize)>,
    /// MPI_Info hints in force (`[info]` of the settings file).
    pub info: Vec<(String, String)>,
    /// The `# !!` blocks at the header's end: optional mode, then why the times may not be
    /// results (oversubscription).
    pub notes: Vec<Note>,
    /// The text output leaves the header out (a family's `-noheader`, IMB-MT's); `-json`
    /// keeps it.
    #[serde(skip)]
    pub hidden: bool,
}
