//! The persistent requests: initialised once per size through the functions `lookup` found,
//! started over and over (MPI_Start, completed by `nonblocking::Pending`), freed when dropped.

use super::{api, Api, Ty};
use crate::nonblocking::Pending;
use crate::rc::{self, check, count, cptr, mptr};
use mpi::ffi::{self, MPI_Comm, MPI_Info, MPI_Op, MPI_Request};
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator as Comm;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::os::raw::c_int;

/// An initialised persistent collective: its request, the buffers it was given (borrowed for
/// `'a`) and the count arrays it reads at every start (owned).
pub struct Persistent<'a> {
    req: MPI_Request,
    /// What the operation receives into, read by `-check` between calls.
    recv: &'a mut [u8],
    _send: PhantomData<&'a [u8]>,
    _arrays: Vec<Vec<c_int>>,
}

impl Persistent<'_> {
    /// MPI_Start. The returned `Pending` borrows the request until MPI_Wait.
    #[inline(always)]
    pub fn start(&mut self) -> Pending<'_> {
        // SAFETY: req is an initialised persistent request and inactive: the Pending of the
        // previous start borrowed self mutably and completed it. Its buffers are borrowed
        // and its arrays owned by self, which the Pending borrows until it completes.
        unsafe {
            check("MPI_Start", ffi::MPI_Start(&mut self.req));
            Pending::started(self.req)
        }
    }

    /// The receive buffer as the last completed call left it.
    pub fn received(&self) -> &[u8] {
        self.recv
    }
}

impl Drop for Persistent<'_> {
    fn drop(&mut self) {
        // SAFETY: req is an initialised, inactive persistent request (every start was
        // completed by its Pending before self could be dropped); freeing it is local.
        check("MPI_Request_free", unsafe {
            ffi::MPI_Request_free(&mut self.req)
        });
    }
}

/// Initialise one request with `$call(<arguments>, &mut req)`, checked.
macro_rules! init {
    ($name:literal, $recv:expr, $arrays:expr, |$req:ident| $call:expr) => {{
        let mut r = MaybeUninit::<MPI_Request>::uninit();
        let $req = r.as_mut_ptr();
        // SAFETY: the buffers and arrays the call is given are those the returned Persistent
        // borrows or owns for as long as the request exists; lengths were checked when the
        // operation was built (ops.rs) against the communicator's size; MPI writes the request.
        let req = unsafe {
            check($name, $call);
            r.assume_init()
        };
        Persistent {
            req,
            recv: $recv,
            _send: PhantomData,
            _arrays: $arrays,
        }
    }};
}

/// The handles every initialisation passes: the communicator, MPI_BYTE, MPI_FLOAT, MPI_SUM
/// and MPI_INFO_NULL, and the functions found.
#[derive(Clone, Copy)]
pub struct Init<'c> {
    api: &'static Api,
    comm: MPI_Comm,
    byte: Ty,
    float: Ty,
    sum: MPI_Op,
    info: MPI_Info,
    _comm: PhantomData<&'c Comm>,
}

impl<'c> Init<'c> {
    /// Panics without the functions: `Family::resolve` refused the run on rank 0 already,
    /// and every rank loads the same library.
    pub fn new(comm: &'c Comm) -> Self {
        let api = api().unwrap_or_else(|e| rc::abort(&e.to_string(), 1));
        // SAFETY: reading rsmpi's extern statics, initialised constants of the MPI library.
        unsafe {
            Init {
                api,
                comm: comm.as_raw(),
                byte: ffi::RSMPI_UINT8_T,
                float: ffi::RSMPI_FLOAT,
                sum: ffi::RSMPI_SUM,
                info: ffi::RSMPI_INFO_NULL,
                _comm: PhantomData,
            }
        }
    }

    /// MPI_Bcast_init from `root`: the root's buffer is `send` (MPI only reads it there), the
    /// others receive into `recv` (the same length).
    pub fn bcast<'a>(
        &self,
        send: &'a [u8],
        recv: &'a mut [u8],
        me: usize,
        root: usize,
    ) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.bcast, self.comm, self.info, self.byte);
        let root = count(root);
        let (buf, n) = if count(me) == root {
            (cptr(send), count(send.len()))
        } else {
            (mptr(recv), count(recv.len()))
        };
        init!("MPI_Bcast_init", recv, Vec::new(), |req| f(
            buf, n, b, root, c, i, req
        ))
    }

    /// MPI_Allgather_init: `send` from every rank into `recv` (size·send.len()).
    pub fn allgather<'a>(&self, send: &'a [u8], recv: &'a mut [u8]) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.allgather, self.comm, self.info, self.byte);
        let (s, n, r) = (cptr(send), count(send.len()), mptr(recv));
        init!("MPI_Allgather_init", recv, Vec::new(), |req| f(
            s, n, b, r, n, b, c, i, req
        ))
    }

    /// MPI_Allgatherv_init with per-rank counts and displacements (bytes, within `recv`).
    pub fn allgatherv<'a>(
        &self,
        send: &'a [u8],
        recv: &'a mut [u8],
        counts: Vec<c_int>,
        displs: Vec<c_int>,
    ) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.allgatherv, self.comm, self.info, self.byte);
        let (s, sn, r) = (cptr(send), count(send.len()), mptr(recv));
        let (cp, dp) = (counts.as_ptr(), displs.as_ptr());
        init!("MPI_Allgatherv_init", recv, vec![counts, displs], |req| f(
            s, sn, b, r, cp, dp, b, c, i, req
        ))
    }

    /// MPI_Gather_init to `root` (`recv`, size·send.len(), is used at the root).
    pub fn gather<'a>(&self, send: &'a [u8], recv: &'a mut [u8], root: usize) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.gather, self.comm, self.info, self.byte);
        let (s, n, r) = (cptr(send), count(send.len()), mptr(recv));
        let root = count(root);
        init!("MPI_Gather_init", recv, Vec::new(), |req| f(
            s, n, b, r, n, b, root, c, i, req
        ))
    }

    /// MPI_Gatherv_init to `root` with per-rank counts and displacements (bytes).
    pub fn gatherv<'a>(
        &self,
        send: &'a [u8],
        recv: &'a mut [u8],
        counts: Vec<c_int>,
        displs: Vec<c_int>,
        root: usize,
    ) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.gatherv, self.comm, self.info, self.byte);
        let (s, sn, r) = (cptr(send), count(send.len()), mptr(recv));
        let (cp, dp, root) = (counts.as_ptr(), displs.as_ptr(), count(root));
        init!("MPI_Gatherv_init", recv, vec![counts, displs], |req| f(
            s, sn, b, r, cp, dp, b, root, c, i, req
        ))
    }

    /// MPI_Scatter_init from `root`: block k of the root's `send` (size·recv.len()) goes to
    /// rank k.
    pub fn scatter<'a>(&self, send: &'a [u8], recv: &'a mut [u8], root: usize) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.scatter, self.comm, self.info, self.byte);
        let (s, n, r) = (cptr(send), count(recv.len()), mptr(recv));
        let root = count(root);
        init!("MPI_Scatter_init", recv, Vec::new(), |req| f(
            s, n, b, r, n, b, root, c, i, req
        ))
    }

    /// MPI_Scatterv_init from `root` with per-rank counts and displacements (bytes).
    pub fn scatterv<'a>(
        &self,
        send: &'a [u8],
        counts: Vec<c_int>,
        displs: Vec<c_int>,
        recv: &'a mut [u8],
        root: usize,
    ) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.scatterv, self.comm, self.info, self.byte);
        let (s, r, rn) = (cptr(send), mptr(recv), count(recv.len()));
        let (cp, dp, root) = (counts.as_ptr(), displs.as_ptr(), count(root));
        init!("MPI_Scatterv_init", recv, vec![counts, displs], |req| f(
            s, cp, dp, b, r, rn, b, root, c, i, req
        ))
    }

    /// MPI_Alltoall_init with `block` bytes per peer (both buffers hold size·block).
    pub fn alltoall<'a>(&self, send: &'a [u8], recv: &'a mut [u8], block: usize) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.alltoall, self.comm, self.info, self.byte);
        let (s, n, r) = (cptr(send), count(block), mptr(recv));
        init!("MPI_Alltoall_init", recv, Vec::new(), |req| f(
            s, n, b, r, n, b, c, i, req
        ))
    }

    /// MPI_Alltoallv_init with the same counts and displacements (bytes) on both sides.
    pub fn alltoallv<'a>(
        &self,
        send: &'a [u8],
        recv: &'a mut [u8],
        counts: Vec<c_int>,
        displs: Vec<c_int>,
    ) -> Persistent<'a> {
        let (f, c, i, b) = (self.api.alltoallv, self.comm, self.info, self.byte);
        let (s, r) = (cptr(send), mptr(recv));
        let (cp, dp) = (counts.as_ptr(), displs.as_ptr());
        init!("MPI_Alltoallv_init", recv, vec![counts, displs], |req| f(
            s, cp, dp, b, r, cp, dp, b, c, i, req
        ))
    }

    /// MPI_Reduce_init of `send.len()/4` floats with MPI_SUM to `root` (`recv` is used at the
    /// root).
    pub fn reduce<'a>(&self, send: &'a [u8], recv: &'a mut [u8], root: usize) -> Persistent<'a> {
        debug_assert!(recv.len() >= send.len());
        let (f, c, i) = (self.api.reduce, self.comm, self.info);
        let (s, r, n, root) = (cptr(send), mptr(recv), count(send.len() / 4), count(root));
        let (ty, op) = (self.float, self.sum);
        init!("MPI_Reduce_init", recv, Vec::new(), |req| f(
            s, r, n, ty, op, root, c, i, req
        ))
    }

    /// MPI_Reduce_scatter_init of floats: `counts[k]` results go to rank k.
    pub fn reduce_scatter<'a>(
        &self,
        send: &'a [u8],
        recv: &'a mut [u8],
        counts: Vec<c_int>,
    ) -> Persistent<'a> {
        let (f, c, i) = (self.api.reduce_scatter, self.comm, self.info);
        let (s, r, cp) = (cptr(send), mptr(recv), counts.as_ptr());
        let (ty, op) = (self.float, self.sum);
        init!("MPI_Reduce_scatter_init", recv, vec![counts], |req| f(
            s, r, cp, ty, op, c, i, req
        ))
    }

    /// MPI_Allreduce_init of `send.len()/4` floats with MPI_SUM.
    pub fn allreduce<'a>(&self, send: &'a [u8], recv: &'a mut [u8]) -> Persistent<'a> {
        debug_assert!(recv.len() >= send.len());
        let (f, c, i) = (self.api.allreduce, self.comm, self.info);
        let (s, r, n) = (cptr(send), mptr(recv), count(send.len() / 4));
        let (ty, op) = (self.float, self.sum);
        init!("MPI_Allreduce_init", recv, Vec::new(), |req| f(
            s, r, n, ty, op, c, i, req
        ))
    }

    /// MPI_Barrier_init.
    pub fn barrier(&self) -> Persistent<'static> {
        let (f, c, i) = (self.api.barrier, self.comm, self.info);
        init!("MPI_Barrier_init", &mut [], Vec::new(), |req| f(c, i, req))
    }
}
