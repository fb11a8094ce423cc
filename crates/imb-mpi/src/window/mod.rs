//! Thin, checked wrappers over the one-sided calls rsmpi does not wrap (imb-ext's and imb-rma's
//! windows): MPI_Win_create and MPI_Win_free (`Win`, freed in `Drop`) here, with the MPI_Info
//! of the settings file's hints (`Hints`); the transfers and atomics (MPI_Put, MPI_Get,
//! MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap) in `ops`; the
//! synchronisation, active (MPI_Win_fence) and passive target (lock, lock_all, the flushes), in
//! `sync`. Every return code is checked: a failure prints one line naming the call and MPI's
//! error string, then aborts every rank (MPI_Abort), so no rank hangs in a collective the
//! failed rank never reaches. What the families do with windows beyond these calls (the
//! probe of `Benchmark::prepare`, `-multi`'s groups kept apart, `-off_cache`'s copies) is
//! imb-onesided's.
//!
//! Memory contract: a `Win` borrows its window memory (and the memory gets and fetching
//! atomics land in) for its whole life, and every origin buffer of a put or accumulate for
//! that life too, so nothing MPI may still read or write can be dropped or mutated from Rust
//! before the window is freed. The contents (`local`, `landed`) are meaningful after a fence,
//! or after a flush or unlock and the barrier that tells the target. The landing memory may be
//! the window's own (`exposing_landing_inside`, for `-off_cache`'s copies): Rust then holds
//! one exclusive borrow of both, and MPI writes them only through the raw pointers here.

pub use crate::info::Info as Hints;
use crate::rc::{self, aint, check, count};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;
use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};

mod ops;
mod sync;

fn misuse(what: &str) -> ! {
    rc::abort(what, 1)
}

/// The line for an MPI_Win_create on `procs` processes that returned `rc`: it names the hints,
/// which are the usual cause; without hints, the component may be (see `osc_hint`).
#[cold]
#[inline(never)]
fn create_failure(rc: c_int, info: &Hints, procs: c_int) -> String {
    let hints = info.describe();
    let hint = if hints == "no [info] hints" {
        osc_hint(procs)
    } else {
        ""
    };
    format!(
        "MPI_Win_create with {hints}{hint} failed: {} (MPI error code {rc})",
        rc::error_string(rc)
    )
}

/// Open MPI's osc/rdma, its default one-sided component (the only one Debian's Open MPI 4.1
/// enables), cannot create a window on one process; osc/ucx and osc/pt2pt can
/// (doc/ReadMe_IMB.md, "Open MPI notes for imb-ext"). On several processes it works, under
/// `-multi` too since imb-onesided's `apart` keeps the groups' segments apart; should it fail
/// there all the same, the other components are still the way round it.
fn osc_hint(procs: c_int) -> &'static str {
    let open_mpi = mpi::environment::library_version().is_ok_and(|v| v.contains("Open MPI"));
    if !open_mpi || std::env::var_os("OMPI_MCA_osc").is_some() {
        ""
    } else if procs == 1 {
        " (Open MPI's default one-sided component, osc/rdma, cannot create a window on one \
         process: run with OMPI_MCA_osc=ucx, or pt2pt)"
    } else {
        " (under Open MPI's default one-sided component, osc/rdma; OMPI_MCA_osc=ucx, or pt2pt, \
         selects another)"
    }
}

/// MPI_Win_create on `c` with the communicator's errors returned rather than fatal: the window
/// (MPI_WIN_NULL on failure) and the return code. The handler swap costs calls of its own, so
/// this is only done outside timed loops.
fn create_returning(
    c: ffi::MPI_Comm,
    base: *mut u8,
    len: usize,
    disp_unit: usize,
    info: &Hints,
) -> (ffi::MPI_Win, c_int) {
    // SAFETY: reading rsmpi's extern statics (handle constants).
    let (mut raw, mut old) = unsafe { (ffi::RSMPI_WIN_NULL, ffi::RSMPI_ERRORS_ARE_FATAL) };
    // SAFETY: c is a live communicator and `old` a valid out-pointer; the handler read here is
    // restored (and our reference to it freed) right after MPI_Win_create.
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
    // SAFETY: base..base+len is memory the caller keeps borrowed for the window's life (none
    // for the probe's empty window); info and c are valid handles; raw is a valid out-pointer.
    // For a `readable` window base comes from a shared slice cast to *mut only to fit the C
    // signature: MPI writes a window's memory only for puts and accumulates, which `writable`
    // refuses on it.
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
    // SAFETY: restores the handler read above and releases our reference to it.
    unsafe {
        check(
            "MPI_Comm_set_errhandler",
            ffi::MPI_Comm_set_errhandler(c, old),
        );
        check("MPI_Errhandler_free", ffi::MPI_Errhandler_free(&mut old));
    }
    (raw, rc)
}

/// Whether an empty window can be created on `comm` with `info` (collective over `comm`,
/// untimed): the line of the failed MPI_Win_create if not, so that the run can end on every
/// rank with that one line rather than abort wherever it fails.
pub fn probe(comm: &SimpleCommunicator, info: &Hints) -> Result<(), String> {
    let (mut raw, rc) = create_returning(comm.as_raw(), std::ptr::null_mut(), 0, 1, info);
    if rc != ffi::MPI_SUCCESS as c_int {
        return Err(create_failure(rc, info, comm.size()));
    }
    // SAFETY: raw is the window just created, with no epoch open; freed once.
    check("MPI_Win_free", unsafe { ffi::MPI_Win_free(&mut raw) });
    Ok(())
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
    _mem: PhantomData<(&'a mut [u8], &'a SimpleCommunicator)>,
}

/// The memory a window exposes (borrowed for the window's life by the public constructors).
struct Exposed {
    base: *mut u8,
    len: usize,
    writable: bool,
}

impl Exposed {
    /// No landing memory (dangling, not null: `landed` makes a slice of it).
    const NONE: (*mut u8, usize) = (std::ptr::NonNull::dangling().as_ptr(), 0);

    /// Landing memory for this rank's gets and fetching atomics.
    #[inline(always)]
    fn landing(land: &mut [u8]) -> (*mut u8, usize) {
        (land.as_mut_ptr(), land.len())
    }

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
    /// `land`: the landing memory's start and length, borrowed by the caller for 'a.
    fn create(
        comm: &'a SimpleCommunicator,
        mem: Exposed,
        land: (*mut u8, usize),
        disp_unit: usize,
        info: &Hints,
        returning: bool,
    ) -> Win<'a> {
        let Exposed {
            base,
            len,
            writable,
        } = mem;
        let c = comm.as_raw();
        let (raw, rc) = if returning {
            let (raw, rc) = create_returning(c, base, len, disp_unit, info);
            if rc != ffi::MPI_SUCCESS as c_int {
                rc::abort(&create_failure(rc, info, comm.size()), rc)
            }
            (raw, rc)
        } else {
            // SAFETY: reading rsmpi's extern statics (a handle constant).
            let mut raw = unsafe { ffi::RSMPI_WIN_NULL };
            // SAFETY: as in `create_returning`, without the handler swap.
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
            (raw, rc)
        };
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
            land: land.0,
            land_len: land.1,
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
    pub fn exposing(
        comm: &'a SimpleCommunicator,
        mem: &'a mut [u8],
        disp_unit: usize,
        info: &Hints,
    ) -> Self {
        let mem = Exposed::writable(mem);
        Win::create(comm, mem, Exposed::NONE, disp_unit, info, true)
    }

    /// As `exposing`, with `land` for the results of this rank's fetching atomics
    /// (MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap).
    pub fn exposing_with(
        comm: &'a SimpleCommunicator,
        mem: &'a mut [u8],
        land: &'a mut [u8],
        disp_unit: usize,
        info: &Hints,
    ) -> Self {
        let mem = Exposed::writable(mem);
        Win::create(comm, mem, Exposed::landing(land), disp_unit, info, true)
    }

    /// As `exposing_with`, the results of this rank's fetching atomics (and Compare_and_swap's
    /// operands) lying in its own window memory: under `-off_cache` every copy of the receive
    /// buffer holds a block of the window and the results beside it, as IMB 2021's does. For
    /// windows whose fetching rank no one targets, so that what it fetches and what others
    /// write never meet.
    pub fn exposing_landing_inside(
        comm: &'a SimpleCommunicator,
        mem: &'a mut [u8],
        disp_unit: usize,
        info: &Hints,
    ) -> Self {
        let mem = Exposed::writable(mem);
        let land = (mem.base, mem.len);
        Win::create(comm, mem, land, disp_unit, info, true)
    }

    /// As `exposing`, for a timed loop (Window): no error-handler swap around the call, so a
    /// failure is MPI's own fatal error (Window probes its hints with `exposing` first).
    #[inline(always)]
    pub fn exposing_timed(
        comm: &'a SimpleCommunicator,
        mem: &'a mut [u8],
        disp_unit: usize,
        info: &Hints,
    ) -> Self {
        let mem = Exposed::writable(mem);
        Win::create(comm, mem, Exposed::NONE, disp_unit, info, false)
    }

    /// A window over memory other ranks only read (MPI_Get source), with `land` for this rank's
    /// own gets.
    pub fn readable(
        comm: &'a SimpleCommunicator,
        mem: &'a [u8],
        land: &'a mut [u8],
        disp_unit: usize,
        info: &Hints,
    ) -> Self {
        // MPI_Win_create takes a mutable base, but in the Get benchmarks the window is only the
        // source of remote MPI_Gets (never a put or accumulate target), so MPI only reads it and
        // the shared borrow is honoured; the cast below exists only to fit the C signature.
        let mem = Exposed {
            base: mem.as_ptr() as *mut u8,
            len: mem.len(),
            writable: false,
        };
        Win::create(comm, mem, Exposed::landing(land), disp_unit, info, true)
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
