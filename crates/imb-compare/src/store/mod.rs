//! The results store: launches kept in one SQLite file, so that a run measured last month can be
//! the baseline of today's (doc/ACCEPTANCE.md, "9. The results store").
//!
//! What is kept is each launch file's text as it was read, byte for byte after the byte-order
//! mark readers drop, with the metadata a listing and a selector need (date, system, label,
//! tags, hosts, MPI library, program, tables, status) copied out of it. A stored run is read
//! back through the same readers as the files were ([`crate::read::sides::from_texts`]), so it is
//! judged exactly as they would be. A file is known by the SHA-256 of that text, so adding it
//! again stores nothing; a file that is another record of a launch already kept (its text and
//! its `-json`) joins that launch, by the rule [`crate::read::sides`] uses to count them once.
//!
//! A run is what one argument of one `store add` brings: one system, a label and tags. Each
//! such run is written in one transaction, so a writer that is killed, or a disk that fills,
//! leaves every run whole or absent. Writers take the file in turn (write-ahead log, and a
//! wait of up to [`BUSY_WAIT`] for another writer). A file at the path that is not a store of
//! ours, or one of a newer schema, is refused and left as it is ([`schema`]).

pub mod add;
pub mod catalog;
pub mod db;
pub mod listing;
pub mod name;
pub mod schema;
pub mod select;

use db::sql_error;
pub use db::{Store, BUSY_WAIT};

use crate::error::Error;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// The database's file name in the data directory.
const FILE_NAME: &str = "results.sqlite";

/// Where the store is: `--db`, else `$IMB_RS_DB`, else `imb-rs/results.sqlite` in the user's
/// data directory (`$XDG_DATA_HOME`, else `~/.local/share`, as the XDG base directory
/// specification has it).
pub fn db_path(arg: Option<&str>) -> Result<String, Error> {
    // A variable that is set but not UTF-8 would read as unset, and another store be used
    // without a word: refused, naming it.
    for k in ["IMB_RS_DB", "XDG_DATA_HOME", "HOME"] {
        if arg.is_some() {
            break;
        }
        if let Some(v) = std::env::var_os(k).filter(|v| v.to_str().is_none()) {
            return Err(Error::Arg {
                arg: format!("${k}"),
                msg: format!(
                    "\"{}\" is not UTF-8: name the results store with --db FILE",
                    imb_core::safefile::shown(&v)
                ),
            });
        }
        if k == "IMB_RS_DB" && std::env::var(k).is_ok_and(|v| !v.is_empty()) {
            break;
        }
    }
    db_path_in(arg, |k| std::env::var(k).ok())
}

/// [`db_path`] with the environment given.
fn db_path_in(arg: Option<&str>, env: impl Fn(&str) -> Option<String>) -> Result<String, Error> {
    if let Some(p) = arg {
        return Ok(p.to_string());
    }
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    if let Some(p) = var("IMB_RS_DB") {
        return Ok(p);
    }
    // The specification says a relative $XDG_DATA_HOME is to be ignored.
    let data = match var("XDG_DATA_HOME").filter(|d| Path::new(d).is_absolute()) {
        Some(d) => d,
        None => match var("HOME") {
            Some(h) => format!("{h}/.local/share"),
            None => {
                return Err(Error::Arg {
                    arg: "--db".into(),
                    msg: "no $HOME, $XDG_DATA_HOME or $IMB_RS_DB to find the results store by: \
                          name it with --db FILE"
                        .into(),
                })
            }
        },
    };
    Ok(format!("{data}/imb-rs/{FILE_NAME}"))
}

impl Store {
    /// The store at `db`, which must exist, to write: reading commands never create one.
    pub fn open(db: &str) -> Result<Store, Error> {
        must_exist(db)?;
        Store::open_existing(db)
    }

    /// The store at `db`, which must exist, only to read (list, show, select, trend): opened
    /// read-only, so a store on a read-only mount, a snapshot or a file of another user's can
    /// be read, and never migrated (an older schema is read as it is, see
    /// [`schema::check_readable`]).
    pub fn open_read(db: &str) -> Result<Store, Error> {
        must_exist(db)?;
        schema::check_file(db)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db, flags).map_err(|e| sql_error(db, e))?;
        conn.busy_timeout(BUSY_WAIT).map_err(|e| sql_error(db, e))?;
        let mut store = Store {
            conn,
            db: db.to_string(),
        };
        // A reader of a store in write-ahead-log mode needs its shared-memory file, which
        // SQLite makes beside it: where nothing can be made (a read-only mount), the file is
        // read as immutable, which is exact only while no log holds commits not yet copied
        // into it (a log left by a writer that was killed).
        if let Err(e) = schema::check_readable(&store) {
            if !matches!(e, Error::StoreWrite { .. }) {
                return Err(e);
            }
            let wal = format!("{db}-wal");
            if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                return Err(Error::Store {
                    db: db.to_string(),
                    msg: format!(
                        "cannot be read where it is: its log {wal} holds writes not yet in \
                         it, which SQLite reads only with a shared-memory file it cannot make \
                         here (a read-only mount?): run a command once where it can be \
                         written, or copy it with its log to a writable place"
                    ),
                });
            }
            let flags = flags | OpenFlags::SQLITE_OPEN_URI;
            let conn = Connection::open_with_flags(immutable_uri(db), flags)
                .map_err(|e| sql_error(db, e))?;
            store.conn = conn;
            schema::check_readable(&store)?;
        }
        Ok(store)
    }

    /// The store at `db`, made (with its directory) when nothing is there yet. Temporary
    /// files of an earlier creation that was killed are removed first ([`schema::sweep`]).
    pub fn open_or_create(db: &str) -> Result<Store, Error> {
        schema::sweep(db);
        if !Path::new(db).exists() {
            schema::create(db)?;
        }
        Store::open_existing(db)
    }

    fn open_existing(db: &str) -> Result<Store, Error> {
        schema::check_file(db)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db, flags).map_err(|e| sql_error(db, e))?;
        conn.busy_timeout(BUSY_WAIT).map_err(|e| sql_error(db, e))?;
        let store = Store {
            conn,
            db: db.to_string(),
        };
        schema::upgrade(&store)?;
        Ok(store)
    }
}

fn must_exist(db: &str) -> Result<(), Error> {
    // symlink_metadata: a dangling link is there, and check_file says what it is.
    if std::fs::symlink_metadata(db).is_err() {
        return Err(Error::Store {
            db: db.to_string(),
            msg: "no results store here: imb-compare store add creates one".to_string(),
        });
    }
    Ok(())
}

/// `db` as an SQLite URI that opens it read-only and immutable: every byte that is not
/// unreserved or a slash is percent-encoded, so `?`, `#` and `%` in a name stay the name's.
fn immutable_uri(db: &str) -> String {
    // An absolute path after an empty authority: "file:///x"; "file://x" would name a host.
    let mut uri = String::from(if db.starts_with('/') {
        "file://"
    } else {
        "file:"
    });
    for b in db.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    uri
}

#[cfg(test)]
pub(crate) mod testdb {
    //! A scratch directory for a test's database, removed however the test ends.

    pub struct Scratch(pub std::path::PathBuf);

    impl Scratch {
        pub fn new(name: &str) -> Scratch {
            let d = std::env::temp_dir()
                .join(format!("imb-compare-store-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Scratch(d)
        }

        pub fn db(&self) -> String {
            self.0.join("results.sqlite").to_string_lossy().into_owned()
        }

        pub fn path(&self, name: &str) -> String {
            self.0.join(name).to_string_lossy().into_owned()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_directory_is_found_by_xdg_rules() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string())
        };
        let all = env(&[
            ("IMB_RS_DB", "/e/db"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(db_path_in(Some("x.sqlite"), all).unwrap(), "x.sqlite");
        assert_eq!(db_path_in(None, all).unwrap(), "/e/db");
        let xdg = env(&[("IMB_RS_DB", ""), ("XDG_DATA_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(db_path_in(None, xdg).unwrap(), "/x/imb-rs/results.sqlite");
        // A relative $XDG_DATA_HOME is ignored, as the specification says.
        let rel = env(&[("XDG_DATA_HOME", "rel"), ("HOME", "/h")]);
        assert_eq!(
            db_path_in(None, rel).unwrap(),
            "/h/.local/share/imb-rs/results.sqlite"
        );
        let e = db_path_in(None, env(&[])).err().unwrap().to_string();
        assert!(e.starts_with("--db: no $HOME"), "{e}");
    }

    #[test]
    fn reading_never_creates_a_store() {
        let s = testdb::Scratch::new("absent");
        let e = Store::open(&s.db()).err().unwrap().to_string();
        assert!(
            e.ends_with("no results store here: imb-compare store add creates one"),
            "{e}"
        );
        assert!(!Path::new(&s.db()).exists());
    }
}
