//! What every harness shares: the bytes as a reader gets them (text, an argument vector), the
//! contract of an error, and the scratch files of the readers that take a path.

use std::path::PathBuf;

/// The text a reader is handed: what `safefile::read_text` makes of a file (a leading UTF-8
/// byte-order mark dropped), or nothing for bytes that are not UTF-8, which the readers never
/// see (that check is safefile's, and its error is tested there).
pub fn text(data: &[u8]) -> Option<&str> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    std::str::from_utf8(data).ok()
}

/// An argument vector: one argument a line (the corpus files are readable that way).
pub fn args(data: &[u8]) -> Option<Vec<String>> {
    let t = std::str::from_utf8(data).ok()?;
    let t = t.strip_suffix('\n').unwrap_or(t);
    if t.is_empty() {
        return Some(Vec::new());
    }
    Some(t.split('\n').map(str::to_string).collect())
}

/// The contract of every error: one line, not empty, naming `named` (a file or argument).
/// A control character other than a tab (a carriage return, a form feed, an escape sequence
/// from the file) breaks the line on a terminal as a newline does.
pub fn one_line(reader: &str, msg: &str, named: &str) {
    assert!(!msg.trim().is_empty(), "{reader}: an empty error message");
    assert!(
        !msg.chars().any(|c| c.is_control() && c != '\t'),
        "{reader}: an error of more than one line: {msg:?}"
    );
    assert!(
        named.is_empty() || msg.contains(named),
        "{reader}: the error does not name {named:?}: {msg:?}"
    );
}

/// The directory of the files the readers must be given as paths (`-settings`, `-input`):
/// `IMB_FUZZ_SCRATCH` (scripts/fuzz gives each target its own), else one under the temporary
/// directory. Not one per process: AFL++ forks a new process every few thousand inputs.
pub fn scratch() -> PathBuf {
    let d = std::env::var_os("IMB_FUZZ_SCRATCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("imb-fuzz"));
    std::fs::create_dir_all(&d).expect("a scratch directory");
    d
}

/// Write `data` to `name` in the scratch directory and return its path.
pub fn scratch_file(name: &str, data: &[u8]) -> String {
    let p = scratch().join(name);
    std::fs::write(&p, data).expect("a scratch file");
    p.to_string_lossy().into_owned()
}
