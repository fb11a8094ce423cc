//! The outstanding requests of the non-blocking accesses, waited for in `Drop`.

use super::{moved, short, status, File};
use crate::rc::{self, count, error_string};
use mpi::ffi;
use std::marker::PhantomData;
use std::os::raw::c_int;

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
    pub(super) fn slot(&mut self, asked: usize) -> *mut ffi::MPI_Request {
        if self.reqs.len() == self.reqs.capacity() {
            // Outside the timed path: only a caller that under-reserved gets here.
            self.reqs.reserve(1);
        }
        self.asked.push(asked);
        self.reqs.spare_capacity_mut()[0].as_mut_ptr()
    }

    #[inline(always)]
    pub(super) fn filled(&mut self) {
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
            rc::abort(
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
