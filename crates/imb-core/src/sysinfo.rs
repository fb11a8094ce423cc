//! Facts for the header: date, uname, MPI version and thread level.

/// `asctime` layout, as IMB prints it.
pub fn date() -> String {
    chrono::Local::now()
        .format("%a %b %e %H:%M:%S %Y")
        .to_string()
}

/// (machine, sysname, release, version) from uname(2).
pub fn uname() -> (String, String, String, String) {
    match nix::sys::utsname::uname() {
        Ok(u) => {
            let s = |o: &std::ffi::OsStr| o.to_string_lossy().into_owned();
            (
                s(u.machine()),
                s(u.sysname()),
                s(u.release()),
                s(u.version()),
            )
        }
        Err(_) => Default::default(),
    }
}

/// The job size the launcher announced to this process (Open MPI's mpirun sets
/// OMPI_COMM_WORLD_SIZE, MPICH's hydra and PMI-2 launchers PMI_SIZE), if any. `get` reads the
/// environment (a parameter, so tests need not change the real one).
pub fn launcher_size(get: impl Fn(&str) -> Option<String>) -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"]
        .iter()
        .filter_map(|k| get(k)?.trim().parse().ok())
        .max()
}

#[cfg(feature = "mpi")]
pub use with_mpi::*;

#[cfg(feature = "mpi")]
mod with_mpi {
    use mpi::Threading;

    /// MPI standard version (version, subversion).
    pub fn mpi_version() -> (i32, i32) {
        mpi::environment::version()
    }

    /// The library's own version string, trimmed (Open MPI appends a NUL).
    pub fn mpi_library() -> String {
        mpi::environment::library_version()
            .map(|s| s.trim_end_matches('\0').trim().to_string())
            .unwrap_or_default()
    }

    /// Thread level as the header names it.
    pub fn thread_name(t: Threading) -> &'static str {
        match t {
            Threading::Single => "MPI_THREAD_SINGLE",
            Threading::Funneled => "MPI_THREAD_FUNNELED",
            Threading::Serialized => "MPI_THREAD_SERIALIZED",
            Threading::Multiple => "MPI_THREAD_MULTIPLE",
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn launcher_size_from_either_launcher() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(super::launcher_size(env(&[])), None);
        assert_eq!(
            super::launcher_size(env(&[("OMPI_COMM_WORLD_SIZE", "4")])),
            Some(4)
        );
        assert_eq!(super::launcher_size(env(&[("PMI_SIZE", "2")])), Some(2));
        assert_eq!(super::launcher_size(env(&[("PMI_SIZE", "x")])), None);
    }

    #[test]
    fn date_has_asctime_shape() {
        let d = super::date();
        let parts: Vec<_> = d.split_whitespace().collect();
        assert_eq!(parts.len(), 5, "{d}");
        assert_eq!(parts[3].len(), 8);
        assert!(!super::uname().1.is_empty());
    }
}
