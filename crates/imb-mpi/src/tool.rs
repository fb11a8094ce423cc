//! The MPI tool information interface (MPI_T, MPI 3.1 chapter 14.3), as the provenance reads
//! the library's control variables: a `Session` between MPI_T_init_thread and MPI_T_finalize,
//! variables found by name and read as their bytes with their type's name and size. What the
//! bytes mean is the caller's (imb-core's `provenance::mpit`). Whatever fails comes back as
//! the reason, in words.

use crate::{handles, thread};
use mpi::ffi;
use std::ffi::{c_char, c_int, c_void, CString};
use std::marker::PhantomData;

fn ok(rc: c_int, what: &str) -> Result<(), String> {
    if rc == ffi::MPI_SUCCESS as c_int {
        Ok(())
    } else {
        Err(format!("{what} returned error {rc}"))
    }
}

/// MPI_T, initialised until the session is dropped (MPI_T_finalize). Only the thread that
/// opened it uses it (it is neither `Send` nor `Sync`).
pub struct Session {
    _one_thread: PhantomData<*const ()>,
}

/// A control variable's value as MPI_T wrote it.
pub struct Raw {
    /// Its datatype's name (`MPI_INT`).
    pub type_name: String,
    /// Bytes of one element.
    pub size: usize,
    /// Elements.
    pub count: usize,
    /// count × size bytes (at least one).
    pub bytes: Vec<u8>,
}

impl Session {
    /// MPI_T_init_thread.
    pub fn open() -> Result<Session, String> {
        let mut provided: c_int = 0;
        // MPI_T is asked for the level MPI runs at, not SINGLE: Open MPI 4.1's
        // MPI_T_init_thread also sets the library's own level to the one it is asked for, and
        // a multi-threaded run (imb-mt) then went on at MPI_THREAD_SINGLE, its threads sharing
        // the library's single-thread paths (segmentation faults).
        let level = thread::level_now();
        // SAFETY: MPI_T may be initialised at any time, also after MPI_Init (MPI 3.1 section
        // 14.3.4); `provided` outlives the call. Only this thread uses MPI_T.
        let rc = unsafe { ffi::MPI_T_init_thread(level, &mut provided) };
        ok(rc, "MPI_T_init_thread")?;
        Ok(Session {
            _one_thread: PhantomData,
        })
    }

    /// The number of control variables.
    pub fn count(&self) -> Result<usize, String> {
        let mut n: c_int = 0;
        // SAFETY: MPI_T is initialised (self); `n` outlives the call.
        let rc = unsafe { ffi::MPI_T_cvar_get_num(&mut n) };
        ok(rc, "MPI_T_cvar_get_num")?;
        Ok(n.max(0) as usize)
    }

    /// The index of control variable `name`; None when the library has none of that name.
    pub fn index(&self, name: &str) -> Option<c_int> {
        let c = CString::new(name).ok()?;
        let mut i: c_int = -1;
        // SAFETY: MPI_T is initialised (self); `c` is NUL-terminated and `i` outlives the
        // call.
        let rc = unsafe { ffi::MPI_T_cvar_get_index(c.as_ptr(), &mut i) };
        (rc == ffi::MPI_SUCCESS as c_int && i >= 0).then_some(i)
    }

    /// The value of variable `i`, unless it takes more than `max_bytes`.
    pub fn read(&self, i: c_int, max_bytes: usize) -> Result<Raw, String> {
        let (datatype, bind) = info(i)?;
        if bind != handles::t_bind_no_object() {
            return Err("bound to an MPI object: no value of its own".to_string());
        }
        let (type_name, size) = type_of(datatype)?;
        let mut handle = std::mem::MaybeUninit::<ffi::MPI_T_cvar_handle>::uninit();
        let mut count: c_int = 0;
        // SAFETY: MPI_T is initialised; a variable bound to no object takes a null object
        // handle (MPI 3.1 section 14.3.6); `handle` and `count` outlive the call.
        let rc = unsafe {
            ffi::MPI_T_cvar_handle_alloc(
                i,
                std::ptr::null_mut::<c_void>(),
                handle.as_mut_ptr(),
                &mut count,
            )
        };
        ok(rc, "MPI_T_cvar_handle_alloc")?;
        // SAFETY: the allocation succeeded, so it wrote the handle.
        let mut handle = unsafe { handle.assume_init() };
        let count = count.max(0) as usize;
        let bytes = count.saturating_mul(size.max(1));
        let r = if bytes > max_bytes {
            Err(format!("a value of {bytes} bytes not read"))
        } else {
            // u64 words: aligned for every integer type and double.
            let mut buf = vec![0u64; bytes.div_ceil(8) + 1];
            // SAFETY: `buf` holds at least count × size bytes, what MPI_T writes for this
            // handle (MPI 3.1 section 14.3.6), and is aligned for the variable's type.
            let rc = unsafe { ffi::MPI_T_cvar_read(handle, buf.as_mut_ptr().cast::<c_void>()) };
            ok(rc, "MPI_T_cvar_read").map(|()| {
                let raw: Vec<u8> = buf.iter().flat_map(|w| w.to_ne_bytes()).collect();
                Raw {
                    type_name,
                    size,
                    count,
                    bytes: raw[..bytes.max(1)].to_vec(),
                }
            })
        };
        // SAFETY: `handle` came from MPI_T_cvar_handle_alloc and is freed once.
        unsafe { ffi::MPI_T_cvar_handle_free(&mut handle) };
        r
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // SAFETY: paired with the successful MPI_T_init_thread of `open`.
        unsafe { ffi::MPI_T_finalize() };
    }
}

/// The datatype and binding of variable `i`.
fn info(i: c_int) -> Result<(ffi::MPI_Datatype, c_int), String> {
    let mut name = [0 as c_char; 256];
    let mut name_len = name.len() as c_int;
    let (mut verbosity, mut bind, mut scope): (c_int, c_int, c_int) = (0, 0, 0);
    let mut datatype = std::mem::MaybeUninit::<ffi::MPI_Datatype>::uninit();
    let mut enumtype = std::mem::MaybeUninit::<ffi::MPI_T_enum>::uninit();
    let mut desc_len: c_int = 0;
    // SAFETY: MPI_T is initialised (a `Session` calls this); `name` holds `name_len` bytes; a
    // zero `desc_len` with a null `desc` asks for no description (MPI 3.1 section 14.3.3);
    // every out pointer is valid for the call.
    let rc = unsafe {
        ffi::MPI_T_cvar_get_info(
            i,
            name.as_mut_ptr(),
            &mut name_len,
            &mut verbosity,
            datatype.as_mut_ptr(),
            enumtype.as_mut_ptr(),
            std::ptr::null_mut(),
            &mut desc_len,
            &mut bind,
            &mut scope,
        )
    };
    ok(rc, "MPI_T_cvar_get_info")?;
    // SAFETY: the call succeeded, so it wrote the datatype.
    Ok((unsafe { datatype.assume_init() }, bind))
}

/// A predefined datatype's name (`MPI_INT`) and size in bytes.
fn type_of(t: ffi::MPI_Datatype) -> Result<(String, usize), String> {
    let mut name = [0 as c_char; 256];
    let mut len: c_int = 0;
    // SAFETY: `t` is a datatype MPI_T returned; `name` holds more than MPI_MAX_OBJECT_NAME
    // bytes (64 in Open MPI, 128 in MPICH).
    let rc = unsafe { ffi::MPI_Type_get_name(t, name.as_mut_ptr(), &mut len) };
    ok(rc, "MPI_Type_get_name")?;
    let n = name
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect::<Vec<u8>>();
    let mut size: c_int = 0;
    // SAFETY: as above; `size` outlives the call.
    ok(unsafe { ffi::MPI_Type_size(t, &mut size) }, "MPI_Type_size")?;
    Ok((
        String::from_utf8_lossy(&n).into_owned(),
        size.max(0) as usize,
    ))
}
