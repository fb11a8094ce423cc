//! Preparing the file of one benchmark and process count (doc/METHODOLOGY.md, "imb-io"), once,
//! before its first size: its name carries a token of the step (`step_token`), it is created
//! exclusively (a file we did not make is refused unless -overwrite) and registered with the
//! guardian, then set to its full size and, for reads, filled with rank 0's IO
//! pattern so every read has known contents. The file is removed when the `Prepared` value is
//! dropped at the end of the step (`files::Created`), or by the guardian if the rank dies.

use crate::files::Created;
use crate::layout::{self, Family};
use crate::options::{self, OVERWRITE};
use imb_core::buffers::io_value;
use imb_core::cli::Options;
use imb_core::kernel::Prep;
use imb_core::plan::{Plan, StepPlan};
use imb_core::settings::Params;
use imb_mpi::info::Info;
use imb_mpi::io::{File, On, Open};
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
    let base = with_token(&options::base(p.params, p.family), step_token(p.comm));
    let path = layout::file_name(&base, p.group, private.then_some(p.world_rank));
    let creator = private || p.rank == 0;
    let mut created = None;
    if creator {
        created = Some(claim(
            &path,
            fam.is_some(),
            OVERWRITE.get(p.family) == Some(true),
        )?);
        if let Some(f) = fam {
            fill(f, p, &path)?;
        }
    }
    Ok(Some(Box::new(Prepared {
        path,
        _created: created,
    })))
}

/// The step's token, drawn by the group's rank 0 and broadcast: two runs started in one
/// directory, or two steps of one run, never share a file name, so neither reads what the
/// other wrote nor removes the other's file.
fn step_token(comm: &imb_core::kernel::Comm) -> u32 {
    use mpi::traits::*;
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    h.write_u128(now.map_or(0, |d| d.as_nanos()));
    let mut token = h.finish() as u32;
    comm.process_at_rank(0).broadcast_into(&mut token);
    token
}

/// FILENAME with the step's token: `IMB_out.0badf00d` (layout::file_name adds `_g<g>` and
/// `_<rank>`), `options::TOKEN_LEN` characters more.
pub fn with_token(base: &Path, token: u32) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(format!(".{token:08x}"));
    PathBuf::from(s)
}

/// Make `path` ours: a file already there is refused unless -overwrite (then removed), and a
/// file to fill is created here, exclusively, so a file that appears meanwhile is refused
/// rather than shared. Registered with the guardian once it is ours, never before: a name we
/// failed to claim is someone else's file, which the guardian must not remove.
fn claim(path: &Path, create: bool, overwrite: bool) -> Result<Created, String> {
    let refused = || {
        format!(
            "{} exists and was not created by this run: remove it, choose another -dir, or pass \
             -overwrite to let imb-io replace (and then remove) it",
            path.display()
        )
    };
    if std::fs::symlink_metadata(path).is_ok() {
        if !overwrite {
            return Err(refused());
        }
        File::delete(path)?;
    }
    if create {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(refused()),
            Err(e) => return Err(format!("cannot create {}: {e}", path.display())),
        }
    }
    Ok(Created::new(path.to_path_buf()))
}

/// The bytes one file of a step of `np` processes holds, whose accesses reach `volume`.
fn file_bytes(f: &Family, np: usize, volume: usize, params: &Params) -> usize {
    if f.private() && np > 1 {
        // Each of NP private files holds about 1/NP of every size, plus rounding to 4 bytes.
        let reps = params.msgspersample.max(params.msgs_nonaggr);
        volume.div_ceil(np).saturating_add(8 * reps)
    } else {
        volume
    }
}

/// The files of a step, all in the same directory: a private file per process, or one shared
/// file per group (-multi 0 runs the groups at once).
fn files(f: &Family, np: usize, groups: usize) -> usize {
    groups.max(1) * if f.private() { np } else { 1 }
}

/// Before the run (`Hooks::before_run`): the file system under `-dir` must hold the files of
/// the largest step, written by its timed accesses or, for reads, by its preparation, so a
/// run does not end on a full disk after the benchmarks before it. One `statvfs`; the check
/// before each write step (`room`, in `fill`) stays, for space that others take meanwhile.
pub fn room_for_plan(
    plan: &Plan,
    opts: &Options,
    family: impl Fn(&imb_core::bench::Info) -> Option<Family>,
) -> Result<(), String> {
    let p = &opts.params;
    let mut largest: Option<(usize, usize, &str)> = None;
    for bp in &plan.benchmarks {
        let Some(f) = family(bp.info) else { continue };
        for step in &bp.steps {
            let StepPlan::Run { layout, sizes } = step else {
                continue;
            };
            let n = files(&f, layout.np, layout.groups.len());
            let total = file_bytes(&f, layout.np, sizes.volume, p).saturating_mul(n);
            if largest.is_none_or(|(t, ..)| total > t) {
                largest = Some((total, n, bp.info.name));
            }
        }
    }
    let Some((total, n, name)) = largest else {
        return Ok(());
    };
    room(&options::base(p, &opts.family), total, n).map_err(|e| format!("{name}: {e}"))
}

/// Create the file at the size the step's accesses need; reads get rank 0's pattern.
fn fill(f: &Family, p: &Prep, path: &std::path::Path) -> Result<(), String> {
    let hints = Info::new(p.info);
    let how = if f.private() {
        Open::Unique
    } else {
        Open::Shared
    };
    let file = File::open(On::Myself, path, how, &hints)
        .map_err(|e| format!("{e} (with {})", hints.describe()))?;
    let total = file_bytes(f, p.size, p.volume, p.params);
    file.set_size(total, path)?;
    if f.write {
        let files = files(f, p.size, p.groups);
        room(path, total.saturating_mul(files), files)?;
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
    drop(file);
    Ok(())
}

/// The file system of `path` must have room for the `total` bytes the step writes in all its
/// files. The file is
/// sparse after MPI_File_set_size (as in 3.0), so its blocks are allocated by the timed writes;
/// on a full disk OMPIO's collective writes print an error and still report every byte as
/// written (Open MPI 4.1.4, observed), so the space is checked here, before anything is timed.
fn room(path: &std::path::Path, total: usize, files: usize) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    // No answer, or a file system that reports no blocks at all (procfs, some FUSE mounts):
    // the open and the per-access checks remain.
    let Ok(v) = nix::sys::statvfs::statvfs(dir) else {
        return Ok(());
    };
    if v.blocks() == 0 {
        return Ok(());
    }
    let free = v.blocks_available().saturating_mul(v.fragment_size());
    if (total as u64) > free {
        let into = if files > 1 {
            format!(" into {files} files")
        } else {
            String::new()
        };
        return Err(format!(
            "{}: the benchmark writes up to {total} bytes{into}, but {} has only {free} bytes \
             free",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}
