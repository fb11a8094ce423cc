//! The MPI_Info a window is created with, from the settings file's `[info]` hints (the guide's
//! User_Set_Info, 5.2.3.3), as imb-core's `hints::Info` builds it for imb-io's files: kept here
//! so that windows need nothing of imb-core (one of the two goes when that module moves into
//! this crate). A hint MPI refuses ends the run with one line naming it.

use super::rc::{self, check};
use mpi::ffi;
use std::ffi::CString;

/// MPI_Info built from (key, value) hints; MPI_INFO_NULL when there are none. Freed on drop.
pub struct Hints {
    raw: ffi::MPI_Info,
    /// `key = "value"` of each hint, for error messages.
    keys: Vec<String>,
}

impl Hints {
    pub fn new(hints: &[(String, String)]) -> Hints {
        // SAFETY: reading rsmpi's extern static holding MPI_INFO_NULL.
        let mut raw = unsafe { ffi::RSMPI_INFO_NULL };
        let keys = hints.iter().map(|(k, v)| format!("{k} = {v:?}")).collect();
        if hints.is_empty() {
            return Hints { raw, keys };
        }
        // SAFETY: raw is a valid out-pointer for the new handle.
        check("MPI_Info_create", unsafe { ffi::MPI_Info_create(&mut raw) });
        let info = Hints { raw, keys };
        for (k, v) in hints {
            let (Ok(key), Ok(value)) = (CString::new(k.as_str()), CString::new(v.as_str())) else {
                rc::abort(&format!("[info] hint {k:?} contains a NUL character"), 1)
            };
            // SAFETY: both strings are NUL-terminated and live across the call, which copies them.
            let rc = unsafe { ffi::MPI_Info_set(info.raw, key.as_ptr(), value.as_ptr()) };
            check("MPI_Info_set", rc);
        }
        info
    }

    /// The handle to pass to MPI (MPI_INFO_NULL without hints), valid while `self` lives.
    pub(crate) fn raw(&self) -> ffi::MPI_Info {
        self.raw
    }

    /// `the [info] hints k = "v", …` or `no [info] hints`, for error messages.
    pub fn describe(&self) -> String {
        if self.keys.is_empty() {
            "no [info] hints".to_string()
        } else {
            format!("the [info] hints {}", self.keys.join(", "))
        }
    }
}

impl Drop for Hints {
    fn drop(&mut self) {
        // SAFETY: reading MPI_INFO_NULL; a non-null handle was created by MPI_Info_create and is
        // freed once (windows keep their own copy of the hints).
        unsafe {
            if self.raw != ffi::RSMPI_INFO_NULL {
                check("MPI_Info_free", ffi::MPI_Info_free(&mut self.raw));
            }
        }
    }
}
