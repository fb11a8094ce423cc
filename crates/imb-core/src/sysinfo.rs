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

/// Bytes of memory the kernel can give without swapping (`MemAvailable` of /proc/meminfo), if
/// the kernel tells.
pub fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

fn parse_mem_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The `# !!` line for a host where more processes (or threads) run than CPUs they may use.
pub fn oversubscribed_line(what: &str, n: usize, cpus: usize) -> Option<String> {
    (n > cpus).then(|| {
        format!(
            "{n} {what} share {cpus} CPU{} on one host (oversubscribed): times measure the \
             scheduler, they are not results",
            if cpus == 1 { "" } else { "s" }
        )
    })
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

    #[test]
    fn mem_available_and_oversubscription_line() {
        let t = "MemTotal:       24000000 kB\nMemAvailable:    1000 kB\n";
        assert_eq!(super::parse_mem_available(t), Some(1024 * 1000));
        assert_eq!(super::parse_mem_available("MemTotal: 1 kB\n"), None);
        assert_eq!(super::oversubscribed_line("processes", 2, 2), None);
        let l = super::oversubscribed_line("processes", 4, 2).unwrap();
        assert!(l.starts_with("4 processes share 2 CPUs on one host"), "{l}");
        assert!(super::oversubscribed_line("threads", 2, 1)
            .unwrap()
            .contains("1 CPU on"));
    }
}
