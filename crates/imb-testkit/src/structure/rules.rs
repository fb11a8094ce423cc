//! The rules, each a function from a crate to its violations (doc/ARCHITECTURE.md, "Rules the
//! code keeps"). Test code is out of every rule but the printer's (a family's tests are below
//! the printer too).

use super::graph::{circles, graph};
use super::lex::{functions, line_of, unsafe_regions};
use super::paths::{extern_paths, paths};
use super::{Crate, File, Kind, Violation, FAMILIES};

pub const CIRCLE: &str = "import circle";
pub const FAMILY_DEPENDENCY: &str = "family depends on a family";
pub const MPI_UNSAFE: &str = "MPI unsafe outside imb-mpi";
pub const REPORT_IMPORT: &str = "imports report below the printer";
pub const FILE_SIZE: &str = "over 400 code lines";
pub const LONG_FN: &str = "fn over 100 lines";

/// What names MPI in an `unsafe` block (libc, Pthreads and dlopen blocks name none of these).
const MPI_NAMES: &[&str] = &["ffi::MPI", "MPI_", "MPIX_", "RSMPI_", "mpi_sys", "mpi::ffi"];

/// No import circle between the children of any folder module, the crate root included.
pub fn import_circles(krate: &Crate) -> Vec<Violation> {
    let mut out = Vec::new();
    for (folder, edges) in graph(krate) {
        let file = match folder.is_empty() {
            true => "src/".to_string(),
            false => format!("src/{}/", folder.join("/")),
        };
        for scc in circles(&edges) {
            let ties: Vec<String> = scc
                .iter()
                .flat_map(|a| edges[a].iter().map(move |(b, why)| (a, b, why)))
                .filter(|(_, b, _)| scc.contains(b))
                .map(|(a, b, why)| format!("{a} -> {b}: {}", why.iter().next().unwrap()))
                .collect();
            out.push(Violation::new(
                &krate.name,
                &file,
                CIRCLE,
                &scc.join(" "),
                ties.join("; "),
            ));
        }
    }
    out
}

/// No family's Cargo.toml names another family, in any dependency table.
pub fn family_dependencies(krate: &Crate) -> Vec<Violation> {
    if !krate.is_family() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut table = String::new();
    for line in krate.manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let name = if let Some(header) = line.strip_prefix('[') {
            table = header.trim_end_matches(']').to_string();
            // `[dependencies.imb-ext]`
            table
                .rsplit_once("dependencies.")
                .map(|(_, n)| n.to_string())
        } else if table.ends_with("dependencies") {
            line.split(['=', '.'])
                .next()
                .map(|n| n.trim().trim_matches('"').to_string())
        } else {
            None
        };
        if let Some(name) = name.filter(|n| *n != krate.name && FAMILIES.contains(&n.as_str())) {
            out.push(Violation::new(
                &krate.name,
                "Cargo.toml",
                FAMILY_DEPENDENCY,
                &name,
                table.clone(),
            ));
        }
    }
    out
}

/// MPI `unsafe` only in imb-mpi: per `src/` file of another crate, how many `unsafe` blocks and
/// fns name MPI. The examples' raw reference loops call MPI on purpose (the overhead ratios'
/// baselines), so examples are out.
pub fn mpi_unsafe(krate: &Crate) -> Vec<Violation> {
    if krate.name == "imb-mpi" {
        return Vec::new();
    }
    let mut out = Vec::new();
    for f in krate.files_of(Kind::Src) {
        let mpi: Vec<usize> = unsafe_regions(&f.code)
            .into_iter()
            .filter(|&(s, e)| MPI_NAMES.iter().any(|n| f.code[s..e].contains(n)))
            .map(|(s, _)| line_of(&f.code, s))
            .collect();
        if let Some(first) = mpi.first() {
            let what = format!("{} unsafe", mpi.len());
            out.push(Violation::new(
                &krate.name,
                &f.rel,
                MPI_UNSAFE,
                &what,
                format!("first at line {first}"),
            ));
        }
    }
    out
}

/// The printer only prints: in imb-core only the driver (and the printer itself) imports
/// `report`; in every other crate no source, test or example imports `imb_core::report`,
/// except imb-threads and imb-omp, which print their own tables through it.
pub fn report_imports(krate: &Crate) -> Vec<Violation> {
    let mut out = Vec::new();
    for f in &krate.files {
        let below = match krate.name.as_str() {
            "imb-threads" | "imb-omp" => false,
            "imb-core" => {
                f.kind == Kind::Src
                    && !matches!(
                        f.module.first().map(String::as_str),
                        Some("report" | "driver")
                    )
            }
            _ => true,
        };
        if !below {
            continue;
        }
        let mut named = extern_paths(&f.view, "imb_core");
        if krate.name == "imb-core" {
            named.extend(paths(&f.code, &f.module));
        }
        let report: Vec<String> = named
            .iter()
            .filter(|p| p.first().is_some_and(|m| m == "report"))
            .map(|p| p.join("::"))
            .collect();
        if !report.is_empty() {
            out.push(Violation::new(
                &krate.name,
                &f.rel,
                REPORT_IMPORT,
                "",
                report.join(", "),
            ));
        }
    }
    out
}

/// The files that are the crate's code (not its tests).
fn code_files(krate: &Crate) -> impl Iterator<Item = &File> {
    krate.files.iter().filter(|f| f.kind != Kind::Test)
}

/// Lines of code: not blank, not only a comment, outside the tests.
pub fn code_lines(f: &File) -> usize {
    f.code.lines().filter(|l| !l.trim().is_empty()).count()
}

/// No file over 400 lines of code.
pub fn file_sizes(krate: &Crate) -> Vec<Violation> {
    code_files(krate)
        .map(|f| (f, code_lines(f)))
        .filter(|&(_, n)| n > 400)
        .map(|(f, n)| Violation::new(&krate.name, &f.rel, FILE_SIZE, "", format!("{n}")))
        .collect()
}

/// Functions over 100 lines, from `fn` to the closing brace.
pub fn long_functions(krate: &Crate) -> Vec<Violation> {
    let mut out = Vec::new();
    for f in code_files(krate) {
        for (name, at, end) in functions(&f.code) {
            let (first, last) = (line_of(&f.code, at), line_of(&f.code, end - 1));
            if last - first + 1 > 100 {
                let detail = format!("{} lines from line {first}", last - first + 1);
                out.push(Violation::new(&krate.name, &f.rel, LONG_FN, &name, detail));
            }
        }
    }
    out
}
