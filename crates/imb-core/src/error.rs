//! The engine's error type: every variant renders as one line that names the culprit.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Text from a file or an argument with its control characters shown escaped (`\r`,
/// `\u{1b}`): a carriage return or an escape sequence copied into a message would break its
/// one line on a terminal (fuzz/regressions). So are the characters that reorder or hide text
/// ([`unseen`]): a right-to-left override in a file name would show the rest of the line
/// reversed. Tabs stay. imb-compare, imb-threads and imb-omp render their errors through it too.
pub fn plain(s: &str) -> Cow<'_, str> {
    let bad = |c: char| (c.is_control() && c != '\t') || unseen(c);
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A character that changes the direction of the text around it or has no width: the bidi
/// embeddings, overrides, isolates and marks (Unicode's Bidi_Control) and the zero-width
/// characters. Shown, they make a line read otherwise than its bytes say.
pub fn unseen(c: char) -> bool {
    matches!(c,
        '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// An error found while reading the command line, a settings file or an input file.
///
/// Errors travel from rank 0 to every rank (they are broadcast), hence `Serialize`.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum Error {
    /// A command-line option or benchmark name is wrong.
    #[error("{}: {}", plain(.arg), plain(.msg))]
    Arg { arg: String, msg: String },
    /// A file named by an option cannot be used at all.
    #[error("{} {}: {}", plain(.arg), plain(.file), plain(.msg))]
    File {
        arg: String,
        file: String,
        msg: String,
    },
    /// One line of a file named by an option is wrong.
    #[error("{} {}, line {line}: {}", plain(.arg), plain(.file), plain(.msg))]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped() {
        // A settings file's quoted key and an argument as the fuzzer wrote them
        // (fuzz/regressions/settings, core_cli).
        let e = Error::line(
            "-settings",
            "s.toml",
            2,
            "unknown field `\u{1b}[31mX`, expected one of `IMB_OPTIONAL`",
        );
        assert_eq!(
            e.to_string(),
            "-settings s.toml, line 2: unknown field `\\u{1b}[31mX`, expected one of `IMB_OPTIONAL`"
        );
        let e = Error::arg("Ping\rPong", "unknown benchmark");
        assert_eq!(e.to_string(), "Ping\\rPong: unknown benchmark");
        assert_eq!(plain("a\tb"), "a\tb");
    }

    #[test]
    fn text_that_reorders_or_hides_itself_is_shown_escaped() {
        let e = Error::file("-msglen", "len\u{202e}txt.exe", "cannot be read");
        assert_eq!(e.to_string(), "-msglen len\\u{202e}txt.exe: cannot be read");
        assert_eq!(plain("a\u{200b}b\u{2066}c"), "a\\u{200b}b\\u{2066}c");
        // Letters of right-to-left scripts are text, not controls.
        assert_eq!(plain("\u{5d0}\u{5d1}"), "\u{5d0}\u{5d1}");
    }
}
