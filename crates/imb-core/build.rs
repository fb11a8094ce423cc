//! The build facts of the `-json` provenance (doc/OUTPUT.md, "Provenance"): the git commit of
//! the checkout imb-rs is built from and whether it had changes, the rustc that compiled it,
//! the profile and target. Built from a source tarball or without git, the git facts are
//! simply absent: this script never fails the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    // No optional locks: `status` must not rewrite the index it is watching (it would rerun
    // this script on the next build).
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    out.status.success().then_some(s)
}

fn nonempty(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.is_empty())
}

/// A `cargo:rerun-if-changed` for the git path `name` (HEAD, a ref, the index), if it exists:
/// a watched path that does not exist would rerun this script on every build.
fn watch_git(crate_dir: &Path, name: &str) {
    if let Some(p) = nonempty(git(crate_dir, &["rev-parse", "--git-path", name])) {
        let p = if Path::new(&p).is_absolute() {
            PathBuf::from(p)
        } else {
            crate_dir.join(p)
        };
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}

fn main() {
    // This crate's own files still rebuild it (cargo's default, which a rerun-if-changed line
    // would otherwise turn off).
    println!("cargo:rerun-if-changed=.");
    if let Some(v) = std::env::var_os("RUSTC").and_then(|rustc| {
        let out = Command::new(rustc).arg("--version").output().ok()?;
        nonempty(
            String::from_utf8(out.stdout)
                .ok()
                .map(|s| s.trim().to_string()),
        )
    }) {
        println!("cargo:rustc-env=IMB_RS_RUSTC_VERSION={v}");
    }
    for (from, to) in [
        ("PROFILE", "IMB_RS_PROFILE"),
        ("OPT_LEVEL", "IMB_RS_OPT_LEVEL"),
        ("TARGET", "IMB_RS_TARGET"),
    ] {
        if let Ok(v) = std::env::var(from) {
            println!("cargo:rustc-env={to}={v}");
        }
    }
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
    let top = nonempty(git(&crate_dir, &["rev-parse", "--show-toplevel"]))
        .and_then(|t| PathBuf::from(t).canonicalize().ok());
    if top.as_deref() != Some(workspace.as_path()) {
        return;
    }
    let Some(commit) = nonempty(git(&crate_dir, &["rev-parse", "HEAD"])) else {
        return;
    };
    println!("cargo:rustc-env=IMB_RS_GIT_COMMIT={commit}");
    // Changes to what a binary is built from (the crates and the workspace's manifest and
    // lock file, untracked files there included) make the checkout dirty; documentation does
    // not. Known when this crate was last built: the script reruns when HEAD moves, when the
    // index changes (`git add`, a commit) and when this crate's files change, not on every
    // edit elsewhere, which would rebuild the whole workspace each time (the binary's SHA-256
    // in the provenance tells two builds apart exactly).
    let status = git(
        &workspace,
        &[
            "status",
            "--porcelain",
            "--",
            "crates",
            "Cargo.toml",
            "Cargo.lock",
        ],
    );
    if let Some(s) = status {
        println!("cargo:rustc-env=IMB_RS_GIT_DIRTY={}", !s.is_empty());
    }
    // HEAD itself (a branch switch), the branch's ref, packed refs and the index.
    let mut watch = vec![
        "HEAD".to_string(),
        "packed-refs".to_string(),
        "index".to_string(),
    ];
    if let Some(r) = nonempty(git(&crate_dir, &["symbolic-ref", "-q", "HEAD"])) {
        watch.push(r);
    }
    for w in watch {
        watch_git(&crate_dir, &w);
    }
}
