//! MPI 4.0's persistent collectives, found at run time, and thin checked wrappers over them.
//!
//! rsmpi's bindings are generated from the MPI library's header at build time, and Open MPI
//! 4.1's header has no `MPI_<Op>_init`: it offers them as its pcollreq extension, under
//! `MPIX_<Op>_init` with the same C signatures (its `mpiext_pcollreq_c.h`). So the thirteen
//! functions are looked up once per process in the loaded libraries (`dlsym(RTLD_DEFAULT)`),
//! the standard name first, and the executable builds against any MPI; a library with
//! neither name is refused before any table (`lookup`'s error).
//!
//! A [`Persistent`] request (`init`) is initialised once per size (collective, untimed),
//! borrows its buffers and owns its count arrays for as long as it exists, and is freed when
//! dropped (MPI_Request_free, untimed). `Persistent::start` is MPI_Start; it returns
//! `nonblocking`'s `Pending`, which borrows the request, so the request cannot be started
//! again or freed before MPI_Wait. imb-mpi4's operations are built on these.

use mpi::ffi::{MPI_Comm, MPI_Datatype, MPI_Info, MPI_Op, MPI_Request};
use std::ffi::{c_void, CStr};
use std::os::raw::c_int;
use std::sync::OnceLock;

mod init;

pub use init::{Init, Persistent};

/// Why imb-mpi4 cannot run with this MPI library.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Neither the MPI 4.0 function nor Open MPI's extension of it is in the process.
    #[error(
        "{function}: not in this MPI library (nor is Open MPI's {extension}); imb-mpi4 needs \
         MPI 4.0's persistent collectives"
    )]
    Missing {
        function: &'static str,
        extension: &'static str,
    },
}

type Req = *mut MPI_Request;
type Send = *const c_void;
type Recv = *mut c_void;
type Ints = *const c_int;
type Ty = MPI_Datatype;

// The C signatures of MPI 4.0 (and of Open MPI 4.1's MPIX_ twins): the blocking collective's
// arguments, then MPI_Info and the request.
type BcastFn = unsafe extern "C" fn(Recv, c_int, Ty, c_int, MPI_Comm, MPI_Info, Req) -> c_int;
type BlocksFn =
    unsafe extern "C" fn(Send, c_int, Ty, Recv, c_int, Ty, MPI_Comm, MPI_Info, Req) -> c_int;
type BlocksRootFn =
    unsafe extern "C" fn(Send, c_int, Ty, Recv, c_int, Ty, c_int, MPI_Comm, MPI_Info, Req) -> c_int;
type VRecvFn =
    unsafe extern "C" fn(Send, c_int, Ty, Recv, Ints, Ints, Ty, MPI_Comm, MPI_Info, Req) -> c_int;
type VRecvRootFn = unsafe extern "C" fn(
    Send,
    c_int,
    Ty,
    Recv,
    Ints,
    Ints,
    Ty,
    c_int,
    MPI_Comm,
    MPI_Info,
    Req,
) -> c_int;
type VSendRootFn = unsafe extern "C" fn(
    Send,
    Ints,
    Ints,
    Ty,
    Recv,
    c_int,
    Ty,
    c_int,
    MPI_Comm,
    MPI_Info,
    Req,
) -> c_int;
type VBothFn = unsafe extern "C" fn(
    Send,
    Ints,
    Ints,
    Ty,
    Recv,
    Ints,
    Ints,
    Ty,
    MPI_Comm,
    MPI_Info,
    Req,
) -> c_int;
type ReduceFn =
    unsafe extern "C" fn(Send, Recv, c_int, Ty, MPI_Op, c_int, MPI_Comm, MPI_Info, Req) -> c_int;
type ReduceScatterFn =
    unsafe extern "C" fn(Send, Recv, Ints, Ty, MPI_Op, MPI_Comm, MPI_Info, Req) -> c_int;
type AllreduceFn =
    unsafe extern "C" fn(Send, Recv, c_int, Ty, MPI_Op, MPI_Comm, MPI_Info, Req) -> c_int;
type BarrierFn = unsafe extern "C" fn(MPI_Comm, MPI_Info, Req) -> c_int;

/// The thirteen functions, standard name then Open MPI's, in `Api`'s order.
pub const SYMBOLS: [(&CStr, &CStr); 13] = [
    (c"MPI_Bcast_init", c"MPIX_Bcast_init"),
    (c"MPI_Allgather_init", c"MPIX_Allgather_init"),
    (c"MPI_Allgatherv_init", c"MPIX_Allgatherv_init"),
    (c"MPI_Gather_init", c"MPIX_Gather_init"),
    (c"MPI_Gatherv_init", c"MPIX_Gatherv_init"),
    (c"MPI_Scatter_init", c"MPIX_Scatter_init"),
    (c"MPI_Scatterv_init", c"MPIX_Scatterv_init"),
    (c"MPI_Alltoall_init", c"MPIX_Alltoall_init"),
    (c"MPI_Alltoallv_init", c"MPIX_Alltoallv_init"),
    (c"MPI_Reduce_init", c"MPIX_Reduce_init"),
    (c"MPI_Reduce_scatter_init", c"MPIX_Reduce_scatter_init"),
    (c"MPI_Allreduce_init", c"MPIX_Allreduce_init"),
    (c"MPI_Barrier_init", c"MPIX_Barrier_init"),
];

/// The functions this process found, and under which names.
pub struct Api {
    /// The name each was found under, in `SYMBOLS`' order.
    pub names: [&'static str; 13],
    bcast: BcastFn,
    allgather: BlocksFn,
    allgatherv: VRecvFn,
    gather: BlocksRootFn,
    gatherv: VRecvRootFn,
    scatter: BlocksRootFn,
    scatterv: VSendRootFn,
    alltoall: BlocksFn,
    alltoallv: VBothFn,
    reduce: ReduceFn,
    reduce_scatter: ReduceScatterFn,
    allreduce: AllreduceFn,
    barrier: BarrierFn,
}

fn text(s: &'static CStr) -> &'static str {
    // The names above are ASCII.
    s.to_str().unwrap_or("?")
}

/// Look the functions up with `find` (a symbol's address, or null): each under its MPI 4.0
/// name, else Open MPI's. The first found under neither is the error.
fn lookup(find: impl Fn(&CStr) -> *mut c_void) -> Result<Api, Error> {
    let mut at = [std::ptr::null_mut(); 13];
    let mut names = [""; 13];
    for (k, (std, ext)) in SYMBOLS.iter().enumerate() {
        let (p, name) = match find(std) {
            p if !p.is_null() => (p, *std),
            _ => (find(ext), *ext),
        };
        if p.is_null() {
            return Err(Error::Missing {
                function: text(std),
                extension: text(ext),
            });
        }
        (at[k], names[k]) = (p, text(name));
    }
    // SAFETY: each address is a function of the MPI library exported under the name of
    // `SYMBOLS` at that index, whose C signature (MPI 4.0's, which Open MPI's MPIX_ functions
    // share) is the type it is cast to; none is null (checked above).
    unsafe {
        use std::mem::transmute as f;
        Ok(Api {
            names,
            bcast: f::<*mut c_void, BcastFn>(at[0]),
            allgather: f::<*mut c_void, BlocksFn>(at[1]),
            allgatherv: f::<*mut c_void, VRecvFn>(at[2]),
            gather: f::<*mut c_void, BlocksRootFn>(at[3]),
            gatherv: f::<*mut c_void, VRecvRootFn>(at[4]),
            scatter: f::<*mut c_void, BlocksRootFn>(at[5]),
            scatterv: f::<*mut c_void, VSendRootFn>(at[6]),
            alltoall: f::<*mut c_void, BlocksFn>(at[7]),
            alltoallv: f::<*mut c_void, VBothFn>(at[8]),
            reduce: f::<*mut c_void, ReduceFn>(at[9]),
            reduce_scatter: f::<*mut c_void, ReduceScatterFn>(at[10]),
            allreduce: f::<*mut c_void, AllreduceFn>(at[11]),
            barrier: f::<*mut c_void, BarrierFn>(at[12]),
        })
    }
}

/// A symbol of the libraries loaded in this process, or null.
pub fn loaded(name: &CStr) -> *mut c_void {
    // SAFETY: dlsym reads the NUL-terminated name and returns an address or null; it may be
    // called at any time, before or after MPI_Init.
    unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) }
}

/// This process's functions, looked up at the first call (before the first table: in
/// `Family::resolve` on rank 0, in `Hooks::run_state` on every rank).
pub fn api() -> Result<&'static Api, Error> {
    static API: OnceLock<Result<Api, Error>> = OnceLock::new();
    API.get_or_init(|| lookup(loaded))
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This process's MPI library (Open MPI 4.1 or MPICH 4.0 in the tests) has all thirteen,
    /// under one of the two names each.
    #[test]
    fn the_loaded_library_has_every_function() {
        // This test calls no MPI function of its own, and the linker leaves out a library
        // nothing calls: one call links it, as every executable built on this module is.
        let _ = mpi::environment::library_version();
        let api = api().expect("an MPI 4.0 library or Open MPI's extension");
        for (name, (std, ext)) in api.names.iter().zip(SYMBOLS) {
            assert!(*name == text(std) || *name == text(ext), "{name}");
        }
    }

    /// The standard name wins when both are there; Open MPI's is taken when it alone is.
    #[test]
    fn the_standard_name_first_then_open_mpis() {
        // Any non-null address stands in for a function that is never called.
        let fake = |s: &CStr| -> *mut c_void {
            if s.to_bytes().starts_with(b"MPIX_") || s == c"MPI_Bcast_init" {
                loaded(c"dlsym")
            } else {
                std::ptr::null_mut()
            }
        };
        let api = lookup(fake).expect("all found");
        assert_eq!(api.names[0], "MPI_Bcast_init");
        assert!(api.names[1..].iter().all(|n| n.starts_with("MPIX_")));
    }

    /// A library with neither name of one function: the error names the first such function.
    #[test]
    fn a_missing_function_is_named() {
        let none = |s: &CStr| -> *mut c_void {
            if s.to_bytes().ends_with(b"_Gather_init") {
                std::ptr::null_mut()
            } else {
                loaded(c"dlsym")
            }
        };
        let e = lookup(none).err().expect("MPI_Gather_init is missing");
        assert_eq!(
            e.to_string(),
            "MPI_Gather_init: not in this MPI library (nor is Open MPI's MPIX_Gather_init); \
             imb-mpi4 needs MPI 4.0's persistent collectives"
        );
    }
}
