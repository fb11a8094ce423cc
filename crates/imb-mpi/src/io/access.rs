//! Every data access of the guide's Table 1 (4.2.5) on an open `File`: the blocking calls,
//! the split collectives and the non-blocking starts. Each checks its return code and the
//! bytes its status says it moved (`expect`).

use super::{expect, offset, status, File, Requests};
use crate::rc::{check, count};
use mpi::ffi;
use std::os::raw::c_void;

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
