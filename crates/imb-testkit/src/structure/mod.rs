//! The shape of the workspace, read from its sources for the structure tests
//! (`tests/structure.rs`, imb-core's `tests/layers.rs`; doc/ARCHITECTURE.md, "Rules the code
//! keeps"): every crate under `crates/`, its files read whole as code (lex.rs), the rules
//! checked on them (rules.rs) giving one [`Violation`] per broken rule and place.

mod graph;
mod lex;
mod paths;
mod rules;
#[cfg(test)]
mod tests;

pub use graph::{circles, graph, Edges};
pub use lex::{code_view, functions, line_of, strip_tests, unsafe_regions};
pub use paths::{extern_paths, paths, ModPath};
pub use rules::{
    code_lines, family_dependencies, file_sizes, import_circles, long_functions, mpi_unsafe,
    report_imports, CIRCLE, FAMILY_DEPENDENCY, FILE_SIZE, LONG_FN, MPI_UNSAFE, REPORT_IMPORT,
};

use std::path::{Path, PathBuf};

/// The benchmark families: executables that stand apart, none depending on another.
pub const FAMILIES: &[&str] = &[
    "imb-mpi1", "imb-ext", "imb-io", "imb-rma", "imb-nbc", "imb-p2p", "imb-mpi4", "imb-mt",
];

/// What a file is to its crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Under `src/`, not a test.
    Src,
    /// Unit tests under `src/` (`tests.rs`, a `tests/` folder, a `#[cfg(test)] mod x;` file)
    /// and integration tests under `tests/`.
    Test,
    Example,
    Build,
}

pub struct File {
    /// From the crate's directory: `src/report/text/mod.rs`.
    pub rel: String,
    pub text: String,
    pub kind: Kind,
    /// Its module inside the crate (for `src/` files; empty for the crate roots).
    pub module: ModPath,
    /// The whole file as code (comments blanked, literals' insides `_`): lex.rs.
    pub view: String,
    /// `view` without the items after `#[cfg(test)]`.
    pub code: String,
}

pub struct Crate {
    /// Its directory's name, which is its package's: `imb-core`.
    pub name: String,
    pub manifest: String,
    pub files: Vec<File>,
}

impl File {
    /// `code` with the insides of its string and char literals back, for rules about what the
    /// code spells (`"-dir"`), not what it names.
    pub fn code_with_literals(&self) -> String {
        let (text, view) = (self.text.as_bytes(), self.view.as_bytes());
        let out: Vec<u8> = self
            .code
            .bytes()
            .enumerate()
            .map(|(k, c)| match c == b'_' && view[k] == b'_' {
                true => text[k],
                false => c,
            })
            .collect();
        String::from_utf8(out).expect("whole characters restored")
    }
}

impl Crate {
    pub fn is_family(&self) -> bool {
        FAMILIES.contains(&self.name.as_str())
    }

    pub fn files_of(&self, kind: Kind) -> impl Iterator<Item = &File> {
        self.files.iter().filter(move |f| f.kind == kind)
    }
}

/// One rule broken in one place. `key` names crate, file and rule (and the module or function)
/// and is what the known-violation lists hold; `detail` says how much or why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    pub key: String,
    pub detail: String,
}

impl Violation {
    pub fn new(krate: &str, file: &str, rule: &str, what: &str, detail: String) -> Violation {
        let key = match what {
            "" => format!("{krate} {file}: {rule}"),
            _ => format!("{krate} {file}: {rule}: {what}"),
        };
        Violation { key, detail }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.detail.as_str() {
            "" => write!(f, "{}", self.key),
            d => write!(f, "{} ({d})", self.key),
        }
    }
}

/// The repository's root, from this crate's directory.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every crate under `root/crates`, in name order (`fuzz/` is not one of them).
pub fn workspace(root: &Path) -> Vec<Crate> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.expect("crates/ lists").path())
        .filter(|d| d.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| read_crate(d)).collect()
}

/// The crate in `dir` (its `src/`, `tests/`, `examples/` and `build.rs`).
pub fn read_crate(dir: &Path) -> Crate {
    let mut files = Vec::new();
    for (sub, kind) in [
        ("src", Kind::Src),
        ("tests", Kind::Test),
        ("examples", Kind::Example),
    ] {
        let mut paths = Vec::new();
        rs_files(&dir.join(sub), &mut paths);
        files.extend(paths.iter().map(|p| read_file(dir, p, kind)));
    }
    if dir.join("build.rs").is_file() {
        files.push(read_file(dir, &dir.join("build.rs"), Kind::Build));
    }
    // The files of modules declared `#[cfg(test)] mod x;` are tests, and so is all below them.
    let test_mods: Vec<ModPath> = files
        .iter()
        .filter(|f| f.kind == Kind::Src)
        .flat_map(|f| {
            let (_, names) = strip_tests(&f.view);
            names
                .into_iter()
                .map(|n| [f.module.clone(), vec![n]].concat())
        })
        .collect();
    for f in files.iter_mut().filter(|f| f.kind == Kind::Src) {
        if test_mods.iter().any(|m| f.module.starts_with(m)) {
            f.kind = Kind::Test;
        }
    }
    Crate {
        name: dir.file_name().unwrap().to_string_lossy().into_owned(),
        manifest: std::fs::read_to_string(dir.join("Cargo.toml")).expect("a readable Cargo.toml"),
        files,
    }
}

fn read_file(dir: &Path, path: &Path, kind: Kind) -> File {
    let rel = path.strip_prefix(dir).unwrap();
    let text = std::fs::read_to_string(path).expect("a readable source");
    let view = code_view(&text);
    let code = strip_tests(&view).0;
    let module = match kind {
        Kind::Src => module_of(rel.strip_prefix("src").unwrap()),
        _ => Vec::new(),
    };
    let test_file = rel.file_name().is_some_and(|n| n == "tests.rs")
        || rel.components().skip(1).any(|c| c.as_os_str() == "tests");
    File {
        rel: rel.display().to_string(),
        kind: if kind == Kind::Src && test_file {
            Kind::Test
        } else {
            kind
        },
        module,
        text,
        view,
        code,
    }
}

/// `report/text/mod.rs` → `["report", "text"]`; `lib.rs` and `main.rs` → `[]`.
fn module_of(rel: &Path) -> ModPath {
    let mut p: ModPath = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(p.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        p.pop();
    }
    p
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.map(|e| e.expect("a listed entry").path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}
