//! `store list` and `store show` in words: one line a run, and one run's launches and files.

use super::catalog::RunInfo;
use super::db::Store;
use crate::error::Error;

/// A time the store keeps, as shown: the store keeps UTC with a `Z` (a `-json` file's start,
/// when a run was added or accepted) and a text file's `Date` line as it was written, the local
/// time of the machine that ran it, whose zone IMB's text does not record. Both say which
/// they are: `2026-11-25 16:06:32 UTC`, `2026-11-21 10:05:42 local`.
pub fn shown_time(t: &str) -> String {
    match t.strip_suffix('Z') {
        Some(utc) => format!("{} UTC", utc.replacen('T', " ", 1)),
        None => format!("{} local", t.replacen('T', " ", 1)),
    }
}

/// The library's name and version without the build details after its first comma.
fn short_mpi(m: &str) -> &str {
    m.split(',').next().unwrap_or(m).trim()
}

/// `store list`: one line a run.
pub fn list_text(db: &str, runs: &[RunInfo]) -> String {
    let systems: std::collections::BTreeSet<&str> =
        runs.iter().map(|r| r.system.as_str()).collect();
    let mut out = format!(
        "# results store {}: {} run(s) of {} system(s)\n",
        imb_core::error::plain(db),
        runs.len(),
        systems.len()
    );
    if runs.is_empty() {
        return out;
    }
    let unknown = |v: &[String], f: fn(&str) -> &str| {
        if v.is_empty() {
            "unknown".to_string()
        } else {
            v.iter().map(|x| f(x)).collect::<Vec<_>>().join(" / ")
        }
    };
    let mut rows: Vec<Vec<String>> = vec![[
        "run", "date", "system", "label", "launches", "program", "MPI", "hosts", "tables", "tags",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()];
    for r in runs {
        let tables = if r.tables.len() > 3 {
            format!("{}, +{}", r.tables[..3].join(", "), r.tables.len() - 3)
        } else {
            r.tables.join(", ")
        };
        let mut tags = r.tags.join(",");
        if r.accepted {
            tags.push_str(if tags.is_empty() {
                "[accepted]"
            } else {
                " [accepted]"
            });
        }
        let launches = if r.cut_short > 0 {
            format!("{} ({} cut short)", r.launches, r.cut_short)
        } else {
            r.launches.to_string()
        };
        rows.push(vec![
            r.id.to_string(),
            shown_time(r.date()),
            r.system.clone(),
            r.label.clone().unwrap_or_else(|| "-".into()),
            launches,
            unknown(&r.programs, |x| x),
            unknown(&r.mpis, short_mpi),
            if r.hosts.is_empty() {
                "unknown".into()
            } else {
                r.hosts.join(",")
            },
            tables,
            tags,
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c == 0 {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str("  ");
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(&imb_core::error::plain(line.trim_end()));
        out.push('\n');
    }
    out
}

impl Store {
    /// `store show`: a run, launch by launch, with its files.
    pub fn show_text(&self, id: i64) -> Result<String, Error> {
        let r = self.run(id)?;
        let e = |x| self.err(x);
        let mut out = format!("{}\n", r.name());
        out.push_str(&format!("  system: {}\n", r.system));
        out.push_str(&format!("  label: {}\n", r.label.as_deref().unwrap_or("-")));
        out.push_str(&format!(
            "  tags: {}\n",
            if r.tags.is_empty() {
                "-".to_string()
            } else {
                r.tags.join(", ")
            }
        ));
        out.push_str(&format!(
            "  added: {} from {}\n",
            shown_time(&r.added),
            r.source
        ));
        if r.accepted {
            out.push_str(&format!("  the accepted baseline of {}\n", r.system));
        }
        let mut q = self
            .conn
            .prepare(
                "SELECT id, started, title, program, mpi, hosts, status, tables FROM launches \
                 WHERE run = ?1 ORDER BY started, id",
            )
            .map_err(e)?;
        type Row = (
            i64,
            Option<String>,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            String,
            String,
        );
        let launches: Vec<Row> = q
            .query_map([id], |x| {
                Ok((
                    x.get(0)?,
                    x.get(1)?,
                    x.get(2)?,
                    x.get(3)?,
                    x.get(4)?,
                    x.get(5)?,
                    x.get(6)?,
                    x.get(7)?,
                ))
            })
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)?;
        let mut fq = self
            .conn
            .prepare(
                "SELECT name, json, length(CAST(text AS BLOB)), sha256 FROM files \
                 WHERE launch = ?1 ORDER BY json DESC, id",
            )
            .map_err(e)?;
        let unknown = |x: &Option<String>| x.clone().unwrap_or_else(|| "unknown".into());
        for (k, (lid, started, title, program, mpi, hosts, status, tables)) in
            launches.iter().enumerate()
        {
            out.push_str(&format!(
                "launch {}: started {}, {status}\n",
                k + 1,
                started.as_deref().map_or("unknown".to_string(), shown_time)
            ));
            out.push_str(&format!("  title: {title}\n"));
            out.push_str(&format!("  program: {}\n", unknown(program)));
            out.push_str(&format!("  MPI library: {}\n", unknown(mpi)));
            out.push_str(&format!("  hosts: {}\n", unknown(hosts)));
            out.push_str(&format!("  tables: {tables}\n"));
            let files: Vec<(String, bool, i64, String)> = fq
                .query_map([lid], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?)))
                .map_err(e)?
                .collect::<Result<_, _>>()
                .map_err(e)?;
            for (name, json, size, sha) in files {
                out.push_str(&format!(
                    "  file {name}: {}, {size} bytes, sha256 {sha}\n",
                    if json { "-json" } else { "text" }
                ));
            }
        }
        // Labels and tags hold no line breaks (store add refuses them): line by line is safe.
        Ok(out
            .lines()
            .map(|l| format!("{}\n", imb_core::error::plain(l)))
            .collect())
    }
}
