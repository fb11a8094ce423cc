//! Where the elements of a message lie in its buffer under IMB 2021's `-data_type`,
//! `-red_data_type` and `-contig_type`, and what check mode expects of them (doc/METHODOLOGY.md,
//! "Buffer contents and check mode"), and where each repetition's messages lie among
//! `-off_cache`'s copies (`Views`). No MPI here: `types::Elems` describes the same layout to
//! the library.
//!
//! A message of X bytes is N = X / size elements (integer division, as IMB 2021 counts them),
//! one every `stride` bytes: the element's size, or twice it when resized. Copies arrive byte
//! for byte wherever the elements are; sums are the reduction type's own arithmetic on the send
//! buffers' bytes (BUF_VALUE floats, read as that type). MPI does not say what an integer sum
//! that overflows gives: MPI_INT sums wrap in Open MPI 4.1 (its C loops and vector adds
//! alike) and are checked so; MPI_CHAR sums wrap in Open MPI 4.1's scalar loop but
//! saturate in its vectorised one (from 16 elements on), so a char is checked only where no
//! order of the additions leaves its range.

use crate::options::{Base, Contig};
use imb_core::buffers::{buf_value, check_copy, Defect, TOL};
use imb_core::method::{Rotation, Rotations};
use std::os::raw::c_int;

/// The elements of one message of X bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub base: Base,
    /// Bytes of one element.
    pub size: usize,
    /// Bytes from one element to the next.
    pub stride: usize,
    /// Elements of the message: X / size.
    pub n: usize,
    /// Elements per unit of the MPI count: N when the message is one vector of them, else 1.
    pub per: usize,
}

impl Layout {
    pub fn of(base: Base, contig: Contig, x: usize) -> Layout {
        let size = base.size();
        let n = x / size;
        Layout {
            base,
            size,
            stride: size * contig.span(),
            n,
            // Below one element there is no vector to build: nothing is sent either way.
            per: if contig.vector() && n > 0 { n } else { 1 },
        }
    }

    /// IMB 3.0's messages: X bytes of MPI_BYTE, or X/4 MPI_FLOATs for a reduction.
    pub fn imb(reduction: bool, x: usize) -> Layout {
        let base = if reduction { Base::Float } else { Base::Byte };
        Layout::of(base, Contig::Base, x)
    }

    /// The MPI count of one message: N elements, or the one vector of them.
    pub fn count(&self) -> usize {
        self.n / self.per
    }

    /// Bytes from one message to the next where a buffer holds several (a gather's blocks):
    /// N·stride, the extent of `count()` MPI elements.
    pub fn block(&self) -> usize {
        self.n * self.stride
    }
}

/// A kernel's send and receive views over every `-off_cache` copy of its messages, and where
/// repetition i's copies lie (`at`). Without `-off_cache` each view is one copy, at offset 0.
pub struct Views<'a> {
    s: &'a [u8],
    r: &'a mut [u8],
    rot: Rotations,
}

/// Bytes a view spans for `msg` bytes in every copy of `rot`: the last copy and its message.
fn reach(rot: Rotation, msg: usize, which: &str) -> usize {
    // Copies that overlapped would let one repetition's message land in another's.
    assert!(
        rot.copies == 1 || msg <= rot.stride,
        "{which} message of {msg} bytes is longer than -off_cache's stride {}",
        rot.stride
    );
    (rot.copies - 1) * rot.stride + msg
}

impl<'a> Views<'a> {
    /// The views when each copy of the buffers holds `sblocks` and `rblocks` messages laid out
    /// as `lay`, `rot`'s copies apart. Elements with gaps reach past the X bytes per message
    /// that the engine zeroed for this size, so the whole receive view is zeroed here,
    /// untimed: check mode never takes bytes an earlier size left there for this size's.
    /// Panics (untimed) unless the buffers hold every copy, which is what lets the MPI
    /// wrappers take `at`'s slices as holding the message.
    pub fn new(
        send: &'a [u8],
        recv: &'a mut [u8],
        lay: &Layout,
        (sblocks, rblocks): (usize, usize),
        rot: Rotations,
    ) -> Self {
        let slen = reach(rot.send, sblocks * lay.block(), "a send");
        let rlen = reach(rot.recv, rblocks * lay.block(), "a receive");
        assert!(
            slen <= send.len() && rlen <= recv.len(),
            "buffers of ({}, {}) bytes for views of ({slen}, {rlen})",
            send.len(),
            recv.len()
        );
        let r = &mut recv[..rlen];
        if lay.stride != lay.size {
            r.fill(0);
        }
        Views {
            s: &send[..slen],
            r,
            rot,
        }
    }

    /// Repetition `i`'s send and receive copies, each running to the end of its view (IMB
    /// 2021's `i % cache_iter · offs`).
    #[inline(always)]
    pub fn at(&mut self, i: usize) -> (&[u8], &mut [u8]) {
        let (s, r) = (self.rot.send.offset(i), self.rot.recv.offset(i));
        (&self.s[s..], &mut self.r[r..])
    }

    /// What repetition `i` received: its receive copy.
    pub fn got(&self, i: usize) -> &[u8] {
        &self.r[self.rot.recv.offset(i)..]
    }

    /// The whole views, every copy (a window's messages pick their copies themselves).
    #[inline(always)]
    pub fn all(&mut self) -> (&[u8], &mut [u8]) {
        (self.s, self.r)
    }

    /// Where the copies lie.
    pub fn rot(&self) -> Rotations {
        self.rot
    }

    /// Whole slices as views of `rot`'s copies, for unit tests that build kernels by hand.
    #[cfg(test)]
    pub fn bare(s: &'a [u8], r: &'a mut [u8], rot: Rotations) -> Self {
        Views { s, r, rot }
    }

    /// The views of a kernel that keeps one copy at offset 0 (built with `Rotations::NONE`).
    pub fn into_parts(self) -> (&'a [u8], &'a mut [u8]) {
        debug_assert_eq!(self.rot.send.copies + self.rot.recv.copies, 2);
        (self.s, self.r)
    }
}

/// Byte `j` of rank `rank`'s send buffer (BUF_VALUE floats).
fn sent_byte(rank: usize, j: usize) -> u8 {
    buf_value(rank, j / 4).to_ne_bytes()[j % 4]
}

/// A copy: `got` holds one message from `src`, whose element k was bytes `from + k·stride ..`
/// of its send buffer.
pub fn copied(got: &[u8], lay: &Layout, src: usize, from: usize) -> Defect {
    if lay.stride == lay.size {
        return check_copy(&got[..lay.n * lay.size], src, from);
    }
    let mut worst = Defect::NONE;
    for k in 0..lay.n {
        let at = k * lay.stride;
        let d = check_copy(&got[at..at + lay.size], src, from + at);
        if let Some(p) = d.pos {
            return Defect::bad(at + p);
        }
        worst = worst.max(d);
    }
    worst
}

/// A reduction type's arithmetic, as MPI_SUM does it in C (MPI_CHAR as `i8`: a wrapping sum
/// has the same bytes whether the platform's char is signed or not).
trait Num: Copy {
    const SIZE: usize;
    /// Where the libraries' sums of this type agree: a sum whose positive or negative parts
    /// leave it is not checked. None: they agree everywhere.
    const RANGE: Option<(i64, i64)> = None;
    /// The value as a wide integer (for `RANGE`).
    fn wide(self) -> i64 {
        0
    }
    fn read(b: &[u8]) -> Self;
    fn plus(self, o: Self) -> Self;
    fn times(self, k: usize) -> Self;
    /// How far `got` is from `want`: 0 when equal; above TOL (or NaN) is a defect.
    fn off(want: Self, got: Self) -> f64;
}

fn rel(want: f64, got: f64) -> f64 {
    let d = (want - got).abs();
    if want == 0.0 {
        d
    } else {
        d / want.abs()
    }
}

/// Integers compare exactly: a difference is a defect.
fn exact<T: PartialEq>(want: T, got: T) -> f64 {
    if want == got {
        0.0
    } else {
        1.0
    }
}

macro_rules! integer {
    ($t:ty, $range:expr) => {
        impl Num for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            const RANGE: Option<(i64, i64)> = $range;
            fn wide(self) -> i64 {
                self as i64
            }
            fn read(b: &[u8]) -> Self {
                <$t>::from_ne_bytes(b.try_into().expect("one element"))
            }
            fn plus(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn times(self, k: usize) -> Self {
                self.wrapping_mul(k as $t)
            }
            fn off(want: Self, got: Self) -> f64 {
                exact(want, got)
            }
        }
    };
}
// 8-bit sums saturate in Open MPI 4.1's vectorised MPI_SUM.
integer!(i8, Some((i8::MIN as i64, i8::MAX as i64)));
integer!(u8, Some((0, u8::MAX as i64)));
integer!(c_int, None);

impl Num for f32 {
    const SIZE: usize = 4;
    fn read(b: &[u8]) -> Self {
        f32::from_ne_bytes(b.try_into().expect("one element"))
    }
    fn plus(self, o: Self) -> Self {
        self + o
    }
    fn times(self, k: usize) -> Self {
        (self as f64 * k as f64) as f32
    }
    fn off(want: Self, got: Self) -> f64 {
        rel(want as f64, got as f64)
    }
}

impl Num for f64 {
    const SIZE: usize = 8;
    fn read(b: &[u8]) -> Self {
        f64::from_ne_bytes(b.try_into().expect("one element"))
    }
    fn plus(self, o: Self) -> Self {
        self + o
    }
    fn times(self, k: usize) -> Self {
        self * k as f64
    }
    fn off(want: Self, got: Self) -> f64 {
        rel(want, got)
    }
}

/// Element `e` of rank `rank`'s send buffer under `lay`.
fn sent<T: Num>(lay: &Layout, rank: usize, e: usize) -> T {
    let at = e * lay.stride;
    let mut b = [0u8; 8];
    for (j, x) in b[..T::SIZE].iter_mut().enumerate() {
        *x = sent_byte(rank, at + j);
    }
    T::read(&b[..T::SIZE])
}

/// Whether every order of adding `parts` stays in `T::RANGE`.
fn defined<T: Num>(parts: impl Iterator<Item = T>) -> bool {
    let Some((lo, hi)) = T::RANGE else {
        return true;
    };
    let (up, down) = parts.fold((0i64, 0i64), |(u, d), v| {
        let w = v.wide();
        if w > 0 {
            (u + w, d)
        } else {
            (u, d + w)
        }
    });
    up <= hi && down >= lo
}

/// Compare elements 0..count of `got` with `want(k)` (None: not defined, not compared).
fn compare<T: Num>(
    got: &[u8],
    lay: &Layout,
    count: usize,
    want: impl Fn(usize) -> Option<T>,
) -> Defect {
    let mut worst = 0.0f64;
    for k in 0..count {
        let at = k * lay.stride;
        let Some(want) = want(k) else {
            continue;
        };
        let d = T::off(want, T::read(&got[at..at + T::SIZE]));
        if d > TOL || d.is_nan() {
            return Defect::bad(at);
        }
        worst = worst.max(d);
    }
    Defect {
        value: worst,
        pos: None,
    }
}

fn sum_of<T: Num>(got: &[u8], lay: &Layout, nranks: usize, first: usize, count: usize) -> Defect {
    compare(got, lay, count, |k| {
        let part = |r| sent::<T>(lay, r, first + k);
        defined((0..nranks).map(part)).then(|| (1..nranks).fold(part(0), |s, r| s.plus(part(r))))
    })
}

fn multiple_of<T: Num>(got: &[u8], lay: &Layout, rank: usize, times: usize) -> Defect {
    compare(got, lay, lay.n, |k| {
        let v = sent::<T>(lay, rank, k);
        defined(std::iter::repeat_n(v, times)).then(|| v.times(times))
    })
}

/// A reduction: element k of `got` (k < `count`) is the sum over ranks 0..`nranks` of their
/// send elements `first + k`, added in rank order (the order does not matter for integers, and
/// floats are compared with IMB's tolerance); chars only where the sum is defined.
pub fn summed(got: &[u8], lay: &Layout, nranks: usize, first: usize, count: usize) -> Defect {
    match lay.base {
        Base::Byte => sum_of::<u8>(got, lay, nranks, first, count),
        Base::Char => sum_of::<i8>(got, lay, nranks, first, count),
        Base::Int => sum_of::<c_int>(got, lay, nranks, first, count),
        Base::Float => sum_of::<f32>(got, lay, nranks, first, count),
        Base::Double => sum_of::<f64>(got, lay, nranks, first, count),
    }
}

/// A local reduction repeated: element k of `got` is `times` × `rank`'s send element k (chars
/// only where that is defined).
pub fn multiple(got: &[u8], lay: &Layout, rank: usize, times: usize) -> Defect {
    match lay.base {
        Base::Byte => multiple_of::<u8>(got, lay, rank, times),
        Base::Char => multiple_of::<i8>(got, lay, rank, times),
        Base::Int => multiple_of::<c_int>(got, lay, rank, times),
        Base::Float => multiple_of::<f32>(got, lay, rank, times),
        Base::Double => multiple_of::<f64>(got, lay, rank, times),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::buffers::{check_sum, Buffer};

    /// Rank `rank`'s send buffer of `len` bytes.
    fn send(rank: usize, len: usize) -> Vec<u8> {
        let mut b = Buffer::new(len).unwrap();
        b.fill(rank);
        b.bytes().to_vec()
    }

    #[test]
    fn counts_blocks_and_vectors_as_imb_2021() {
        let l = Layout::of(Base::Int, Contig::Base, 10);
        assert_eq!((l.n, l.count(), l.block(), l.stride), (2, 2, 8, 4));
        let l = Layout::of(Base::Int, Contig::BaseVec, 10);
        assert_eq!((l.n, l.count(), l.block(), l.per), (2, 1, 8, 2));
        let l = Layout::of(Base::Double, Contig::Resize, 24);
        assert_eq!((l.n, l.count(), l.block(), l.stride), (3, 3, 48, 16));
        let l = Layout::of(Base::Double, Contig::ResizeVec, 24);
        assert_eq!((l.count(), l.block(), l.per), (1, 48, 3));
        // Below one element: nothing, and no vector.
        let l = Layout::of(Base::Double, Contig::ResizeVec, 7);
        assert_eq!((l.n, l.count(), l.block(), l.per), (0, 0, 0, 1));
        assert_eq!(
            Layout::imb(true, 12),
            Layout::of(Base::Float, Contig::Base, 12)
        );
        assert_eq!(Layout::imb(false, 3).count(), 3);
    }

    /// IMB 3.0's layouts check as before: the whole X of a copy, the floats of a sum.
    #[test]
    fn imb_layouts_check_as_imb_core_does() {
        let s = send(1, 10);
        let l = Layout::imb(false, 10);
        assert_eq!(copied(&s, &l, 1, 0), check_copy(&s, 1, 0));
        assert_eq!(copied(&s, &l, 0, 0).pos, Some(0));
        let sums: Vec<u8> = (0..3)
            .flat_map(|i| (buf_value(0, i) + buf_value(1, i) + buf_value(2, i)).to_ne_bytes())
            .collect();
        let l = Layout::imb(true, 12);
        assert_eq!(summed(&sums, &l, 3, 0, 3), check_sum(&sums, 3, 0));
        assert_eq!(summed(&sums, &l, 3, 0, 3), Defect::NONE);
        assert_eq!(summed(&sums, &l, 2, 0, 3).pos, Some(0));
    }

    /// Resized elements arrive at their places; the gaps are not looked at.
    #[test]
    fn resized_copies_are_checked_element_by_element() {
        let s = send(2, 32);
        let l = Layout::of(Base::Int, Contig::Resize, 16);
        let mut got = vec![0u8; 32];
        for k in 0..4 {
            got[8 * k..8 * k + 4].copy_from_slice(&s[8 * k..8 * k + 4]);
        }
        assert_eq!(copied(&got, &l, 2, 0), Defect::NONE);
        // Element 2's sign: whole floats are compared as imb-core compares copies.
        got[19] ^= 0x80;
        assert_eq!(copied(&got, &l, 2, 0).pos, Some(16));
        got[19] ^= 0x80;
        // Bytes are compared one by one where an element does not hold a whole float.
        let chars = Layout::of(Base::Char, Contig::Resize, 16);
        let mut c = vec![0u8; 32];
        for k in 0..16 {
            c[2 * k] = s[2 * k];
        }
        assert_eq!(copied(&c, &chars, 2, 0), Defect::NONE);
        c[10] ^= 1;
        assert_eq!(copied(&c, &chars, 2, 0).pos, Some(10));
        // A gap is not an element.
        got[20] = 0xff;
        assert_eq!(copied(&got, &l, 2, 0), Defect::NONE);
    }

    /// Sums of each type, from the bytes of the float buffers: wrapping ints and chars, doubles.
    #[test]
    fn sums_in_each_type() {
        let (a, b) = (send(0, 64), send(1, 64));
        for (base, contig) in [
            (Base::Char, Contig::Base),
            (Base::Int, Contig::Resize),
            (Base::Double, Contig::Base),
            (Base::Float, Contig::ResizeVec),
        ] {
            let l = Layout::of(base, contig, 32);
            let mut got = vec![0u8; 64];
            for k in 0..l.n {
                let at = k * l.stride;
                let (x, y) = (&a[at..at + l.size], &b[at..at + l.size]);
                let s: Vec<u8> = match base {
                    Base::Char => vec![(x[0] as i8).wrapping_add(y[0] as i8) as u8],
                    Base::Int => c_int::read(x)
                        .wrapping_add(c_int::read(y))
                        .to_ne_bytes()
                        .into(),
                    Base::Float => (f32::read(x) + f32::read(y)).to_ne_bytes().into(),
                    _ => (f64::read(x) + f64::read(y)).to_ne_bytes().into(),
                };
                got[at..at + l.size].copy_from_slice(&s);
            }
            assert_eq!(summed(&got, &l, 2, 0, l.n), Defect::NONE, "{base:?}");
            assert!(summed(&got, &l, 3, 0, l.n).pos.is_some(), "{base:?}");
            assert!(summed(&got, &l, 2, 1, l.n - 1).pos.is_some(), "{base:?}");
        }
    }

    /// A char sum that leaves -128..=127 is not checked (Open MPI 4.1's vectorised MPI_SUM
    /// saturates it, C wraps it); one that stays in range is.
    #[test]
    fn chars_are_checked_where_their_sum_is_defined() {
        let (a, b) = (send(0, 16), send(1, 16));
        let l = Layout::of(Base::Char, Contig::Base, 16);
        let wide = |k: usize| a[k] as i8 as i64 + b[k] as i8 as i64;
        let mut got: Vec<u8> = (0..16)
            .map(|k| wide(k).clamp(-128, 127) as i8 as u8)
            .collect();
        assert!((0..16).any(|k| !(-128..=127).contains(&wide(k))));
        assert_eq!(summed(&got, &l, 2, 0, 16), Defect::NONE);
        let k = (0..16).find(|&k| (-128..=127).contains(&wide(k))).unwrap();
        got[k] ^= 1;
        assert_eq!(summed(&got, &l, 2, 0, 16).pos, Some(k));
    }

    #[test]
    fn local_sums_are_multiples() {
        let a = send(1, 16);
        let l = Layout::of(Base::Int, Contig::Base, 16);
        let got: Vec<u8> = (0..4)
            .flat_map(|k| {
                c_int::read(&a[4 * k..4 * k + 4])
                    .wrapping_mul(3)
                    .to_ne_bytes()
            })
            .collect();
        assert_eq!(multiple(&got, &l, 1, 3), Defect::NONE);
        assert_eq!(multiple(&got, &l, 1, 2).pos, Some(0));
        let l = Layout::imb(true, 16);
        let got: Vec<u8> = (0..4)
            .flat_map(|i| (3.0 * buf_value(1, i)).to_ne_bytes())
            .collect();
        assert_eq!(multiple(&got, &l, 1, 3).pos, None);
        assert_eq!(multiple(&got, &l, 1, 2).pos, Some(0));
    }

    /// `-off_cache`'s copies: 3 send copies and 2 receive copies, 64 bytes apart.
    const ROT: Rotations = Rotations {
        send: Rotation {
            len: 10,
            stride: 64,
            copies: 3,
        },
        recv: Rotation {
            len: 20,
            stride: 64,
            copies: 2,
        },
    };

    /// The views reach the last copy and its messages; repetition i's slices start at copy
    /// i mod copies of each buffer, the last copy's holding exactly its messages.
    #[test]
    fn views_cover_every_copy() {
        let s = vec![1u8; 3 * 64];
        let mut r = vec![7u8; 2 * 64];
        let lay = Layout::imb(false, 10);
        let mut v = Views::new(&s, &mut r, &lay, (1, 2), ROT);
        let lens = |v: &mut Views, i| {
            let (s, r) = v.at(i);
            (s.len(), r.len())
        };
        assert_eq!(lens(&mut v, 0), (2 * 64 + 10, 64 + 20));
        assert_eq!(lens(&mut v, 4), (64 + 10, 64 + 20));
        assert_eq!(lens(&mut v, 5), (10, 20));
        assert_eq!(v.got(5).len(), 20);
        assert_eq!(v.all().0.len(), 2 * 64 + 10);
        // Bytes-only copies are not zeroed: the engine zeroed the receive buffer.
        assert!(v.all().1.iter().all(|&b| b == 7));
    }

    /// Without `-off_cache` a view is one copy of the messages at offset 0, as before.
    #[test]
    fn one_copy_without_off_cache() {
        let (s, mut r) = (vec![1u8; 100], vec![0u8; 100]);
        let lay = Layout::of(Base::Int, Contig::Base, 10);
        let mut v = Views::new(&s, &mut r, &lay, (3, 1), Rotations::NONE);
        for i in [0, 1, 7] {
            let (a, b) = v.at(i);
            assert_eq!((a.len(), b.len()), (24, 8));
        }
        let (a, b) = v.into_parts();
        assert_eq!((a.len(), b.len()), (24, 8));
    }

    /// Elements with gaps: every copy of the receive view is zeroed, gaps too.
    #[test]
    fn resized_copies_start_from_zero() {
        let s = vec![1u8; 3 * 64];
        let mut r = vec![7u8; 2 * 64];
        let lay = Layout::of(Base::Int, Contig::Resize, 8);
        let mut v = Views::new(&s, &mut r, &lay, (1, 1), ROT);
        assert_eq!(v.all().1.len(), 64 + 16);
        assert!(v.all().1.iter().all(|&b| b == 0));
        assert_eq!(r[64 + 16], 7);
    }

    /// A buffer that does not hold the last copy and its message is refused when the kernel
    /// is built, not read past in the timed loop.
    #[test]
    #[should_panic(expected = "buffers of (137, 128) bytes for views of (138, 84)")]
    fn buffers_short_of_the_last_copy_are_refused() {
        let (s, mut r) = (vec![0u8; 137], vec![0u8; 128]);
        Views::new(&s, &mut r, &Layout::imb(false, 10), (1, 2), ROT);
    }

    /// Copies closer than a message would overlap: refused.
    #[test]
    #[should_panic(expected = "longer than -off_cache's stride 64")]
    fn overlapping_copies_are_refused() {
        let (s, mut r) = (vec![0u8; 1000], vec![0u8; 1000]);
        Views::new(&s, &mut r, &Layout::imb(false, 40), (2, 1), ROT);
    }
}
