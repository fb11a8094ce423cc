//! `-json FILE`: every table as data. The whole document is rewritten (to a temporary file,
//! then renamed) after each table, so a crash leaves a valid file with everything measured so
//! far, and `"complete": false` says the run did not finish. Values keep full precision. A
//! table lists its IMB column titles (`columns`) and their machine keys with units (`keys`:
//! `t_avg_us`, `mbytes_per_s`, each `table::Column` holds both); rows are keyed by the
//! machine keys. Notes are objects with a `kind`, their fields, and `text`, the printed lines.
//! The `provenance` object says where the results came from (`crate::provenance`); its
//! `status` and `end` are set when the run ends, however it ends.

use super::rewrite::Rewritten;
use super::{Banner, Failure, Header, Note, Row, Sink, Summary, Verdict};
use crate::provenance::{Provenance, Status};
use crate::safefile::OutFile;
use crate::vocab::mode_name;
use serde::Serialize;
use serde_json::{Map, Value};

/// The layout of the document: 4 adds the provenance's host, machine, build, launcher, control
/// variable, clock and load facts and its collection time (the schema 3 keys unchanged); 3 adds
/// `provenance`; 2 keyed rows by machine key and typed every note (1, before it, keyed rows by
/// column title and held notes as strings).
pub const SCHEMA_VERSION: u32 = 4;

/// A note as JSON: its fields under its `kind`, and the printed lines as `text`.
fn note_value(n: &Note) -> Value {
    let mut v = serde_json::to_value(n).expect("JSON of plain data");
    if let Value::Object(m) = &mut v {
        m.insert("text".into(), Value::from(n.lines().join("\n")));
    }
    v
}

/// A header as JSON, its notes typed like every other note.
fn header_value(h: &Header) -> Value {
    let mut v = serde_json::to_value(h).expect("JSON of plain data");
    if let Value::Object(m) = &mut v {
        m.insert(
            "notes".into(),
            Value::Array(h.notes.iter().map(note_value).collect()),
        );
    }
    v
}

#[derive(Debug, Serialize)]
struct TableDoc {
    benchmark: String,
    /// Processes per group.
    processes: usize,
    /// World ranks of each group, in banner order.
    groups: Vec<Vec<usize>>,
    idle: usize,
    multi: bool,
    mode: Option<&'static str>,
    columns: Vec<&'static str>,
    keys: Vec<&'static str>,
    rows: Vec<Map<String, Value>>,
    notes: Vec<Value>,
    unsuccessful: bool,
}

#[derive(Debug, Serialize)]
struct Doc {
    schema_version: u32,
    suite: String,
    provenance: Option<Provenance>,
    header: Option<Value>,
    benchmarks_to_run: Vec<String>,
    invalid: Vec<String>,
    notes: Vec<Value>,
    tables: Vec<TableDoc>,
    check: Option<Vec<Verdict>>,
    /// `-summary` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<Summary>,
    complete: bool,
}

/// The JSON sink.
pub struct Json {
    /// A failed write ends the run with its line and a non-zero exit.
    out: Rewritten<Doc>,
}

impl Json {
    /// A sink writing to `file` (checked with `OutFile::check` before the run).
    pub fn new(file: OutFile, suite: &str) -> Self {
        Json {
            out: Rewritten::new(
                file,
                Doc {
                    schema_version: SCHEMA_VERSION,
                    suite: suite.to_string(),
                    provenance: None,
                    header: None,
                    benchmarks_to_run: Vec::new(),
                    invalid: Vec::new(),
                    notes: Vec::new(),
                    tables: Vec::new(),
                    check: None,
                    summary: None,
                    complete: false,
                },
            ),
        }
    }

    /// The document as it stands (pure: results in, bytes out).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.out.to_bytes()
    }

    fn save(&mut self) {
        self.out.save()
    }
}

impl Sink for Json {
    fn failure(&self) -> Option<Failure> {
        self.out.failure().map(|l| Failure::Error(l.to_string()))
    }
    fn provenance(&mut self, p: &Provenance) {
        self.out.doc.provenance = Some(p.clone());
        self.save();
    }
    fn header(&mut self, h: &Header) {
        self.out.doc.header = Some(header_value(h));
        self.save();
    }
    fn list(&mut self, names: &[&str], _multi: bool) {
        self.out.doc.benchmarks_to_run = names.iter().map(|s| s.to_string()).collect();
    }
    fn block(&mut self, note: &Note) {
        self.out.doc.notes.push(note_value(note));
    }
    fn invalid(&mut self, name: &str, np: usize) {
        self.out
            .doc
            .invalid
            .push(format!("{name} invalid for {np} process(es)"));
    }
    fn banner(&mut self, b: &Banner) {
        self.out.doc.tables.push(TableDoc {
            benchmark: b.name.to_string(),
            processes: b.layout.np,
            groups: b.layout.groups.clone(),
            idle: b.layout.idle,
            multi: b.layout.multi,
            mode: mode_name(b.mode),
            columns: b.cols.titles(),
            keys: b.cols.keys(),
            rows: Vec::new(),
            notes: Vec::new(),
            unsuccessful: false,
        });
    }
    fn note(&mut self, note: &Note) {
        self.out.doc.notes.push(note_value(note));
    }
    fn attention(&mut self, note: &Note) {
        if let Some(t) = self.out.doc.tables.last_mut() {
            t.notes.push(note_value(note));
        }
    }
    fn row(&mut self, r: &Row) {
        let Some(t) = self.out.doc.tables.last_mut() else {
            return;
        };
        let mut ints = Vec::new();
        if let Some(g) = r.group {
            ints.push(g);
        }
        if let Some(b) = r.bytes {
            ints.push(b);
        }
        ints.push(r.reps);
        let values = ints
            .into_iter()
            .map(Value::from)
            .chain(r.values.iter().map(|&v| Value::from(v)));
        let obj = t.keys.iter().map(|c| c.to_string()).zip(values).collect();
        t.rows.push(obj);
    }
    fn table_end(&mut self, notes: &[Note], unsuccessful: bool) {
        if let Some(t) = self.out.doc.tables.last_mut() {
            t.notes.extend(notes.iter().map(note_value));
            t.unsuccessful = unsuccessful;
        }
        self.save();
    }
    fn summary(&mut self, s: &Summary) {
        self.out.doc.summary = Some(s.clone());
    }
    fn finish(&mut self, verdicts: Option<&[Verdict]>) {
        self.out.doc.check = verdicts.map(|v| v.to_vec());
        self.out.doc.complete = true;
        if let Some(p) = &mut self.out.doc.provenance {
            p.end(Status::Complete);
        }
        self.save();
    }
    fn closing(&mut self, status: &Status) {
        if self.out.doc.complete {
            return;
        }
        if let Some(p) = &mut self.out.doc.provenance {
            p.end(status.clone());
        }
        self.save();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::layout;
    use crate::report::Columns;
    use crate::vocab::Mode;

    #[test]
    fn tables_as_data() {
        let dir = std::env::temp_dir().join(format!("imb-json-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let out = OutFile::check("-json", path.to_str().unwrap()).unwrap();
        let mut j = Json::new(out, "imb-mpi1");
        let l = layout(4, 2, None, true);
        j.list(&["PingPong"], true);
        j.banner(&Banner {
            name: "PingPong",
            suffix: "",
            process: None,
            layout: &l,
            mode: Mode::Plain,
            cols: Columns {
                kind: crate::table::SINGLE.columns,
                group: true,
                defects: true,
            },
        });
        j.row(&Row {
            group: Some(1),
            bytes: Some(8),
            reps: 1000,
            values: vec![0.123456, 61.8, 0.0],
        });
        j.table_end(
            &[Note::Defect {
                bytes: 8,
                world_rank: 3,
                first_wrong_byte: 0,
            }],
            false,
        );
        let mid: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(mid["complete"], false);
        j.finish(Some(&[Verdict {
            name: "PingPong".into(),
            ok: true,
        }]));
        let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
        insta::assert_snapshot!(text);
    }

    /// Provenance: written with the header's first save, ended by `finish` (complete) or by
    /// `closing` (interrupted, failed), whichever comes first.
    #[test]
    fn provenance_ends_with_the_run() {
        use crate::provenance::{Local, Provenance};
        let dir = std::env::temp_dir().join(format!("imb-json-prov-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let read = |p: &std::path::Path| -> Value {
            serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
        };
        let prov = Provenance::new(Vec::new(), None, None, vec![Local::here(None, None)]);
        for (name, status, want) in [
            ("c.json", None, "complete"),
            (
                "f.json",
                Some(Status::Failed { error: "e".into() }),
                "failed",
            ),
            (
                "i.json",
                Some(Status::Interrupted { reason: "r".into() }),
                "interrupted",
            ),
        ] {
            let path = dir.join(name);
            let out = OutFile::check("-json", path.to_str().unwrap()).unwrap();
            let mut j = Json::new(out, "imb-mpi1");
            j.provenance(&prov);
            let doc = read(&path);
            assert_eq!(doc["schema_version"], 4);
            assert_eq!(doc["provenance"]["status"]["state"], "running");
            assert_eq!(doc["provenance"]["end"], Value::Null);
            match status {
                None => {
                    j.finish(None);
                    // The driver's closing after a finished run changes nothing.
                    j.closing(&Status::Complete);
                }
                Some(s) => j.closing(&s),
            }
            let doc = read(&path);
            assert_eq!(doc["provenance"]["status"]["state"], want, "{name}");
            assert_eq!(doc["complete"], want == "complete");
            assert!(doc["provenance"]["end"].is_string());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
