//! The shape of imb-core, checked on its sources (doc/ARCHITECTURE.md, "Rules the code keeps"):
//! no import circle between its top-level modules nor between the files of one folder module,
//! no import of the printer (`report`) but the driver's, no file over 400 lines of code, and
//! every crate of the workspace inheriting the workspace's `rust-version` and lints. These are
//! rules a review forgets and a compiler does not check.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path inside the crate: `["report", "text"]` for `src/report/text/mod.rs`.
type ModPath = Vec<String>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn mod_path(file: &Path) -> ModPath {
    let rel = file.strip_prefix(src()).unwrap().with_extension("");
    let mut p: ModPath = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(p.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        p.pop();
    }
    p
}

/// Unit tests may reach anywhere: they are not part of the layering. A file is test code from
/// its first `#[cfg(test)]` at the start of a line (imb-core keeps tests last or in tests.rs).
fn is_test_file(file: &Path) -> bool {
    file.file_name().is_some_and(|n| n == "tests.rs")
        || file.components().any(|c| c.as_os_str() == "tests")
}

/// The code of a file without its tests and comments (a `//` inside a string literal cuts
/// the line short, which only loses names, never invents them).
fn code_lines(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .map(|l| l.split("//").next().unwrap_or("").to_string())
        .collect()
}

/// Every `crate::…` and `super::…` path a text names, brace groups expanded, made absolute
/// from module `at`: `use crate::a::{b, c::{d}}` gives `a::b` and `a::c::d`.
fn paths(text: &str, at: &[String]) -> Vec<ModPath> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let rest = &b[i..];
        let (root, skip): (ModPath, usize) = if word_start && rest.starts_with(b"crate::") {
            (Vec::new(), "crate::".len())
        } else if word_start && rest.starts_with(b"super::") {
            let mut base = at.to_vec();
            let mut k = 0;
            while b[i + k..].starts_with(b"super::") {
                base.pop();
                k += "super::".len();
            }
            (base, k)
        } else {
            i += 1;
            continue;
        };
        let end = expand(text, i + skip, root, &mut out);
        i = end.max(i + 1);
    }
    out
}

/// Reads `a::b::{…}` from `start` onto `base`; returns where it stopped.
fn expand(text: &str, start: usize, mut base: ModPath, out: &mut Vec<ModPath>) -> usize {
    let b = text.as_bytes();
    let mut i = start;
    loop {
        let s = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if s < i {
            base.push(text[s..i].to_string());
        }
        // `a::{…}`, or a group right after the root (`crate::{a, b}`).
        let group = match (s < i, &b[i..]) {
            (true, r) if r.starts_with(b"::{") => 3,
            (false, r) if r.starts_with(b"{") => 1,
            _ => 0,
        };
        if group > 0 {
            i += group;
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
fn reexports(root_code: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for stmt in root_code.split(';') {
        let stmt = stmt.trim();
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

/// Edges between the children of every folder module (the crate root included): child →
/// (used child, the files that tie them).
type Graph = BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, BTreeSet<String>>>>;

fn graph() -> Graph {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    let code: Vec<(PathBuf, ModPath, String)> = files
        .iter()
        .filter(|f| !is_test_file(f))
        .map(|f| (f.clone(), mod_path(f), code_lines(f).join("\n")))
        .collect();
    let roots: BTreeMap<ModPath, BTreeMap<String, String>> = code
        .iter()
        .filter(|(f, _, _)| {
            let n = f.file_name().unwrap();
            n == "mod.rs" || n == "lib.rs"
        })
        .map(|(_, m, c)| (m.clone(), reexports(c)))
        .collect();
    let mut g = Graph::new();
    for (file, at, text) in &code {
        let rel = file.strip_prefix(src()).unwrap().display().to_string();
        for used in paths(text, at) {
            // Every folder module that holds both ends.
            for (folder, names) in &roots {
                let n = folder.len();
                if at.len() <= n
                    || used.len() <= n
                    || at[..n] != folder[..]
                    || used[..n] != folder[..]
                {
                    continue;
                }
                let from = at[n].clone();
                let mut to = used[n].clone();
                if let Some(child) = names.get(&to) {
                    to = child.clone();
                }
                if from != to && roots_child(folder, &to, &code) {
                    g.entry(folder.clone())
                        .or_default()
                        .entry(from)
                        .or_default()
                        .entry(to)
                        .or_default()
                        .insert(format!("{rel}: {}", used.join("::")));
                }
            }
        }
    }
    g
}

/// Whether `name` is a child module of `folder` (not an item its root file defines).
fn roots_child(folder: &[String], name: &str, code: &[(PathBuf, ModPath, String)]) -> bool {
    code.iter().any(|(_, m, _)| {
        m.len() > folder.len() && m[..folder.len()] == *folder && m[folder.len()] == name
    })
}

/// The strongly connected components with more than one member (Tarjan).
fn circles(edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        out: Vec<Vec<String>>,
    }
    fn visit(t: &mut T, v: &str) {
        let k = t.index.len();
        t.index.insert(v.into(), k);
        t.low.insert(v.into(), k);
        t.stack.push(v.into());
        t.on.insert(v.into());
        let next: Vec<String> = t
            .edges
            .get(v)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for w in next {
            if !t.index.contains_key(&w) {
                visit(t, &w);
                let lw = t.low[&w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(&w);
                let done = w == v;
                scc.push(w);
                if done {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                t.out.push(scc);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&String> = edges
        .keys()
        .chain(edges.values().flat_map(|m| m.keys()))
        .collect();
    for v in nodes {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_import_circle() {
    let g = graph();
    assert!(
        g.get(&Vec::new()).is_some_and(|e| e.len() > 5),
        "the scanner found almost no uses between top-level modules: it is broken"
    );
    let mut report = Vec::new();
    for (folder, edges) in &g {
        for scc in circles(edges) {
            let place = if folder.is_empty() {
                "imb-core's top-level modules".to_string()
            } else {
                format!("src/{}/", folder.join("/"))
            };
            report.push(format!("circle between {scc:?} in {place}:"));
            for a in &scc {
                for (b, why) in &edges[a] {
                    if scc.contains(b) {
                        report.push(format!("  {a} -> {b}: {why:?}"));
                    }
                }
            }
        }
    }
    assert!(report.is_empty(), "\n{}", report.join("\n"));
}

/// The printer only prints: what its sinks render is declared below it (`table::column`,
/// `note`, `header`, `plan::Work`), so inside imb-core only the driver imports `report`, and no
/// crate of the workspace does, in its sources, examples or tests, but imb-threads and imb-omp,
/// binaries that print their own tables through `report`'s grid, progress and `-json` file
/// without the engine's driver.
#[test]
fn only_the_driver_imports_the_printer() {
    let mut found = Vec::new();
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    for f in files.iter().filter(|f| !is_test_file(f)) {
        let at = mod_path(f);
        if matches!(at.first().map(String::as_str), Some("report" | "driver")) {
            continue;
        }
        for used in paths(&code_lines(f).join("\n"), &at) {
            if used.first().is_some_and(|m| m == "report") {
                found.push(format!("{}: {}", f.display(), used.join("::")));
            }
        }
    }
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for e in std::fs::read_dir(&crates).unwrap() {
        let dir = e.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if matches!(name.as_str(), "imb-core" | "imb-threads" | "imb-omp") {
            continue;
        }
        let mut files = Vec::new();
        for sub in ["src", "examples", "tests", "benches"] {
            if dir.join(sub).is_dir() {
                rs_files(&dir.join(sub), &mut files);
            }
        }
        for f in &files {
            // The crate's own paths set aside, imb-core's read as this scanner reads `crate::`.
            let text: String = std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n")
                .replace("crate::", "own::")
                .replace("super::", "own::")
                .replace("imb_core::", "crate::");
            for used in paths(&text, &[]) {
                if used.first().is_some_and(|m| m == "report") {
                    let rel = f.strip_prefix(&crates).unwrap_or(f).display();
                    found.push(format!("crates/{rel}: imb_core::{}", used.join("::")));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "imports of the printer below it:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_reads_use_trees() {
    let at: ModPath = vec!["cli".into(), "syntax".into()];
    let got = paths(
        "use crate::a::{b, c::{d, e as f}, self};\nlet x = super::table::Opt::row();\n\
         use crate::{g::h, i};\n",
        &at,
    );
    let want: Vec<ModPath> = [
        &["a", "b"][..],
        &["a", "c", "d"],
        &["a", "c", "e"],
        &["a"],
        &["cli", "table", "Opt", "row"],
        &["g", "h"],
        &["i"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(got, want);
    let edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
            .iter()
            .fold(BTreeMap::new(), |mut m, (x, y)| {
                m.entry(x.to_string())
                    .or_default()
                    .insert(y.to_string(), BTreeSet::new());
                m
            });
    assert_eq!(circles(&edges), [["a", "b", "c"]]);
}

/// Lines of code: not blank, not only a comment, before the file's unit tests.
#[test]
fn no_file_over_400_lines_of_code() {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter(|f| !is_test_file(f))
        .filter_map(|f| {
            let n = code_lines(f)
                .iter()
                .filter(|l| !l.trim().is_empty())
                .count();
            (n > 400).then(|| format!("{}: {n}", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "over 400 lines of code: {long:?}");
}

/// A newer Rust must not be needed by accident: every crate declares the workspace's
/// `rust-version` (clippy's incompatible_msrv then flags std items newer than it) and takes the
/// workspace's lints (undocumented unsafe blocks are errors).
#[test]
fn every_crate_inherits_rust_version_and_lints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let ws = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        ws.contains("rust-version = \""),
        "the workspace declares rust-version"
    );
    assert!(ws.contains("undocumented_unsafe_blocks = \"deny\""));
    let mut missing = Vec::new();
    for e in std::fs::read_dir(root.join("crates")).unwrap() {
        let manifest = e.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        for need in ["rust-version.workspace = true", "[lints]\nworkspace = true"] {
            if !text.contains(need) {
                missing.push(format!("{}: {need:?}", manifest.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:?}");
}

/// The engine holds no family's names: a family's files, options, settings keys, benchmarks
/// and executables live in its crate, behind the engine's general hooks (doc/ARCHITECTURE.md,
/// "Where a change goes"). Comments may name them as examples; code may not.
#[test]
fn no_engine_file_names_a_family() {
    const FAMILY: &[&str] = &[
        "IMB_out",
        "FILENAME",
        "settings_io",
        "Kind::Io",
        "window_size",
        "\"-dir\"",
        "Uniband",
        "Biband",
        "Jacobi",
        "_latency",
        "Truly_passive",
        "CPU_Exploit",
        "imb-io",
        "imb-ext",
        "imb-rma",
        "imb-nbc",
    ];
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !is_test_file(f)) {
        for (k, line) in code_lines(f).iter().enumerate() {
            for w in FAMILY.iter().filter(|w| line.contains(*w)) {
                found.push(format!("{}:{}: {w}", f.display(), k + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "family names in the engine:\n{}",
        found.join("\n")
    );
}
