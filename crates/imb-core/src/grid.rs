//! Tables with arbitrary columns, for the suites whose rows are not IMB's (imb-threads,
//! imb-omp): IMB's look (`#` banner rule, right-aligned 13-character columns, no trailing
//! blank) with columns as wide as their longest cell, so whitespace-splitting parsers work.

/// The column titles line and one line per row; every cell right-aligned in a column at least
/// 13 characters wide (wider when a title or cell needs it, plus one separating blank).
pub fn grid_text(titles: &[&str], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = titles
        .iter()
        .enumerate()
        .map(|(c, t)| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.len() + 1)
                .chain([t.len() + 1, 13])
                .max()
                .unwrap_or(13)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s: String = cells
            .zip(&widths)
            .map(|(c, &w)| format!("{c:>w$}"))
            .collect();
        s.push('\n');
        s
    };
    let mut out = line(&mut titles.iter().copied());
    for r in rows {
        out.push_str(&line(&mut r.iter().map(String::as_str)));
    }
    out
}

/// The first lines of the header of a suite without MPI (imb-threads, imb-omp): IMB's title
/// block with this project's name and `part` padded to 14 columns, the date and the `uname`
/// fields. The suite appends its own lines.
pub fn suite_head(version: &str, part: &str) -> String {
    let rule = format!("#{}", "-".repeat(51));
    let (machine, system, release, uversion) = crate::sysinfo::uname();
    format!(
        "{rule}\n#    imb-rs {version}, {part:<14}\n{rule}\n\
# Date                  : {}\n\
# Machine               : {machine}\n\
# System                : {system}\n\
# Release               : {release}\n\
# Version               : {uversion}\n",
        crate::sysinfo::date()
    )
}

/// The rule above and below a banner: `#` and dashes as wide as the titles line.
pub fn grid_rule(titles: &[&str], rows: &[Vec<String>]) -> String {
    let width = grid_text(titles, rows).lines().next().map_or(0, str::len);
    format!("#{}", "-".repeat(width.saturating_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_their_cells() {
        let rows = vec![
            vec!["same".to_string(), "0.123".into()],
            vec!["a-very-long-binding".to_string(), "12.5".into()],
        ];
        let t = grid_text(&["binding", "t[usec]"], &rows);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], format!("{:>20}{:>13}", "binding", "t[usec]"));
        assert_eq!(
            lines[2],
            format!("{:>20}{:>13}", "a-very-long-binding", "12.5")
        );
        assert!(lines.iter().all(|l| !l.ends_with(' ')));
        assert_eq!(grid_rule(&["binding", "t[usec]"], &rows).len(), 33);
    }
}
