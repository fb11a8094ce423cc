//! Builds `kernels/epcc.c`, the timed OpenMP constructs, and links the OpenMP runtime.
//!
//! Default: the system C compiler (`cc`, or `$CC`) with `-fopenmp` and GNU libgomp.
//! With the cargo feature `libomp` or `IMB_OMP_RUNTIME=libomp`: clang (or `$CC`) with
//! `-fopenmp=libomp` and LLVM's libomp (Debian: `clang libomp-dev`).
//! A compiler that cannot build OpenMP code stops the build with one clear message.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

const KERNELS: &str = "kernels/epcc.c";

const PROBE: &str = "#include <omp.h>\n#ifndef _OPENMP\n#error _OPENMP is not defined\n#endif\n\
int main(void) {\n    int n = 0;\n#pragma omp parallel\n    {\n#pragma omp single\n        \
n = omp_get_num_threads();\n    }\n    return n > 0 ? 0 : 1;\n}\n";

#[derive(Clone, Copy, PartialEq)]
enum Runtime {
    Gomp,
    Llvm,
}

impl Runtime {
    /// What the environment asks for; `None` when nothing is set (the default).
    fn requested() -> Option<Runtime> {
        let feature = env::var_os("CARGO_FEATURE_LIBOMP").is_some();
        match env::var("IMB_OMP_RUNTIME").ok().as_deref() {
            Some("libomp") => Some(Runtime::Llvm),
            Some("libgomp") => Some(Runtime::Gomp),
            None | Some("") => feature.then_some(Runtime::Llvm),
            Some(other) => panic!(
                "imb-omp: IMB_OMP_RUNTIME={other:?} is not known; use `libgomp` (gcc, the \
                 default) or `libomp` (clang with LLVM's libomp)."
            ),
        }
    }

    /// The name compiled into the kernels (`imb_omp_runtime()`).
    fn name(self) -> &'static str {
        match self {
            Runtime::Gomp => "libgomp",
            Runtime::Llvm => "libomp",
        }
    }

    fn openmp_flag(self) -> &'static str {
        match self {
            Runtime::Gomp => "-fopenmp",
            Runtime::Llvm => "-fopenmp=libomp",
        }
    }

    /// The library cargo must link: `-fopenmp` only reaches the C compile, not rustc's link.
    fn link_lib(self) -> &'static str {
        match self {
            Runtime::Gomp => "gomp",
            Runtime::Llvm => "omp",
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed={KERNELS}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=IMB_OMP_RUNTIME");
    println!("cargo:rerun-if-env-changed=CC");

    let requested = Runtime::requested();
    let mut build = cc::Build::new();
    if requested == Some(Runtime::Llvm) && env::var_os("CC").is_none() {
        build.compiler("clang");
    }
    // clang's own OpenMP runtime is libomp (its `-fopenmp=libgomp` only parses the pragmas).
    let clang = build.get_compiler().is_like_clang();
    let runtime = requested.unwrap_or(if clang { Runtime::Llvm } else { Runtime::Gomp });
    if clang && runtime == Runtime::Gomp {
        panic!(
            "imb-omp: IMB_OMP_RUNTIME=libgomp needs gcc, but the C compiler is clang; set \
             CC=gcc, or use clang's runtime with IMB_OMP_RUNTIME=libomp."
        );
    }
    // Pinned, not taken from the cargo profile: the timed kernels must not change with it.
    build
        .opt_level(2)
        .flag("-std=c11")
        .flag(runtime.openmp_flag())
        .define(
            "IMB_OMP_RUNTIME",
            format!("\"{}\"", runtime.name()).as_str(),
        );

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    probe_openmp(&build, runtime, &out);

    build.file(KERNELS).compile("imb_omp_epcc");
    if runtime == Runtime::Llvm {
        add_libomp_search_path(&build, &out);
    }
    // After the static kernels library, so the linker resolves its GOMP_/__kmpc_ calls.
    println!("cargo:rustc-link-lib={}", runtime.link_lib());
}

/// Compiles and links a tiny OpenMP program with the same compiler and flags; panics with
/// one paragraph naming the compiler, the reason and the fix if that fails.
fn probe_openmp(build: &cc::Build, runtime: Runtime, out: &Path) {
    let source = out.join("imb_omp_probe.c");
    fs::write(&source, PROBE).expect("imb-omp: cannot write the OpenMP probe to OUT_DIR");
    let compiler = build.get_compiler();
    let mut cmd = compiler.to_command();
    cmd.arg(&source).arg("-o").arg(out.join("imb_omp_probe"));
    let reason = match cmd.output() {
        Ok(o) if o.status.success() => return,
        Ok(o) => first_error_line(&String::from_utf8_lossy(&o.stderr))
            .unwrap_or_else(|| format!("exit status {}", o.status)),
        Err(e) => format!("cannot run the compiler: {e}"),
    };
    let fix = match runtime {
        Runtime::Gomp => {
            "Install gcc (libgomp) — `apt-get install gcc` — or, for LLVM's runtime, \
             clang and libomp-dev and set IMB_OMP_RUNTIME=libomp."
        }
        Runtime::Llvm => {
            "Install clang and LLVM's libomp — `apt-get install clang libomp-dev` — \
             or build with gcc and libgomp (the default: no `libomp` feature, \
             IMB_OMP_RUNTIME unset or `libgomp`)."
        }
    };
    panic!(
        "imb-omp: the C compiler `{}` cannot build OpenMP code ({} failed: {}). {fix}",
        compiler.path().display(),
        runtime.openmp_flag(),
        reason.trim()
    );
}

/// The most telling line of a compiler's stderr: the first that mentions an error.
fn first_error_line(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let line = lines.iter().find(|l| l.contains("error")).or(lines.first());
    line.map(|l| l.to_string())
}

/// clang links libomp from its own library directory (e.g. /usr/lib/llvm-14/lib), which
/// the rustc link (driven by `cc`) does not search: read the `-L` directories from the
/// link line clang would run (`-###`) and pass the one holding libomp.so on to cargo.
fn add_libomp_search_path(build: &cc::Build, out: &Path) {
    let mut cmd = build.get_compiler().to_command();
    cmd.arg("-###")
        .arg(out.join("imb_omp_probe.c"))
        .arg("-o")
        .arg(out.join("imb_omp_probe"));
    let Ok(output) = cmd.output() else { return };
    let plan = String::from_utf8_lossy(&output.stderr);
    let dirs = plan
        .split_whitespace()
        .filter_map(|w| w.trim_matches('"').strip_prefix("-L"));
    if let Some(dir) = dirs.map(Path::new).find(|d| d.join("libomp.so").exists()) {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    }
}
