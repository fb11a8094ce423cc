//! `store add`: a run's launch files into the store, each argument one run in one transaction.
//!
//! Everything named is read and checked first, by the readers a comparison uses; a file they
//! refuse stops the command before anything is written. Then each run is written whole: its
//! launches, each with its files. A file whose text is stored already (same SHA-256) is not
//! stored again; a file that is another record of a stored launch (the `-json` of a launch
//! whose text is kept, by [`crate::read::sides::same_launch`]) joins that launch. A run that brings
//! nothing new is not made at all.

use super::db::Store;
use crate::error::Error;
use crate::read::run::{Run, Status};
use crate::read::sides;
use rusqlite::{params, OptionalExtension, TransactionBehavior};

/// What a new run is filed under.
#[derive(Debug, Clone, Default)]
pub struct Filing {
    pub system: String,
    pub label: Option<String>,
    pub tags: Vec<String>,
}

/// One launch file, read and parsed.
struct File {
    /// The name inside the run (the file's name, without its directory).
    name: String,
    text: String,
    sha256: String,
    run: Run,
}

/// One launch: the files that record it, the `-json` one first when there is one.
struct Launch {
    files: Vec<File>,
}

impl Launch {
    /// The reading the metadata comes from: the whole one, the `-json` file's when there is one.
    fn best(&self) -> &Run {
        &self.files[0].run
    }
}

/// A run argument read and checked, not yet written.
pub struct Prepared {
    pub source: String,
    launches: Vec<Launch>,
    /// Files identical to another file of the same argument.
    pub duplicates: usize,
    /// Empty files of the directory, passed over (named in the report).
    pub empty: Vec<String>,
}

/// What adding one argument did.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    pub source: String,
    /// The run made, and its launch count; `None` when nothing was new.
    pub run: Option<(i64, usize)>,
    /// Files stored before (by any run), with the run that holds them.
    pub stored: Vec<(String, i64)>,
    /// Files that joined a launch stored before, with that launch's run.
    pub joined: Vec<(String, i64)>,
    pub files: usize,
    /// Empty files passed over.
    pub empty: Vec<String>,
}

impl Added {
    /// One line for the user.
    pub fn line(&self) -> String {
        let mut s = match self.run {
            Some((id, n)) => format!(
                "{}: run {id} added, {n} launch(es) from {} file(s)",
                self.source, self.files
            ),
            None => format!("{}: nothing new, no run added", self.source),
        };
        let runs = |v: &[(String, i64)]| {
            let mut r: Vec<i64> = v.iter().map(|x| x.1).collect();
            r.sort_unstable();
            r.dedup();
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.stored.is_empty() {
            s.push_str(&format!(
                "; {} file(s) already stored (run {})",
                self.stored.len(),
                runs(&self.stored)
            ));
        }
        if !self.empty.is_empty() {
            s.push_str(&format!(
                "; {} empty file(s) passed over ({})",
                self.empty.len(),
                self.empty.join(", ")
            ));
        }
        if !self.joined.is_empty() {
            s.push_str(&format!(
                "; {} file(s) joined a launch stored before (run {})",
                self.joined.len(),
                runs(&self.joined)
            ));
        }
        s
    }
}

/// Reads and checks the launch files of `source` (a directory or one file).
pub fn prepare(source: &str) -> Result<Prepared, Error> {
    let mut launches: Vec<Launch> = Vec::new();
    let mut duplicates = 0;
    let (texts, empty) = sides::read_launches(source)?;
    for (path, text) in texts {
        let run = sides::parse_launch(&path, &text)?;
        let sha256 = sides::sha256_hex(&text);
        if launches
            .iter()
            .flat_map(|l| &l.files)
            .any(|f| f.sha256 == sha256)
        {
            duplicates += 1;
            continue;
        }
        let name = std::path::Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(path.clone());
        let file = File {
            name,
            text,
            sha256,
            run,
        };
        match launches
            .iter_mut()
            .find(|l| sides::same_launch(l.best(), &file.run))
        {
            // The better reading first (whole over cut short, then -json), as the readers keep.
            Some(l) if sides::better(&file.run, l.best()) => l.files.insert(0, file),
            Some(l) => l.files.push(file),
            None => launches.push(Launch { files: vec![file] }),
        }
    }
    Ok(Prepared {
        source: source.to_string(),
        launches,
        duplicates,
        empty: empty.iter().map(|f| sides::file_name(f)).collect(),
    })
}

/// A launch's start as the store sorts it: ISO 8601 to the second, from a `-json` file's
/// provenance (UTC) or the header's `Date` line (the launch's local time, asctime).
pub(crate) fn started(run: &Run) -> Option<String> {
    if let Some(s) = &run.identity.start {
        if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
            return Some(
                t.with_timezone(&chrono::Utc)
                    .format("%Y-%m-%dT%H:%M:%SZ")
                    .to_string(),
            );
        }
    }
    // asctime: "Wed Nov 25 16:06:33 2026". The weekday is left out: a wrong one (a clock set
    // by hand, a file edited) should not lose the date.
    let d = run.identity.date.as_deref()?;
    let words: Vec<&str> = d.split_whitespace().collect();
    let d = words.get(1..)?.join(" ");
    chrono::NaiveDateTime::parse_from_str(&d, "%b %d %H:%M:%S %Y")
        .ok()
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
}

/// The tables of a launch as the store lists them: `PingPong/2`, `Multi-PingPong/2x2`,
/// `P_Write_indv/2 AGGREGATE`; `Bcast` for OSU's (no process count).
pub(crate) fn table_names(run: &Run) -> String {
    let mut v: Vec<String> = Vec::new();
    for t in &run.tables {
        let mut s = t.benchmark.clone();
        if let Some(p) = t.processes {
            s.push_str(&format!("/{p}"));
            if t.groups > 1 {
                s.push_str(&format!("x{}", t.groups));
            }
        }
        if let Some(m) = &t.mode {
            s.push_str(&format!(" {m}"));
        }
        if !v.contains(&s) {
            v.push(s);
        }
    }
    v.join(", ")
}

pub(crate) fn status_text(s: &Status) -> String {
    match s {
        Status::Complete => "complete".into(),
        Status::Unknown => "unknown".into(),
        Status::CutShort(why) => format!("cut short: {why}"),
    }
}

impl Store {
    /// Writes `p` as a new run filed under `filing`, in one transaction.
    pub fn add(&mut self, p: &Prepared, filing: &Filing) -> Result<Added, Error> {
        let mut all = self.add_all(std::slice::from_ref(p), filing)?;
        Ok(all.remove(0))
    }

    /// Writes each of `ps` as a run of its own, all in one transaction: one `store add` of
    /// several runs keeps all of them or, when any write fails, none (as its error says).
    pub fn add_all(&mut self, ps: &[Prepared], filing: &Filing) -> Result<Vec<Added>, Error> {
        let db = self.db.clone();
        let e = |e: rusqlite::Error| super::db::sql_error(&db, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        let out = ps
            .iter()
            .map(|p| add_run(&tx, &db, p, filing))
            .collect::<Result<Vec<Added>, Error>>()?;
        tx.commit().map_err(e)?;
        Ok(out)
    }
}

/// One run of [`Store::add_all`], inside its transaction.
fn add_run(
    tx: &rusqlite::Transaction,
    db: &str,
    p: &Prepared,
    filing: &Filing,
) -> Result<Added, Error> {
    let e = |e: rusqlite::Error| super::db::sql_error(db, e);
    let mut out = Added {
        source: p.source.clone(),
        run: None,
        stored: Vec::new(),
        joined: Vec::new(),
        files: p.launches.iter().map(|l| l.files.len()).sum::<usize>() + p.duplicates,
        empty: p.empty.clone(),
    };
    let mut run_id: Option<i64> = None;
    let mut count = 0;
    for l in &p.launches {
        let (mut known, fresh) = stored_files(tx, &l.files, &mut out.stored).map_err(e)?;
        if fresh.is_empty() {
            continue;
        }
        let ident = l.best().identity.date.clone();
        if known.is_none() {
            known = same_stored_launch(tx, l.best(), ident.as_deref()).map_err(e)?;
        }
        let launch_id = match known {
            Some((lid, rid)) => {
                out.joined
                    .extend(fresh.iter().map(|f| (f.name.clone(), rid)));
                // A -json record joining stored text: its metadata is the fuller one, and its
                // start (UTC) the launch's, so the run's date follows.
                if fresh.iter().any(|f| f.run.identity.json) {
                    write_meta(tx, lid, l.best()).map_err(e)?;
                    run_started(tx, rid).map_err(e)?;
                }
                lid
            }
            None => {
                let rid = match run_id {
                    Some(r) => r,
                    None => {
                        tx.execute(
                            "INSERT INTO runs (added, system, label, source) \
                                 VALUES (?1, ?2, ?3, ?4)",
                            params![super::db::now(), filing.system, filing.label, p.source],
                        )
                        .map_err(e)?;
                        let r = tx.last_insert_rowid();
                        run_id = Some(r);
                        r
                    }
                };
                tx.execute(
                    "INSERT INTO launches (run, ident, title, status, tables) \
                         VALUES (?1, ?2, '', '', '')",
                    params![rid, ident],
                )
                .map_err(e)?;
                let lid = tx.last_insert_rowid();
                write_meta(tx, lid, l.best()).map_err(e)?;
                count += 1;
                lid
            }
        };
        for f in fresh {
            tx.execute(
                "INSERT INTO files (launch, sha256, name, json, text) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                params![launch_id, f.sha256, f.name, f.run.identity.json, f.text],
            )
            .map_err(e)?;
        }
    }
    if let Some(rid) = run_id {
        for t in &filing.tags {
            tx.execute(
                "INSERT OR IGNORE INTO tags (run, tag) VALUES (?1, ?2)",
                params![rid, t],
            )
            .map_err(e)?;
        }
        run_started(tx, rid).map_err(e)?;
        out.run = Some((rid, count));
    }
    Ok(out)
}

/// The stored launch and run (`(launch, run)`) a launch's files join, if any, and its files
/// not stored yet.
type Found<'a> = (Option<(i64, i64)>, Vec<&'a File>);

/// Which of a launch's `files` the store already keeps (each named in `stored` with its run),
/// the stored launch (and run) the first of them belongs to, and the files it does not keep.
fn stored_files<'a>(
    tx: &rusqlite::Transaction,
    files: &'a [File],
    stored: &mut Vec<(String, i64)>,
) -> rusqlite::Result<Found<'a>> {
    let mut known: Option<(i64, i64)> = None; // (launch, run)
    let mut fresh = Vec::new();
    for f in files {
        let hit: Option<(i64, i64)> = tx
            .query_row(
                "SELECT f.launch, l.run FROM files f JOIN launches l ON l.id = f.launch \
                     WHERE f.sha256 = ?1",
                [&f.sha256],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match hit {
            Some(h) => {
                stored.push((f.name.clone(), h.1));
                known.get_or_insert(h);
            }
            None => fresh.push(f),
        }
    }
    Ok((known, fresh))
}

/// A run's date: its first launch's start.
fn run_started(tx: &rusqlite::Connection, run: i64) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE runs SET started = (SELECT min(started) FROM launches WHERE run = ?1) \
         WHERE id = ?1",
        [run],
    )?;
    Ok(())
}

fn write_meta(tx: &rusqlite::Connection, launch: i64, run: &Run) -> rusqlite::Result<()> {
    let c = &run.conditions;
    tx.execute(
        "UPDATE launches SET started = ?2, title = ?3, program = ?4, mpi = ?5, hosts = ?6, \
         status = ?7, tables = ?8 WHERE id = ?1",
        params![
            launch,
            started(run),
            run.title,
            c.program,
            c.mpi_library,
            c.hosts.as_ref().map(|h| h.join(", ")),
            status_text(&run.status),
            table_names(run),
        ],
    )?;
    Ok(())
}

/// A stored launch that `run` is another record of: same `Date` line, and the rule of
/// [`crate::read::sides::same_launch`] on the stored files as the readers read them.
fn same_stored_launch(
    tx: &rusqlite::Connection,
    run: &Run,
    ident: Option<&str>,
) -> rusqlite::Result<Option<(i64, i64)>> {
    let Some(ident) = ident else {
        return Ok(None);
    };
    let mut q = tx.prepare(
        "SELECT l.id, l.run, f.name, f.text FROM launches l JOIN files f ON f.launch = l.id \
         WHERE l.ident = ?1 ORDER BY l.id, f.id",
    )?;
    let rows = q.query_map([ident], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    for row in rows {
        let (lid, rid, name, text) = row?;
        // A stored file the readers now refuse cannot be the same launch.
        if let Ok(stored) = sides::parse_launch(&name, &text) {
            if sides::same_launch(&stored, run) {
                return Ok(Some((lid, rid)));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::testdb::Scratch;
    use super::*;

    const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus");

    /// A stray empty stderr capture in a run directory is passed over, and said.
    #[test]
    fn an_empty_file_is_passed_over() {
        let d = Scratch::new("empty-err");
        std::fs::create_dir_all(d.path("run")).unwrap();
        std::fs::copy(
            format!("{CORPUS}/imbtext/imb-rs-mpi1.txt"),
            d.path("run/1.txt"),
        )
        .unwrap();
        std::fs::write(d.path("run/1.err"), "").unwrap();
        let p = prepare(&d.path("run")).unwrap();
        assert_eq!(
            (p.launches.len(), &p.empty[..]),
            (1, &["1.err".to_string()][..])
        );
        let mut st = Store::open_or_create(&d.db()).unwrap();
        let line = st.add(&p, &filing()).unwrap().line();
        assert!(
            line.ends_with("; 1 empty file(s) passed over (1.err)"),
            "{line}"
        );
    }

    /// Two records of one launch, the first cut short: the whole one is the launch's reading.
    #[test]
    fn the_whole_record_of_a_launch_comes_first() {
        let d = Scratch::new("whole-first");
        let text = "#    imb-rs 0.1.0, MPI-1 part\n\
                    # Date                  : Wed Nov 25 05:21:10 2026\n\
                    # Benchmarking PingPong \n# #processes = 2 \n       \
                    #bytes #repetitions      t[usec]   Mbytes/sec\n            \
                    0         1000         0.27         0.00\n";
        std::fs::create_dir_all(d.path("run")).unwrap();
        std::fs::write(d.path("run/1.txt"), text).unwrap();
        std::fs::write(
            d.path("run/2.txt"),
            format!("{text}\n# All processes entering MPI_Finalize\n"),
        )
        .unwrap();
        let p = prepare(&d.path("run")).unwrap();
        assert_eq!(p.launches.len(), 1);
        assert!(p.launches[0].best().status.cut_short().is_none());
        assert_eq!(p.launches[0].files[0].name, "2.txt");
    }

    fn filing() -> Filing {
        Filing {
            system: "vm".into(),
            label: Some("first".into()),
            tags: vec!["ompi".into()],
        }
    }

    #[test]
    fn a_launch_stored_twice_is_kept_once_and_text_joins_its_json() {
        let s = Scratch::new("add-once");
        let db = s.db();
        let mut st = Store::open_or_create(&db).unwrap();
        // The text and -json records of one launch (fuzz/corpus: the same imb-rs run).
        let text = format!("{CORPUS}/imbtext/imb-rs-mpi1.txt");
        let json = format!("{CORPUS}/jsondoc/imb-rs-mpi1.json");
        let a = st.add(&prepare(&text).unwrap(), &filing()).unwrap();
        assert_eq!(a.run, Some((1, 1)), "{a:?}");
        let again = st.add(&prepare(&text).unwrap(), &filing()).unwrap();
        assert_eq!(again.run, None);
        assert_eq!(again.stored, vec![("imb-rs-mpi1.txt".to_string(), 1)]);
        // Its -json, added later as a run of its own, joins the stored launch.
        let j = st.add(&prepare(&json).unwrap(), &filing()).unwrap();
        assert_eq!(j.run, None, "{j:?}");
        assert_eq!(j.joined, vec![("imb-rs-mpi1.json".to_string(), 1)]);
        let (launches, files): (i64, i64) = st
            .conn
            .query_row(
                "SELECT (SELECT count(*) FROM launches), (SELECT count(*) FROM files)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((launches, files), (1, 2));
        // The launch's metadata is now the -json's: its hosts and MPI library.
        let (mpi, hosts): (Option<String>, Option<String>) = st
            .conn
            .query_row("SELECT mpi, hosts FROM launches", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert!(mpi.unwrap().starts_with("Open MPI"));
        assert!(hosts.is_some());
    }

    #[test]
    fn a_bad_file_stops_the_add_before_any_write() {
        let s = Scratch::new("add-bad");
        let run = s.path("run");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::copy(
            format!("{CORPUS}/imbtext/imb-3.0.txt"),
            format!("{run}/1.txt"),
        )
        .unwrap();
        std::fs::write(format!("{run}/2.txt"), "no table\n").unwrap();
        let e = prepare(&run).err().unwrap().to_string();
        assert!(e.ends_with("2.txt: no IMB or OSU table in it"), "{e}");
    }

    #[test]
    fn dates_of_both_formats() {
        let mut r = sides::parse_launch(
            "x",
            &std::fs::read_to_string(format!("{CORPUS}/imbtext/imb-rs-mpi1.txt")).unwrap(),
        )
        .unwrap();
        assert_eq!(started(&r).as_deref(), Some("2026-11-25T16:06:33"));
        r.identity.start = Some("2026-11-25T16:06:32.794Z".into());
        assert_eq!(started(&r).as_deref(), Some("2026-11-25T16:06:32Z"));
        r.identity = Default::default();
        assert_eq!(started(&r), None);
    }
}
