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

fn day(date: &str) -> &str {
    date.get(..10).unwrap_or(date)
}

fn push_new(v: &mut Vec<String>, x: String) {
    if !v.contains(&x) {
        v.push(x);
    }
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

#[cfg(test)]
mod tests {
    use super::super::add::{prepare, Filing};
    use super::super::testdb::Scratch;
    use super::*;
    use crate::store::listing::list_text;

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
