//! One `-json` document read into a run: the document checked, its tables, the launch's
//! identity (start, command line, load) and what its header says.

use super::doc::{at_error, note_text, schema, status, Doc, Header};
use super::provenance::{mt_threads, provenance_conditions, provenance_line};
use super::tables;
use crate::error::Error;
use crate::read::check;
use crate::read::header;
use crate::read::run::{Conditions, Identity, Run, Table};
use serde_json::Value;

/// Parse one `-json` document. `name` is the file's name, for messages.
pub fn parse(name: &str, text: &str) -> Result<Run, Error> {
    let doc = document(name, text)?;
    let status = status(name, &doc)?;
    let mut conditions = Conditions::default();
    let (seat_of, machine_over) = doc
        .provenance
        .as_ref()
        .map(|p| provenance_conditions(p, &mut conditions))
        .unwrap_or_default();
    if doc.suite.as_deref() == Some("imb-mt") {
        conditions.threads = doc.provenance.as_ref().and_then(mt_threads);
    }
    let mut tables = tables::read(name, &doc.tables, &seat_of)?;
    let mut identity = match &doc.provenance {
        Some(p) => identity(name, p)?,
        None => Identity {
            json: true,
            ..Identity::default()
        },
    };
    let (title, oversubscribed) = match &doc.header {
        Some(h) => header_facts(h, &mut conditions, &mut identity, &mut tables),
        None => ("imb-rs".to_string(), None),
    };
    Ok(Run {
        title,
        tables,
        status,
        core_to_core: None,
        wall_secs: None,
        // The header's own note, else the machines' count: either makes the times no result.
        oversubscribed: oversubscribed.or(machine_over),
        provenance: doc.provenance.as_ref().and_then(provenance_line),
        conditions,
        identity,
    })
}

/// The document, its schema one this reader knows and its suite one of the MPI executables'.
fn document(name: &str, text: &str) -> Result<Doc, Error> {
    let doc: Doc = match serde_json::from_str(text) {
        Ok(d) => d,
        Err(e) => {
            // A newer schema may have changed the shape: say so, not which field is missing.
            if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) {
                schema(name, &m.get("schema_version").cloned())?;
            }
            return Err(Error::Line {
                file: name.to_string(),
                line: e.line(),
                msg: format!("not an imb-rs -json document: {e}"),
            });
        }
    };
    schema(name, &doc.schema_version)?;
    if let Some(s @ ("imb-threads" | "imb-omp")) = doc.suite.as_deref() {
        return Err(Error::File {
            file: name.to_string(),
            msg: format!(
                "an {s} document: its tables are not IMB tables (imb-compare reads the MPI \
                 executables' files)"
            ),
        });
    }
    Ok(doc)
}

/// What tells the launch apart, from its provenance `p`: its start, command line and the load
/// at its start and end.
fn identity(name: &str, p: &Value) -> Result<Identity, Error> {
    let mut identity = Identity {
        json: true,
        ..Identity::default()
    };
    identity.start = p.get("start").and_then(Value::as_str).map(str::to_string);
    identity.argv = p.get("argv").map(Value::to_string);
    // A load average is a count of runnable tasks: never below 0, and no machine has a
    // million. Beyond that the file is not as imb-rs wrote it.
    let one_minute = |at: &str, v: Option<&Value>| match v.and_then(|l| l.get(0)) {
        Some(x) => match x.as_f64() {
            Some(l) if (0.0..=1e6).contains(&l) => Ok(Some(l)),
            l => Err(at_error(
                name,
                format!("provenance.{at}[0]"),
                format!(
                    "{}: a load average is a number from 0 to 10^6",
                    l.map_or(x.to_string(), check::shown)
                ),
            )),
        },
        None => Ok(None),
    };
    let start = one_minute("hosts[0].load_average", p.pointer("/hosts/0/load_average"))?;
    let end = one_minute("load_average_end", p.get("load_average_end"))?;
    identity.load = start.map(|s| (s, end));
    Ok(identity)
}

/// What the header `h` says: the run's title and oversubscription note, its parameters, thread
/// level, MPI standard, program and date (into `conditions` and `identity`), and under
/// `-compat 2021` the tables' Mbytes/sec restated in binary megabytes.
fn header_facts(
    h: &Header,
    conditions: &mut Conditions,
    identity: &mut Identity,
    tables: &mut [Table],
) -> (String, Option<String>) {
    let oversubscribed = h
        .notes
        .iter()
        .chain(&h.warnings)
        .find(|n| {
            n.get("kind").and_then(Value::as_str) == Some("oversubscribed")
                || note_text(n).contains("(oversubscribed)")
        })
        .map(|n| note_text(n).trim_start_matches("!!").trim().to_string());
    let optional: Vec<String> = h
        .notes
        .iter()
        .filter(|n| {
            matches!(
                n.get("kind").and_then(Value::as_str),
                Some("optional_mode" | "method" | "p2p_method")
            )
        })
        .chain(&h.optional)
        .flat_map(|n| {
            note_text(n)
                .lines()
                .map(|l| l.trim_start_matches("!!").to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    conditions.parameters = Some(header::optional_parameters(
        optional.iter().map(String::as_str),
    ));
    // -compat 2021's Mbytes/sec count 10^6 bytes; the text reader converts the same.
    if optional
        .iter()
        .any(|l| crate::read::run::decimal_megabyte_line(l))
    {
        tables.iter_mut().for_each(Table::to_binary_megabytes);
    }
    if conditions.thread_level.is_none() {
        conditions.thread_level = Some(h.thread_env.clone());
    }
    let numbers: Vec<String> = h
        .mpi_version
        .iter()
        .flatten()
        .map(|v| v.to_string())
        .collect();
    if !numbers.is_empty() {
        conditions.mpi_standard = Some(numbers.join("."));
    }
    identity.date = h.date.clone();
    conditions.program = Some(format!("imb-rs {}", h.version));
    (format!("imb-rs {}, {}", h.version, h.part), oversubscribed)
}
