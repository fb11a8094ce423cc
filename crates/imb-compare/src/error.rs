//! imb-compare's error type: every variant renders as one line that names the culprit.

/// Something in the input cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A file (or directory) cannot be used at all.
    #[error("{file}: {msg}")]
    File { file: String, msg: String },
    /// One line of a file is wrong.
    #[error("{file}, line {line}: {msg}")]
    Line {
        file: String,
        line: usize,
        msg: String,
    },
    /// A command-line value is wrong.
    #[error("{arg}: {msg}")]
    Arg { arg: String, msg: String },
}
