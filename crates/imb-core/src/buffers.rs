//! Message buffers and check mode: page-aligned buffers, the guide's `BUF_VALUE` contents
//! (5.2.5) and the comparison that yields the `defects` column (7.2; TOL = 1e-2).

use memmap2::{MmapMut, MmapOptions};

/// IMB's tolerance for a relative difference.
pub const TOL: f64 = 1e-2;

/// A page-aligned, pre-faulted buffer, so the first touch of a page never lands in a timed loop.
pub struct Buffer {
    map: MmapMut,
    len: usize,
}

impl Buffer {
    /// A zeroed buffer of `len` bytes (at least one page is mapped).
    pub fn new(len: usize) -> std::io::Result<Self> {
        // Round up to whole floats so `fill` can write the last partial element.
        let map_len = len.div_ceil(4).max(1) * 4;
        let map = MmapOptions::new().len(map_len).populate().map_anon()?;
        Ok(Buffer { map, len })
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn bytes(&self) -> &[u8] {
        &self.map[..self.len]
    }
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
    /// Fill with BUF_VALUE(rank, i) viewed as floats (the trailing partial float included).
    pub fn fill(&mut self, rank: usize) {
        let floats: &mut [f32] = bytemuck::cast_slice_mut(&mut self.map[..]);
        for (i, v) in floats.iter_mut().enumerate() {
            *v = buf_value(rank, i);
        }
    }
    /// Fill with IMB-IO's contents: the int `io_value(rank, i)` at int i.
    pub fn fill_io(&mut self, rank: usize) {
        let ints: &mut [i32] = bytemuck::cast_slice_mut(&mut self.map[..]);
        for (i, v) in ints.iter_mut().enumerate() {
            *v = io_value(rank, i);
        }
    }
    /// Zero the first `n` bytes.
    pub fn zero(&mut self, n: usize) {
        self.map[..n.min(self.len)].fill(0);
    }
    /// `-off_cache`: the first copy's bytes into every other copy, so that a repetition
    /// sends the same message wherever its copy lies (IMB 2021 copies them the same way) and
    /// check mode expects the same values of each. Copies past the buffer's end are left
    /// out (the engine sizes buffers for them).
    pub fn replicate(&mut self, rot: crate::method::Rotation) {
        let len = rot.len.min(self.len);
        for k in 1..rot.copies {
            let at = k * rot.stride;
            if at + len > self.len {
                break;
            }
            self.map.copy_within(..len, at);
        }
    }
}

/// BUF_VALUE(rank, i) = 0.1·(rank+1) + i, computed in double and stored as float (MPI-1, EXT).
#[inline]
pub fn buf_value(rank: usize, i: usize) -> f32 {
    (0.1 * (rank as f64 + 1.0) + i as f64) as f32
}

/// Byte `j` of rank `rank`'s send buffer.
#[inline]
fn buf_byte(rank: usize, j: usize) -> u8 {
    buf_value(rank, j / 4).to_ne_bytes()[j % 4]
}

/// IMB-IO's buffer value (doc/METHODOLOGY.md, "Buffer contents and check mode"): the int
/// 10000000·(rank+1) + (i mod 10000000). A file prepared for reading holds rank 0's values from
/// byte 0 on.
#[inline]
pub fn io_value(rank: usize, i: usize) -> i32 {
    (10_000_000 * (rank as i64 + 1) + (i % 10_000_000) as i64) as i32
}

/// Byte `j` of IMB-IO rank `rank`'s buffer (or, for rank 0, of a prepared file).
#[inline]
pub fn io_byte(rank: usize, j: usize) -> u8 {
    io_value(rank, j / 4).to_ne_bytes()[j % 4]
}

/// Exact byte comparison of `got` with bytes `from .. from + got.len()` of IMB-IO rank
/// `rank`'s pattern (files move bytes, so no tolerance, and any offset works).
pub fn check_io(got: &[u8], rank: usize, from: usize) -> Defect {
    check_bytes(got, |j| io_byte(rank, from + j))
}

/// Exact comparison of `got[j]` with `expect(j)`: the first differing byte is the defect.
fn check_bytes(got: &[u8], expect: impl Fn(usize) -> u8) -> Defect {
    match got.iter().enumerate().find(|&(j, &b)| b != expect(j)) {
        Some((j, _)) => Defect::bad(j),
        None => Defect::NONE,
    }
}

/// The outcome of checking one buffer.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Defect {
    /// Largest relative difference; 1.0 once any element is off by more than TOL.
    pub value: f64,
    /// Byte position of the first element off by more than TOL.
    pub pos: Option<usize>,
}

impl Defect {
    pub const NONE: Defect = Defect {
        value: 0.0,
        pos: None,
    };

    /// Keep the worse of two results (the first bad position wins).
    pub fn max(self, other: Defect) -> Defect {
        Defect {
            value: self.value.max(other.value),
            pos: self.pos.or(other.pos),
        }
    }
    pub fn bad(pos: usize) -> Defect {
        Defect {
            value: 1.0,
            pos: Some(pos),
        }
    }
}

fn rel_diff(expected: f64, got: f64) -> f64 {
    let d = (expected - got).abs();
    if expected == 0.0 {
        d
    } else {
        d / expected.abs()
    }
}

/// Compare received bytes with bytes `from .. from + got.len()` of `src`'s send buffer.
pub fn check_copy(got: &[u8], src: usize, from: usize) -> Defect {
    if from.is_multiple_of(4) {
        let whole = got.len() / 4 * 4;
        let floats: &[u8] = &got[..whole];
        let mut worst = 0.0f64;
        // `as_chunks::<4>()` (Rust 1.88) once rust-version is 1.88; until then newer clippys
        // lint `chunks_exact(4)`, and older ones do not know that lint.
        #[allow(unknown_lints, clippy::chunks_exact_to_as_chunks)]
        for (k, c) in floats.chunks_exact(4).enumerate() {
            let g = f32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as f64;
            let e = buf_value(src, from / 4 + k) as f64;
            let d = rel_diff(e, g);
            if d > TOL || d.is_nan() {
                return Defect::bad(k * 4);
            }
            worst = worst.max(d);
        }
        for (j, &b) in got.iter().enumerate().skip(whole) {
            if b != buf_byte(src, from + j) {
                return Defect::bad(j);
            }
        }
        Defect {
            value: worst,
            pos: None,
        }
    } else {
        check_bytes(got, |j| buf_byte(src, from + j))
    }
}

/// Compare received floats with Σ_k BUF_VALUE(k, first + i) over `nranks` ranks, summed in
/// float (what an MPI_SUM of MPI_FLOAT gives up to rounding).
pub fn check_sum(got: &[u8], nranks: usize, first: usize) -> Defect {
    check_floats(got, |i| {
        let e: f32 = (0..nranks).map(|k| buf_value(k, first + i)).sum();
        e as f64
    })
}

/// Compare the received float `i` with `expect(i)`: the first whose relative difference is
/// above [`TOL`] (or NaN) is the defect, else the largest difference is the value. Whole
/// floats only; the bytes need no alignment.
pub fn check_floats(got: &[u8], expect: impl Fn(usize) -> f64) -> Defect {
    let mut worst = 0.0f64;
    // `as_chunks::<4>()` (Rust 1.88) once rust-version is 1.88; until then newer clippys
    // lint `chunks_exact(4)`, and older ones do not know that lint.
    #[allow(unknown_lints, clippy::chunks_exact_to_as_chunks)]
    for (i, c) in got.chunks_exact(4).enumerate() {
        let g = f32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as f64;
        let d = rel_diff(expect(i), g);
        if d > TOL || d.is_nan() {
            return Defect::bad(i * 4);
        }
        worst = worst.max(d);
    }
    Defect {
        value: worst,
        pos: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_and_check_copy() {
        let mut b = Buffer::new(4099).unwrap();
        assert_eq!(b.len(), 4099);
        b.fill(2);
        assert_eq!(buf_value(0, 0), 0.1f32);
        assert_eq!(check_copy(&b.bytes()[..4099], 2, 0), Defect::NONE);
        assert_eq!(check_copy(&b.bytes()[8..15], 2, 8), Defect::NONE);
        // unaligned source offset (Alltoall with X not a multiple of 4)
        assert_eq!(check_copy(&b.bytes()[3..10], 2, 3), Defect::NONE);
        let d = check_copy(&b.bytes()[..100], 1, 0);
        assert_eq!((d.value, d.pos), (1.0, Some(0)));
        let mut v = b.bytes()[..7].to_vec();
        v[6] ^= 0xff;
        assert_eq!(check_copy(&v, 2, 0).pos, Some(6));
        let zero = vec![0u8; 3];
        assert_eq!(check_copy(&zero, 0, 5).pos, Some(0));
    }

    #[test]
    fn check_sums() {
        let n = 3;
        let sums: Vec<f32> = (0..10)
            .map(|i| (0..n).map(|k| buf_value(k, 5 + i)).sum())
            .collect();
        let bytes: &[u8] = bytemuck::cast_slice(&sums);
        assert_eq!(check_sum(bytes, n, 5), Defect::NONE);
        assert_eq!(check_sum(bytes, n, 6).pos, Some(0));
        assert_eq!(check_sum(bytes, 2, 5).value, 1.0);
    }

    #[test]
    fn io_pattern() {
        let mut b = Buffer::new(10).unwrap();
        b.fill_io(1);
        assert_eq!(&b.bytes()[..4], &20_000_000i32.to_ne_bytes());
        assert_eq!(io_value(0, 10_000_003), 10_000_003);
        assert_eq!(check_io(&b.bytes()[3..10], 1, 3), Defect::NONE);
        assert_eq!(check_io(&b.bytes()[3..10], 0, 3).pos, Some(0));
        let f: Vec<u8> = (5..12).map(|j| io_byte(0, j)).collect();
        assert_eq!(check_io(&f, 0, 5), Defect::NONE);
    }

    #[test]
    fn copies_repeat_the_first() {
        let oc = crate::method::OffCache {
            cache_bytes: 256,
            line_bytes: 64,
        };
        let rot = crate::method::Rotation::new(Some(oc), 70, 100);
        assert_eq!((rot.stride, rot.copies), (192, 3));
        let mut b = Buffer::new(rot.bytes()).unwrap();
        b.fill(1);
        b.replicate(rot);
        for k in 0..3 {
            let at = rot.offset(k);
            assert_eq!(check_copy(&b.bytes()[at..at + 70], 1, 0), Defect::NONE);
        }
        // A buffer too short for the last copy keeps the copies that fit.
        let mut short = Buffer::new(300).unwrap();
        short.fill(1);
        short.replicate(rot);
        assert_eq!(check_copy(&short.bytes()[192..262], 1, 0), Defect::NONE);
    }

    #[test]
    fn zeroing() {
        let mut b = Buffer::new(16).unwrap();
        b.fill(0);
        b.zero(8);
        assert!(b.bytes()[..8].iter().all(|&x| x == 0));
        assert!(b.bytes()[8..].iter().any(|&x| x != 0));
        assert!(Buffer::new(0).unwrap().is_empty());
    }
}
