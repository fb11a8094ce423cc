//! Thin, checked wrappers over the MPI-IO calls rsmpi does not wrap: MPI_File_open/close
//! (`File`, closed in `Drop`), views, set_size, sync, delete, every blocking access of the
//! guide's Table 1, the non-blocking ones (`Requests`, waited for in `Drop`) and the split
//! collectives. Set-up calls (open, set_size, delete) return MPI's error text, so the prepare
//! step can end every rank with one line; a failure inside a measurement prints one line naming
//! the call and aborts every rank (files default to MPI_ERRORS_RETURN, so codes do come back).
//!
//! No transfer is trusted: every access reads its MPI_Status and compares the bytes moved with
//! the bytes asked. On a full disk Open MPI 4.1's OMPIO prints `error in (p)write(v)` and still
//! returns MPI_SUCCESS with a short count (observed), so a return code alone would turn a full
//! disk into a table of wrong numbers. A short transfer aborts with one line naming the call,
//! the file and both counts.
//!
//! Memory contract: a blocking call borrows its buffer for the call; a non-blocking one borrows
//! it for the life of the `Requests` it was added to (which waits before it is dropped); a split
//! collective borrows it across `_begin`, the overlapped work and `_end`.

use crate::info::Info;
use crate::rc::{self, check, count, error_string};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator as Comm;
use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

mod access;
mod requests;
pub use access::Call;
pub use requests::Requests;

/// Which communicator opens a file.
pub enum On<'a> {
    /// The benchmark's communicator (shared files).
    Comm(&'a Comm),
    /// MPI_COMM_SELF (private files, and preparation by one process).
    Myself,
}

/// How a file is opened.
#[derive(Clone, Copy)]
pub enum Open {
    /// CREATE | RDWR (shared files).
    Shared,
    /// CREATE | RDWR | UNIQUE_OPEN (private files).
    Unique,
}

fn mpi_err(call: &str, path: &Path, rc: c_int) -> String {
    format!("{call}({}) failed: {}", path.display(), error_string(rc))
}

/// An open MPI file. Closed on drop (collective over its communicator, like the open).
pub struct File {
    raw: ffi::MPI_File,
    byte: ffi::MPI_Datatype,
    /// The committed filetype of a tiled view, freed after the file.
    filetype: Option<ffi::MPI_Datatype>,
    /// For messages (None when opened by `open_c` in Open_Close's timed loop).
    path: Option<std::path::PathBuf>,
}

/// A status for one call, on the stack.
#[inline(always)]
fn status() -> ffi::MPI_Status {
    // SAFETY: MPI_Status is plain C data; all-zero is a valid (empty) value that MPI overwrites.
    unsafe { std::mem::zeroed() }
}

/// Bytes a completed access moved, by its status.
#[inline(always)]
fn moved(st: &ffi::MPI_Status, byte: ffi::MPI_Datatype) -> usize {
    let mut n: c_int = 0;
    // SAFETY: st was filled by the completed call; n is a valid out-pointer.
    check("MPI_Get_count", unsafe {
        ffi::MPI_Get_count(st, byte, &mut n)
    });
    usize::try_from(n).unwrap_or(0)
}

/// A transfer moved fewer bytes than asked: one line, then every rank ends.
#[cold]
#[inline(never)]
fn short(call: &str, path: Option<&Path>, asked: usize, got: usize) -> ! {
    let file = path.map_or_else(String::new, |p| format!(" on {}", p.display()));
    rc::abort(
        &format!(
            "{call}{file} moved {got} of {asked} bytes (is the file system full, or a file-size \
             limit reached?)"
        ),
        1,
    )
}

/// Abort unless the access described by `st` moved `asked` bytes.
#[inline(always)]
fn expect(call: &str, st: &ffi::MPI_Status, f: &File, asked: usize) {
    let got = moved(st, f.byte);
    if got != asked {
        short(call, f.path.as_deref(), asked, got)
    }
}

/// A path as the C string MPI wants.
pub fn c_path(path: &Path) -> Result<CString, String> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| format!("{}: the path contains a NUL byte", path.display()))
}

/// (offset in bytes) as MPI_Offset.
#[inline(always)]
fn offset(n: usize) -> ffi::MPI_Offset {
    n as ffi::MPI_Offset
}

impl File {
    /// MPI_File_open. Collective over `on`.
    pub fn open(on: On, path: &Path, how: Open, info: &Info) -> Result<File, String> {
        let name = c_path(path)?;
        let mut f =
            File::open_c(on, &name, how, info).map_err(|rc| mpi_err("MPI_File_open", path, rc))?;
        f.path = Some(path.to_path_buf());
        Ok(f)
    }

    /// MPI_File_open with the name already converted (Open_Close opens in its timed loop).
    #[inline(always)]
    pub fn open_c(on: On, name: &CStr, how: Open, info: &Info) -> Result<File, c_int> {
        // SAFETY: reading rsmpi's extern statics (handle constants).
        let (comm, byte, mut raw) = unsafe {
            let comm = match on {
                On::Comm(c) => c.as_raw(),
                On::Myself => ffi::RSMPI_COMM_SELF,
            };
            (comm, ffi::RSMPI_UINT8_T, ffi::RSMPI_FILE_NULL)
        };
        let mut amode = (ffi::MPI_MODE_CREATE | ffi::MPI_MODE_RDWR) as c_int;
        if let Open::Unique = how {
            amode |= ffi::MPI_MODE_UNIQUE_OPEN as c_int;
        }
        // SAFETY: name is NUL-terminated and outlives the call; raw is a valid out-pointer.
        let rc = unsafe { ffi::MPI_File_open(comm, name.as_ptr(), amode, info.raw(), &mut raw) };
        if rc != ffi::MPI_SUCCESS as c_int {
            return Err(rc);
        }
        // The default view is already 3.0's byte view (displacement 0, MPI_BYTE, "native").
        Ok(File {
            raw,
            byte,
            filetype: None,
            path: None,
        })
    }

    /// MPI_File_delete of a file nobody has open.
    pub fn delete(path: &Path) -> Result<(), String> {
        let name = c_path(path)?;
        // SAFETY: name is NUL-terminated and outlives the call; reading MPI_INFO_NULL.
        let rc = unsafe { ffi::MPI_File_delete(name.as_ptr(), ffi::RSMPI_INFO_NULL) };
        if rc != ffi::MPI_SUCCESS as c_int {
            return Err(mpi_err("MPI_File_delete", path, rc));
        }
        Ok(())
    }

    /// MPI_File_set_size (collective over the file's communicator).
    pub fn set_size(&self, bytes: usize, path: &Path) -> Result<(), String> {
        // SAFETY: raw is an open file.
        let rc = unsafe { ffi::MPI_File_set_size(self.raw, offset(bytes)) };
        if rc != ffi::MPI_SUCCESS as c_int {
            return Err(mpi_err("MPI_File_set_size", path, rc));
        }
        Ok(())
    }

    /// MPI_File_set_view (collective); the code comes back because hints often cause failures.
    fn set_view(&self, filetype: ffi::MPI_Datatype) -> Result<(), c_int> {
        // SAFETY: raw is open; the datarep string is a NUL-terminated literal; reading
        // MPI_INFO_NULL; filetype is MPI_BYTE or a committed type.
        let rc = unsafe {
            ffi::MPI_File_set_view(
                self.raw,
                0,
                self.byte,
                filetype,
                c"native".as_ptr(),
                ffi::RSMPI_INFO_NULL,
            )
        };
        if rc != ffi::MPI_SUCCESS as c_int {
            return Err(rc);
        }
        Ok(())
    }

    /// The tiled view of P_/C_ `Indv`: `len` bytes at `off` in every block of `x` bytes, so
    /// the individual pointer walks this process's part of consecutive blocks. An empty
    /// portion gets the byte view (3.0 does the same). Collective: every process of the file
    /// sets a view, empty portion or not.
    pub fn view_tiled(&mut self, off: usize, len: usize, x: usize) -> Result<(), c_int> {
        if len == 0 {
            return self.set_view(self.byte);
        }
        let mut block: ffi::MPI_Datatype = self.byte;
        let mut tiled: ffi::MPI_Datatype = self.byte;
        let lens = [count(len)];
        let disps = [off as ffi::MPI_Aint];
        // SAFETY: one block: the arrays hold one element each and outlive the calls; the
        // intermediate type is freed once the resized type (which keeps what it needs) exists.
        unsafe {
            check(
                "MPI_Type_create_hindexed",
                ffi::MPI_Type_create_hindexed(
                    1,
                    lens.as_ptr(),
                    disps.as_ptr(),
                    self.byte,
                    &mut block,
                ),
            );
            check(
                "MPI_Type_create_resized",
                ffi::MPI_Type_create_resized(block, 0, x as ffi::MPI_Aint, &mut tiled),
            );
            check("MPI_Type_free", ffi::MPI_Type_free(&mut block));
            check("MPI_Type_commit", ffi::MPI_Type_commit(&mut tiled));
        }
        self.filetype = Some(tiled);
        self.set_view(tiled)
    }

    /// Set-up write at an explicit offset (preparation), returning MPI's error text.
    pub fn try_write_at(&self, at: usize, buf: &[u8], path: &Path) -> Result<(), String> {
        let mut st = status();
        // SAFETY: buf is borrowed for the call; raw is open; st is a valid out-pointer.
        let rc = unsafe {
            ffi::MPI_File_write_at(
                self.raw,
                offset(at),
                buf.as_ptr() as *const c_void,
                count(buf.len()),
                self.byte,
                &mut st,
            )
        };
        if rc != ffi::MPI_SUCCESS as c_int {
            return Err(mpi_err("MPI_File_write_at", path, rc));
        }
        let got = moved(&st, self.byte);
        if got != buf.len() {
            return Err(format!(
                "MPI_File_write_at({}) wrote {got} of {} bytes at offset {at} (is the file \
                 system full, or a file-size limit reached?)",
                path.display(),
                buf.len()
            ));
        }
        Ok(())
    }

    /// MPI_File_sync (collective over the file's communicator).
    #[inline(always)]
    pub fn sync(&self) {
        // SAFETY: raw is open.
        check("MPI_File_sync", unsafe { ffi::MPI_File_sync(self.raw) });
    }
}

impl Drop for File {
    fn drop(&mut self) {
        // SAFETY: raw was opened once and is closed once; the filetype was committed by
        // view_tiled and is freed once, after the view that uses it is gone.
        unsafe {
            check("MPI_File_close", ffi::MPI_File_close(&mut self.raw));
            if let Some(mut t) = self.filetype.take() {
                check("MPI_Type_free", ffi::MPI_Type_free(&mut t));
            }
        }
    }
}
