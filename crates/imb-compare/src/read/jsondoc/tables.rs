//! A `-json` document's tables read into the tables of its text: every cell a number, every
//! figure checked ([`crate::read::check`]), a benchmark named twice joined as the text's are.

use super::doc::{at_error, note_text, TableDoc};
use super::provenance::{placement, Seat};
use crate::error::Error;
use crate::read::check::{self, At};
use crate::read::imbtext::column_key;
use crate::read::run::{Flag, Table};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A table note's flag: schema 2 by `kind` and fields, schema 1 by its text.
pub(super) fn json_flag(n: &Value) -> Option<(Option<u64>, Flag)> {
    let bytes = n.get("bytes").and_then(Value::as_u64);
    match n.get("kind").and_then(Value::as_str) {
        Some("adaptive") => n
            .get("unsettled")
            .is_some_and(|u| !u.is_null())
            .then_some((bytes, Flag::Unsettled)),
        Some("unreliable") => Some((bytes, Flag::Unreliable)),
        Some("defect") => Some((bytes, Flag::Defect)),
        Some(_) => None,
        None => crate::read::imbtext::note_flag(note_text(n)),
    }
}

/// One row's cells in column order, each a number, or an error naming the cell.
pub(super) fn cells(
    name: &str,
    at: &str,
    row: &Map<String, Value>,
    by: &[String],
) -> Result<Vec<f64>, Error> {
    by.iter()
        .map(|c| match row.get(c) {
            Some(Value::Number(n)) => n
                .as_f64()
                .ok_or_else(|| at_error(name, format!("{at}.{c}"), format!("{n}: not a figure"))),
            None => Err(at_error(
                name,
                at.to_string(),
                format!("no {c:?}: every column of the table needs a value"),
            )),
            Some(other) => Err(at_error(
                name,
                format!("{at}.{c}"),
                format!("{other}: a figure must be a number"),
            )),
        })
        .collect()
}

/// The document's tables (`docs`) as the text's tables, `seat_of` placing their ranks.
pub(super) fn read(
    name: &str,
    docs: &[TableDoc],
    seat_of: &BTreeMap<u64, Seat>,
) -> Result<Vec<Table>, Error> {
    let mut tables: Vec<Table> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (i, t) in docs.iter().enumerate() {
        let Some(table) = table(name, i, t, seat_of)? else {
            continue;
        };
        // A document is one launch: a second table under one key is its benchmark named
        // twice (`imb-mpi1 PingPong PingPong`), whose rows join the first's as the text's do
        // (doc/ACCEPTANCE.md, "Repeated sizes"); with other columns it cannot.
        match seen.get(&crate::read::imbtext::key(&table)) {
            None => {
                seen.insert(crate::read::imbtext::key(&table), (i, tables.len()));
                tables.push(table);
            }
            Some(&(_, k)) if tables[k].columns == table.columns => {
                check::join(&mut tables[k], table)
            }
            Some(&(first, _)) => {
                return Err(at_error(
                    name,
                    format!("tables[{i}]"),
                    format!(
                        "a second table of {} (the first is tables[{first}]) with other \
                         columns: not one launch's document",
                        crate::read::imbtext::key_words(&table)
                    ),
                ))
            }
        }
    }
    tables.iter_mut().for_each(check::merge_repeats);
    if tables.is_empty() {
        return Err(Error::File {
            file: name.to_string(),
            msg: "no table with rows in this -json document".to_string(),
        });
    }
    Ok(tables)
}

/// Table `i` of the document (`t`), checked; `None` for a table without rows.
fn table(
    name: &str,
    i: usize,
    t: &TableDoc,
    seat_of: &BTreeMap<u64, Seat>,
) -> Result<Option<Table>, Error> {
    if t.rows.is_empty() {
        return Ok(None);
    }
    if t.processes == 0 || t.processes > i32::MAX as usize {
        return Err(at_error(
            name,
            format!("tables[{i}].processes"),
            format!(
                "{}: a table runs on 1 to {} processes (an MPI int)",
                t.processes,
                i32::MAX
            ),
        ));
    }
    for (k, n) in t.notes.iter().enumerate() {
        let size = n.get("bytes").filter(|b| !b.is_null());
        let bad = size.and_then(|b| match b.as_f64() {
            Some(v) => check::bad_size(v).map(|why| format!("{}: {why}", check::shown(v))),
            None => Some(format!("{b}: a size must be a number")),
        });
        if let Some(why) = bad {
            return Err(at_error(name, format!("tables[{i}].notes[{k}].bytes"), why));
        }
    }
    let by = if t.keys.len() == t.columns.len() {
        &t.keys
    } else {
        &t.columns
    };
    let mut rows = Vec::with_capacity(t.rows.len());
    let mut at = Vec::with_capacity(t.rows.len());
    for (r, row) in t.rows.iter().enumerate() {
        let here = format!("tables[{i}].rows[{r}]");
        rows.push(cells(name, &here, row, by)?);
        at.push(At::Path(here));
    }
    let groups = t.groups.len().max(1);
    let mut table = Table {
        // The text banner's name: Multi- when more than one group ran at once.
        benchmark: if t.multi && groups > 1 {
            format!("Multi-{}", t.benchmark)
        } else {
            t.benchmark.clone()
        },
        processes: Some(t.processes),
        groups,
        mode: t.mode.clone(),
        rows,
        columns: t.columns.iter().map(|c| column_key(c)).collect(),
        line: 0,
        flags: t.notes.iter().filter_map(json_flag).collect(),
        placement: placement(&t.groups, seat_of),
    };
    check::table(name, &table, &at, by)?;
    if let Some(g) = table.column("group") {
        // A row's group is its group's place in `groups` (the text's Group column).
        if let Some(r) = table.rows.iter().position(|row| row[g] >= groups as f64) {
            return Err(at_error(
                name,
                format!("tables[{i}].rows[{r}].{}", by[g]),
                format!("group {} in a table of {groups} group(s)", table.rows[r][g]),
            ));
        }
    }
    check::flag_defects(&mut table);
    Ok(Some(table))
}
