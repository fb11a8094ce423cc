//! The barriers around a timed loop (guide 5.2.7: N_BARR of them before the timer): MPI's,
//! or IMB 2021's own dissemination barrier (`-imb_barrier on`), built from zero-byte
//! exchanges, which does not depend on how the MPI library implements `MPI_Barrier`.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// The barriers before a timer: how many (N_BARR), and whether they are IMB 2021's
/// dissemination barrier of zero-byte messages (`-imb_barrier`) instead of `MPI_Barrier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Barriers {
    pub n: usize,
    pub imb: bool,
}

impl Barriers {
    pub const NONE: Barriers = Barriers { n: 0, imb: false };
    /// `n` barriers of `MPI_Barrier`.
    pub const fn mpi(n: usize) -> Barriers {
        Barriers { n, imb: false }
    }
    /// The same kind, `n` of them.
    pub const fn times(self, n: usize) -> Barriers {
        Barriers { n, imb: self.imb }
    }
    #[inline]
    pub fn wait(self, comm: &SimpleCommunicator) {
        for _ in 0..self.n {
            if self.imb {
                dissemination(comm);
            } else {
                comm.barrier();
            }
        }
    }
}

/// IMB 2021's own barrier (`-imb_barrier on`): the dissemination algorithm, in rounds of
/// zero-byte exchanges with the ranks 1, 2, 4, … places away, with tag 1000 as IMB 2021 uses.
fn dissemination(comm: &SimpleCommunicator) {
    const TAG: i32 = 1000;
    let (size, rank) = (comm.size(), comm.rank());
    let (none, mut into): ([u8; 0], [u8; 0]) = ([], []);
    let mut mask = 1;
    while mask < size {
        let to = comm.process_at_rank((rank + mask) % size);
        let from = comm.process_at_rank((rank - mask + size) % size);
        mpi::point_to_point::send_receive_into_with_tags(
            &none[..],
            &to,
            TAG,
            &mut into[..],
            &from,
            TAG,
        );
        mask <<= 1;
    }
}
