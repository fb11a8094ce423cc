//! The shape of an imb-rs `-json` document as far as a comparison reads it, its schema and
//! status checked, and errors that name a JSON path.

use crate::error::Error;
use crate::read::run::Status;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The newest schema this reader knows (doc/OUTPUT.md, "JSON").
pub const NEWEST_SCHEMA: u64 = 4;

#[derive(Deserialize)]
pub(super) struct Doc {
    #[serde(default)]
    pub(super) schema_version: Option<Value>,
    #[serde(default)]
    pub(super) suite: Option<String>,
    pub(super) header: Option<Header>,
    pub(super) tables: Vec<TableDoc>,
    #[serde(default)]
    pub(super) complete: bool,
    /// Schema 3: where and how the run ran.
    #[serde(default)]
    pub(super) provenance: Option<Value>,
}

#[derive(Deserialize)]
pub(super) struct Header {
    pub(super) version: String,
    pub(super) part: String,
    pub(super) thread_env: String,
    #[serde(default)]
    pub(super) date: Option<String>,
    #[serde(default)]
    pub(super) mpi_version: Option<Vec<Value>>,
    /// Schema 2: typed notes; schema 1: none here (its `warnings` are strings).
    #[serde(default)]
    pub(super) notes: Vec<Value>,
    #[serde(default)]
    pub(super) warnings: Vec<Value>,
    /// Schema 1: the optional-mode lines.
    #[serde(default)]
    pub(super) optional: Vec<Value>,
}

#[derive(Deserialize)]
pub(super) struct TableDoc {
    pub(super) benchmark: String,
    pub(super) processes: usize,
    pub(super) groups: Vec<Vec<usize>>,
    #[serde(default)]
    pub(super) multi: bool,
    pub(super) mode: Option<String>,
    pub(super) columns: Vec<String>,
    /// Schema 2: the machine key of each column, which the rows are keyed by (schema 1 keyed
    /// them by the column titles and had no `keys`).
    #[serde(default)]
    pub(super) keys: Vec<String>,
    pub(super) rows: Vec<Map<String, Value>>,
    #[serde(default)]
    pub(super) notes: Vec<Value>,
}

/// A note's text: schema 2's objects carry it in `text`, schema 1's notes are the text.
pub(super) fn note_text(n: &Value) -> &str {
    n.get("text")
        .and_then(Value::as_str)
        .or(n.as_str())
        .unwrap_or("")
}

pub(super) fn at_error(name: &str, at: String, msg: String) -> Error {
    Error::At {
        file: name.to_string(),
        at,
        msg,
    }
}

/// The schema version, checked: absent (schema 1) or 1 to [`NEWEST_SCHEMA`].
pub(super) fn schema(name: &str, v: &Option<Value>) -> Result<u64, Error> {
    match v {
        None => Ok(1),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|s| (1..=NEWEST_SCHEMA).contains(&s)) => {
            Ok(n.as_u64().unwrap_or(1))
        }
        Some(other) => Err(at_error(
            name,
            "schema_version".into(),
            format!(
                "{other}: this imb-compare reads schemas 1 to {NEWEST_SCHEMA} (a newer imb-rs \
                 wrote it? use the imb-compare of that version)"
            ),
        )),
    }
}

/// How the launch ended: schema 3's `provenance.status`, else the top-level `complete`.
pub(super) fn status(name: &str, doc: &Doc) -> Result<Status, Error> {
    let Some(st) = doc.provenance.as_ref().and_then(|p| p.get("status")) else {
        return Ok(if doc.complete {
            Status::Complete
        } else {
            Status::CutShort("complete is false: the run stopped before its end".into())
        });
    };
    let text = |k: &str| st.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Ok(match st.get("state").and_then(Value::as_str) {
        Some("complete") => Status::Complete,
        Some("running") => Status::CutShort(
            "status running: the process was killed or crashed before its end".into(),
        ),
        Some("interrupted") => Status::CutShort(format!("status interrupted: {}", text("reason"))),
        Some("failed") => Status::CutShort(format!("status failed: {}", text("error"))),
        _ => {
            return Err(at_error(
                name,
                "provenance.status.state".into(),
                format!(
                    "{}: a status is complete, running, interrupted or failed",
                    st.get("state").unwrap_or(&Value::Null)
                ),
            ))
        }
    })
}

/// A value of schema 4's provenance that may be `{"absent": why}`: None then.
pub(super) fn known(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null() && v.get("absent").is_none())
}

/// A value in words: a string as it is, anything else as JSON.
pub(super) fn words(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
