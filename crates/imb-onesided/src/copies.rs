//! `-off_cache`'s copies as the one-sided kernels of imb-ext and imb-rma use them
//! (`imb_core::method::Rotation`): repetition i works in copy i % copies of each buffer, and
//! a window exposes every copy. Shared by both crates so that their kernels and checks count
//! the copies alike.

use imb_core::method::Rotation;

/// Untimed, when a kernel is built: the last copy plus the `msg` bytes a repetition touches
/// in it lie within the `view` of `len` bytes (a window, or a buffer results land in), so
/// every displacement and landing offset the loop computes is inside it. The engine sizes the
/// buffers for this; a failure is a bug, not a user error.
pub fn assert_fit(what: &str, rot: Rotation, msg: usize, len: usize) {
    let last = rot.offset(rot.copies - 1);
    assert!(
        last + msg <= len,
        "{what}: copy {} of {} at {last} plus {msg} bytes lies beyond its {len} bytes",
        rot.copies - 1,
        rot.copies,
    );
}

/// The copies n repetitions write: min(n, copies).
pub fn written(rot: Rotation, n: usize) -> usize {
    n.min(rot.copies)
}

/// How many of n repetitions use copy j: an accumulating target holds that many sums there.
pub fn uses(rot: Rotation, j: usize, n: usize) -> usize {
    let c = rot.copies.max(1);
    n / c + usize::from(j < n % c)
}

/// A copy's displacement in MPI_FLOAT elements (displacement unit 4), for the accumulates and
/// atomics: the copy's byte offset rounded down to a whole element when `-off_cache`'s line is
/// not a multiple of 4 (IMB 2021 divides the stride by the element size likewise). Messages of
/// whole elements in rounded copies still do not overlap: a stride is longer than a copy.
#[inline(always)]
pub fn elements(offset: usize) -> usize {
    offset / 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::method::OffCache;

    fn rot(len: usize, n: usize, line: usize) -> Rotation {
        Rotation::new(
            Some(OffCache {
                cache_bytes: 1024,
                line_bytes: line,
            }),
            len,
            n,
        )
    }

    #[test]
    fn every_repetition_counted_once() {
        for n in [1, 2, 5, 16, 17, 100] {
            let r = rot(100, n, 64);
            let total: usize = (0..r.copies).map(|j| uses(r, j, n)).sum();
            assert_eq!(total, n);
            assert_eq!(written(r, n), n.min(r.copies));
            for j in 0..r.copies {
                let by_hand = (0..n).filter(|i| i % r.copies == j).count();
                assert_eq!(uses(r, j, n), by_hand, "n {n} copy {j}");
            }
        }
        let none = Rotation::new(None, 100, 7);
        assert_eq!((written(none, 7), uses(none, 0, 7)), (1, 7));
    }

    #[test]
    fn rounded_copies_stay_apart() {
        // Odd lines give strides that are not whole elements; the messages are.
        for line in [1, 2, 3, 5, 64] {
            for len in [4, 8, 12, 1000] {
                let r = rot(len, 50, line);
                for j in 1..r.copies {
                    let prev = 4 * elements(r.offset(j - 1));
                    assert!(
                        prev + len <= 4 * elements(r.offset(j)),
                        "line {line} len {len}"
                    );
                }
            }
        }
    }

    #[test]
    fn fit() {
        let r = rot(100, 5, 64);
        assert_fit("t", r, 100, r.bytes());
        assert_fit("t", Rotation::new(None, 100, 5), 100, 100);
    }

    #[test]
    #[should_panic(expected = "copy 4 of 5")]
    fn misfit() {
        let r = rot(100, 5, 64);
        assert_fit("t", r, 200, r.bytes());
    }
}
