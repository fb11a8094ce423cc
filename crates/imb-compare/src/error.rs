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
    /// One value of a `-json` document is wrong: `at` is its path, `tables[0].rows[3].t_us`.
    #[error("{file}, {at}: {msg}")]
    At {
        file: String,
        at: String,
        msg: String,
    },
    /// A command-line value is wrong.
    #[error("{arg}: {msg}")]
    Arg { arg: String, msg: String },
}
