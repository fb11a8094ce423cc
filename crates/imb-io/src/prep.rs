//! Preparing the file of one benchmark and process count (IMB_BEHAVIOUR.md §5.4.1), once, before
//! its first size: refuse a file we did not make (unless -overwrite), register it with the
//! guardian before it exists, create it at its full size and, for reads, fill it with rank 0's
//! IO pattern so every read has known contents. The file is removed when the `Prepared` value
//! is dropped at the end of the step (imb_core::files), or by the guardian if the rank dies.

use crate::file::{File, On, Open};
use crate::layout::{self, Family};
use imb_core::buffers::io_value;
use imb_core::files::Created;
use imb_core::hints::Info;
use imb_core::kernel::Prep;
use std::any::Any;
use std::path::{Path, PathBuf};

/// The prepared file of a step, as the kernels see it (`Ctx::prep`).
pub struct Prepared {
    pub path: PathBuf,
    /// Held by the process that created the file: removes it on drop.
    _created: Option<Created>,
}

/// Prefill in chunks of this size (3.0 uses 1 MiB).
const CHUNK: usize = 1 << 20;

/// `fam` is None for Open_Close, which only needs its name reserved.
pub fn prepare(fam: Option<&Family>, p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
    let private = fam.is_some_and(|f| f.private());
    let path = layout::file_name(p.base, p.group, private.then_some(p.world_rank));
    // Every process opens this name (private: on MPI_COMM_SELF, rank 0; shared: on the step's
    // communicator), so every process checks it before any open.
    fits_the_library(&path, if private { 0 } else { p.size.saturating_sub(1) })?;
    let creator = private || p.rank == 0;
    let mut created = None;
    if creator {
        if std::fs::symlink_metadata(&path).is_ok() {
            if !p.overwrite {
                return Err(format!(
                    "{} exists and was not created by this run: remove it, choose another -dir, \
                     or pass -overwrite to let imb-io replace (and then remove) it",
                    path.display()
                ));
            }
            File::delete(&path)?;
        }
        // Registered before it exists: a rank killed while creating it leaves nothing.
        created = Some(Created::new(path.clone()));
        if let Some(f) = fam {
            fill(f, p, &path)?;
        }
    }
    Ok(Some(Box::new(Prepared {
        path,
        _created: created,
    })))
}

/// Create the file at the size the step's accesses need; reads get rank 0's pattern.
fn fill(f: &Family, p: &Prep, path: &Path) -> Result<(), String> {
    let hints = Info::new(p.info);
    let how = if f.private() {
        Open::Unique
    } else {
        Open::Shared
    };
    let file = File::open(On::Myself, path, how, &hints)
        .map_err(|e| format!("{e} (with {})", hints.describe()))?;
    let total = if f.private() && p.size > 1 {
        // Each of NP private files holds about 1/NP of every size, plus rounding to 4 bytes.
        let reps = p.params.msgspersample.max(p.params.msgs_nonaggr);
        p.volume.div_ceil(p.size) + 8 * reps
    } else {
        p.volume
    };
    file.set_size(total, path)?;
    if f.write {
        room(path, total)?;
    }
    if !f.write {
        let mut chunk = vec![0u8; CHUNK.min(total)];
        let mut at = 0;
        while at < total {
            let len = CHUNK.min(total - at);
            // `at` is a multiple of 4 (CHUNK is), so the chunk starts on a whole int.
            for (k, v) in chunk[..len].chunks_mut(4).enumerate() {
                let b = io_value(0, at / 4 + k).to_ne_bytes();
                v.copy_from_slice(&b[..v.len()]);
            }
            file.try_write_at(at, &chunk[..len], path)?;
            at += len;
        }
    }
    file.close(path)
}

/// The file system of `path` must have room for the `total` bytes the step writes. The file is
/// sparse after MPI_File_set_size (as in 3.0), so its blocks are allocated by the timed writes;
/// on a full disk OMPIO's collective writes print an error and still report every byte as
/// written (Open MPI 4.1.4, observed), so the space is checked here, before anything is timed.
fn room(path: &Path, total: usize) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(v) = nix::sys::statvfs::statvfs(dir) else {
        return Ok(()); // no answer: the per-access checks remain
    };
    let free = v.blocks_available().saturating_mul(v.fragment_size());
    if (total as u64) > free {
        return Err(format!(
            "{}: the benchmark writes up to {total} bytes, but {} has only {free} bytes free",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// Open MPI's MPI-IO (OMPIO, 4.1) copies the name given to MPI_File_open, `.locktest.` and the
/// opening process's rank into a 256-byte buffer when it chooses a shared-file-pointer
/// component, on every open, private files included; a longer name ends the process with
/// `*** buffer overflow detected ***` and a stack trace instead of an error code. Measured with
/// Open MPI 4.1.4: a 244-byte name opens on ranks 0..9 and a 245-byte one aborts; 243 and 244
/// bytes on a communicator with rank 10. So the name, -dir included, is refused here first.
/// MPICH's ROMIO takes names up to PATH_MAX, and FILENAME's own limit (settings) keeps every
/// component within NAME_MAX for both.
fn fits_the_library(path: &Path, highest_rank: usize) -> Result<(), String> {
    let len = path.as_os_str().len();
    let max = ompio_name_max(highest_rank);
    if len > max && imb_core::sysinfo::mpi_library().starts_with("Open MPI") {
        return Err(format!(
            "{}: the name is {len} bytes, and Open MPI's MPI-IO takes at most {max} here (it \
             aborts on longer ones): choose a shorter -dir or FILENAME",
            path.display()
        ));
    }
    Ok(())
}

/// The longest name OMPIO can open on a communicator whose highest rank is `highest_rank`:
/// 256 bytes less `.locktest.`, the rank's digits and the terminating NUL.
fn ompio_name_max(highest_rank: usize) -> usize {
    256 - ".locktest.".len() - highest_rank.to_string().len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ompio_name_limit_as_measured() {
        assert_eq!(ompio_name_max(0), 244);
        assert_eq!(ompio_name_max(9), 244);
        assert_eq!(ompio_name_max(10), 243);
        assert_eq!(ompio_name_max(123_456), 239);
    }
}
