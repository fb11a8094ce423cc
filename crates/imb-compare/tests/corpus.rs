//! The fuzz corpus of imb-compare's readers, and every input the fuzzer found a fault with,
//! replayed through the readers (scripts/fuzz; imb_testkit::corpus): each ends in Ok or in a
//! one-line error naming its file, within the watchdog.

use imb_testkit::corpus::{one_line, replay};

/// The text a reader is handed: `safefile::read_text`'s (a byte-order mark dropped); bytes
/// that are not UTF-8 never reach it.
fn text(data: &[u8]) -> Option<&str> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    std::str::from_utf8(data).ok()
}

#[test]
fn imb_and_osu_text() {
    replay("imbtext", 8, |data| match text(data) {
        Some(t) => match imb_compare::imbtext::parse("launch.txt", t) {
            Ok(_) => Ok(()),
            Err(e) => one_line(&e.to_string(), "launch.txt"),
        },
        None => Ok(()),
    });
}

#[test]
fn json_documents() {
    replay("jsondoc", 5, |data| match text(data) {
        Some(t) => match imb_compare::jsondoc::parse("launch.json", t) {
            Ok(_) => Ok(()),
            Err(e) => one_line(&e.to_string(), "launch.json"),
        },
        None => Ok(()),
    });
}

#[test]
fn references_files() {
    replay("refs", 2, |data| match text(data) {
        Some(t) => match imb_compare::refs::parse("refs.toml", t) {
            Ok(_) => Ok(()),
            Err(e) => one_line(&e.to_string(), "refs.toml"),
        },
        None => Ok(()),
    });
}
