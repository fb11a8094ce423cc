//! Thin, checked wrappers over the MPI-IO calls rsmpi does not wrap: MPI_File_open/close
//! (`File`, closed in `Drop`), views, set_size, sync, delete, every blocking access of the
//! guide's Table 1, the non-blocking ones (`Requests`, waited for in `Drop`) and the split
//! collectives. Set-up calls (open, set_size, delete) return MPI's error text, so the prepare
//! step can end every rank with one line; a failure inside a measurement prints one line naming
//! the call and aborts every rank (files default to MPI_ERRORS_RETURN, so codes do come back).
//! All `unsafe` of imb-io is in this file.
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

use imb_core::hints::Info;
use imb_core::kernel::Comm;
use imb_core::mpirc::{self, check, count, error_string};
use mpi::ffi;
use mpi::raw::AsRaw;
use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

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
    mpirc::abort(
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

/// The blocking and split-collective calls of Table 1 (guide 4.2.5): which call moves the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// individual pointer (`write`, `iwrite`)
    Pointer,
    /// explicit offset (`write_at`, `iwrite_at`)
    At,
    /// shared pointer (`write_shared`, `iwrite_shared`)
    SharedPointer,
    /// collective individual (`write_all`, `write_all_begin/_end`)
    All,
    /// collective explicit (`write_at_all`, `write_at_all_begin/_end`)
    AtAll,
    /// collective shared, rank order (`write_ordered`, `write_ordered_begin/_end`)
    Ordered,
}

macro_rules! blocking {
    ($self:ident, $call:ident, $at:ident, $buf:expr, $len:expr, $name:literal,
     $ptr:ident, $at_f:ident, $shared:ident, $all:ident, $at_all:ident, $ordered:ident) => {{
        let (f, b, n, t) = ($self.raw, $buf, count($len), $self.byte);
        let mut status = status();
        // SAFETY: the buffer is borrowed for the call and holds `len` bytes; f is open; st
        // points to a status on this stack frame.
        let rc = unsafe {
            let st: *mut ffi::MPI_Status = &mut status;
            match $call {
                Call::Pointer => ffi::$ptr(f, b, n, t, st),
                Call::At => ffi::$at_f(f, offset($at), b, n, t, st),
                Call::SharedPointer => ffi::$shared(f, b, n, t, st),
                Call::All => ffi::$all(f, b, n, t, st),
                Call::AtAll => ffi::$at_all(f, offset($at), b, n, t, st),
                Call::Ordered => ffi::$ordered(f, b, n, t, st),
            }
        };
        check($name, rc);
        expect($name, &status, $self, $len);
    }};
}

impl File {
    /// One blocking write of `buf` (`at` is used by the explicit-offset calls).
    #[inline(always)]
    pub fn write(&self, call: Call, at: usize, buf: &[u8]) {
        blocking!(
            self,
            call,
            at,
            buf.as_ptr() as *const c_void,
            buf.len(),
            "MPI_File_write",
            MPI_File_write,
            MPI_File_write_at,
            MPI_File_write_shared,
            MPI_File_write_all,
            MPI_File_write_at_all,
            MPI_File_write_ordered
        )
    }

    /// One blocking read into `buf`.
    #[inline(always)]
    pub fn read(&self, call: Call, at: usize, buf: &mut [u8]) {
        blocking!(
            self,
            call,
            at,
            buf.as_mut_ptr() as *mut c_void,
            buf.len(),
            "MPI_File_read",
            MPI_File_read,
            MPI_File_read_at,
            MPI_File_read_shared,
            MPI_File_read_all,
            MPI_File_read_at_all,
            MPI_File_read_ordered
        )
    }

    /// A split-collective write (`All`, `AtAll`, `Ordered`): `_begin`, then `during` (the
    /// overlapped work), then `_end`.
    #[inline(always)]
    pub fn write_split(&self, call: Call, at: usize, buf: &[u8], during: impl FnOnce()) {
        let (f, b, n, t) = (
            self.raw,
            buf.as_ptr() as *const c_void,
            count(buf.len()),
            self.byte,
        );
        // SAFETY: buf is borrowed across begin, `during` and end, and holds n bytes; f is open.
        let rc = unsafe {
            match call {
                Call::All => ffi::MPI_File_write_all_begin(f, b, n, t),
                Call::AtAll => ffi::MPI_File_write_at_all_begin(f, offset(at), b, n, t),
                _ => ffi::MPI_File_write_ordered_begin(f, b, n, t),
            }
        };
        check("MPI_File_write_*_begin", rc);
        during();
        let mut status = status();
        // SAFETY: as above; st points to a status on this stack frame.
        let rc = unsafe {
            let st: *mut ffi::MPI_Status = &mut status;
            match call {
                Call::All => ffi::MPI_File_write_all_end(f, b, st),
                Call::AtAll => ffi::MPI_File_write_at_all_end(f, b, st),
                _ => ffi::MPI_File_write_ordered_end(f, b, st),
            }
        };
        check("MPI_File_write_*_end", rc);
        expect("MPI_File_write_*_end", &status, self, buf.len());
    }

    /// A split-collective read into `buf`, with `during` between `_begin` and `_end`.
    #[inline(always)]
    pub fn read_split(&self, call: Call, at: usize, buf: &mut [u8], during: impl FnOnce()) {
        let (f, b, n, t) = (
            self.raw,
            buf.as_mut_ptr() as *mut c_void,
            count(buf.len()),
            self.byte,
        );
        // SAFETY: buf is borrowed mutably across begin, `during` and end; f is open.
        let rc = unsafe {
            match call {
                Call::All => ffi::MPI_File_read_all_begin(f, b, n, t),
                Call::AtAll => ffi::MPI_File_read_at_all_begin(f, offset(at), b, n, t),
                _ => ffi::MPI_File_read_ordered_begin(f, b, n, t),
            }
        };
        check("MPI_File_read_*_begin", rc);
        during();
        let mut status = status();
        // SAFETY: as above; st points to a status on this stack frame.
        let rc = unsafe {
            let st: *mut ffi::MPI_Status = &mut status;
            match call {
                Call::All => ffi::MPI_File_read_all_end(f, b, st),
                Call::AtAll => ffi::MPI_File_read_at_all_end(f, b, st),
                _ => ffi::MPI_File_read_ordered_end(f, b, st),
            }
        };
        check("MPI_File_read_*_end", rc);
        expect("MPI_File_read_*_end", &status, self, n as usize);
    }

    /// Start a non-blocking write of `buf` (`Pointer`, `At`, `SharedPointer`).
    #[inline(always)]
    pub fn iwrite<'b>(&self, reqs: &mut Requests<'b>, call: Call, at: usize, buf: &'b [u8]) {
        let (f, b, n, t) = (
            self.raw,
            buf.as_ptr() as *const c_void,
            count(buf.len()),
            self.byte,
        );
        let r = reqs.slot(buf.len());
        // SAFETY: buf lives as long as `reqs`, which waits for the request before it ends; r
        // points into reserved capacity of the request vector.
        let rc = unsafe {
            match call {
                Call::Pointer => ffi::MPI_File_iwrite(f, b, n, t, r),
                Call::At => ffi::MPI_File_iwrite_at(f, offset(at), b, n, t, r),
                _ => ffi::MPI_File_iwrite_shared(f, b, n, t, r),
            }
        };
        check("MPI_File_iwrite*", rc);
        reqs.filled();
    }

    /// Start a non-blocking read into `buf`.
    #[inline(always)]
    pub fn iread<'b>(&self, reqs: &mut Requests<'b>, call: Call, at: usize, buf: &'b mut [u8]) {
        let (f, b, n, t) = (
            self.raw,
            buf.as_mut_ptr() as *mut c_void,
            count(buf.len()),
            self.byte,
        );
        let r = reqs.slot(buf.len());
        // SAFETY: as in iwrite; buf is borrowed mutably for the life of `reqs`.
        let rc = unsafe {
            match call {
                Call::Pointer => ffi::MPI_File_iread(f, b, n, t, r),
                Call::At => ffi::MPI_File_iread_at(f, offset(at), b, n, t, r),
                _ => ffi::MPI_File_iread_shared(f, b, n, t, r),
            }
        };
        check("MPI_File_iread*", rc);
        reqs.filled();
    }
}

/// Outstanding non-blocking requests over buffers borrowed for `'b`, with a status and the
/// bytes asked of each. The capacity is reserved before timing, so adding a request in a timed
/// loop allocates nothing.
pub struct Requests<'b> {
    reqs: Vec<ffi::MPI_Request>,
    asked: Vec<usize>,
    statuses: Vec<ffi::MPI_Status>,
    _bufs: PhantomData<&'b mut [u8]>,
}

impl<'b> Requests<'b> {
    pub fn with_capacity(n: usize) -> Self {
        Requests {
            reqs: Vec::with_capacity(n),
            asked: Vec::with_capacity(n),
            statuses: vec![status(); n.max(1)],
            _bufs: PhantomData,
        }
    }

    /// Where the next request handle goes; `asked` is its byte count.
    #[inline(always)]
    fn slot(&mut self, asked: usize) -> *mut ffi::MPI_Request {
        if self.reqs.len() == self.reqs.capacity() {
            // Outside the timed path: only a caller that under-reserved gets here.
            self.reqs.reserve(1);
        }
        self.asked.push(asked);
        self.reqs.spare_capacity_mut()[0].as_mut_ptr()
    }

    #[inline(always)]
    fn filled(&mut self) {
        // SAFETY: `slot` reserved the element and MPI wrote a request handle into it.
        unsafe { self.reqs.set_len(self.reqs.len() + 1) }
    }

    /// MPI_Waitall, then every request's status: an error or a short transfer of any of them
    /// ends the run with one line naming `file`.
    #[inline(always)]
    pub fn wait_all(&mut self, file: &File) {
        self.finish(Some(file));
    }

    #[inline(always)]
    fn finish(&mut self, file: Option<&File>) {
        let n = self.reqs.len();
        if self.statuses.len() < n {
            self.statuses.resize(n, status());
        }
        // SAFETY: the vector holds n valid requests and `statuses` room for n statuses.
        let rc = unsafe {
            ffi::MPI_Waitall(count(n), self.reqs.as_mut_ptr(), self.statuses.as_mut_ptr())
        };
        let path = file.and_then(|f| f.path.as_deref());
        if rc != ffi::MPI_SUCCESS as c_int {
            // MPI_ERR_IN_STATUS: the failing request's own code says why.
            let code = self.statuses[..n]
                .iter()
                .map(|st| st.MPI_ERROR)
                .find(|&e| e != ffi::MPI_SUCCESS as c_int)
                .unwrap_or(rc);
            let on = path.map_or_else(String::new, |p| format!(" on {}", p.display()));
            mpirc::abort(
                &format!(
                    "MPI_Waitall{on} failed: {} (MPI error code {code})",
                    error_string(code)
                ),
                code,
            );
        }
        if let Some(f) = file {
            for (st, &asked) in self.statuses[..n].iter().zip(&self.asked) {
                let got = moved(st, f.byte);
                if got != asked {
                    short("MPI_File_i*", path, asked, got);
                }
            }
        }
        self.reqs.clear();
        self.asked.clear();
    }
}

impl Drop for Requests<'_> {
    fn drop(&mut self) {
        if !self.reqs.is_empty() {
            self.finish(None);
        }
    }
}
