//! The store's tables, how a file is recognised as a store of ours, and the migrations from
//! one schema version to the next.
//!
//! A store is an SQLite file whose `application_id` is [`APPLICATION_ID`] and whose
//! `user_version` is its schema version. Anything else at the path (no SQLite header, an empty
//! file, another program's database, a damaged one) is refused and never written to; a store
//! of a newer schema than [`VERSION`] is refused too, since this program cannot know what the
//! newer one keeps. An older one is brought up to [`VERSION`] by [`MIGRATIONS`], all of them
//! in one transaction.
//!
//! A new store is made under a temporary name beside the path and linked to the path only
//! when complete, so a process killed while making it leaves no half-made store behind, and
//! two processes making one at once end with one store. What a creation killed outright
//! (SIGKILL) leaves under the temporary name is removed by the next one beside it ([`sweep`]).

use super::db::{sql_error, Store};
use crate::error::Error;
use rusqlite::Connection;
use std::io::Read;
use std::path::Path;

/// `PRAGMA application_id` of our stores: "IMBs".
pub const APPLICATION_ID: i32 = 0x494d_4273;

/// The schema version this program writes.
pub const VERSION: i32 = 2;

/// The statements that take a store from version `k` to `k + 1`, at index `k`.
pub const MIGRATIONS: &[&str] = &[
    // 1: runs (one `store add` argument each), their tags, their launches, each launch's files
    // (the original text and its hash), and the accepted baselines (one row per acceptance,
    // the newest of a system counting, so that removing it falls back to the one before).
    "CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        added TEXT NOT NULL,
        started TEXT,
        system TEXT NOT NULL,
        label TEXT,
        source TEXT NOT NULL
    );
    CREATE INDEX runs_system ON runs(system, id);
    CREATE INDEX runs_label ON runs(label);
    CREATE TABLE tags (
        run INTEGER NOT NULL REFERENCES runs(id),
        tag TEXT NOT NULL,
        PRIMARY KEY (run, tag)
    );
    CREATE INDEX tags_tag ON tags(tag);
    CREATE TABLE launches (
        id INTEGER PRIMARY KEY,
        run INTEGER NOT NULL REFERENCES runs(id),
        started TEXT,
        ident TEXT,
        title TEXT NOT NULL,
        program TEXT,
        mpi TEXT,
        hosts TEXT,
        status TEXT NOT NULL,
        tables TEXT NOT NULL
    );
    CREATE INDEX launches_run ON launches(run);
    CREATE INDEX launches_ident ON launches(ident);
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        launch INTEGER NOT NULL REFERENCES launches(id),
        sha256 TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        json INTEGER NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX files_launch ON files(launch);
    CREATE TABLE accepted (
        id INTEGER PRIMARY KEY,
        system TEXT NOT NULL,
        run INTEGER NOT NULL REFERENCES runs(id),
        at TEXT NOT NULL
    );
    CREATE INDEX accepted_system ON accepted(system, id);",
    // 2: run numbers are never given again. A plain INTEGER PRIMARY KEY takes the largest id
    // plus one, so after `store rm` of the newest run the next run got its number, and an old
    // report's "run 12" named another run. AUTOINCREMENT keeps the largest number ever given
    // (sqlite_sequence); SQLite cannot add it to a table, so the table is made again, its rows
    // and numbers copied (which seeds the sequence with the largest kept), the old one dropped.
    // A number removed before this step left no trace, and may be given once more.
    "CREATE TABLE runs_numbered (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        added TEXT NOT NULL,
        started TEXT,
        system TEXT NOT NULL,
        label TEXT,
        source TEXT NOT NULL
    );
    INSERT INTO runs_numbered (id, added, started, system, label, source)
        SELECT id, added, started, system, label, source FROM runs ORDER BY id;
    DROP TABLE runs;
    ALTER TABLE runs_numbered RENAME TO runs;
    CREATE INDEX runs_system ON runs(system, id);
    CREATE INDEX runs_label ON runs(label);",
];

const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

fn refuse(db: &str, msg: impl Into<String>) -> Error {
    Error::Store {
        db: db.to_string(),
        msg: msg.into(),
    }
}

/// Whether the file at `db` can be a store before SQLite is let near it: a regular file with
/// SQLite's header. SQLite itself would take an empty file for a new database and write one.
pub fn check_file(db: &str) -> Result<(), Error> {
    let md = std::fs::metadata(db).map_err(|e| refuse(db, format!("cannot read it: {e}")))?;
    if !md.is_file() {
        use std::os::unix::fs::FileTypeExt;
        let t = md.file_type();
        let what = if t.is_dir() {
            "a directory"
        } else if t.is_fifo() {
            "a FIFO"
        } else if t.is_socket() {
            "a socket"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else {
            "not a regular file"
        };
        return Err(refuse(
            db,
            format!(
                "{what}, not a results store: left as it is; name a store file with --db{}",
                if t.is_dir() {
                    " (a file in it: --db DIR/results.sqlite)"
                } else {
                    ""
                }
            ),
        ));
    }
    let mut head = [0u8; 16];
    let mut f = std::fs::File::open(db).map_err(|e| Error::StoreWrite {
        db: db.to_string(),
        msg: format!("cannot open it: {e}"),
    })?;
    let n = f
        .read(&mut head)
        .map_err(|e| refuse(db, format!("cannot read it: {e}")))?;
    if n == 0 {
        return Err(refuse(
            db,
            "an empty file, not a results store: left as it is; name another file with --db",
        ));
    }
    if n < head.len() || &head != SQLITE_MAGIC {
        return Err(refuse(
            db,
            "not a results store (not an SQLite database): left as it is; name another file \
             with --db",
        ));
    }
    Ok(())
}

/// The schema version of an open file that is our store, or why it is not one we can use.
fn ours(store: &Store) -> Result<i32, Error> {
    let (db, conn) = (&store.db, &store.conn);
    let app: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(|e| sql_error(db, e))?;
    if app != APPLICATION_ID {
        return Err(refuse(
            db,
            format!(
                "an SQLite database of another program (application_id {app:#x}, ours is \
                 {APPLICATION_ID:#x}): left as it is; name another file with --db"
            ),
        ));
    }
    let version = user_version(conn).map_err(|e| sql_error(db, e))?;
    if version > VERSION {
        return Err(newer(db, version));
    }
    Ok(version)
}

/// Checks a file opened read-only is our store and can be read as it is. Schema 1 differs
/// from 2 only in how run numbers are given, so it reads alike; a store of schema 0 has no
/// tables yet (made by a writer killed before its first commit), and holds no run.
pub fn check_readable(store: &Store) -> Result<(), Error> {
    match ours(store)? {
        0 => Err(refuse(
            &store.db,
            "holds no runs yet (schema version 0): imb-compare store add completes it",
        )),
        _ => Ok(()),
    }
}

/// Checks an open file is our store of a schema we know, and migrates an older one.
pub fn upgrade(store: &Store) -> Result<(), Error> {
    let (db, conn) = (&store.db, &store.conn);
    let version = ours(store)?;
    if version < VERSION {
        // A step that makes a table again drops it under its children's foreign keys, which
        // SQLite checks even when the new table takes the old one's rows: foreign keys go off
        // outside the transaction (the pragma does nothing inside one) and migrate checks them
        // before the commit (SQLite's procedure, "Making Other Kinds Of Table Schema Changes").
        conn.pragma_update(None, "foreign_keys", false)
            .map_err(|e| sql_error(db, e))?;
        // Another process may be migrating too: the version is read again under the lock.
        let tx =
            rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)
                .map_err(|e| sql_error(db, e))?;
        let now = user_version(&tx).map_err(|e| sql_error(db, e))?;
        if now > VERSION {
            return Err(newer(db, now));
        }
        let done = migrate(&tx, now).and_then(|()| tx.commit());
        // On again whatever happened: every later statement of this connection is checked.
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(|e| sql_error(db, e))?;
        done.map_err(|e| sql_error(db, e))?;
    }
    Ok(())
}

fn newer(db: &str, version: i32) -> Error {
    refuse(
        db,
        format!(
            "schema version {version}, written by a newer imb-compare (this one knows up to \
             {VERSION}): left as it is; use that imb-compare or a newer one"
        ),
    )
}

fn user_version(conn: &Connection) -> rusqlite::Result<i32> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Runs the migrations from `from` to [`VERSION`] on `conn`, inside the caller's transaction
/// and with foreign keys off (see [`upgrade`]), and checks every reference still holds.
pub(crate) fn migrate(conn: &Connection, from: i32) -> rusqlite::Result<()> {
    for (k, step) in MIGRATIONS.iter().enumerate().skip(from.max(0) as usize) {
        conn.execute_batch(step)?;
        conn.pragma_update(None, "user_version", (k + 1) as i32)?;
    }
    let dangling: i64 =
        conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })?;
    if dangling > 0 {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT),
            Some(format!(
                "{dangling} row(s) refer to rows that are not there: not migrated"
            )),
        ));
    }
    Ok(())
}

/// Makes a new, empty store at `db` (and its directory): under a temporary name, linked to
/// `db` only once complete. Another process that made one first wins; ours is dropped.
pub fn create(db: &str) -> Result<(), Error> {
    let path = Path::new(db);
    let write = |msg: String| Error::StoreWrite {
        db: db.to_string(),
        msg,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .map_err(|e| write(format!("cannot make its directory {}: {e}", dir.display())))?;
    let name = path
        .file_name()
        .ok_or_else(|| refuse(db, "names no file: name a file with --db"))?;
    let tmp = dir.join(temporary_name(name, host(), std::process::id()));
    // Whatever happens below, the temporary file and its journal go.
    struct Cleanup(std::path::PathBuf);
    impl Drop for Cleanup {
        fn drop(&mut self) {
            for ext in std::iter::once("").chain(JOURNALS) {
                let mut p = self.0.clone().into_os_string();
                p.push(ext);
                let _ = std::fs::remove_file(p);
            }
        }
    }
    let _cleanup = Cleanup(tmp.clone());
    let made = (|| -> rusqlite::Result<()> {
        let conn = Connection::open(&tmp)?;
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        // Persistent in the file: readers then never block the writer, nor it them.
        let _: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "foreign_keys", false)?;
        let tx =
            rusqlite::Transaction::new_unchecked(&conn, rusqlite::TransactionBehavior::Immediate)?;
        migrate(&tx, 0)?;
        tx.commit()?;
        conn.close().map_err(|(_, e)| e)
    })();
    made.map_err(|e| sql_error(db, e))?;
    match std::fs::hard_link(&tmp, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(write(format!("cannot make it: {e}"))),
    }
}

/// The journal files SQLite may make beside a database.
const JOURNALS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// The name a store is made under before it is linked into place: `.NAME.new-HOST-PID`. The
/// host tells a store on a shared file system made from another machine, whose process ids
/// mean nothing here.
fn temporary_name(name: &std::ffi::OsStr, host: &str, pid: u32) -> String {
    format!(".{}.new-{host}-{pid}", name.to_string_lossy())
}

/// This host's name as a temporary name carries it: bytes other than letters, digits, `.`,
/// `_` and `-` become `_`, at most 64 of them. Read from procfs: no call into libc needed.
pub(crate) fn host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let raw = std::fs::read("/proc/sys/kernel/hostname").unwrap_or_default();
        let s: String = raw
            .trim_ascii()
            .iter()
            .take(64)
            .map(|&b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'_' => b as char,
                _ => '_',
            })
            .collect();
        if s.is_empty() {
            "_".into()
        } else {
            s
        }
    })
}

/// This process's user (effective), from procfs; `None` without procfs, where no process can
/// be asked whether it lives and so nothing left over may be removed.
pub(crate) fn user() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

/// Whether process `pid` of this host no longer exists (and is not this one).
pub(crate) fn gone(pid: u32) -> bool {
    pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
}

/// The process that made `file`, if it is a temporary store of `name`'s made on this host
/// (`.NAME.new-HOST-PID`, or one of its journals), or by an imb-compare before hosts were
/// named (`.NAME.new-PID`: `None` for the host).
fn maker(file: &str, name: &str) -> Option<(Option<&'static str>, u32)> {
    let rest = file.strip_prefix(&format!(".{name}.new-"))?;
    let rest = JOURNALS
        .iter()
        .find_map(|j| rest.strip_suffix(j))
        .unwrap_or(rest);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match rest.rsplit_once('-') {
        // A host's name has no '-' (host() makes it '_').
        Some((h, pid)) if h == host() && digits(pid) => Some((Some(host()), pid.parse().ok()?)),
        Some(_) => None,
        None if digits(rest) => Some((None, rest.parse().ok()?)),
        None => None,
    }
}

/// Removes beside `db` the temporary stores (and their journals) that an earlier creation
/// left when it was killed (SIGKILL, a crash): only names of our pattern, regular files of
/// this user, made by a process of this host that no longer exists. A name of the pattern
/// before hosts were named is removed only when its process is gone and it is an hour old: it
/// may be another host's, whose creation takes milliseconds. Errors only leave a file.
pub fn sweep(db: &str) {
    use std::os::unix::fs::MetadataExt;
    let path = Path::new(db);
    let (Some(name), Some(dir)) = (path.file_name().and_then(|n| n.to_str()), path.parent()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Some(me) = user() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some((host, pid)) = file.to_str().and_then(|f| maker(f, name)) else {
            continue;
        };
        let Ok(md) = e.path().symlink_metadata() else {
            continue;
        };
        let old = md
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|a| a.as_secs() > 3600);
        if md.file_type().is_file() && md.uid() == me && gone(pid) && (host.is_some() || old) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testdb::Scratch;
    use super::*;

    #[test]
    fn a_new_store_has_our_marks_and_no_leftovers() {
        let s = Scratch::new("schema-new");
        let db = s.db();
        let st = Store::open_or_create(&db).unwrap();
        let v: i32 = st
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, VERSION);
        let mode: String = st
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let names: Vec<String> = std::fs::read_dir(&s.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn foreign_files_are_refused_and_left_alone() {
        let s = Scratch::new("schema-foreign");
        let db = s.db();
        for (content, says) in [
            (&b""[..], "an empty file, not a results store"),
            (
                b"#bytes t[usec]\n",
                "not a results store (not an SQLite database)",
            ),
        ] {
            std::fs::write(&db, content).unwrap();
            let e = Store::open_or_create(&db).err().unwrap().to_string();
            assert!(e.contains(says), "{e}");
            assert!(matches!(Store::open(&db), Err(Error::Store { .. })));
            assert_eq!(std::fs::read(&db).unwrap(), content);
        }
        // Another program's SQLite database.
        std::fs::remove_file(&db).unwrap();
        let c = Connection::open(&db).unwrap();
        c.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
            .unwrap();
        drop(c);
        let before = std::fs::read(&db).unwrap();
        let e = Store::open_or_create(&db).err().unwrap().to_string();
        assert!(e.contains("an SQLite database of another program"), "{e}");
        assert_eq!(std::fs::read(&db).unwrap(), before);
    }

    #[test]
    fn a_newer_schema_is_refused_an_older_migrated() {
        let s = Scratch::new("schema-versions");
        let db = s.db();
        drop(Store::open_or_create(&db).unwrap());
        let c = Connection::open(&db).unwrap();
        c.pragma_update(None, "user_version", VERSION + 1).unwrap();
        drop(c);
        let e = Store::open(&db).err().unwrap().to_string();
        assert!(
            e.contains(&format!(
                "schema version {}, written by a newer imb-compare",
                VERSION + 1
            )),
            "{e}"
        );
        let c = Connection::open(&db).unwrap();
        let v: i32 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, VERSION + 1);
        drop(c);

        // A store left at version 0 (ours, no tables yet) is brought up to date on opening.
        let db0 = s.path("v0.sqlite");
        let c = Connection::open(&db0).unwrap();
        c.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        drop(c);
        let st = Store::open(&db0).unwrap();
        let n: i64 = st
            .conn
            .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
    }
}
