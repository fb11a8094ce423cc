//! The blocking S_/P_/C_ Read/Write kernels (guide 4.2.5; doc/METHODOLOGY.md, "imb-io"), and
//! what the non-blocking ones share with them: opening the prepared file with the family's view
//! per size, the call of each access, and check mode.
//!
//! Each size opens the file on the benchmark's communicator (or MPI_COMM_SELF for private
//! files) untimed, with pointers at 0. AGGREGATE writes: n accesses, one MPI_File_sync, inside
//! the timer; NON-AGGREGATE writes sync after every access; reads never sync. Reads land at
//! offset 0 of the receive buffer; writes send bytes [0, len) of the IO pattern.

use crate::layout::{self, Family, Pos, Scope};
use crate::prep::Prepared;
use imb_core::bench::Mode;
use imb_core::buffers::{check_io, io_byte, Defect};
use imb_core::kernel::{Comm, Ctx, Kernel};
use imb_mpi::info::Info;
use imb_mpi::io::{Call, File, On, Open};
use imb_mpi::rc;
use mpi::traits::*;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The call that moves one access's data, from the family (Table 1).
pub fn call_of(f: &Family) -> Call {
    match (f.scope, f.pos) {
        (Scope::S, Pos::Expl) => Call::At,
        (Scope::S, _) | (Scope::P, Pos::Priv | Pos::Indv) => Call::Pointer,
        (Scope::P, Pos::Expl) => Call::At,
        (Scope::P, Pos::Shared) => Call::SharedPointer,
        (Scope::C, Pos::Expl) => Call::AtAll,
        (Scope::C, Pos::Shared) => Call::Ordered,
        (Scope::C, _) => Call::All,
    }
}

/// Where one process's accesses of one size go.
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    pub fam: Family,
    pub call: Call,
    pub x: usize,
    /// This process's first byte in each block and its length (IMB's Offset, Locsize).
    pub off: usize,
    pub len: usize,
    pub rank: usize,
    pub np: usize,
}

impl Geometry {
    pub fn new(fam: Family, x: usize, rank: usize, np: usize) -> Self {
        let (off, len) = layout::access(&fam, x, rank, np);
        Geometry {
            fam,
            call: call_of(&fam),
            x,
            off,
            len,
            rank,
            np,
        }
    }
    /// The explicit offset of access i (ignored by pointer-based calls).
    #[inline(always)]
    pub fn at(&self, i: usize) -> usize {
        i * self.x + self.off
    }
    /// Open the prepared file for one size with this family's view. A failure here (the file
    /// was made moments ago) ends the run with one line.
    pub fn open(&self, comm: &Comm, path: &Path, hints: &Info) -> File {
        let (on, how) = if self.fam.private() {
            (On::Myself, Open::Unique)
        } else {
            (On::Comm(comm), Open::Shared)
        };
        let with = hints.describe();
        let mut f = File::open(on, path, how, hints)
            .unwrap_or_else(|e| rc::abort(&format!("{e} (with {with})"), 1));
        if self.fam.tiled() {
            if let Err(rc) = f.view_tiled(self.off, self.len, self.x) {
                rc::failed(&format!("MPI_File_set_view with {with}"), rc);
            }
        }
        f
    }
    /// Check mode, reads: `got` is what access i read; a shared-pointer read lies somewhere
    /// below `extent`.
    pub fn check_read(&self, got: &[u8], i: usize, extent: usize) -> Defect {
        match layout::file_offset(&self.fam, self.x, self.off, self.len, i) {
            Some(o) => check_io(got, 0, o),
            None => locate(got, extent),
        }
    }
    /// Check mode, writes: after the last access (and its sync), read the file back through
    /// the file system and compare it with what every access wrote. Collective.
    pub fn verify_written(&self, comm: &Comm, file: &File, path: &Path, n: usize) -> Defect {
        // MPI's consistency rule for other processes' writes: sync, barrier, sync.
        file.sync();
        comm.barrier();
        file.sync();
        let Ok(os) = std::fs::File::open(path) else {
            return Defect::bad(0);
        };
        let read = |at: usize, len: usize| -> Option<Vec<u8>> {
            let mut v = vec![0u8; len];
            os.read_exact_at(&mut v, at as u64).ok().map(|_| v)
        };
        if !self.fam.ordered() {
            if self.rank != 0 {
                return Defect::NONE;
            }
            let lens: Vec<usize> = (0..self.np)
                .map(|r| layout::portion(self.x, r, self.np).1)
                .collect();
            return match read(0, n * self.x) {
                Some(all) => layout::check_interleaved(&all, &lens, n),
                None => Defect::bad(0),
            };
        }
        (0..n).fold(Defect::NONE, |d, i| {
            let o = layout::file_offset(&self.fam, self.x, self.off, self.len, i).unwrap_or(0);
            d.max(match read(o, self.len) {
                Some(got) => check_io(&got, self.rank, 0),
                None => Defect::bad(0),
            })
        })
    }
}

/// Check a shared-pointer read whose file offset MPI chose: the bytes must be rank 0's pattern
/// from some offset below `extent`. The pattern names its own position (int j holds
/// 10000000 + j), so a few candidate offsets are tried, not all.
fn locate(got: &[u8], extent: usize) -> Defect {
    if got.is_empty() {
        return Defect::NONE;
    }
    let fits = |o: usize| check_io(got, 0, o) == Defect::NONE;
    for shift in 0..4 {
        // If the read began at an offset ≡ shift (mod 4), a whole int starts at index a.
        let a = (4 - shift) % 4;
        if let Some(b) = got.get(a..a + 4) {
            let j = i32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as i64 - 10_000_000;
            let o = 4 * j - a as i64;
            if o >= 0 && fits(o as usize) {
                return Defect::NONE;
            }
        } else if (0..=extent).any(|o| got[0] == io_byte(0, o) && fits(o)) {
            return Defect::NONE;
        }
    }
    Defect::bad(0)
}

/// A blocking Read or Write kernel for one size.
pub struct Access<'a> {
    g: Geometry,
    file: File,
    path: &'a Path,
    comm: &'a Comm,
    write: bool,
    agg: bool,
    /// Bytes a table's accesses span at most (bounds the check of shared-pointer reads).
    extent: usize,
    send: &'a [u8],
    recv: &'a mut [u8],
}

impl<'a> Access<'a> {
    pub fn new(c: Ctx<'a>, fam: Family) -> Self {
        let path = prepared(&c);
        Access::with_path(c, fam, path)
    }

    /// The kernel on a known file (the non-blocking kernels' t_pure).
    pub fn with_path(c: Ctx<'a>, fam: Family, path: &'a Path) -> Self {
        let g = Geometry::new(fam, c.x, c.rank, c.size);
        let file = g.open(c.comm, path, &Info::new(c.info));
        Access {
            file,
            path,
            comm: c.comm,
            write: fam.write,
            // Non-blocking kernels measure t_pure with the AGGREGATE blocking kernel.
            agg: c.mode != Mode::NonAggregate,
            extent: c.params.msgspersample.max(c.params.msgs_nonaggr) * c.x,
            send: &c.send[..g.len],
            recv: &mut c.recv[..g.len],
            g,
        }
    }
}

/// The prepared file's path (every IO benchmark prepares one).
pub fn prepared<'a>(c: &Ctx<'a>) -> &'a Path {
    match c.prep.and_then(|p| p.downcast_ref::<Prepared>()) {
        Some(p) => &p.path,
        None => rc::abort("an IO kernel ran without its prepared file", 1),
    }
}

impl Kernel for Access<'_> {
    #[inline(always)]
    fn step(&mut self, i: usize) {
        let at = self.g.at(i);
        if self.write {
            self.file.write(self.g.call, at, self.send);
            if !self.agg {
                self.file.sync();
            }
        } else {
            self.file.read(self.g.call, at, self.recv);
        }
    }
    fn check(&mut self, i: usize) -> Defect {
        if self.write {
            Defect::NONE
        } else {
            self.g.check_read(self.recv, i, self.extent)
        }
    }
    fn verify(&mut self, n: usize) -> Defect {
        if self.write {
            self.g.verify_written(self.comm, &self.file, self.path, n)
        } else {
            Defect::NONE
        }
    }
    fn complete(&mut self) {
        if self.write && self.agg {
            self.file.sync();
        }
    }
}
