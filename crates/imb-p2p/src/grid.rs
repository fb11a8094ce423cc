//! The periodic grids of Stencil2D and Stencil3D, chosen as IMB-P2P chooses them
//! (doc/ReadMe_IMB.md, "imb-p2p"): the most nearly square (cubic) factorisation its search
//! finds, every side at least 2, or none. x varies fastest in the rank order.

/// (x, y) sides for `np` processes, IMB-P2P's 2D search.
pub fn sides2(np: usize) -> Option<(usize, usize)> {
    let (mut lx, mut ly) = (2usize, 2usize);
    while lx * ly < np {
        lx += 1;
        ly += 1;
    }
    if lx * ly > np {
        while ly > 1 && !np.is_multiple_of(ly) {
            ly -= 1;
        }
        lx = np / ly;
    }
    (lx >= 2 && ly >= 2 && lx * ly == np).then_some((lx, ly))
}

/// (x, y, z) sides for `np` processes, IMB-P2P's 3D search.
pub fn sides3(np: usize) -> Option<(usize, usize, usize)> {
    let (mut lx, mut ly, mut lz) = (2usize, 2usize, 2usize);
    while lx * ly * lz < np {
        lx += 1;
        ly += 1;
        lz += 1;
    }
    while lx * ly * lz > np {
        lz -= 1;
        while lz > 1 && !np.is_multiple_of(lz) {
            lz -= 1;
        }
        let n = np.checked_div(lz).unwrap_or(0);
        let (mut x, mut y) = (2usize, 2usize);
        while x * y < n {
            x += 1;
            y += 1;
        }
        if x * y > n {
            while y > 1 && !n.is_multiple_of(y) {
                y -= 1;
            }
            x = n / y;
        }
        if y >= lz {
            lx = x;
            ly = y;
        }
        if lz == 0 {
            return None;
        }
    }
    (lx >= 2 && ly >= 2 && lz >= 2 && lx * ly * lz == np).then_some((lx, ly, lz))
}

/// The four neighbours of `rank`: x − 1, x + 1, y − 1, y + 1, wrapping around.
pub fn neighbours2(rank: usize, (lx, ly): (usize, usize)) -> [usize; 4] {
    let (x, y) = (rank % lx, rank / lx);
    let at = |x: usize, y: usize| lx * (y % ly) + x % lx;
    [
        at(x + lx - 1, y),
        at(x + 1, y),
        at(x, y + ly - 1),
        at(x, y + 1),
    ]
}

/// The six neighbours of `rank`: x ∓ 1, y ∓ 1, z ∓ 1, wrapping around.
pub fn neighbours3(rank: usize, (lx, ly, lz): (usize, usize, usize)) -> [usize; 6] {
    let z = rank / (lx * ly);
    let (x, y) = ((rank % (lx * ly)) % lx, (rank % (lx * ly)) / lx);
    let at = |x: usize, y: usize, z: usize| lx * ly * (z % lz) + lx * (y % ly) + x % lx;
    [
        at(x + lx - 1, y, z),
        at(x + 1, y, z),
        at(x, y + ly - 1, z),
        at(x, y + 1, z),
        at(x, y, z + lz - 1),
        at(x, y, z + 1),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_as_imb_p2p() {
        let two: Vec<_> = (1..=12).map(sides2).collect();
        assert_eq!(two[..4], [None, None, None, Some((2, 2))]);
        assert_eq!(two[5], Some((2, 3)));
        assert_eq!(two[6], None);
        assert_eq!(two[8], Some((3, 3)));
        assert_eq!(two[11], Some((3, 4)));
        assert_eq!(sides3(8), Some((2, 2, 2)));
        assert_eq!(sides3(27), Some((3, 3, 3)));
        for np in [1, 2, 3, 4, 5, 6, 7] {
            assert_eq!(sides3(np), None, "{np}");
        }
        assert_eq!(sides3(12), Some((2, 3, 2)));
    }

    #[test]
    fn neighbours_wrap() {
        assert_eq!(neighbours2(0, (2, 2)), [1, 1, 2, 2]);
        assert_eq!(neighbours2(4, (3, 2)), [3, 5, 1, 1]);
        assert_eq!(neighbours3(0, (2, 2, 2)), [1, 1, 2, 2, 4, 4]);
        // Every rank is the neighbour of its neighbours.
        for r in 0..12 {
            for n in neighbours3(r, (3, 2, 2)) {
                assert!(neighbours3(n, (3, 2, 2)).contains(&r));
            }
        }
    }
}
