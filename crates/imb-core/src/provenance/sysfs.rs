//! Reading a host's facts from procfs and sysfs under a root directory (`/`, or a tree the
//! tests build), and the record of a fact that could not be read. Below `host`, `net` and
//! `libs`, which all read through it.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A fact that may be missing: its value, or `{"absent": why}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Fact<T> {
    // First, so that reading back an object with `absent` never takes it for a T whose
    // fields are all optional.
    Absent { absent: String },
    Known(T),
}

impl<T> Fact<T> {
    pub fn absent(why: impl Into<String>) -> Self {
        Fact::Absent { absent: why.into() }
    }

    pub fn known(&self) -> Option<&T> {
        match self {
            Fact::Known(t) => Some(t),
            Fact::Absent { .. } => None,
        }
    }
}

impl<T> From<Result<T, String>> for Fact<T> {
    fn from(r: Result<T, String>) -> Self {
        match r {
            Ok(t) => Fact::Known(t),
            Err(why) => Fact::Absent { absent: why },
        }
    }
}

/// Where procfs and sysfs are: `/` on a real host.
#[derive(Debug, Clone)]
pub struct Root(pub PathBuf);

impl Root {
    pub fn system() -> Root {
        Root(PathBuf::from("/"))
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel.trim_start_matches('/'))
    }

    /// A file's text (non-UTF-8 bytes replaced), or why it cannot be read.
    pub fn read(&self, rel: &str) -> Result<String, String> {
        std::fs::read(self.path(rel))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| format!("{rel}: {}", reason(&e)))
    }

    /// A file's first line, trimmed, or why not.
    pub fn line(&self, rel: &str) -> Result<String, String> {
        self.read(rel)
            .map(|t| t.lines().next().unwrap_or("").trim().to_string())
    }

    /// The entries of a directory, sorted: each name (bytes that are not UTF-8 replaced) and
    /// path (exact, so that such a name is still read); why not when it cannot be listed.
    pub fn entries(&self, rel: &str) -> Result<Vec<(String, PathBuf)>, String> {
        let mut v: Vec<(String, PathBuf)> = std::fs::read_dir(self.path(rel))
            .map_err(|e| format!("{rel}: {}", reason(&e)))?
            .filter_map(|e| e.ok())
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect();
        v.sort();
        Ok(v)
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }
}

/// An I/O error in words without the OS's error number.
pub fn reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "not found".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// The first line of the file at `p`, trimmed (bytes that are not UTF-8 replaced).
pub fn first_line(p: &Path) -> Option<String> {
    let b = std::fs::read(p).ok()?;
    let t = String::from_utf8_lossy(&b);
    Some(t.lines().next().unwrap_or("").trim().to_string())
}

/// Whether `p` resolves into the virtual device tree (`/sys/devices/virtual/…`).
pub fn is_virtual(p: &Path) -> bool {
    std::fs::canonicalize(p)
        .map(|c| c.to_string_lossy().contains("/devices/virtual/"))
        .unwrap_or(false)
}
