//! The option tables of the docs, generated from the rows: each crate's tests render its rows
//! (`markdown`) and compare them with the block of its name in a doc (`check`), so a row whose
//! name, place or `-help` words change fails its crate's tests until the doc says the same.
//! `IMB_BLESS=1` writes the block instead of comparing it.

use super::table::{Accept, Opt};
use std::path::Path;

/// The rows `listed` keeps as a Markdown table: each option's calling-sequence text (with the
/// rows its paragraph covers), which executables have it (`who`), and its `-help` paragraph
/// on one line, `fill`ed as the executable fills it.
pub fn markdown<R>(
    rows: &[Opt<R>],
    listed: impl Fn(Accept) -> bool,
    who: impl Fn(Accept) -> String,
    fill: impl Fn(&str) -> String,
) -> String {
    let cell = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace('|', "\\|")
    };
    let mut entries: Vec<(Vec<String>, String, String)> = Vec::new();
    for o in rows.iter().filter(|o| listed(o.accept)) {
        let place = o.synopsis.2;
        let help = fill(o.help);
        let help = help.trim().strip_prefix("- ").unwrap_or(help.trim());
        match entries.last_mut() {
            Some((places, ..)) if help.is_empty() => {
                if !place.is_empty() {
                    places.push(format!("`{}`", cell(place)));
                }
            }
            _ if help.is_empty() && place.is_empty() => {}
            _ => {
                let places = if place.is_empty() {
                    vec![format!("`-{}`", o.name)]
                } else {
                    vec![format!("`{}`", cell(place))]
                };
                // Outside code, `<rank>` would be read as an HTML tag.
                let help = cell(help).replace('<', "&lt;").replace('>', "&gt;");
                entries.push((places, who(o.accept), help));
            }
        }
    }
    let mut s = String::from("| option | in | meaning |\n|---|---|---|\n");
    for (places, who, help) in entries {
        s.push_str(&format!("| {} | {who} | {help} |\n", places.join(" ")));
    }
    s
}

fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- options: {name} (generated from the option rows; IMB_BLESS=1 cargo test rewrites it) -->\n"),
        format!("<!-- end of options: {name} -->\n"),
    )
}

/// Whether the block `name` of the doc at `path` is `table`; with `IMB_BLESS=1` in the
/// environment, make it so. The error says what to do.
pub fn check(path: &Path, name: &str, table: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (start, end) = markers(name);
    let missing = || {
        format!(
            "{}: no block `{}`…`{}`",
            path.display(),
            start.trim(),
            end.trim()
        )
    };
    let a = text.find(&start).ok_or_else(missing)? + start.len();
    let b = a + text[a..].find(&end).ok_or_else(missing)?;
    if &text[a..b] == table {
        return Ok(());
    }
    if std::env::var_os("IMB_BLESS").is_some_and(|v| v == "1") {
        let new = format!("{}{table}{}", &text[..a], &text[b..]);
        return std::fs::write(path, new).map_err(|e| format!("{}: {e}", path.display()));
    }
    Err(format!(
        "{}: the options table `{name}` differs from the rows; check the rows, then run the \
         tests with IMB_BLESS=1 to rewrite it. The rows say:\n{table}",
        path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::super::help::rows;
    use super::super::Family;
    use super::*;
    use crate::settings::{self, STANDARD};

    /// The engine's rows in doc/ReadMe_IMB.md, with the defaults of the guide's settings file
    /// and NPmin 2 (the doc gives the others' beside the table).
    #[test]
    fn the_readme_lists_the_engines_rows() {
        let std = settings::standard(&STANDARD);
        let table = markdown(
            &rows(&Family::NONE),
            |_| true,
            |a| match a {
                Accept::All => "all".into(),
                Accept::Aggregate => "with AGGREGATE tables".into(),
            },
            |h| {
                h.replace("{npmin}", "2")
                    .replace("{thread_level}", "single")
                    .replace("{min}", &std.minmsglog.to_string())
                    .replace("{max}", &std.maxmsglog.to_string())
                    .replace("{file}", STANDARD.file)
            },
        );
        let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../doc/ReadMe_IMB.md");
        check(&doc, "engine", &table).unwrap();
    }
}
