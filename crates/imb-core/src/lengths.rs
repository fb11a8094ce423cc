//! Message-length ladders, `-msglen` files and the repetition count `n_sample` (guide 5.2.4,
//! 5.2.8; doc/METHODOLOGY.md, "Message lengths" and "Repetitions").

use crate::error::{Error, Result};
use crate::settings::Params;
use serde::{Deserialize, Serialize};

/// One message length of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Len {
    /// The size X in bytes that is measured (capped, rounded up to the unit).
    pub x: usize,
    /// Set when a `-msglen` entry was above the maximum and was capped.
    pub truncated_from: Option<usize>,
}

/// The largest size: 2^MAXMSGLOG rounded down to a multiple of `unit`.
pub fn maxmsg(p: &Params, unit: usize) -> usize {
    ((1usize << p.maxmsglog) / unit) * unit
}

fn round_up(x: usize, unit: usize) -> usize {
    x.div_ceil(unit) * unit
}

/// The default ladder: 0, max(unit, 2^MINMSGLOG) rounded up to the unit (raised to
/// `second_min`), then doubling, capped at MAXMSG, which is always the last size.
pub fn default_ladder(p: &Params, unit: usize, second_min: usize) -> Vec<usize> {
    let max = maxmsg(p, unit);
    let mut v = vec![0];
    let mut x = round_up((1usize << p.minmsglog).max(second_min), unit).min(max);
    if max == 0 {
        return v;
    }
    loop {
        v.push(x);
        if x >= max {
            break;
        }
        x = round_up((2 * x).min(max), unit);
    }
    v
}

/// Turn a ladder or the values of a `-msglen` file into the table's lengths (cap, round up).
/// `second_min` is imb-ext's quirk: its second entry is raised to at least 4.
pub fn resolve(values: &[usize], p: &Params, unit: usize, second_min: usize) -> Vec<Len> {
    let max = maxmsg(p, unit);
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let v = if i == 1 { v.max(second_min) } else { v };
            let (capped, truncated_from) = if v > max { (max, Some(v)) } else { (v, None) };
            Len {
                x: round_up(capped, unit),
                truncated_from,
            }
        })
        .collect()
}

/// n_sample = cap for X = 0, else max(1, min(cap, OVERALL_VOL / X)) (guide 5.2.8).
pub fn n_sample(x: usize, cap: usize, overall_vol: usize) -> usize {
    match overall_vol.checked_div(x) {
        None => cap, // X = 0
        Some(q) => q.min(cap).max(1),
    }
}

/// Parse the text of a `-msglen` file: one non-negative length per line, optionally followed by
/// a `k`/`K` (×1024) or `m`/`M` (×1048576) word; `#` lines and blank lines are skipped. Every
/// other line must be valid: the error names the file and the line. Order and duplicates stay.
pub fn parse_msglen(text: &str, file: &str) -> Result<Vec<usize>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |msg: String| Error::line("-msglen", file, i + 1, msg);
        let body = line.strip_prefix('+').unwrap_or(line);
        if body.starts_with('-') {
            return Err(bad(format!("{line:?} is negative; lengths are bytes >= 0")));
        }
        let digits_end = body
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(body.len());
        if digits_end == 0 {
            return Err(bad(format!(
                "{line:?} is not a length (an integer, optionally followed by k or M)"
            )));
        }
        let n: usize = body[..digits_end]
            .parse()
            .map_err(|_| bad(format!("{line:?} overflows")))?;
        let rest = body[digits_end..].trim();
        let mult = match rest.chars().next() {
            None => 1,
            Some('k' | 'K') if rest.chars().all(|c| c.is_ascii_alphabetic()) => 1 << 10,
            Some('m' | 'M') if rest.chars().all(|c| c.is_ascii_alphabetic()) => 1 << 20,
            Some('#') => {
                return Err(bad(format!(
                    "{rest:?} after the length: comments must start a line with #"
                )))
            }
            Some(_) => {
                return Err(bad(format!(
                    "{rest:?} after the length is not a k or M suffix"
                )))
            }
        };
        let v = n
            .checked_mul(mult)
            .ok_or_else(|| bad(format!("{line:?} overflows")))?;
        out.push(v);
    }
    if out.is_empty() {
        return Err(Error::file("-msglen", file, "contains no message length"));
    }
    Ok(out)
}

/// Read and parse a `-msglen` file.
pub fn read_msglen(file: &str) -> Result<Vec<usize>> {
    let text = crate::safefile::read_text("-msglen", file)?;
    parse_msglen(&text, file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{standard, STANDARD};

    fn reps(p: &Params, unit: usize) -> Vec<(usize, usize)> {
        default_ladder(p, unit, 0)
            .into_iter()
            .map(|x| (x, n_sample(x, p.msgspersample, p.overall_vol)))
            .collect()
    }

    #[test]
    fn sample1_pingpong_ladder_and_repetitions() {
        let p = standard(&STANDARD);
        let r = reps(&p, 1);
        assert_eq!(r.len(), 24);
        assert_eq!(r[0], (0, 1000));
        assert_eq!(r[1], (1, 1000));
        assert!(r[..17].iter().all(|&(_, n)| n == 1000), "{r:?}");
        assert_eq!(r[16], (32768, 1000));
        let tail: Vec<_> = r[17..].to_vec();
        assert_eq!(
            tail,
            vec![
                (65536, 640),
                (131072, 320),
                (262144, 160),
                (524288, 80),
                (1048576, 40),
                (2097152, 20),
                (4194304, 10)
            ]
        );
    }

    #[test]
    fn sample1_allreduce_ladder_uses_unit_4() {
        let p = standard(&STANDARD);
        let l = default_ladder(&p, 4, 0);
        assert_eq!(l.len(), 22);
        assert_eq!(&l[..4], &[0, 4, 8, 16]);
        assert_eq!(*l.last().unwrap(), 4194304);
    }

    #[test]
    fn sample2_lengths_file_repetitions() {
        let p = standard(&STANDARD);
        let v = parse_msglen("0\n100\n1000\n10000\n100000\n1000000\n", "Lengths").unwrap();
        let n: Vec<_> = resolve(&v, &p, 1, 0)
            .iter()
            .map(|l| n_sample(l.x, p.msgspersample, p.overall_vol))
            .collect();
        assert_eq!(n, vec![1000, 1000, 1000, 1000, 419, 41]);
    }

    /// A larger ladder on a smaller volume: 2^24 bytes, 16 MiB, caps 50 and 10.
    #[test]
    fn ladders_of_a_larger_volume() {
        let p = Params {
            maxmsglog: 24,
            overall_vol: 16 << 20,
            ..standard(&STANDARD)
        };
        let l = default_ladder(&p, 1, 0);
        assert_eq!(l.len(), 26);
        let agg: Vec<_> = l.iter().map(|&x| n_sample(x, 50, p.overall_vol)).collect();
        assert_eq!(&agg[20..], &[32, 16, 8, 4, 2, 1]);
        assert!(agg[..20].iter().all(|&n| n == 50));
        let non: Vec<_> = l.iter().map(|&x| n_sample(x, 10, p.overall_vol)).collect();
        assert_eq!(&non[22..], &[8, 4, 2, 1]);
        assert!(non[..22].iter().all(|&n| n == 10));
    }

    #[test]
    fn ext_second_size_and_nonaggr() {
        let p = standard(&STANDARD);
        assert_eq!(&default_ladder(&p, 4, 4)[..3], &[0, 4, 8]);
        let r = resolve(&[0, 0, 8, 1, 7, 1001], &p, 4, 4);
        let x: Vec<_> = r.iter().map(|l| l.x).collect();
        assert_eq!(x, vec![0, 4, 8, 4, 8, 1004]);
        assert_eq!(n_sample(524288, p.msgs_nonaggr, p.overall_vol), 80);
        assert_eq!(n_sample(262144, p.msgs_nonaggr, p.overall_vol), 100);
    }

    #[test]
    fn msglog_style_ladder() {
        let mut p = standard(&STANDARD);
        p.minmsglog = 2;
        p.maxmsglog = 5;
        assert_eq!(default_ladder(&p, 1, 0), vec![0, 4, 8, 16, 32]);
        p.minmsglog = 0;
        p.maxmsglog = 0;
        assert_eq!(default_ladder(&p, 1, 0), vec![0, 1]);
        assert_eq!(default_ladder(&p, 4, 0), vec![0]);
    }

    #[test]
    fn msglen_accepts_what_imb_accepts() {
        let t = "# comment\n\n0\n  +5\n1k\n1 k\n1kB\n2 M\n8000000\n7\n7\n   \n";
        let v = parse_msglen(t, "f").unwrap();
        assert_eq!(v, vec![0, 5, 1024, 1024, 1024, 2 << 20, 8000000, 7, 7]);
        let p = standard(&STANDARD);
        let r = resolve(&v, &p, 1, 0);
        assert_eq!(r[6].x, 4194304);
        assert_eq!(r[6].truncated_from, Some(8000000));
        assert_eq!(r[7].truncated_from, None);
    }

    #[test]
    fn msglen_rejects_with_file_and_line() {
        for (text, line, needle) in [
            ("0\nabc\n", 2, "not a length"),
            ("0\n-5\n", 2, "negative"),
            ("100 # c\n", 1, "comments"),
            ("3.5\n", 1, "suffix"),
            ("0x10\n", 1, "suffix"),
            ("99999999999999999999999\n", 1, "overflows"),
            ("1\n2\n18446744073709551615 M\n", 3, "overflows"),
        ] {
            match parse_msglen(text, "L") {
                Err(Error::Line {
                    line: l, msg, file, ..
                }) => {
                    assert_eq!((l, file.as_str()), (line, "L"), "{text:?}");
                    assert!(msg.contains(needle), "{text:?}: {msg}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn msglen_error_shows_control_characters_escaped() {
        // A carriage return or an escape sequence inside a line must not break or recolour the
        // one-line error on a terminal (fuzz/regressions/msglen).
        for (text, shown) in [
            ("0\n8K\r*16m\n", r#""K\r*16m""#),
            ("\u{1b}[2J\n", r#""\u{1b}[2J""#),
        ] {
            let e = parse_msglen(text, "L").unwrap_err().to_string();
            assert!(e.contains(shown), "{e}");
            assert!(!e.contains(['\r', '\u{1b}']), "{e:?}");
        }
    }

    #[test]
    fn msglen_empty_is_error() {
        for t in ["", "# only\n\n"] {
            let e = parse_msglen(t, "E").unwrap_err();
            assert_eq!(e.to_string(), "-msglen E: contains no message length");
        }
        let e = read_msglen("/nonexistent/lengths").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("-msglen /nonexistent/lengths: cannot read"));
    }
}
