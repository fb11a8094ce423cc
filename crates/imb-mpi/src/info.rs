//! MPI_Info from the settings file's `[info]` table (the guide's User_Set_Info, 5.2.3.3), for
//! the windows of imb-ext and the files of imb-io. A hint MPI refuses ends the run with one line
//! naming it (through `rc`).

use crate::rc::{self, check};
use mpi::ffi;
use std::ffi::CString;

/// MPI_Info built from (key, value) hints; MPI_INFO_NULL when there are none. Freed on drop.
pub struct Info {
    raw: ffi::MPI_Info,
    /// `key = "value"` of each hint, for error messages.
    keys: Vec<String>,
}

impl Info {
    pub fn new(hints: &[(String, String)]) -> Info {
        // SAFETY: reading rsmpi's extern static holding MPI_INFO_NULL.
        let mut raw = unsafe { ffi::RSMPI_INFO_NULL };
        let keys = hints.iter().map(|(k, v)| format!("{k} = {v:?}")).collect();
        if hints.is_empty() {
            return Info { raw, keys };
        }
        // SAFETY: raw is a valid out-pointer for the new handle.
        check("MPI_Info_create", unsafe { ffi::MPI_Info_create(&mut raw) });
        let info = Info { raw, keys };
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
}

impl Drop for Info {
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

impl Info {
    /// The handle to pass to MPI (MPI_INFO_NULL without hints).
    pub fn raw(&self) -> ffi::MPI_Info {
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

/// Whether this MPI accepts the hints at all (key and value lengths are MPI-specific: Open MPI
/// takes keys of at most 35 characters, MPICH 254), checked before anything runs so a bad key
/// is one clear line instead of MPI's fatal error handler.
pub fn validate(hints: &[(String, String)]) -> Result<(), String> {
    let (kmax, vmax) = (
        ffi::MPI_MAX_INFO_KEY as usize - 1,
        ffi::MPI_MAX_INFO_VAL as usize - 1,
    );
    for (k, v) in hints {
        if k.contains('\0') || v.contains('\0') {
            // CString refuses NUL: without this check Info::new would abort on every rank.
            return Err(format!(
                "[info] key {k:?}: a NUL character in the key or value"
            ));
        }
        if k.is_empty() || k.len() > kmax || v.len() > vmax {
            return Err(format!(
                "[info] key \"{k}\": this MPI takes keys of 1..{kmax} characters and values of \
                 at most {vmax}"
            ));
        }
    }
    Ok(())
}
