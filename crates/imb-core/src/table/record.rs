//! A family's own figures of one rank at one size (`Record`: imb-nbc's t_pure and t_CPU, the
//! white-box decomposition, Uniband's message count), and how they reach rank 0. The kernel
//! that measures them and the table kind that reduces them share the family's type; the
//! driver between them knows neither, so it carries every record the same way: encoded in a
//! `Wire` of a fixed number of doubles, gathered with the rank's time as one fixed record of
//! doubles (`RankResult::to_wire`). Fixed, so the gather needs no sizes and nothing about a
//! record costs an allocation, a dynamic call or a format on the way.

use crate::stats::{RankResult, Usec};

/// Doubles a `Wire` holds: the largest record, the white-box one, needs 8. A record that
/// does not fit fails to compile (`Wire::encode`).
const WIDTH: usize = 8;

/// Doubles of one rank's result on the wire: time, defect, position, exclusion, record.
const RESULT: usize = 4 + WIDTH;

/// A family's figures of one rank at one size: plain `Copy` data the kernel fills after its
/// timed region and its table kind reads on rank 0. Values are what the kernel measured, in
/// its units (seconds per repetition for times); the kind converts what it prints.
pub trait Record: Copy + Default + Send + Sync + 'static {
    /// Doubles it takes on the wire, at most the engine's fixed width.
    const WIDTH: usize;
    /// Write the record into `w`, exactly `WIDTH` doubles.
    fn to_wire(&self, w: &mut [f64]);
    /// The record `to_wire` wrote into `w` (`WIDTH` doubles).
    fn from_wire(w: &[f64]) -> Self;
}

/// The plain IMB kinds': nothing besides the time.
impl Record for () {
    const WIDTH: usize = 0;
    fn to_wire(&self, _: &mut [f64]) {}
    fn from_wire(_: &[f64]) -> Self {}
}

/// A record of any family as the driver carries it between the kernel and the gather.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Wire([f64; WIDTH]);

impl Wire {
    #[inline]
    pub fn encode<R: Record>(r: &R) -> Wire {
        const { assert!(R::WIDTH <= WIDTH, "a Record wider than the wire") };
        let mut w = [0.0; WIDTH];
        r.to_wire(&mut w[..R::WIDTH]);
        Wire(w)
    }
    /// The record `encode` wrote. Only its own type reads it back meaningfully: the kernel
    /// and the table kind of one benchmark agree on it (the driver checks in debug builds).
    pub fn decode<R: Record>(&self) -> R {
        const { assert!(R::WIDTH <= WIDTH, "a Record wider than the wire") };
        R::from_wire(&self.0[..R::WIDTH])
    }
}

impl RankResult<Wire> {
    /// The record `comm::gather` sends: every field as a double (a position of -1 is none).
    pub fn to_wire(&self) -> [f64; RESULT] {
        let mut w = [0.0; RESULT];
        w[..4].copy_from_slice(&[
            self.t.0,
            self.defect,
            self.pos.map_or(-1.0, |p| p as f64),
            f64::from(u8::from(self.excluded)),
        ]);
        w[4..].copy_from_slice(&self.rec.0);
        w
    }
    pub fn from_wire(w: &[f64; RESULT]) -> Self {
        RankResult {
            t: Usec(w[0]),
            defect: w[1],
            pos: (w[2] >= 0.0).then_some(w[2] as usize),
            excluded: w[3] != 0.0,
            rec: Wire(w[4..].try_into().expect("WIDTH values")),
        }
    }
    /// This result with its record read as `R`.
    pub fn decode<R: Record>(&self) -> RankResult<R> {
        RankResult {
            t: self.t,
            defect: self.defect,
            pos: self.pos,
            excluded: self.excluded,
            rec: self.rec.decode(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Default)]
    struct Widest([f64; WIDTH]);
    impl Record for Widest {
        const WIDTH: usize = WIDTH;
        fn to_wire(&self, w: &mut [f64]) {
            w.copy_from_slice(&self.0);
        }
        fn from_wire(w: &[f64]) -> Self {
            Widest(w.try_into().expect("WIDTH"))
        }
    }

    #[test]
    fn the_wire_record_round_trips() {
        let mut last = [0.0; WIDTH];
        last[WIDTH - 1] = 7.25;
        let r = RankResult {
            t: Usec(-1.5),
            defect: 1.0,
            pos: Some(4096),
            excluded: true,
            rec: Wire::encode(&Widest(last)),
        };
        let back = RankResult::from_wire(&r.to_wire());
        assert_eq!(back, r);
        assert_eq!(back.decode::<Widest>().rec, Widest(last));
        let plain = RankResult {
            t: Usec(2.0),
            ..RankResult::<Wire>::default()
        };
        assert_eq!(RankResult::from_wire(&plain.to_wire()), plain);
        assert_eq!(plain.decode::<()>().t, Usec(2.0));
    }
}
