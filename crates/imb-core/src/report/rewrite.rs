//! What both `-json` documents share (`json` of the MPI executables, `suitejson` of the suites
//! without MPI): the whole document is rewritten after each change (`OutFile::write`: to a
//! temporary file, then renamed; SIGINT, SIGTERM and SIGHUP wait for the rename), so a crash or
//! a signal leaves a valid file and no temporary one, and the first failed write is kept; later
//! saves are skipped and the run ends with that line.

use crate::safefile::OutFile;
use serde::Serialize;

/// A document and the file it is rewritten to.
pub(crate) struct Rewritten<D> {
    file: OutFile,
    pub doc: D,
    failed: Option<String>,
}

impl<D: Serialize> Rewritten<D> {
    /// Nothing is written until the first `save`.
    pub fn new(file: OutFile, doc: D) -> Self {
        Rewritten {
            file,
            doc,
            failed: None,
        }
    }

    /// The document as it stands (pure: data in, bytes out).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(&self.doc).expect("JSON of plain data");
        v.push(b'\n');
        v
    }

    /// Rewrite the file, unless a write has failed already.
    pub fn save(&mut self) {
        if self.failed.is_some() {
            return;
        }
        if let Err(e) = self.file.write(&self.to_bytes()) {
            self.failed = Some(format!("-json {}: cannot write it: {e}", self.file.shown));
        }
    }

    /// The line of the first failed write, if any.
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }
}
