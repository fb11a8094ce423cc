//! `store list`, `store show`, `store rm` and `store accept`: what the store holds, run by run,
//! and the accepted baseline of each system.

use super::db::Store;
use crate::error::Error;
use rusqlite::{params, OptionalExtension, TransactionBehavior};
use std::collections::BTreeMap;

/// One stored run, summed over its launches.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunInfo {
    pub id: i64,
    /// When it was added (UTC).
    pub added: String,
    /// Its first launch's start, when a file says.
    pub started: Option<String>,
    pub system: String,
    pub label: Option<String>,
    /// The path it was added from.
    pub source: String,
    pub tags: Vec<String>,
    pub launches: usize,
    pub cut_short: usize,
    /// Each distinct value over its launches, in launch order; empty where no file says.
    pub programs: Vec<String>,
    pub mpis: Vec<String>,
    pub hosts: Vec<String>,
    pub tables: Vec<String>,
    /// Whether it is its system's accepted baseline now.
    pub accepted: bool,
}

impl RunInfo {
    /// The run's date: its first launch's start, else the day it was added.
    pub fn date(&self) -> &str {
        self.started.as_deref().unwrap_or(&self.added)
    }

    /// "run 12 (vm, nightly, 2026-11-25)".
    pub fn name(&self) -> String {
        let mut s = format!("run {} ({}", self.id, self.system);
        if let Some(l) = &self.label {
            s.push_str(&format!(", {l}"));
        }
        s.push_str(&format!(", {})", day(self.date())));
        s
    }
}

/// A time the store keeps, as shown: the store keeps UTC with a `Z` (a `-json` file's start,
/// when a run was added or accepted) and a text file's `Date` line as it was written, the local
/// time of the machine that ran it, whose zone IMB's text does not record. Both say which
/// they are: `2026-11-25 16:06:32 UTC`, `2026-11-21 10:05:42 local`.
pub fn shown_time(t: &str) -> String {
    match t.strip_suffix('Z') {
        Some(utc) => format!("{} UTC", utc.replacen('T', " ", 1)),
        None => format!("{} local", t.replacen('T', " ", 1)),
    }
}

fn day(date: &str) -> &str {
    date.get(..10).unwrap_or(date)
}

fn push_new(v: &mut Vec<String>, x: String) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The library's name and version without the build details after its first comma.
fn short_mpi(m: &str) -> &str {
    m.split(',').next().unwrap_or(m).trim()
}

impl Store {
    /// Every stored run, oldest added first.
    pub fn runs(&self) -> Result<Vec<RunInfo>, Error> {
        let e = |x| self.err(x);
        let mut by_id: BTreeMap<i64, RunInfo> = BTreeMap::new();
        let mut q = self
            .conn
            .prepare("SELECT id, added, started, system, label, source FROM runs ORDER BY id")
            .map_err(e)?;
        let rows = q
            .query_map([], |r| {
                Ok(RunInfo {
                    id: r.get(0)?,
                    added: r.get(1)?,
                    started: r.get(2)?,
                    system: r.get(3)?,
                    label: r.get(4)?,
                    source: r.get(5)?,
                    ..RunInfo::default()
                })
            })
            .map_err(e)?;
        for r in rows {
            let r = r.map_err(e)?;
            by_id.insert(r.id, r);
        }
        let mut q = self
            .conn
            .prepare("SELECT run, tag FROM tags ORDER BY run, tag")
            .map_err(e)?;
        let rows = q
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(e)?;
        for r in rows {
            let (run, tag) = r.map_err(e)?;
            if let Some(x) = by_id.get_mut(&run) {
                x.tags.push(tag);
            }
        }
        let mut q = self
            .conn
            .prepare(
                "SELECT run, program, mpi, hosts, status, tables FROM launches \
                 ORDER BY run, started, id",
            )
            .map_err(e)?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                ))
            })
            .map_err(e)?;
        for r in rows {
            let (run, program, mpi, hosts, status, tables) = r.map_err(e)?;
            let Some(x) = by_id.get_mut(&run) else {
                continue;
            };
            x.launches += 1;
            if status.starts_with("cut short") {
                x.cut_short += 1;
            }
            if let Some(p) = program {
                push_new(&mut x.programs, p);
            }
            if let Some(m) = mpi {
                push_new(&mut x.mpis, m);
            }
            for h in hosts.iter().flat_map(|h| h.split(", ")) {
                push_new(&mut x.hosts, h.to_string());
            }
            for t in tables.split(", ").filter(|t| !t.is_empty()) {
                push_new(&mut x.tables, t.to_string());
            }
        }
        for (_, run) in self.accepted_now()? {
            if let Some(x) = by_id.get_mut(&run) {
                x.accepted = true;
            }
        }
        Ok(by_id.into_values().collect())
    }

    /// Each system's accepted baseline now: its newest acceptance.
    pub fn accepted_now(&self) -> Result<Vec<(String, i64)>, Error> {
        let e = |x| self.err(x);
        let mut q = self
            .conn
            .prepare(
                "SELECT system, run FROM accepted a \
                 WHERE id = (SELECT max(id) FROM accepted b WHERE b.system = a.system) \
                 ORDER BY system",
            )
            .map_err(e)?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(e)?;
        rows.collect::<Result<_, _>>().map_err(e)
    }

    /// One run, or an error naming the id.
    pub fn run(&self, id: i64) -> Result<RunInfo, Error> {
        self.runs()?
            .into_iter()
            .find(|r| r.id == id)
            .ok_or_else(|| self.refuse(format!("no run {id}: imb-compare store list shows them")))
    }

    /// The launch files of run `id`, launch by launch in start order, each launch's `-json`
    /// file first: (launch, file name, text). A text that no longer has the SHA-256 it was
    /// stored with was damaged in the store (a page overwritten inside it): said so, rather
    /// than left to the readers, which would blame the launch file.
    pub fn files(&self, id: i64) -> Result<Vec<(i64, String, String)>, Error> {
        let e = |x| self.err(x);
        let mut q = self
            .conn
            .prepare(
                "SELECT l.id, f.name, f.text, f.sha256 FROM launches l \
                 JOIN files f ON f.launch = l.id \
                 WHERE l.run = ?1 ORDER BY l.started, l.id, f.json DESC, f.id",
            )
            .map_err(e)?;
        let rows = q
            .query_map([id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, String>(3)?))
            })
            .map_err(e)?;
        let mut out = Vec::new();
        for row in rows {
            let (launch, name, text, sha): (i64, String, String, String) = row.map_err(e)?;
            if crate::read::sides::sha256_hex(&text) != sha {
                return Err(self.refuse(format!(
                    "damaged: run {id}'s file {name} no longer has the SHA-256 it was stored \
                     with; left as it is: restore the store from a copy, or remove the run \
                     (imb-compare store rm {id})"
                )));
            }
            out.push((launch, name, text));
        }
        Ok(out)
    }

    /// Removes runs `ids` with their launches and files, all or none.
    pub fn remove(&mut self, ids: &[i64]) -> Result<Vec<String>, Error> {
        let runs = self.runs()?;
        let before = self.accepted_now()?;
        for id in ids {
            if !runs.iter().any(|r| r.id == *id) {
                return Err(self.refuse(format!(
                    "no run {id}: nothing removed (imb-compare store list shows the runs)"
                )));
            }
        }
        let db = self.db.clone();
        let e = |x| super::db::sql_error(&db, x);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        for id in ids {
            for sql in [
                "DELETE FROM files WHERE launch IN (SELECT id FROM launches WHERE run = ?1)",
                "DELETE FROM launches WHERE run = ?1",
                "DELETE FROM tags WHERE run = ?1",
                "DELETE FROM accepted WHERE run = ?1",
                "DELETE FROM runs WHERE id = ?1",
            ] {
                tx.execute(sql, [id]).map_err(e)?;
            }
        }
        tx.commit().map_err(e)?;
        let after = self.accepted_now()?;
        let mut out = Vec::new();
        for id in ids {
            let r = runs.iter().find(|r| r.id == *id).expect("checked");
            out.push(format!("removed {}: {} launch(es)", r.name(), r.launches));
        }
        for (system, run) in before {
            if !ids.contains(&run) {
                continue;
            }
            out.push(match after.iter().find(|(s, _)| *s == system) {
                Some((_, now)) => format!(
                    "{system}: run {run} was its accepted baseline; run {now}, accepted before \
                     it, is again"
                ),
                None => format!("{system}: run {run} was its accepted baseline; it has none now"),
            });
        }
        Ok(out)
    }

    /// Makes run `id` its system's accepted baseline.
    pub fn accept(&mut self, id: i64) -> Result<String, Error> {
        let r = self.run(id)?;
        let e = |x| self.err(x);
        let was: Option<i64> = self
            .conn
            .query_row(
                "SELECT run FROM accepted WHERE system = ?1 ORDER BY id DESC LIMIT 1",
                [&r.system],
                |x| x.get(0),
            )
            .optional()
            .map_err(e)?;
        if was == Some(id) {
            return Ok(format!(
                "{} is already the accepted baseline of {}",
                r.name(),
                r.system
            ));
        }
        self.conn
            .execute(
                "INSERT INTO accepted (system, run, at) VALUES (?1, ?2, ?3)",
                params![r.system, id, super::db::now()],
            )
            .map_err(e)?;
        Ok(format!(
            "{} is now the accepted baseline of {}{}",
            r.name(),
            r.system,
            was.map(|w| format!(" (was run {w})")).unwrap_or_default()
        ))
    }
}

/// `store list`: one line a run.
pub fn list_text(db: &str, runs: &[RunInfo]) -> String {
    let systems: std::collections::BTreeSet<&str> =
        runs.iter().map(|r| r.system.as_str()).collect();
    let mut out = format!(
        "# results store {}: {} run(s) of {} system(s)\n",
        imb_core::error::plain(db),
        runs.len(),
        systems.len()
    );
    if runs.is_empty() {
        return out;
    }
    let unknown = |v: &[String], f: fn(&str) -> &str| {
        if v.is_empty() {
            "unknown".to_string()
        } else {
            v.iter().map(|x| f(x)).collect::<Vec<_>>().join(" / ")
        }
    };
    let mut rows: Vec<Vec<String>> = vec![[
        "run", "date", "system", "label", "launches", "program", "MPI", "hosts", "tables", "tags",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()];
    for r in runs {
        let tables = if r.tables.len() > 3 {
            format!("{}, +{}", r.tables[..3].join(", "), r.tables.len() - 3)
        } else {
            r.tables.join(", ")
        };
        let mut tags = r.tags.join(",");
        if r.accepted {
            tags.push_str(if tags.is_empty() {
                "[accepted]"
            } else {
                " [accepted]"
            });
        }
        let launches = if r.cut_short > 0 {
            format!("{} ({} cut short)", r.launches, r.cut_short)
        } else {
            r.launches.to_string()
        };
        rows.push(vec![
            r.id.to_string(),
            shown_time(r.date()),
            r.system.clone(),
            r.label.clone().unwrap_or_else(|| "-".into()),
            launches,
            unknown(&r.programs, |x| x),
            unknown(&r.mpis, short_mpi),
            if r.hosts.is_empty() {
                "unknown".into()
            } else {
                r.hosts.join(",")
            },
            tables,
            tags,
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c == 0 {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str("  ");
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(&imb_core::error::plain(line.trim_end()));
        out.push('\n');
    }
    out
}

impl Store {
    /// `store show`: a run, launch by launch, with its files.
    pub fn show_text(&self, id: i64) -> Result<String, Error> {
        let r = self.run(id)?;
        let e = |x| self.err(x);
        let mut out = format!("{}\n", r.name());
        out.push_str(&format!("  system: {}\n", r.system));
        out.push_str(&format!("  label: {}\n", r.label.as_deref().unwrap_or("-")));
        out.push_str(&format!(
            "  tags: {}\n",
            if r.tags.is_empty() {
                "-".to_string()
            } else {
                r.tags.join(", ")
            }
        ));
        out.push_str(&format!(
            "  added: {} from {}\n",
            shown_time(&r.added),
            r.source
        ));
        if r.accepted {
            out.push_str(&format!("  the accepted baseline of {}\n", r.system));
        }
        let mut q = self
            .conn
            .prepare(
                "SELECT id, started, title, program, mpi, hosts, status, tables FROM launches \
                 WHERE run = ?1 ORDER BY started, id",
            )
            .map_err(e)?;
        type Row = (
            i64,
            Option<String>,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            String,
            String,
        );
        let launches: Vec<Row> = q
            .query_map([id], |x| {
                Ok((
                    x.get(0)?,
                    x.get(1)?,
                    x.get(2)?,
                    x.get(3)?,
                    x.get(4)?,
                    x.get(5)?,
                    x.get(6)?,
                    x.get(7)?,
                ))
            })
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)?;
        let mut fq = self
            .conn
            .prepare(
                "SELECT name, json, length(CAST(text AS BLOB)), sha256 FROM files \
                 WHERE launch = ?1 ORDER BY json DESC, id",
            )
            .map_err(e)?;
        let unknown = |x: &Option<String>| x.clone().unwrap_or_else(|| "unknown".into());
        for (k, (lid, started, title, program, mpi, hosts, status, tables)) in
            launches.iter().enumerate()
        {
            out.push_str(&format!(
                "launch {}: started {}, {status}\n",
                k + 1,
                started.as_deref().map_or("unknown".to_string(), shown_time)
            ));
            out.push_str(&format!("  title: {title}\n"));
            out.push_str(&format!("  program: {}\n", unknown(program)));
            out.push_str(&format!("  MPI library: {}\n", unknown(mpi)));
            out.push_str(&format!("  hosts: {}\n", unknown(hosts)));
            out.push_str(&format!("  tables: {tables}\n"));
            let files: Vec<(String, bool, i64, String)> = fq
                .query_map([lid], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?)))
                .map_err(e)?
                .collect::<Result<_, _>>()
                .map_err(e)?;
            for (name, json, size, sha) in files {
                out.push_str(&format!(
                    "  file {name}: {}, {size} bytes, sha256 {sha}\n",
                    if json { "-json" } else { "text" }
                ));
            }
        }
        // Labels and tags hold no line breaks (store add refuses them): line by line is safe.
        Ok(out
            .lines()
            .map(|l| format!("{}\n", imb_core::error::plain(l)))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::super::add::{prepare, Filing};
    use super::super::testdb::Scratch;
    use super::*;

    const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus");

    #[test]
    fn list_show_accept_and_remove() {
        let s = Scratch::new("catalog");
        let mut st = Store::open_or_create(&s.db()).unwrap();
        let f = |system: &str, label: &str| Filing {
            system: system.into(),
            label: Some(label.into()),
            tags: vec!["t1".into()],
        };
        for (file, system, label) in [
            ("jsondoc/imb-rs-mpi1.json", "vm", "a"),
            ("imbtext/imb-3.0.txt", "vm", "b"),
            ("imbtext/osu-7.4-latency.txt", "other", "c"),
        ] {
            let p = prepare(&format!("{CORPUS}/{file}")).unwrap();
            st.add(&p, &f(system, label)).unwrap();
        }
        let runs = st.runs().unwrap();
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0].programs, ["imb-rs 0.1.0"]);
        assert!(runs[0].mpis[0].starts_with("Open MPI v4.1.4"));
        // IMB 3.0 text has no provenance.
        assert!(runs[1].mpis.is_empty() && runs[1].hosts.is_empty());
        let text = list_text(&s.db(), &runs);
        assert!(text.contains("3 run(s) of 2 system(s)"), "{text}");
        assert!(text.contains("Open MPI v4.1.4  "), "{text}");
        assert!(text.contains("unknown"), "{text}");

        assert_eq!(
            st.accept(1).unwrap(),
            "run 1 (vm, a, 2026-11-25) is now the accepted baseline of vm"
        );
        assert!(st
            .accept(2)
            .unwrap()
            .ends_with("accepted baseline of vm (was run 1)"));
        assert!(st.runs().unwrap()[1].accepted);
        assert!(st
            .show_text(2)
            .unwrap()
            .contains("the accepted baseline of vm"));
        let show = st.show_text(1).unwrap();
        assert!(show.contains("file imb-rs-mpi1.json: -json, "), "{show}");
        assert!(show.contains("MPI library: Open MPI v4.1.4"), "{show}");

        // Removing the baseline falls back to the one accepted before it.
        let out = st.remove(&[2]).unwrap();
        assert_eq!(
            out[1],
            "vm: run 2 was its accepted baseline; run 1, accepted before it, is again"
        );
        assert!(st.runs().unwrap()[0].accepted);
        let e = st.remove(&[1, 9]).err().unwrap().to_string();
        assert!(e.contains("no run 9: nothing removed"), "{e}");
        assert_eq!(st.runs().unwrap().len(), 2);
        let n: i64 = st
            .conn
            .query_row("SELECT count(*) FROM files", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 2);
    }
}
