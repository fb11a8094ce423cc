//! Reading an imb-rs `-json` results file (doc/OUTPUT.md, "JSON") into the same tables as its
//! text output, so launches kept either way can be compared. Schemas 1 to 3 read alike: what
//! schema 3 added (`provenance`) is not needed for a comparison.

use crate::error::Error;
use crate::imbtext::{column_key, Flag, Run, Table};
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Deserialize)]
struct Doc {
    header: Option<Header>,
    tables: Vec<TableDoc>,
    #[serde(default)]
    complete: bool,
    /// Schema 3: where the run ran (read loosely: only the library and the hosts are shown).
    #[serde(default)]
    provenance: Option<Value>,
}

#[derive(Deserialize)]
struct Header {
    version: String,
    part: String,
    thread_env: String,
    /// Schema 2: typed notes; schema 1: none here (its `warnings` are strings).
    #[serde(default)]
    notes: Vec<Value>,
    #[serde(default)]
    warnings: Vec<Value>,
}

#[derive(Deserialize)]
struct TableDoc {
    benchmark: String,
    processes: usize,
    groups: Vec<Vec<usize>>,
    #[serde(default)]
    multi: bool,
    mode: Option<String>,
    columns: Vec<String>,
    /// Schema 2: the machine key of each column, which the rows are keyed by (schema 1 keyed
    /// them by the column titles and had no `keys`).
    #[serde(default)]
    keys: Vec<String>,
    rows: Vec<Map<String, Value>>,
    #[serde(default)]
    notes: Vec<Value>,
}

/// A note's text: schema 2's objects carry it in `text`, schema 1's notes are the text.
fn note_text(n: &Value) -> &str {
    n.get("text")
        .and_then(Value::as_str)
        .or(n.as_str())
        .unwrap_or("")
}

/// A table note's flag: schema 2 by `kind` and fields, schema 1 by its text.
fn json_flag(n: &Value) -> Option<(Option<u64>, Flag)> {
    let bytes = n.get("bytes").and_then(Value::as_u64);
    match n.get("kind").and_then(Value::as_str) {
        Some("adaptive") => n
            .get("unsettled")
            .is_some_and(|u| !u.is_null())
            .then_some((bytes, Flag::Unsettled)),
        Some("unreliable") => Some((bytes, Flag::Unreliable)),
        Some(_) => None,
        None => crate::imbtext::note_flag(note_text(n)),
    }
}

/// Every string under a key named `key` anywhere in `v`, in order, without repeats.
fn strings_under(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == key && !out.contains(s) => out.push(s.clone()),
                    Value::Array(a) if k == key => {
                        for s in a.iter().filter_map(Value::as_str) {
                            if !out.iter().any(|o| o == s) {
                                out.push(s.to_string());
                            }
                        }
                    }
                    _ => strings_under(x, key, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| strings_under(x, key, out)),
        _ => {}
    }
}

/// "MPI library …; hosts a, b" from a provenance object, whatever its nesting.
fn provenance_line(p: &Value) -> Option<String> {
    let mut parts = Vec::new();
    let mut lib = Vec::new();
    for key in ["mpi_library", "library_version", "library"] {
        strings_under(p, key, &mut lib);
    }
    if let Some(l) = lib.first() {
        // Open MPI's string runs over several lines; its first says enough.
        parts.push(format!(
            "MPI library {}",
            l.lines().next().unwrap_or("").trim()
        ));
    }
    let mut hosts = Vec::new();
    for key in ["hostname", "host", "hosts"] {
        strings_under(p, key, &mut hosts);
    }
    if !hosts.is_empty() {
        parts.push(format!("hosts {}", hosts.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Parse one `-json` document. `name` is the file's name, for messages.
pub fn parse(name: &str, text: &str) -> Result<Run, Error> {
    let doc: Doc = serde_json::from_str(text).map_err(|e| Error::Line {
        file: name.to_string(),
        line: e.line(),
        msg: format!("not an imb-rs -json document: {e}"),
    })?;
    let tables: Vec<Table> = doc
        .tables
        .into_iter()
        .filter(|t| !t.rows.is_empty())
        .map(|t| {
            let groups = t.groups.len().max(1);
            Table {
                // The text banner's name: Multi- when more than one group ran at once.
                benchmark: if t.multi && groups > 1 {
                    format!("Multi-{}", t.benchmark)
                } else {
                    t.benchmark
                },
                processes: Some(t.processes),
                groups,
                mode: t.mode,
                rows: t
                    .rows
                    .iter()
                    .map(|r| {
                        let by = if t.keys.len() == t.columns.len() {
                            &t.keys
                        } else {
                            &t.columns
                        };
                        by.iter()
                            .map(|c| r.get(c).and_then(Value::as_f64).unwrap_or(f64::NAN))
                            .collect()
                    })
                    .collect(),
                columns: t.columns.iter().map(|c| column_key(c)).collect(),
                line: 0,
                flags: t.notes.iter().filter_map(json_flag).collect(),
            }
        })
        .collect();
    if tables.is_empty() {
        return Err(Error::File {
            file: name.to_string(),
            msg: "no table with rows in this -json document".to_string(),
        });
    }
    let mut oversubscribed = None;
    let (title, thread_level) = match doc.header {
        Some(h) => {
            oversubscribed = h
                .notes
                .iter()
                .chain(&h.warnings)
                .find(|n| {
                    n.get("kind").and_then(Value::as_str) == Some("oversubscribed")
                        || note_text(n).contains("(oversubscribed)")
                })
                .map(|n| note_text(n).trim_start_matches("!!").trim().to_string());
            (
                format!("imb-rs {}, {}", h.version, h.part),
                Some(h.thread_env),
            )
        }
        None => ("imb-rs".to_string(), None),
    };
    Ok(Run {
        title,
        thread_level,
        tables,
        finished: doc.complete,
        core_to_core: None,
        wall_secs: None,
        oversubscribed,
        provenance: doc.provenance.as_ref().and_then(provenance_line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r##"{
  "suite": "imb-mpi1",
  "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE"},
  "tables": [
    {"benchmark": "PingPong", "processes": 2, "groups": [[0, 1]], "idle": 0, "multi": false,
     "mode": null, "columns": ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"],
     "keys": ["bytes", "repetitions", "t_us", "mbytes_per_s"],
     "rows": [{"bytes": 0, "repetitions": 1000, "mbytes_per_s": 0.0, "t_us": 0.12}],
     "notes": [], "unsuccessful": false},
    {"benchmark": "Allreduce", "processes": 2, "groups": [[0, 1], [2, 3]], "idle": 0,
     "multi": true, "mode": null,
     "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
     "rows": [{"#bytes": 4, "#repetitions": 1000, "t_min[usec]": 0.2, "t_max[usec]": 0.3,
               "t_avg[usec]": 0.25}],
     "notes": [], "unsuccessful": false}
  ],
  "complete": true
}"##;

    /// The first table is schema 2 (rows keyed by machine key), the second schema 1 (by
    /// column title): files kept from either read the same.
    #[test]
    fn tables_as_the_text_shows_them() {
        let r = parse("a.json", DOC).unwrap();
        assert_eq!(r.title, "imb-rs 0.1.0, MPI-1 part");
        assert_eq!(r.thread_level.as_deref(), Some("MPI_THREAD_SINGLE"));
        assert!(r.finished);
        assert_eq!(r.tables[0].columns, ["bytes", "repetitions", "t", "mbytes"]);
        assert_eq!(r.tables[0].rows, [[0.0, 1000.0, 0.12, 0.0]]);
        let multi = &r.tables[1];
        assert_eq!(
            (multi.benchmark.as_str(), multi.processes, multi.groups),
            ("Multi-Allreduce", Some(2), 2)
        );
        assert_eq!(multi.rows[0][4], 0.25);
    }

    /// Schema 3's provenance is read loosely (library and hosts, wherever they sit) and any
    /// other key is ignored; typed notes give flags and oversubscription.
    #[test]
    fn notes_and_provenance() {
        let doc = r##"{"schema_version": 3, "unknown": {"x": 1},
          "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE",
            "notes": [{"kind": "oversubscribed", "what": "processes", "count": 3, "cpus": 2,
                       "text": "3 processes share 2 CPUs on one host (oversubscribed): x"}]},
          "provenance": {"mpi": {"library_version": "Open MPI v4.1.4, package: Debian\nmore"},
                         "ranks": [{"rank": 0, "host": "n1", "cpus": [0]},
                                   {"rank": 1, "host": "n2", "cpus": [0]},
                                   {"rank": 2, "host": "n1", "cpus": [1]}],
                         "hosts": [{"host": "n1", "cpu_model": "AMD EPYC", "ranks": [0, 2]},
                                   {"host": "n2", "cpu_model": "AMD EPYC", "ranks": [1]}]},
          "tables": [{"benchmark": "Bcast_latency", "processes": 2, "groups": [[0, 1]],
            "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
            "keys": ["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us"],
            "rows": [{"bytes": 4, "repetitions": 10, "t_min_us": 1, "t_max_us": 1, "t_avg_us": 1}],
            "notes": [{"kind": "adaptive", "bytes": 4, "unsettled": {"half_width_pct": 2.0}},
                      {"kind": "adaptive", "bytes": 8, "unsettled": null},
                      {"kind": "unreliable", "bytes": 4, "rank": 1},
                      "adaptive: 16 bytes: median 1 usec: UNSETTLED (half-width 3 %)"]}]}"##;
        let r = parse("p.json", doc).unwrap();
        assert_eq!(
            r.provenance.as_deref(),
            Some("MPI library Open MPI v4.1.4, package: Debian; hosts n1, n2")
        );
        assert!(r
            .oversubscribed
            .unwrap()
            .starts_with("3 processes share 2 CPUs"));
        assert_eq!(
            r.tables[0].flags,
            [
                (Some(4), Flag::Unsettled),
                (Some(4), Flag::Unreliable),
                (Some(16), Flag::Unsettled)
            ]
        );
    }

    /// Schema 3 adds `provenance` (and the suites without MPI write other tables); the tables
    /// read as before.
    #[test]
    fn schema_3_reads_like_schema_2() {
        let doc = DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            r#""schema_version": 3, "suite": "imb-mpi1",
  "provenance": {"imb_rs_version": "0.1.0", "git_commit": null, "argv": ["imb-mpi1", {"lossy": "\ufffd", "hex": "ff"}],
    "parameters": [{"name": "MAXMSGLOG", "value": 3, "standard": 22, "origin": "command line"}],
    "settings_file": null,
    "mpi": {"library_version": "Open MPI v4.1.4", "standard_version": [3, 1],
            "thread_level": "MPI_THREAD_SINGLE", "thread_level_requested": "MPI_THREAD_SINGLE"},
    "ranks": [{"rank": 0, "host": "a", "cpus": [0], "wtick": 1e-9, "wtime_is_global": false}],
    "hosts": [{"host": "a", "cpu_model": null, "ranks": [0]}], "environment": {},
    "start": "2026-01-01T00:00:00.000Z", "end": "2026-01-01T00:00:01.000Z",
    "status": {"state": "complete"}},"#,
        );
        assert!(doc.contains("\"provenance\""));
        let (a, b) = (
            parse("a.json", DOC).unwrap(),
            parse("d.json", &doc).unwrap(),
        );
        assert_eq!(a.tables.len(), b.tables.len());
        assert_eq!(a.tables[0].rows, b.tables[0].rows);
        assert_eq!(a.title, b.title);
    }

    #[test]
    fn a_broken_document_names_its_line() {
        let e = parse("b.json", "{\n  \"tables\": [\n  oops\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("b.json, line 3: not an imb-rs -json document: "),
            "{e}"
        );
        let e = parse("c.json", r#"{"tables": []}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "c.json: no table with rows in this -json document");
    }
}
