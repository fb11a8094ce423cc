//! The paths a piece of code names, `use` brace groups expanded: `use crate::a::{b, c::{d}}`
//! gives `a::b` and `a::c::d`. Read from a code view (lex.rs), so nothing in a comment or a
//! string counts.

use std::collections::BTreeMap;

/// A module's (or item's) path inside its crate: `["report", "text"]` for
/// `src/report/text/mod.rs`.
pub type ModPath = Vec<String>;

fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Every `crate::…` and `super::…` path in `text`, made absolute from module `at`.
pub fn paths(text: &str, at: &[String]) -> Vec<ModPath> {
    scan(text, |rest| {
        if rest.starts_with(b"crate::") {
            return Some((Vec::new(), "crate::".len()));
        }
        let mut base = at.to_vec();
        let mut k = 0;
        while rest[k..].starts_with(b"super::") {
            base.pop();
            k += "super::".len();
        }
        (k > 0).then_some((base, k))
    })
}

/// Every path into crate `krate` (`imb_core`), from its root: `imb_core::report::X` gives
/// `report::X`.
pub fn extern_paths(text: &str, krate: &str) -> Vec<ModPath> {
    let prefix = format!("{krate}::");
    scan(text, |rest| {
        rest.starts_with(prefix.as_bytes())
            .then(|| (Vec::new(), prefix.len()))
    })
}

/// Walks `text`; at every word start where `root` recognises a path's root (giving its base
/// and length), expands the path there.
fn scan(text: &str, root: impl Fn(&[u8]) -> Option<(ModPath, usize)>) -> Vec<ModPath> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !ident(b[i - 1]);
        match root(&b[i..]).filter(|_| word_start) {
            Some((base, skip)) => {
                // `crate::{a, b}`: the group is read from its `::{`.
                let at = match b.get(i + skip) {
                    Some(b'{') => i + skip - 2,
                    _ => i + skip,
                };
                let end = expand(text, at, base, &mut out);
                i = end.max(i + 1);
            }
            None => i += 1,
        }
    }
    out
}

/// Reads `a::b::{…}` from `start` onto `base`; returns where it stopped.
fn expand(text: &str, start: usize, mut base: ModPath, out: &mut Vec<ModPath>) -> usize {
    let b = text.as_bytes();
    let mut i = start;
    loop {
        let s = i;
        while i < b.len() && ident(b[i]) {
            i += 1;
        }
        if s < i {
            base.push(text[s..i].to_string());
        }
        if b[i..].starts_with(b"::{") {
            i += 3;
            let mut depth = 1;
            let inner = i;
            while i < b.len() && depth > 0 {
                match b[i] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            let group = &text[inner..i.saturating_sub(1)];
            for item in split_top(group) {
                let item = item.trim();
                // `e as f` names e; a nested group keeps its own renames.
                let item = match item.contains('{') {
                    true => item,
                    false => item.split(" as ").next().unwrap_or("").trim(),
                };
                if item.is_empty() || item == "self" || item == "*" {
                    out.push(base.clone());
                } else {
                    expand(item, 0, base.clone(), out);
                }
            }
            return i;
        }
        if b[i..].starts_with(b"::") && s < i {
            i += 2;
            continue;
        }
        out.push(base);
        return i;
    }
}

fn split_top(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut from) = (Vec::new(), 0, 0);
    for (k, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    parts
}

/// Names a folder module's root file re-exports from its children (`pub use text::Text;`), so
/// that `super::Text` counts as a use of `text`.
pub fn reexports(root_code: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for stmt in root_code.split(';') {
        let stmt = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some(rest) = stmt.strip_prefix("pub use ") else {
            continue;
        };
        if rest.starts_with("crate::") || rest.starts_with("super::") {
            continue;
        }
        let rest = rest.strip_prefix("self::").unwrap_or(rest);
        let child = rest.split("::").next().unwrap_or("").to_string();
        for p in paths(&format!("crate::{rest}"), &[]) {
            if let Some(name) = p.last() {
                map.insert(name.clone(), child.clone());
            }
        }
    }
    map
}
