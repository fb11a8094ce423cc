//! `-json FILE` of the suites without MPI (imb-threads, imb-omp): the same crash safety and
//! provenance as the MPI executables' document (`json`), with the suite's own header facts and
//! tables, which each suite builds as data. The file is rewritten after every table; until the
//! run ends, `complete` is false and the provenance's status `running`.

use super::rewrite::Rewritten;
use crate::provenance::{Provenance, Status};
use crate::safefile::OutFile;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Serialize)]
struct Doc {
    schema_version: u32,
    suite: String,
    provenance: Provenance,
    header: Value,
    benchmarks_to_run: Vec<String>,
    tables: Vec<Value>,
    complete: bool,
}

/// The `-json` file of a suite without MPI.
pub struct SuiteJson {
    /// A failed write ends the run with its line and exit status 3.
    out: Rewritten<Doc>,
}

impl SuiteJson {
    /// The document with its provenance, header and benchmark list, written at once.
    pub fn new(
        file: OutFile,
        suite: &str,
        provenance: Provenance,
        header: Value,
        names: Vec<String>,
    ) -> Self {
        let mut j = SuiteJson {
            out: Rewritten::new(
                file,
                Doc {
                    schema_version: super::SCHEMA_VERSION,
                    suite: suite.to_string(),
                    provenance,
                    header,
                    benchmarks_to_run: names,
                    tables: Vec::new(),
                    complete: false,
                },
            ),
        };
        j.save();
        j
    }

    /// The document as it stands.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.out.to_bytes()
    }

    fn save(&mut self) {
        self.out.save()
    }

    /// One more table, saved at once.
    pub fn table(&mut self, t: Value) {
        self.out.doc.tables.push(t);
        self.save();
    }

    /// The run ended this way (the first end counts).
    pub fn end(&mut self, status: Status) {
        if self.out.doc.provenance.end.is_some() {
            return;
        }
        self.out.doc.complete = status == Status::Complete;
        self.out.doc.provenance.end(status);
        self.save();
    }

    /// The line of the first failed write, if any.
    pub fn failure(&self) -> Option<&str> {
        self.out.failure()
    }
}

/// The end of a run of `exe` whose output ended with `r`: the document, if any, records how
/// (complete; interrupted when stdout's reader went away; failed with the write error), and the
/// exit status is `safefile::exit_after`'s, except that a failed `-json` write turns success
/// into exit status 3 with its line.
pub fn close(
    json: Option<SuiteJson>,
    exe: &str,
    r: std::result::Result<(), Option<String>>,
) -> std::process::ExitCode {
    let Some(mut j) = json else {
        return crate::safefile::exit_after(exe, r);
    };
    j.end(match &r {
        Ok(()) => Status::Complete,
        Err(None) => Status::Interrupted {
            reason: "standard output was closed by its reader".to_string(),
        },
        Err(Some(line)) => Status::Failed {
            error: line.clone(),
        },
    });
    match (r, j.failure()) {
        (Ok(()), Some(line)) => crate::safefile::exit_after(exe, Err(Some(line.to_string()))),
        (r, _) => crate::safefile::exit_after(exe, r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provenance::Local;

    #[test]
    fn tables_are_saved_one_by_one_and_the_end_once() {
        let dir = std::env::temp_dir().join(format!("imb-suitejson-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.json");
        let read = || -> Value { serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap() };
        let out = OutFile::check("-json", path.to_str().unwrap()).unwrap();
        let p = Provenance::new(Vec::new(), None, None, vec![Local::here(Some(1e-9), None)]);
        let mut j = SuiteJson::new(
            out,
            "imb-threads",
            p,
            serde_json::json!({"part": "Pthreads part"}),
            vec!["Yield".into()],
        );
        let doc = read();
        assert_eq!(doc["schema_version"], 4);
        assert_eq!(doc["tables"], serde_json::json!([]));
        assert_eq!(doc["provenance"]["status"]["state"], "running");
        assert_eq!(doc["provenance"]["mpi"], Value::Null);
        assert_eq!(doc["provenance"]["ranks"][0]["wtick"], 1e-9);
        j.table(serde_json::json!({"benchmark": "Yield"}));
        assert_eq!(read()["tables"][0]["benchmark"], "Yield");
        j.end(Status::Complete);
        j.end(Status::Failed {
            error: "late".into(),
        });
        let doc = read();
        assert_eq!(doc["complete"], true);
        assert_eq!(doc["provenance"]["status"]["state"], "complete");
        assert!(j.failure().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
