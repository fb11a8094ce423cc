//! An open results store and the errors of its database calls, in the user's terms: what every
//! part of the store (opening, [`super::schema`], adding, the catalog) shares.

use crate::error::Error;
use rusqlite::{Connection, ErrorCode};
use std::time::Duration;

/// How long a command waits for another writer to finish before it gives up.
pub const BUSY_WAIT: Duration = Duration::from_secs(60);

/// An open results store.
pub struct Store {
    pub(crate) conn: Connection,
    /// The path, as the user named it (for messages).
    pub db: String,
}

/// The error of a database call, by what the user can do about it: a file that is not a
/// usable store is bad input, a store that cannot take the write is an output failure.
pub(crate) fn sql_error(db: &str, e: rusqlite::Error) -> Error {
    let write = |msg: String| Error::StoreWrite {
        db: db.to_string(),
        msg,
    };
    let refused = |msg: String| Error::Store {
        db: db.to_string(),
        msg,
    };
    let detail = e.to_string().replace('\n', " ");
    // A value of the wrong type, or text that is not UTF-8: SQLite read the page, but what it
    // holds is not what we wrote there.
    if matches!(
        e,
        rusqlite::Error::FromSqlConversionFailure(..)
            | rusqlite::Error::Utf8Error(..)
            | rusqlite::Error::InvalidColumnType(..)
            | rusqlite::Error::IntegralValueOutOfRange(..)
    ) {
        return refused(format!(
            "damaged ({detail}): left as it is; restore it from a copy, or name another file \
             with --db"
        ));
    }
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => write(format!(
            "the disk is full ({detail}): nothing of this command was kept; free space and \
             run it again"
        )),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => write(format!(
            "another process kept it busy for more than {} s ({detail}): nothing of this \
             command was kept; run it again",
            BUSY_WAIT.as_secs()
        )),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen) => write(format!(
            "cannot be written ({detail}): a read-only file or mount, or a directory where its \
             log cannot be made; list, show, trend and comparisons still read it"
        )),
        Some(ErrorCode::PermissionDenied | ErrorCode::SystemIoFailure) => {
            write(format!("cannot be written: {detail}"))
        }
        Some(ErrorCode::NotADatabase) => refused(format!(
            "not an SQLite database, or a damaged one ({detail}): left as it is; name \
             another file with --db"
        )),
        Some(ErrorCode::DatabaseCorrupt) => refused(format!(
            "damaged ({detail}): left as it is; restore it from a copy, or name another file \
             with --db"
        )),
        _ => refused(detail),
    }
}

impl Store {
    pub(crate) fn err(&self, e: rusqlite::Error) -> Error {
        sql_error(&self.db, e)
    }

    /// A store error naming this database.
    pub(crate) fn refuse(&self, msg: impl Into<String>) -> Error {
        Error::Store {
            db: self.db.clone(),
            msg: msg.into(),
        }
    }
}

/// Now, in UTC, as the store keeps times of its own (ISO 8601 to the second).
pub(crate) fn now() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}
