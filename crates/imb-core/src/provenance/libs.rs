//! The fabric libraries under the MPI library, UCX and libfabric, when this process has them
//! loaded: found in /proc/self/maps, their versions asked from the libraries themselves
//! (`ucp_get_version_string`, `fi_version`; a soname says nothing: UCX's is `libucp.so.0` in
//! every release). A library that is not loaded is never loaded for this (`RTLD_NOLOAD`).

use super::sysfs::{Fact, Root};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void, CStr, CString};

/// One loaded fabric library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FabricLibrary {
    /// The mapped file.
    pub path: String,
    /// `1.13.1` (UCX), `1.17` (libfabric's API version).
    pub version: Fact<String>,
}

/// The library files of `maps` (/proc/PID/maps text) that are UCX's protocol layer or
/// libfabric, by name (`ucx`, `libfabric`), the first mapping of each.
pub fn mapped(maps: &str) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for line in maps.lines() {
        // address perms offset dev inode path: the path is the sixth field and may hold spaces.
        let Some(path) = line.splitn(6, char::is_whitespace).nth(5).map(str::trim) else {
            continue;
        };
        let file = path.rsplit('/').next().unwrap_or("");
        let name = if file.starts_with("libucp.so") {
            "ucx"
        } else if file.starts_with("libfabric.so") {
            "libfabric"
        } else {
            continue;
        };
        m.entry(name.to_string())
            .or_insert_with(|| path.to_string());
    }
    m
}

/// The fabric libraries mapped into this process (as /proc/self/maps under `root` says).
pub fn loaded(root: &Root) -> BTreeMap<String, FabricLibrary> {
    let Ok(maps) = root.read("/proc/self/maps") else {
        return BTreeMap::new();
    };
    mapped(&maps)
        .into_iter()
        .map(|(name, path)| {
            let version = version(&name, &path).into();
            (name, FabricLibrary { path, version })
        })
        .collect()
}

/// The symbol `sym` of the already loaded library `path`, with the handle to close.
fn symbol(path: &str, sym: &str) -> Result<(*mut c_void, *mut c_void), String> {
    let (cpath, csym) = match (CString::new(path), CString::new(sym)) {
        (Ok(p), Ok(s)) => (p, s),
        _ => return Err("a NUL in the path".to_string()),
    };
    // SAFETY: both strings are NUL-terminated and outlive the call; RTLD_NOLOAD only returns a
    // handle to a library already mapped, so no initialiser runs.
    let h = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
    if h.is_null() {
        return Err("not loaded by this process".to_string());
    }
    // SAFETY: `h` is a live handle from dlopen and `csym` a NUL-terminated name.
    let f = unsafe { libc::dlsym(h, csym.as_ptr()) };
    if f.is_null() {
        // SAFETY: `h` came from dlopen above and is closed once.
        unsafe { libc::dlclose(h) };
        return Err(format!("no {sym} in it"));
    }
    Ok((h, f))
}

fn version(name: &str, path: &str) -> Result<String, String> {
    match name {
        "ucx" => {
            let (h, f) = symbol(path, "ucp_get_version_string")?;
            // SAFETY: UCX's ucp/api/ucp.h declares `const char *ucp_get_version_string(void)`,
            // which returns a static NUL-terminated string and needs no initialisation.
            let s = unsafe {
                let f: extern "C" fn() -> *const c_char = std::mem::transmute(f);
                let p = f();
                (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
            };
            // SAFETY: `h` came from dlopen in `symbol` and is closed once; the string was
            // copied before.
            unsafe { libc::dlclose(h) };
            s.ok_or_else(|| "ucp_get_version_string returned NULL".to_string())
        }
        _ => {
            let (h, f) = symbol(path, "fi_version")?;
            // SAFETY: libfabric's rdma/fabric.h declares `uint32_t fi_version(void)`: the API
            // version, major in the high 16 bits; it needs no initialisation.
            let v = unsafe {
                let f: extern "C" fn() -> u32 = std::mem::transmute(f);
                f()
            };
            // SAFETY: `h` came from dlopen in `symbol` and is closed once.
            unsafe { libc::dlclose(h) };
            Ok(format!("{}.{}", v >> 16, v & 0xffff))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fabric_libraries_in_maps() {
        let maps = "\
7f00-7f01 r--p 00000000 08:01 123 /usr/lib/x86_64-linux-gnu/libucp.so.0.0.0
7f01-7f02 r-xp 00001000 08:01 123 /usr/lib/x86_64-linux-gnu/libucp.so.0.0.0
7f02-7f03 r--p 00000000 08:01 124 /opt/my libs/libfabric.so.1.18.0
7f03-7f04 rw-p 00000000 00:00 0 
7f04-7f05 r--p 00000000 08:01 125 /usr/lib/libucs.so.0
";
        let m = mapped(maps);
        assert_eq!(
            m.get("ucx").map(String::as_str),
            Some("/usr/lib/x86_64-linux-gnu/libucp.so.0.0.0")
        );
        assert_eq!(
            m.get("libfabric").map(String::as_str),
            Some("/opt/my libs/libfabric.so.1.18.0")
        );
        assert_eq!(m.len(), 2);
        assert!(mapped("garbage\n\n1 2 3").is_empty());
    }

    /// A library this process has not loaded is reported so, and not loaded for it.
    #[test]
    fn never_loads_a_library() {
        assert_eq!(
            version("ucx", "/nonexistent/libucp.so.0"),
            Err("not loaded by this process".to_string())
        );
    }
}
