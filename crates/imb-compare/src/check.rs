//! The checks every table passes after reading, text or `-json` alike: a figure is a finite
//! number, a size or a count a whole number not below 0, a time or a bandwidth not negative
//! (unless the program itself flagged the row UNRELIABLE: a Sphinx correction may go below
//! zero), and no size twice in one table. A file that fails is not evidence of anything, so
//! it is an input error naming the line (or the JSON path), never a row skipped or merged.

use crate::error::Error;
use crate::run::{Flag, Table};

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

/// Check one table; `at` holds each row's place and `names` each column's name in the file
/// (the printed title, or the JSON key).
pub fn table(file: &str, t: &Table, at: &[At], names: &[String]) -> Result<(), Error> {
    let col = |k: usize| names.get(k).map(String::as_str).unwrap_or("?");
    let (bc, gc) = (t.column("bytes"), t.column("group"));
    let mut seen: Vec<(Option<u64>, Option<u64>, usize)> = Vec::new();
    for (r, row) in t.rows.iter().enumerate() {
        let here = &at[r];
        for (k, &v) in row.iter().enumerate() {
            let key = t.columns[k].as_str();
            if !v.is_finite() {
                return Err(here.error(
                    file,
                    Some(col(k)),
                    format!("{} {v}: not a figure", col(k)),
                ));
            }
            if COUNTS.contains(&key) && (v < 0.0 || v.fract() != 0.0) {
                return Err(here.error(
                    file,
                    Some(col(k)),
                    format!(
                        "{} {v}: a count or size is a whole number not below 0",
                        col(k)
                    ),
                ));
            }
        }
        let size = |c: Option<usize>| c.map(|c| row[c] as u64);
        let (bytes, group) = (size(bc), size(gc));
        for (k, &v) in row.iter().enumerate() {
            if v < 0.0
                && FIGURES.contains(&t.columns[k].as_str())
                && !t.flags_at(bytes).any(|f| f == Flag::Unreliable)
            {
                return Err(here.error(
                    file,
                    Some(col(k)),
                    format!(
                        "{} {v}: a negative time or bandwidth, and the program did not flag the \
                         row UNRELIABLE",
                        col(k)
                    ),
                ));
            }
        }
        if let Some(&(.., first)) = seen.iter().find(|s| s.0 == group && s.1 == bytes) {
            let what = bytes.map_or("the sizeless row".to_string(), |b| format!("size {b}"));
            let first = match &at[first] {
                At::Line(l) => format!("line {l}"),
                At::Path(p) => p.clone(),
            };
            return Err(here.error(
                file,
                None,
                format!(
                    "{what} a second time in this table (first at {first}): a comparison needs \
                     one figure per size"
                ),
            ));
        }
        seen.push((group, bytes, r));
    }
    Ok(())
}

/// Flag every row whose `defects` column (with `-check`) is above 0: its data arrived wrong.
pub fn flag_defects(t: &mut Table) {
    let (Some(dc), bc) = (t.column("defects"), t.column("bytes")) else {
        return;
    };
    let bad: Vec<Option<u64>> = t
        .rows
        .iter()
        .filter(|r| r[dc] > 0.0)
        .map(|r| bc.map(|c| r[c] as u64))
        .collect();
    for b in bad {
        if !t.flags.contains(&(b, Flag::Defect)) {
            t.flags.push((b, Flag::Defect));
        }
    }
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
                "f.txt, line 2: #bytes -4: a count or size is a whole number not below 0",
            ),
            (
                vec![4.5, 1000.0, 0.2, 0.0],
                "f.txt, line 2: #bytes 4.5: a count or size is a whole number not below 0",
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
        let dup = table(vec![
            vec![4.0, 1000.0, 0.2, 0.0],
            vec![4.0, 1000.0, 0.3, 0.0],
        ]);
        assert_eq!(
            check(&dup),
            Err(
                "f.txt, line 3: size 4 a second time in this table (first at line 2): a \
                 comparison needs one figure per size"
                    .to_string()
            )
        );
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
