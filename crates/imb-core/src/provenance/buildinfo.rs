//! How the binary was built (imb-core's build.rs records the rustc, profile, target and the
//! git checkout's state) and which binary it is: the SHA-256 of the running executable, read
//! once before the first benchmark, its cost measured.

use super::host::{reason, Fact};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Read;

/// The build, as far as it was known when imb-core was compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BuildFacts {
    /// `rustc 1.95.0 (… 2026-…)`.
    pub rustc: Option<&'static str>,
    /// Cargo's profile (`debug` for dev and test builds, `release`) and optimisation level.
    pub profile: Option<&'static str>,
    pub opt_level: Option<&'static str>,
    pub target: Option<&'static str>,
    /// Whether the checkout had changes to the crates, their manifests or the lock file when
    /// imb-core was last built; None without a git checkout.
    pub git_dirty: Option<bool>,
    /// The running executable: path, size, SHA-256.
    pub binary: Fact<Binary>,
}

/// The running executable.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Binary {
    pub path: String,
    pub bytes: u64,
    /// Lower-case hex.
    pub sha256: String,
    /// What reading and hashing it took, in microseconds.
    pub hash_us: f64,
}

/// The SHA-256 of everything `r` yields, in hex, with the byte count.
pub fn sha256(mut r: impl Read) -> std::io::Result<(String, u64)> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0u64;
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => {
                h.update(&buf[..k]);
                n += k as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((h.finalize().iter().map(|b| format!("{b:02x}")).collect(), n))
}

fn binary() -> Result<Binary, String> {
    let t0 = std::time::Instant::now();
    // /proc/self/exe is the file that runs even when its path was replaced since the start.
    let f = std::fs::File::open("/proc/self/exe")
        .map_err(|e| format!("/proc/self/exe: {}", reason(&e)))?;
    let (sha256, bytes) = sha256(f).map_err(|e| format!("/proc/self/exe: {}", reason(&e)))?;
    let path = std::fs::read_link("/proc/self/exe")
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Binary {
        path,
        bytes,
        sha256,
        hash_us: t0.elapsed().as_secs_f64() * 1e6,
    })
}

impl BuildFacts {
    pub fn here() -> BuildFacts {
        BuildFacts {
            rustc: option_env!("IMB_RS_RUSTC_VERSION"),
            profile: option_env!("IMB_RS_PROFILE"),
            opt_level: option_env!("IMB_RS_OPT_LEVEL"),
            target: option_env!("IMB_RS_TARGET"),
            git_dirty: option_env!("IMB_RS_GIT_DIRTY").map(|d| d == "true"),
            binary: binary().into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_text() {
        let (h, n) = sha256(&b"abc"[..]).unwrap();
        assert_eq!(
            h,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(n, 3);
        let b = BuildFacts::here();
        let bin = b.binary.known().expect("the test binary");
        assert_eq!(bin.sha256.len(), 64);
        assert!(bin.bytes > 0);
        assert!(b.rustc.is_some_and(|r| r.starts_with("rustc ")));
        assert!(b.profile.is_some());
    }
}
