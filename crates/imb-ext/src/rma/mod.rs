//! Thin, checked wrappers over the one-sided calls rsmpi does not wrap, shared by imb-ext and
//! imb-rma (the settings file's MPI_Info hints come from `imb_core::hints`): MPI_Win_create and
//! MPI_Win_free (`Win`, freed in `Drop`) here; the transfers and atomics (MPI_Put, MPI_Get,
//! MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap) in `ops`; the
//! synchronisation, active (MPI_Win_fence) and passive target (lock, lock_all, the flushes), in
//! `sync`. Every return code is checked: a failure prints one line naming the call and MPI's
//! error string, then aborts every rank (MPI_Abort), so no rank hangs in a collective the
//! failed rank never reaches. All `unsafe` of imb-ext and imb-rma is in this module.
//!
//! Memory contract: a `Win` borrows its window memory (and the memory gets and fetching
//! atomics land in) for its whole life, and every origin buffer of a put or accumulate for
//! that life too, so nothing MPI may still read or write can be dropped or mutated from Rust
//! before the window is freed. The contents (`local`, `landed`) are meaningful after a fence,
//! or after a flush or unlock and the barrier that tells the target.

pub use imb_core::hints::Info;
use imb_core::kernel::Comm;
use imb_core::mpirc::{self, aint, check, count, failed};
use mpi::ffi;
use mpi::raw::AsRaw;
use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};

mod ops;
mod sync;

fn misuse(what: &str) -> ! {
    mpirc::abort(what, 1)
}

/// MPI_Win_create failed: name the hints, which are the usual cause.
#[cold]
#[inline(never)]
fn misuse_hints(rc: c_int, info: &Info) -> ! {
    let hints = info.describe();
    // With hints, they are the likely cause; without, it is the component (see osc_hint).
    let hint = if info.describe() == "no [info] hints" {
        osc_hint()
    } else {
        String::new()
    };
    failed(&format!("MPI_Win_create with {hints}{hint}"), rc)
}

/// Open MPI 4.1's default one-sided component (osc/rdma) cannot create a window on one process,
/// and keys its shared-memory segment on the communicator id, which the groups of `-multi`
/// share, so their windows collide; osc/ucx and osc/pt2pt do neither (doc/ReadMe_IMB.md,
/// "imb-ext").
fn osc_hint() -> String {
    let open_mpi = imb_core::sysinfo::mpi_library().contains("Open MPI");
    if open_mpi && std::env::var_os("OMPI_MCA_osc").is_none() {
        " (Open MPI's default one-sided component fails on one process, and with -multi \
         lets the groups' windows collide: run with OMPI_MCA_osc=ucx, or pt2pt)"
            .to_string()
    } else {
        String::new()
    }
}

/// An RMA window over borrowed memory, with an optional landing buffer for MPI_Get.
pub struct Win<'a> {
    raw: ffi::MPI_Win,
    base: *const u8,
    len: usize,
    land: *mut u8,
    land_len: usize,
    byte: ffi::MPI_Datatype,
    float: ffi::MPI_Datatype,
    int: ffi::MPI_Datatype,
    sum: ffi::MPI_Op,
    /// Created by `exposing`: puts and accumulates may target it. A `readable` window is over
    /// shared memory, so this rank refuses to put or accumulate through it (every rank of a
    /// benchmark creates the same kind of window).
    writable: bool,
    _mem: PhantomData<(&'a mut [u8], &'a Comm)>,
}

/// The memory a window exposes (borrowed for the window's life by the public constructors).
struct Exposed {
    base: *mut u8,
    len: usize,
    writable: bool,
}

impl Exposed {
    /// Memory other ranks write into.
    #[inline(always)]
    fn writable(mem: &mut [u8]) -> Exposed {
        Exposed {
            base: mem.as_mut_ptr(),
            len: mem.len(),
            writable: true,
        }
    }
}

impl<'a> Win<'a> {
    /// `returning`: have a failing MPI_Win_create return its code (then one clear line and
    /// MPI_Abort) instead of MPI's fatal handler on the communicator. That swaps the
    /// communicator's error handler around the call, so it is only done outside timed loops.
    fn create(
        comm: &'a Comm,
        mem: Exposed,
        land: &'a mut [u8],
        disp_unit: usize,
        info: &Info,
        returning: bool,
    ) -> Win<'a> {
        let Exposed {
            base,
            len,
            writable,
        } = mem;
        let c = comm.as_raw();
        // SAFETY: reading rsmpi's extern statics (handle constants).
        let mut raw = unsafe { ffi::RSMPI_WIN_NULL };
        // SAFETY: reading a handle constant (overwritten below when `returning`).
        let mut old = unsafe { ffi::RSMPI_ERRORS_ARE_FATAL };
        if returning {
            // SAFETY: c is a live communicator and `old` a valid out-pointer; the handler read
            // here is restored (and our reference to it freed) right after MPI_Win_create.
            unsafe {
                check(
                    "MPI_Comm_get_errhandler",
                    ffi::MPI_Comm_get_errhandler(c, &mut old),
                );
                check(
                    "MPI_Comm_set_errhandler",
                    ffi::MPI_Comm_set_errhandler(c, ffi::RSMPI_ERRORS_RETURN),
                );
            }
        }
        // SAFETY: base..base+len is memory borrowed for 'a (the window's life, see the callers);
        // info and comm are valid handles; raw is a valid out-pointer. For a `readable` window
        // base comes from a shared slice cast to *mut only to fit the C signature: MPI writes a
        // window's memory only for puts and accumulates, which `writable` refuses on it.
        let rc = unsafe {
            ffi::MPI_Win_create(
                base as *mut c_void,
                aint(len),
                count(disp_unit),
                info.raw(),
                c,
                &mut raw,
            )
        };
        if returning {
            // SAFETY: restores the handler read above and releases our reference to it.
            unsafe {
                check(
                    "MPI_Comm_set_errhandler",
                    ffi::MPI_Comm_set_errhandler(c, old),
                );
                check("MPI_Errhandler_free", ffi::MPI_Errhandler_free(&mut old));
            }
            if rc != ffi::MPI_SUCCESS as c_int {
                misuse_hints(rc, info);
            }
        }
        check("MPI_Win_create", rc);
        // SAFETY: raw is the window just created; errors on it are returned to us (and turned
        // into one clear line plus MPI_Abort) instead of MPI's default fatal handler.
        check("MPI_Win_set_errhandler", unsafe {
            ffi::MPI_Win_set_errhandler(raw, ffi::RSMPI_ERRORS_RETURN)
        });
        // SAFETY: reading rsmpi's extern statics (datatype and op constants).
        let (byte, float, int, sum) = unsafe {
            (
                ffi::RSMPI_UINT8_T,
                ffi::RSMPI_FLOAT,
                ffi::RSMPI_INT32_T,
                ffi::RSMPI_SUM,
            )
        };
        Win {
            raw,
            base,
            len,
            land: land.as_mut_ptr(),
            land_len: land.len(),
            byte,
            float,
            int,
            sum,
            writable,
            _mem: PhantomData,
        }
    }

    /// A window over memory other ranks write into (Put and Accumulate targets). Untimed: a
    /// failure (e.g. a hint value MPI rejects) is reported in one line before MPI_Abort.
    pub fn exposing(comm: &'a Comm, mem: &'a mut [u8], disp_unit: usize, info: &Info) -> Self {
        let mem = Exposed::writable(mem);
        Win::create(comm, mem, &mut [], disp_unit, info, true)
    }

    /// As `exposing`, with `land` for the results of this rank's fetching atomics
    /// (MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap).
    pub fn exposing_with(
        comm: &'a Comm,
        mem: &'a mut [u8],
        land: &'a mut [u8],
        disp_unit: usize,
        info: &Info,
    ) -> Self {
        let mem = Exposed::writable(mem);
        Win::create(comm, mem, land, disp_unit, info, true)
    }

    /// As `exposing`, for a timed loop (Window): no error-handler swap around the call, so a
    /// failure is MPI's own fatal error (Window probes its hints with `exposing` first).
    #[inline(always)]
    pub fn exposing_timed(
        comm: &'a Comm,
        mem: &'a mut [u8],
        disp_unit: usize,
        info: &Info,
    ) -> Self {
        let mem = Exposed::writable(mem);
        Win::create(comm, mem, &mut [], disp_unit, info, false)
    }

    /// A window over memory other ranks only read (MPI_Get source), with `land` for this rank's
    /// own gets.
    pub fn readable(
        comm: &'a Comm,
        mem: &'a [u8],
        land: &'a mut [u8],
        disp_unit: usize,
        info: &Info,
    ) -> Self {
        // MPI_Win_create takes a mutable base, but in the Get benchmarks the window is only the
        // source of remote MPI_Gets (never a put or accumulate target), so MPI only reads it and
        // the shared borrow is honoured; the cast below exists only to fit the C signature.
        let mem = Exposed {
            base: mem.as_ptr() as *mut u8,
            len: mem.len(),
            writable: false,
        };
        Win::create(comm, mem, land, disp_unit, info, true)
    }

    /// Whether `land[at..at+len]` lies within the landing buffer.
    fn lands(&self, at: usize, len: usize) -> bool {
        at <= self.land_len && len <= self.land_len - at
    }

    /// This rank's window memory (as of the last fence, or flush and barrier).
    pub fn local(&self) -> &[u8] {
        // SAFETY: base..base+len is borrowed for the window's life; callers read it only after a
        // fence, when no RMA operation on it is pending.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    /// The landing buffer of this rank's gets (as of the last fence).
    pub fn landed(&self) -> &[u8] {
        // SAFETY: as `local`, for the exclusively borrowed landing buffer.
        unsafe { std::slice::from_raw_parts(self.land, self.land_len) }
    }
}

impl Drop for Win<'_> {
    fn drop(&mut self) {
        // SAFETY: self.raw is a live window created by MPI_Win_create; it is freed exactly once,
        // while the memory it exposes is still borrowed. Every caller closes its epochs first,
        // with a fence or an unlock (MPI_Win_free with pending RMA is erroneous).
        check("MPI_Win_free", unsafe { ffi::MPI_Win_free(&mut self.raw) })
    }
}
