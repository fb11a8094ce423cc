//! The git commit of the checkout imb-rs is built from, for the `-json` provenance
//! (doc/OUTPUT.md, "Provenance"). Built from a source tarball or without git, the commit is
//! simply absent: this script never fails the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !s.is_empty()).then_some(s)
}

fn main() {
    let Some(crate_dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return;
    };
    // Our workspace is two levels up; a checkout of some other project that happens to hold
    // the sources (a vendored copy) must not lend us its commit.
    let Some(workspace) = crate_dir
        .ancestors()
        .nth(2)
        .and_then(|p| p.canonicalize().ok())
    else {
        return;
    };
    let top = git(&crate_dir, &["rev-parse", "--show-toplevel"])
        .and_then(|t| PathBuf::from(t).canonicalize().ok());
    if top.as_deref() != Some(workspace.as_path()) {
        return;
    }
    let Some(commit) = git(&crate_dir, &["rev-parse", "HEAD"]) else {
        return;
    };
    println!("cargo:rustc-env=IMB_RS_GIT_COMMIT={commit}");
    // Rebuild when HEAD moves: HEAD itself (a branch switch), the branch's ref, packed refs.
    let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(r) = git(&crate_dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch.push(r);
    }
    for w in watch {
        if let Some(p) = git(&crate_dir, &["rev-parse", "--git-path", &w]) {
            let p = if Path::new(&p).is_absolute() {
                PathBuf::from(p)
            } else {
                crate_dir.join(p)
            };
            // A watched path that does not exist would rerun this script on every build.
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
}
