//! imb-compare's error type: every variant renders as one line that names the culprit.

// Control characters from a file are shown escaped, so an error stays one plain line on a
// terminal (fuzz/regressions/jsondoc).
use imb_core::error::plain;

/// Something in the input cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A file (or directory) cannot be used at all.
    #[error("{}: {}", plain(.file), plain(.msg))]
    File { file: String, msg: String },
    /// One line of a file is wrong.
    #[error("{}, line {line}: {}", plain(.file), plain(.msg))]
    Line {
        file: String,
        line: usize,
        msg: String,
    },
    /// One value of a `-json` document is wrong: `at` is its path, `tables[0].rows[3].t_us`.
    #[error("{}, {}: {}", plain(.file), plain(.at), plain(.msg))]
    At {
        file: String,
        at: String,
        msg: String,
    },
    /// A command-line value is wrong.
    #[error("{}: {}", plain(.arg), plain(.msg))]
    Arg { arg: String, msg: String },
    /// The results store at `db` cannot be used as it is (not ours, corrupt, from a newer
    /// imb-compare, no such run): left untouched.
    #[error("results store {}: {}", plain(.db), plain(.msg))]
    Store { db: String, msg: String },
    /// The results store at `db` cannot be written (disk full, read-only, held by another
    /// writer too long): nothing of the command's was kept.
    #[error("results store {}: {}", plain(.db), plain(.msg))]
    StoreWrite { db: String, msg: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped() {
        // A -json status whose state starts with DEL (the fuzzer's input).
        let e = Error::At {
            file: "launch.json".into(),
            at: "provenance.status.state".into(),
            msg: "\"\u{7f}omplete\": a status is complete, running, interrupted or failed".into(),
        };
        assert_eq!(
            e.to_string(),
            "launch.json, provenance.status.state: \"\\u{7f}omplete\": a status is complete, \
             running, interrupted or failed"
        );
        let e = Error::Line {
            file: "a\rb.txt".into(),
            line: 3,
            msg: "\u{1b}[2J\tx".into(),
        };
        assert_eq!(e.to_string(), "a\\rb.txt, line 3: \\u{1b}[2J\tx");
    }
}
