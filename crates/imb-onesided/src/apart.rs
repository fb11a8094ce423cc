//! Keeping the windows of `-multi`'s groups apart under Open MPI 4 (doc/ReadMe_IMB.md, "Open
//! MPI notes for imb-ext").
//!
//! Open MPI 4's default one-sided component, osc/rdma, backs a window with a shared-memory file
//! named after the node, the job and the context id of its duplicate of the window's
//! communicator, and creates it without O_EXCL. A context id is unique only within a process:
//! a new communicator gets the lowest id free on all its members. The groups of `-multi` are
//! disjoint and run the same code at the same time, so their windows get the same id, and two
//! groups on one node creating windows together open one file: MPI_Win_create fails (one
//! group's leader removed the file before the other's members opened it) or both windows share
//! one lock state and the run hangs. Open MPI 5 adds the leader's pid to the name.
//!
//! So group g holds g·STRIDE duplicates of MPI_COMM_SELF for the step: they fill the g·STRIDE
//! lowest free ids of each of its processes, and every id the group allocates afterwards is at
//! least STRIDE·g above the base every group shares. Each group's ids then stay in a range of
//! their own as long as a group never holds STRIDE ids at once; one window holds one (its
//! duplicate) and briefly two more while it is created (its node and node-leader
//! communicators), and a kernel holds one window at a time.

use imb_core::kernel::Prep;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Context ids reserved per group: above the 3 a window creation holds at its peak.
pub const STRIDE: usize = 8;

/// The communicators group g holds for a step (freed when the step drops them).
pub struct Apart {
    _held: Vec<SimpleCommunicator>,
}

/// Whether `library` (MPI_Get_library_version) is an Open MPI whose osc/rdma names its
/// segments by context id alone: every Open MPI before 5 (an Open MPI without a readable
/// version counts as one, since the ids cost little).
pub fn keyed_on_context_id(library: &str) -> bool {
    let Some(rest) = library.split("Open MPI").nth(1) else {
        return false;
    };
    let major = rest
        .trim_start()
        .trim_start_matches('v')
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|d| d.parse::<u32>().ok());
    major.is_none_or(|m| m < 5)
}

/// How many ids group `group` of `groups` holds under `library`.
pub fn reserve(group: Option<usize>, groups: usize, library: &str) -> usize {
    match group {
        Some(g) if groups > 1 && keyed_on_context_id(library) => g * STRIDE,
        _ => 0,
    }
}

/// The ids this rank's group holds for the step (none with one group, or a library that needs
/// none). Local to the process: MPI_Comm_dup of MPI_COMM_SELF involves no other rank.
pub fn hold(p: &Prep) -> Option<Apart> {
    let n = reserve(p.group, p.groups, &imb_core::sysinfo::mpi_library());
    if n == 0 {
        return None;
    }
    let own = SimpleCommunicator::self_comm();
    let held = (0..n).map(|_| own.duplicate()).collect();
    Some(Apart { _held: held })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OMPI4: &str =
        "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022";

    #[test]
    fn open_mpi_before_5_only() {
        assert!(keyed_on_context_id(OMPI4));
        assert!(keyed_on_context_id("Open MPI v3.1.6, package: Open MPI"));
        assert!(keyed_on_context_id("Open MPI"));
        assert!(!keyed_on_context_id(
            "Open MPI v5.0.3, package: Open MPI, ident: 5.0.3"
        ));
        assert!(!keyed_on_context_id(
            "MPICH Version:\t4.0\nMPICH Release date:"
        ));
        assert!(!keyed_on_context_id(""));
    }

    #[test]
    fn group_g_holds_g_strides() {
        assert_eq!(reserve(Some(0), 3, OMPI4), 0);
        assert_eq!(reserve(Some(2), 3, OMPI4), 2 * STRIDE);
        assert_eq!(reserve(None, 1, OMPI4), 0);
        assert_eq!(reserve(Some(1), 2, "MPICH Version:\t4.0"), 0);
    }
}
