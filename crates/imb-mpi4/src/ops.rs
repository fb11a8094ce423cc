//! The thirteen persistent collectives, each an overlap `Op` (imb-overlap's) whose start is
//! MPI_Start of one request, and what `-check` compares afterwards (guide 3.3.4 for the patterns).
//!
//! As in IMB 2021's IMB-MPI4, the request is initialised once, before the timed loops (here
//! when the kernel is built for a size, and freed when it is dropped), on the first copy of
//! the buffers and with root 0: a persistent collective's arguments are fixed when it is
//! initialised, so every call of both loops moves the same buffers to and from the same root.
//! That is why imb-mpi4 refuses `-root_shift` and `-off_cache` (options.rs). Reductions move
//! X/4 MPI_FLOATs with MPI_SUM, the rest MPI_BYTEs; Reduce_scatter gives every process X
//! bytes of an NP·X-byte vector, as IMB 2021 (and imb-nbc's Ireduce_scatter) does.
//!
//! `-check` checks every call of every benchmark but Barrier (IMB 2021's IMB-MPI4 checks only
//! Bcast_persist's): the copies byte for byte against the sender's BUF_VALUE pattern, the
//! sums within the float tolerance, as imb-nbc does with its root fixed at 0.

use imb_core::buffers::{check_copy, check_sum, Defect};
use imb_core::kernel::Ctx;
use imb_mpi::nonblocking::Pending;
use imb_mpi::persistent::{Init, Persistent};
use imb_mpi::rc::{ints, uniform};
use imb_overlap::op::{Op, Pattern};

/// The root of every rooted operation (IMB 2021's, fixed at initialisation).
const ROOT: usize = 0;

/// What a completed call left in this rank's receive buffer, for `-check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Nothing to compare (Barrier).
    Nothing,
    /// The root's message, on the other ranks (Bcast).
    RootsCopy,
    /// Block k from rank k, starting at byte `from` of its pattern; at the root only if
    /// `root_only` (the gathers, `from` 0; the all-to-alls, `from` me·X).
    Blocks { from_me: bool, root_only: bool },
    /// Block `me` of the root's send buffer (the scatters).
    RootsBlock,
    /// The sum over the ranks from float `me·X/4` on if `scattered`, else from 0; at the root
    /// only if `root_only`.
    Sum { scattered: bool, root_only: bool },
}

/// One persistent collective of one size, ready to start over and over.
pub struct PersistOp<'a> {
    req: Persistent<'a>,
    me: usize,
    n: usize,
    x: usize,
    expect: Expect,
}

impl Op for PersistOp<'_> {
    /// Every call starts the same request: the index would pick a root or a copy, which a
    /// persistent request fixes once.
    #[inline(always)]
    fn start(&mut self, _: usize) -> Pending<'_> {
        self.req.start()
    }

    fn check(&self, _: usize) -> Defect {
        compare(self.expect, self.req.received(), self.me, self.n, self.x)
    }
}

/// What rank `me` of `n` finds in `got` after a call of size `x`, against what it expects.
fn compare(expect: Expect, got: &[u8], me: usize, n: usize, x: usize) -> Defect {
    let blocks = |from: usize| {
        (0..n).fold(Defect::NONE, |d, k| {
            d.max(check_copy(&got[k * x..(k + 1) * x], k, from))
        })
    };
    match expect {
        Expect::Nothing => Defect::NONE,
        Expect::RootsCopy if me == ROOT => Defect::NONE,
        Expect::RootsCopy => check_copy(&got[..x], ROOT, 0),
        Expect::Blocks {
            root_only: true, ..
        } if me != ROOT => Defect::NONE,
        Expect::Blocks { from_me, .. } => blocks(if from_me { me * x } else { 0 }),
        Expect::RootsBlock => check_copy(&got[..x], ROOT, me * x),
        Expect::Sum {
            root_only: true, ..
        } if me != ROOT => Defect::NONE,
        Expect::Sum { scattered, .. } => {
            check_sum(&got[..x], n, if scattered { me * (x / 4) } else { 0 })
        }
    }
}

/// The first `len` bytes of a buffer: the one copy a persistent request uses. Checked here,
/// once, so that the FFI wrappers' lengths hold.
fn first(buf: &[u8], len: usize) -> &[u8] {
    let have = buf.len();
    assert!(len <= have, "send buffer of {have} B cannot hold {len} B");
    &buf[..len]
}

fn first_mut(buf: &mut [u8], len: usize) -> &mut [u8] {
    let have = buf.len();
    assert!(
        len <= have,
        "receive buffer of {have} B cannot hold {len} B"
    );
    &mut buf[..len]
}

/// The operation of one size: `lens(x, n)` bytes sent and received, the request made by
/// `make` from the handles and the two buffers.
fn build<'a>(
    c: Ctx<'a>,
    lens: (usize, usize),
    expect: Expect,
    make: impl FnOnce(&Init<'a>, &'a [u8], &'a mut [u8]) -> Persistent<'a>,
) -> PersistOp<'a> {
    let (me, n, x) = (c.rank, c.size, c.x);
    let s = first(c.send, lens.0);
    let r = first_mut(c.recv, lens.1);
    let init = Init::new(c.comm);
    PersistOp {
        req: make(&init, s, r),
        me,
        n,
        x,
        expect,
    }
}

/// Declare pattern `$ty`, built by `$build(ctx) -> PersistOp`.
macro_rules! pattern {
    ($ty:ident, $build:expr) => {
        pub struct $ty;
        impl Pattern for $ty {
            type Op<'a> = PersistOp<'a>;
            fn build(c: Ctx<'_>) -> PersistOp<'_> {
                let f: fn(Ctx<'_>) -> PersistOp<'_> = $build;
                f(c)
            }
        }
    };
}

pattern!(Bcast, |c| {
    let (me, x) = (c.rank, c.x);
    build(c, (x, x), Expect::RootsCopy, |m, s, r| {
        m.bcast(s, r, me, ROOT)
    })
});

const GATHERED: Expect = Expect::Blocks {
    from_me: false,
    root_only: false,
};
const GATHERED_AT_ROOT: Expect = Expect::Blocks {
    from_me: false,
    root_only: true,
};
const EXCHANGED: Expect = Expect::Blocks {
    from_me: true,
    root_only: false,
};

pattern!(Allgather, |c| {
    let (x, n) = (c.x, c.size);
    build(c, (x, n * x), GATHERED, |m, s, r| m.allgather(s, r))
});

pattern!(Allgatherv, |c| {
    let (x, n) = (c.x, c.size);
    let (counts, displs) = uniform(x, n);
    build(c, (x, n * x), GATHERED, |m, s, r| {
        m.allgatherv(s, r, counts, displs)
    })
});

pattern!(Gather, |c| {
    let (x, n) = (c.x, c.size);
    build(c, (x, n * x), GATHERED_AT_ROOT, |m, s, r| {
        m.gather(s, r, ROOT)
    })
});

pattern!(Gatherv, |c| {
    let (x, n) = (c.x, c.size);
    let (counts, displs) = uniform(x, n);
    build(c, (x, n * x), GATHERED_AT_ROOT, |m, s, r| {
        m.gatherv(s, r, counts, displs, ROOT)
    })
});

pattern!(Scatter, |c| {
    let (x, n) = (c.x, c.size);
    build(c, (n * x, x), Expect::RootsBlock, |m, s, r| {
        m.scatter(s, r, ROOT)
    })
});

pattern!(Scatterv, |c| {
    let (x, n) = (c.x, c.size);
    let (counts, displs) = uniform(x, n);
    build(c, (n * x, x), Expect::RootsBlock, |m, s, r| {
        m.scatterv(s, counts, displs, r, ROOT)
    })
});

pattern!(Alltoall, |c| {
    let (x, n) = (c.x, c.size);
    build(c, (n * x, n * x), EXCHANGED, |m, s, r| m.alltoall(s, r, x))
});

pattern!(Alltoallv, |c| {
    let (x, n) = (c.x, c.size);
    let (counts, displs) = uniform(x, n);
    build(c, (n * x, n * x), EXCHANGED, |m, s, r| {
        m.alltoallv(s, r, counts, displs)
    })
});

pattern!(Reduce, |c| {
    let x = c.x;
    let sum = Expect::Sum {
        scattered: false,
        root_only: true,
    };
    build(c, (x, x), sum, |m, s, r| m.reduce(s, r, ROOT))
});

pattern!(ReduceScatter, |c| {
    let (x, n) = (c.x, c.size);
    let counts = ints(vec![x / 4; n]);
    let sum = Expect::Sum {
        scattered: true,
        root_only: false,
    };
    build(c, (n * x, x), sum, |m, s, r| m.reduce_scatter(s, r, counts))
});

pattern!(Allreduce, |c| {
    let x = c.x;
    let sum = Expect::Sum {
        scattered: false,
        root_only: false,
    };
    build(c, (x, x), sum, |m, s, r| m.allreduce(s, r))
});

pattern!(Barrier, |c| build(c, (0, 0), Expect::Nothing, |m, _, _| m
    .barrier()));

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::buffers::buf_value;

    /// `n` floats of rank `rank`'s send pattern from float `first` on.
    fn pattern(rank: usize, first: usize, n: usize) -> Vec<u8> {
        (first..first + n)
            .flat_map(|i| buf_value(rank, i).to_ne_bytes())
            .collect()
    }

    fn sum(n: usize, first: usize, floats: usize) -> Vec<u8> {
        (first..first + floats)
            .flat_map(|i| (0..n).map(|k| buf_value(k, i)).sum::<f32>().to_ne_bytes())
            .collect()
    }

    fn bad(d: Defect) -> bool {
        d.pos.is_some()
    }

    /// The root checks nothing; the others compare with rank 0's pattern.
    #[test]
    fn bcast_checks_root_0s_message_off_the_root() {
        let got = pattern(0, 0, 2);
        assert!(!bad(compare(Expect::RootsCopy, &got, 1, 3, 8)));
        assert!(!bad(compare(Expect::RootsCopy, &[0; 8], 0, 3, 8)));
        assert!(bad(compare(Expect::RootsCopy, &[0; 8], 2, 3, 8)));
    }

    /// The gathers' blocks come from each rank's pattern, checked at root 0 only; an
    /// all-to-all's block k is rank k's block for me.
    #[test]
    fn blocks_from_every_rank() {
        let gathered: Vec<u8> = (0..3).flat_map(|k| pattern(k, 0, 1)).collect();
        assert!(!bad(compare(GATHERED, &gathered, 2, 3, 4)));
        assert!(!bad(compare(GATHERED_AT_ROOT, &gathered, 0, 3, 4)));
        assert!(!bad(compare(GATHERED_AT_ROOT, &[0; 12], 1, 3, 4)));
        assert!(bad(compare(GATHERED_AT_ROOT, &[0; 12], 0, 3, 4)));
        let me = 1;
        let exchanged: Vec<u8> = (0..3).flat_map(|k| pattern(k, me, 1)).collect();
        assert!(!bad(compare(EXCHANGED, &exchanged, me, 3, 4)));
        assert!(bad(compare(EXCHANGED, &gathered, me, 3, 4)));
    }

    /// Rank 2 holds block 2 of root 0's send buffer.
    #[test]
    fn scatters_hand_out_root_0s_blocks() {
        let got = pattern(0, 2, 1);
        assert!(!bad(compare(Expect::RootsBlock, &got, 2, 3, 4)));
        assert!(bad(compare(Expect::RootsBlock, &got, 1, 3, 4)));
    }

    /// Sums at root 0 only for Reduce; Reduce_scatter's share starts at float me·X/4.
    #[test]
    fn sums_where_they_land() {
        let at_root = Expect::Sum {
            scattered: false,
            root_only: true,
        };
        assert!(!bad(compare(at_root, &sum(3, 0, 2), 0, 3, 8)));
        assert!(!bad(compare(at_root, &[0; 8], 1, 3, 8)));
        assert!(bad(compare(at_root, &[0; 8], 0, 3, 8)));
        let scattered = Expect::Sum {
            scattered: true,
            root_only: false,
        };
        assert!(!bad(compare(scattered, &sum(3, 4, 2), 2, 3, 8)));
        assert!(bad(compare(scattered, &sum(3, 0, 2), 2, 3, 8)));
        assert!(!bad(compare(Expect::Nothing, &[], 1, 3, 0)));
    }
}
