//! The engine's error type: every variant renders as one line that names the culprit.

use serde::{Deserialize, Serialize};

/// An error found while reading the command line, a settings file or an input file.
///
/// Errors travel from rank 0 to every rank (they are broadcast), hence `Serialize`.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum Error {
    /// A command-line option or benchmark name is wrong.
    #[error("{arg}: {msg}")]
    Arg { arg: String, msg: String },
    /// A file named by an option cannot be used at all.
    #[error("{arg} {file}: {msg}")]
    File {
        arg: String,
        file: String,
        msg: String,
    },
    /// One line of a file named by an option is wrong.
    #[error("{arg} {file}, line {line}: {msg}")]
    Line {
        arg: String,
        file: String,
        line: usize,
        msg: String,
    },
    /// A run-time failure that is not the user's input (MPI, memory).
    #[error("{0}")]
    Run(String),
}

impl Error {
    pub fn arg(arg: impl Into<String>, msg: impl Into<String>) -> Self {
        Error::Arg {
            arg: arg.into(),
            msg: msg.into(),
        }
    }
    pub fn file(arg: &str, file: &str, msg: impl Into<String>) -> Self {
        Error::File {
            arg: arg.into(),
            file: file.into(),
            msg: msg.into(),
        }
    }
    pub fn line(arg: &str, file: &str, line: usize, msg: impl Into<String>) -> Self {
        Error::Line {
            arg: arg.into(),
            file: file.into(),
            line,
            msg: msg.into(),
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
