//! The checks every table passes after reading, text or `-json` alike: a figure is a finite
//! number, a size or a count a whole number not below 0, a time or a bandwidth not negative
//! (unless the program itself flagged the row UNRELIABLE: a Sphinx correction may go below
//! zero), a size at most 2^50 bytes, every figure within 10^15. A file that fails is not
//! evidence of anything, so it is an input error naming the line (or the JSON path), never a
//! row skipped. A size a table prints more than once is one figure ([`merge_repeats`]).

use std::collections::{HashMap, HashSet};

use crate::error::Error;
use crate::read::run::{Flag, Table};

/// Where a row was read, for messages.
#[derive(Debug, Clone, PartialEq)]
pub enum At {
    Line(usize),
    /// The row's JSON path, `tables[0].rows[3]`.
    Path(String),
}

impl At {
    fn error(&self, file: &str, column: Option<&str>, msg: String) -> Error {
        match self {
            At::Line(line) => Error::Line {
                file: file.to_string(),
                line: *line,
                msg,
            },
            At::Path(p) => Error::At {
                file: file.to_string(),
                at: column.map_or(p.clone(), |c| format!("{p}.{c}")),
                msg,
            },
        }
    }
}

/// Columns that hold a count: whole numbers, not below 0.
const COUNTS: &[&str] = &["bytes", "repetitions", "group", "defects"];

/// The largest size read, 2^50 bytes (a pebibyte): no message is larger, and every size up to
/// it is a whole number a double holds exactly, so a row's size is its `u64`.
pub const MAX_BYTES: u64 = 1 << 50;

/// The largest other count (repetitions, defects, a group): 2^53, the largest whole number a
/// double holds exactly; above it "whole" means nothing.
const MAX_COUNT: f64 = 9_007_199_254_740_992.0;

/// The largest figure read, in either direction: 10^15 µs is 31 years, and no rate in MB/s or
/// messages a second comes near it. Above it a figure is no measurement, and sums of a few
/// such overflow a comparison's statistics.
const MAX_FIGURE: f64 = 1e15;

/// Columns that hold a time or a rate: never below 0 in a measurement. The white-box parts
/// (`comm`, `move`, `comp`) are differences of timings and may be.
const FIGURES: &[&str] = &[
    "t",
    "t_min",
    "t_max",
    "t_avg",
    "mbytes",
    "msg_per_s",
    "t_ovrl",
    "t_pure",
    "t_CPU",
    "total",
];

/// A number as a message shows it: `1e300`, not three hundred digits.
pub fn shown(v: f64) -> String {
    if v != 0.0 && !(1e-6..1e16).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Why `v` is no size in bytes, if it is not one: a whole number from 0 to [`MAX_BYTES`].
pub fn bad_size(v: f64) -> Option<String> {
    if v < 0.0 || v.fract() != 0.0 || !v.is_finite() {
        Some("a size is a whole number not below 0".to_string())
    } else if v > MAX_BYTES as f64 {
        Some(format!(
            "a size above 2^50 bytes (1 PiB, {MAX_BYTES}): no message is that large"
        ))
    } else {
        None
    }
}

/// Why value `v` of column `key` cannot be read, if it cannot.
fn bad_value(key: &str, v: f64) -> Option<String> {
    if !v.is_finite() {
        return Some("not a figure".to_string());
    }
    if key == "bytes" {
        return bad_size(v);
    }
    if COUNTS.contains(&key) {
        if v < 0.0 || v.fract() != 0.0 {
            return Some("a count or size is a whole number not below 0".to_string());
        }
        if v > MAX_COUNT {
            return Some("a count above 2^53: no program counts that far".to_string());
        }
    } else if v.abs() > MAX_FIGURE {
        return Some(
            "beyond 10^15 either way: no time (31 years in µs) or rate is that large".to_string(),
        );
    }
    None
}

/// Check one table; `at` holds each row's place and `names` each column's name in the file
/// (the printed title, or the JSON key). A size may come back in later rows of one table
/// (doc/ACCEPTANCE.md, "Repeated sizes"): [`merge_repeats`] makes them one.
pub fn table(file: &str, t: &Table, at: &[At], names: &[String]) -> Result<(), Error> {
    let col = |k: usize| names.get(k).map(String::as_str).unwrap_or("?");
    let bc = t.column("bytes");
    // Looked up once, not per row: a file of many rows and many notes stays linear.
    let unreliable: HashSet<Option<u64>> = t
        .flags
        .iter()
        .filter(|(_, f)| *f == Flag::Unreliable)
        .map(|(b, _)| *b)
        .collect();
    for (r, row) in t.rows.iter().enumerate() {
        let here = &at[r];
        for (k, &v) in row.iter().enumerate() {
            if let Some(why) = bad_value(t.columns[k].as_str(), v) {
                return Err(here.error(
                    file,
                    Some(col(k)),
                    format!("{} {}: {why}", col(k), shown(v)),
                ));
            }
        }
        let bytes = bc.map(|c| row[c] as u64);
        for (k, &v) in row.iter().enumerate() {
            if v < 0.0 && FIGURES.contains(&t.columns[k].as_str()) && !unreliable.contains(&bytes) {
                return Err(here.error(
                    file,
                    Some(col(k)),
                    format!(
                        "{} {}: a negative time or bandwidth, and the program did not flag the \
                         row UNRELIABLE",
                        col(k),
                        shown(v)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Flag every row whose `defects` column (with `-check`) is above 0: its data arrived wrong.
pub fn flag_defects(t: &mut Table) {
    let (Some(dc), bc) = (t.column("defects"), t.column("bytes")) else {
        return;
    };
    let mut flagged: HashSet<Option<u64>> = t
        .flags
        .iter()
        .filter(|(_, f)| *f == Flag::Defect)
        .map(|(b, _)| *b)
        .collect();
    let bad: Vec<Option<u64>> = t
        .rows
        .iter()
        .filter(|r| r[dc] > 0.0)
        .map(|r| bc.map(|c| r[c] as u64))
        .filter(|b| flagged.insert(*b))
        .collect();
    t.flags.extend(bad.into_iter().map(|b| (b, Flag::Defect)));
}

/// Make the rows that repeat a (group, size) of one table one row, each column the median of
/// theirs (the mean of the middle two for an even count), at the place of the first. A size
/// comes back when a `-msglen` file repeats it or rounds two entries to one (Allreduce's
/// multiples of 4); the launch is the unit a comparison counts, so its repeats of a size are
/// one figure of that launch, as the trend takes a launch's groups (doc/ACCEPTANCE.md,
/// "Repeated sizes"). Call after [`table`] and [`flag_defects`]: a flag on any of the rows
/// stays on the size.
pub fn merge_repeats(t: &mut Table) {
    let (bc, gc) = (t.column("bytes"), t.column("group"));
    let mut first: HashMap<(Option<u64>, Option<u64>), usize> = HashMap::new();
    let mut alike: Vec<Vec<usize>> = Vec::new();
    for (r, row) in t.rows.iter().enumerate() {
        let at = |c: Option<usize>| c.map(|c| row[c] as u64);
        let k = *first.entry((at(gc), at(bc))).or_insert(alike.len());
        if k == alike.len() {
            alike.push(Vec::new());
        }
        alike[k].push(r);
    }
    if alike.len() == t.rows.len() {
        return;
    }
    let rows = std::mem::take(&mut t.rows);
    t.rows = alike
        .into_iter()
        .map(|rs| match rs.as_slice() {
            [one] => rows[*one].clone(),
            _ => (0..rows[rs[0]].len())
                .map(|c| {
                    let mut v: Vec<f64> = rs.iter().map(|&r| rows[r][c]).collect();
                    v.sort_by(f64::total_cmp);
                    let n = v.len();
                    if n % 2 == 1 {
                        v[n / 2]
                    } else {
                        (v[n / 2 - 1] + v[n / 2]) / 2.0
                    }
                })
                .collect(),
        })
        .collect();
}

/// Add `more`'s rows and flags (a second table under `t`'s key in one launch: its benchmark
/// named twice) to `t`; [`merge_repeats`] then makes their sizes one, once every table of the
/// key has joined. The columns are the same.
pub fn join(t: &mut Table, more: Table) {
    let had: HashSet<(Option<u64>, Flag)> = t.flags.iter().copied().collect();
    t.flags
        .extend(more.flags.into_iter().filter(|f| !had.contains(f)));
    t.rows.extend(more.rows);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: Vec<Vec<f64>>) -> Table {
        Table {
            benchmark: "PingPong".into(),
            processes: Some(2),
            groups: 1,
            mode: None,
            columns: ["bytes", "repetitions", "t", "mbytes"]
                .map(String::from)
                .to_vec(),
            rows,
            line: 1,
            flags: Vec::new(),
            placement: None,
        }
    }

    fn check(t: &Table) -> Result<(), String> {
        let at: Vec<At> = (0..t.rows.len()).map(|r| At::Line(r + 2)).collect();
        let names = ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"].map(String::from);
        super::table("f.txt", t, &at, &names).map_err(|e| e.to_string())
    }

    #[test]
    fn every_class_of_bad_figure() {
        assert_eq!(check(&table(vec![vec![0.0, 1000.0, 0.2, 0.0]])), Ok(()));
        let cases = [
            (
                vec![0.0, 1000.0, f64::NAN, 0.0],
                "f.txt, line 2: t[usec] NaN: not a figure",
            ),
            (
                vec![0.0, 1000.0, f64::INFINITY, 0.0],
                "f.txt, line 2: t[usec] inf: not a figure",
            ),
            (
                vec![-4.0, 1000.0, 0.2, 0.0],
                "f.txt, line 2: #bytes -4: a size is a whole number not below 0",
            ),
            (
                vec![4.5, 1000.0, 0.2, 0.0],
                "f.txt, line 2: #bytes 4.5: a size is a whole number not below 0",
            ),
            (
                vec![4.0, -1000.0, 0.2, 0.0],
                "f.txt, line 2: #repetitions -1000: a count or size is a whole number not \
                 below 0",
            ),
            (
                vec![4.0, 1000.0, -0.2, 0.0],
                "f.txt, line 2: t[usec] -0.2: a negative time or bandwidth, and the program did \
                 not flag the row UNRELIABLE",
            ),
        ];
        for (row, want) in cases {
            assert_eq!(check(&table(vec![row])), Err(want.to_string()));
        }
        // A negative corrected latency the program flagged is legal.
        let mut t = table(vec![vec![4.0, 1000.0, -0.2, 0.0]]);
        t.flags.push((Some(4), Flag::Unreliable));
        assert_eq!(check(&t), Ok(()));
        let at = [At::Path("tables[1].rows[0]".into())];
        let names = ["bytes", "repetitions", "t_us", "mbytes_per_s"].map(String::from);
        let e = super::table(
            "r.json",
            &table(vec![vec![0.0, 1.0, f64::NAN, 0.0]]),
            &at,
            &names,
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "r.json, tables[1].rows[0].t_us: t_us NaN: not a figure"
        );
    }

    /// Round two's 1e300-byte size, and its kin: a size, a count or a figure no program
    /// printed, each refused with its column and value shown short.
    #[test]
    fn absurd_sizes_counts_and_figures() {
        let cases = [
            (
                vec![1e300, 1000.0, 0.2, 0.0],
                "#bytes 1e300: a size above 2^50 bytes (1 PiB, 1125899906842624): no message \
                 is that large",
            ),
            (
                vec![18446744073709551616.0, 1000.0, 0.2, 0.0],
                "#bytes 1.8446744073709552e19: a size above 2^50 bytes",
            ),
            (
                vec![4.0, 1e300, 0.2, 0.0],
                "#repetitions 1e300: a count above 2^53: no program counts that far",
            ),
            (
                vec![4.0, 1000.0, 1e308, 0.0],
                "t[usec] 1e308: beyond 10^15 either way: no time (31 years in µs) or rate is \
                 that large",
            ),
            (
                vec![4.0, 1000.0, 0.2, 1e16],
                "Mbytes/sec 1e16: beyond 10^15",
            ),
        ];
        for (row, want) in cases {
            let e = check(&table(vec![row])).unwrap_err();
            assert!(e.starts_with(&format!("f.txt, line 2: {want}")), "{e}");
        }
        // The largest size and figure read are legal, and -0 is 0.
        let edge = vec![(1u64 << 50) as f64, 9007199254740992.0, 1e15, -0.0];
        assert_eq!(check(&table(vec![edge])), Ok(()));
    }

    /// A size printed again later in a table is one row of the medians, in the place of its
    /// first; other rows keep theirs (doc/ACCEPTANCE.md, "Repeated sizes").
    #[test]
    fn repeated_sizes_merge_into_their_medians() {
        let mut t = table(vec![
            vec![4.0, 1000.0, 0.2, 1.0],
            vec![8.0, 1000.0, 0.3, 2.0],
            vec![4.0, 500.0, 0.6, 3.0],
            vec![4.0, 800.0, 0.4, 5.0],
            vec![8.0, 1000.0, 0.5, 4.0],
        ]);
        assert_eq!(check(&t), Ok(()));
        merge_repeats(&mut t);
        assert_eq!(
            t.rows,
            [vec![4.0, 800.0, 0.4, 3.0], vec![8.0, 1000.0, 0.4, 3.0]]
        );
        // Under -multi 1 a size repeats once a group: those rows stay apart.
        let mut g = table(vec![vec![0.0, 4.0, 1.0, 0.2], vec![1.0, 4.0, 1.0, 0.3]]);
        g.columns = ["group", "bytes", "repetitions", "t"]
            .map(String::from)
            .to_vec();
        let before = g.rows.clone();
        merge_repeats(&mut g);
        assert_eq!(g.rows, before);
    }

    #[test]
    fn defects_flag_their_rows() {
        let mut t = table(vec![
            vec![4.0, 10.0, 0.2, 0.0, 0.0],
            vec![8.0, 10.0, 0.2, 0.0, 3.0],
        ]);
        t.columns.push("defects".into());
        flag_defects(&mut t);
        assert_eq!(t.flags, [(Some(8), Flag::Defect)]);
    }
}
