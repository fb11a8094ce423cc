//! The data movement of a window: MPI_Put, MPI_Get, MPI_Accumulate (MPI_FLOAT, MPI_SUM), and
//! the fetching atomics of MPI-3: MPI_Get_accumulate, MPI_Fetch_and_op (both MPI_FLOAT,
//! MPI_SUM) and MPI_Compare_and_swap (a 32-bit MPI integer). Results land in the window's
//! landing buffer; which epoch completes them is the caller's (`sync`).

use super::{misuse, Win};
use crate::rc::{aint, check, count};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

impl<'a> Win<'a> {
    /// MPI_Put of `src` (bytes) into `target`'s window at displacement `disp`.
    #[inline(always)]
    pub fn put(&self, src: &'a [u8], target: c_int, disp: usize) {
        if !self.writable {
            misuse("MPI_Put through a read-only window")
        }
        // SAFETY: src is borrowed for the window's life, so it stays valid and unchanged until
        // the fence, flush or unlock that completes the put; MPI only reads it.
        let rc = unsafe {
            ffi::MPI_Put(
                src.as_ptr() as *const c_void,
                count(src.len()),
                self.byte,
                target,
                aint(disp),
                count(src.len()),
                self.byte,
                self.raw,
            )
        };
        check("MPI_Put", rc)
    }

    /// MPI_Get of `len` bytes from `target`'s window at `disp` into the landing buffer at `at`.
    #[inline(always)]
    pub fn get(&self, at: usize, len: usize, target: c_int, disp: usize) {
        if !self.lands(at, len) {
            misuse("MPI_Get beyond the landing buffer")
        }
        // SAFETY: land[at..at+len] lies within the landing buffer (checked above), which is
        // exclusively borrowed for the window's life, so MPI may write it until the fence or flush.
        let rc = unsafe {
            ffi::MPI_Get(
                self.land.add(at) as *mut c_void,
                count(len),
                self.byte,
                target,
                aint(disp),
                count(len),
                self.byte,
                self.raw,
            )
        };
        check("MPI_Get", rc)
    }

    /// MPI_Accumulate of `src.len()/4` floats with MPI_SUM into `target`'s window at `disp`
    /// (in units of the window's displacement unit).
    #[inline(always)]
    pub fn accumulate(&self, src: &'a [u8], target: c_int, disp: usize) {
        if !self.writable {
            misuse("MPI_Accumulate through a read-only window")
        }
        let n = count(src.len() / 4);
        // SAFETY: as `put`: src is borrowed for the window's life and only read.
        let rc = unsafe {
            ffi::MPI_Accumulate(
                src.as_ptr() as *const c_void,
                n,
                self.float,
                target,
                aint(disp),
                n,
                self.float,
                self.sum,
                self.raw,
            )
        };
        check("MPI_Accumulate", rc)
    }

    /// MPI_Get_accumulate of `src.len()/4` floats with MPI_SUM into `target`'s window at
    /// `disp` (in displacement units), the target's previous values landing at `at`.
    #[inline(always)]
    pub fn get_accumulate(&self, src: &'a [u8], at: usize, target: c_int, disp: usize) {
        let n = src.len() / 4;
        if !self.writable || !self.lands(at, 4 * n) {
            misuse("MPI_Get_accumulate through a read-only window or beyond the landing buffer")
        }
        // SAFETY: src is borrowed for the window's life and only read; land[at..at+4n] lies
        // within the exclusively borrowed landing buffer (checked above), which MPI may write
        // until the flush or unlock that completes the call.
        let rc = unsafe {
            ffi::MPI_Get_accumulate(
                src.as_ptr() as *const c_void,
                count(n),
                self.float,
                self.land.add(at) as *mut c_void,
                count(n),
                self.float,
                target,
                aint(disp),
                count(n),
                self.float,
                self.sum,
                self.raw,
            )
        };
        check("MPI_Get_accumulate", rc)
    }

    /// MPI_Fetch_and_op of the float at `src[..4]` with MPI_SUM into `target`'s window at
    /// `disp`, the previous value landing at `at`.
    #[inline(always)]
    pub fn fetch_and_op(&self, src: &'a [u8], at: usize, target: c_int, disp: usize) {
        if !self.writable || src.len() < 4 || !self.lands(at, 4) {
            misuse("MPI_Fetch_and_op through a read-only window or beyond its buffers")
        }
        // SAFETY: as `get_accumulate`, for one element.
        let rc = unsafe {
            ffi::MPI_Fetch_and_op(
                src.as_ptr() as *const c_void,
                self.land.add(at) as *mut c_void,
                self.float,
                target,
                aint(disp),
                self.sum,
                self.raw,
            )
        };
        check("MPI_Fetch_and_op", rc)
    }

    /// MPI_Compare_and_swap of one 32-bit integer, its operands in the landing buffer: where
    /// `target`'s window at `disp` equals `land[compare_at..+4]` it becomes `land[src_at..+4]`;
    /// the previous value lands at `at`. The operands move with the result through
    /// `-off_cache`'s copies, as IMB 2021's do.
    #[inline(always)]
    pub fn compare_and_swap(
        &self,
        src_at: usize,
        compare_at: usize,
        at: usize,
        target: c_int,
        disp: usize,
    ) {
        let apart = |a: usize| a.abs_diff(at) >= 4;
        let within = self.lands(src_at, 4) && self.lands(compare_at, 4) && self.lands(at, 4);
        if !(self.writable && within && apart(src_at) && apart(compare_at)) {
            misuse(
                "MPI_Compare_and_swap through a read-only window, beyond the landing buffer or \
                 onto its operands",
            )
        }
        // SAFETY: the operands and the result lie within the exclusively borrowed landing
        // buffer (checked above), the result apart from the operands (MPI requires it), so MPI
        // only reads the operands and writes the result until the flush or unlock.
        let rc = unsafe {
            ffi::MPI_Compare_and_swap(
                self.land.add(src_at) as *const c_void,
                self.land.add(compare_at) as *const c_void,
                self.land.add(at) as *mut c_void,
                self.int,
                target,
                aint(disp),
                self.raw,
            )
        };
        check("MPI_Compare_and_swap", rc)
    }
}
