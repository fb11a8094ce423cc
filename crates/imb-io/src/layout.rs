//! Where each access of an IO benchmark lands (guide 4.2; doc/METHODOLOGY.md, "imb-io"), as plain
//! arithmetic: the family of a benchmark, each process's portion of a size, file names, the file
//! offset of access i, and the check of a shared-pointer file whose block order MPI chooses.

use imb_core::buffers::{io_byte, Defect};
use std::path::{Path, PathBuf};

/// S_ (one process), P_ (every process, non-collective calls), C_ (collective calls).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    S,
    P,
    C,
}

/// How an access is positioned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pos {
    /// Individual file pointer (P_/C_: through the tiled view).
    Indv,
    /// Explicit offsets.
    Expl,
    /// The shared file pointer (P_: any order; C_: rank order).
    Shared,
    /// Private file per process, individual pointer (P_ only).
    Priv,
}

/// One IO benchmark's family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    pub scope: Scope,
    pub write: bool,
    pub pos: Pos,
    pub nonblocking: bool,
}

impl Family {
    /// Every S_ benchmark and P_*_Priv use one file per process on MPI_COMM_SELF.
    pub fn private(&self) -> bool {
        self.scope == Scope::S || self.pos == Pos::Priv
    }
    /// Whether the file offset of each access is known in advance (not P_ shared-pointer).
    pub fn ordered(&self) -> bool {
        !(self.scope == Scope::P && self.pos == Pos::Shared)
    }
    /// Whether accesses go through the tiled view (P_/C_ Indv).
    pub fn tiled(&self) -> bool {
        self.scope != Scope::S && self.pos == Pos::Indv
    }
}

/// This process's portion of a size X: (first byte, length). X is cut into ceil(X/4) 4-byte
/// units dealt out in rank order, the first `units mod n` ranks getting one more, and clipped
/// to X; a portion may be empty.
pub fn portion(x: usize, k: usize, n: usize) -> (usize, usize) {
    let n = n.max(1);
    let units = x.div_ceil(4);
    let (b, r) = (units / n, units % n);
    let (u0, u1) = if k < r {
        (k * (b + 1), (k + 1) * (b + 1))
    } else {
        (k * b + r, (k + 1) * b + r)
    };
    let (start, end) = ((4 * u0).min(x), (4 * u1).min(x));
    (start, end - start)
}

/// The (offset, length) a process accesses for size X: private files use the first portion
/// of `participants` (S_: all of X), shared files the process's own.
pub fn access(f: &Family, x: usize, rank: usize, np: usize) -> (usize, usize) {
    if f.scope == Scope::S {
        (0, x)
    } else if f.private() {
        (0, portion(x, 0, np).1)
    } else {
        portion(x, rank, np)
    }
}

/// The file offset of access i (None for P_ shared-pointer accesses).
pub fn file_offset(f: &Family, x: usize, off: usize, len: usize, i: usize) -> Option<usize> {
    if !f.ordered() {
        None
    } else if f.private() && f.pos != Pos::Expl {
        Some(i * len)
    } else {
        Some(i * x + off)
    }
}

/// File name: base, `_g<g>` under -multi, `_<world rank>` for a private file.
pub fn file_name(base: &Path, group: Option<usize>, private_of: Option<usize>) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    if let Some(g) = group {
        s.push(format!("_g{g}"));
    }
    if let Some(w) = private_of {
        s.push(format!("_{w}"));
    }
    PathBuf::from(s)
}

/// Check a file written through the shared pointer in an order MPI chose: it must be the
/// blocks of every rank (rank r wrote `n` blocks of `lens[r]` bytes of its pattern), each
/// whole, in some interleaving. Returns the first byte no interleaving explains.
pub fn check_interleaved(file: &[u8], lens: &[usize], n: usize) -> Defect {
    let mut left: Vec<usize> = lens.iter().map(|&l| if l > 0 { n } else { 0 }).collect();
    let mut best = 0usize;
    // Depth-first over the ranks whose next block matches; rank patterns differ, so a wrong
    // branch dies within a few bytes and the search stays linear in practice.
    fn walk(file: &[u8], at: usize, lens: &[usize], left: &mut [usize], best: &mut usize) -> bool {
        if left.iter().all(|&c| c == 0) {
            return at == file.len();
        }
        for r in 0..lens.len() {
            let l = lens[r];
            if left[r] == 0 || at + l > file.len() {
                continue;
            }
            let matched = (0..l)
                .take_while(|&j| file[at + j] == io_byte(r, j))
                .count();
            *best = (*best).max(at + matched);
            if matched < l {
                continue;
            }
            left[r] -= 1;
            if walk(file, at + l, lens, left, best) {
                return true;
            }
            left[r] += 1;
        }
        false
    }
    if walk(file, 0, lens, &mut left, &mut best) {
        Defect::NONE
    } else {
        Defect::bad(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portions_as_imb_deals_them() {
        assert_eq!(portion(6, 0, 2), (0, 4));
        assert_eq!(portion(6, 1, 2), (4, 2));
        assert_eq!(portion(1, 0, 2), (0, 1));
        assert_eq!(portion(1, 1, 2), (1, 0));
        assert_eq!(portion(0, 0, 3), (0, 0));
        // 100003 bytes = 25001 units over 3: 8334, 8334, 8333 units
        assert_eq!(portion(100003, 0, 3), (0, 33336));
        assert_eq!(portion(100003, 1, 3), (33336, 33336));
        assert_eq!(portion(100003, 2, 3), (66672, 33331));
        for x in [0, 1, 3, 5, 17, 100003] {
            for n in 1..5 {
                let total: usize = (0..n).map(|k| portion(x, k, n).1).sum();
                assert_eq!(total, x, "x {x} n {n}");
            }
        }
    }

    #[test]
    fn offsets_and_names() {
        let f = |scope, pos| Family {
            scope,
            write: true,
            pos,
            nonblocking: false,
        };
        let (s_indv, p_priv) = (f(Scope::S, Pos::Indv), f(Scope::P, Pos::Priv));
        assert_eq!(access(&s_indv, 10, 0, 1), (0, 10));
        assert_eq!(access(&p_priv, 10, 1, 2), (0, 8));
        assert_eq!(file_offset(&p_priv, 10, 0, 8, 3), Some(24));
        assert_eq!(file_offset(&f(Scope::S, Pos::Expl), 10, 0, 10, 3), Some(30));
        assert_eq!(
            file_offset(&f(Scope::C, Pos::Shared), 10, 8, 2, 3),
            Some(38)
        );
        assert_eq!(file_offset(&f(Scope::P, Pos::Shared), 10, 8, 2, 3), None);
        let b = Path::new("/d/IMB_out");
        assert_eq!(file_name(b, None, None), Path::new("/d/IMB_out"));
        assert_eq!(file_name(b, Some(1), Some(2)), Path::new("/d/IMB_out_g1_2"));
        assert_eq!(file_name(b, None, Some(0)), Path::new("/d/IMB_out_0"));
    }

    #[test]
    fn interleaved_blocks() {
        let block = |r: usize, l: usize| (0..l).map(move |j| io_byte(r, j));
        // rank 1, rank 0, rank 0, rank 1 with lengths 4 and 2
        let file: Vec<u8> = block(1, 2)
            .chain(block(0, 4))
            .chain(block(0, 4))
            .chain(block(1, 2))
            .collect();
        assert_eq!(check_interleaved(&file, &[4, 2], 2), Defect::NONE);
        let mut bad = file.clone();
        bad[7] ^= 1;
        assert_eq!(check_interleaved(&bad, &[4, 2], 2).pos, Some(7));
        assert_eq!(check_interleaved(&file[..10], &[4, 2], 2).value, 1.0);
        assert_eq!(check_interleaved(&[], &[0, 0], 5), Defect::NONE);
    }
}
