//! An IMB banner's lines between `# Benchmarking NAME` and its table's column titles: the
//! process block (doc/OUTPUT.md, "Process block": the process count, a `-map` grid's rank
//! order, a Multi- table's groups, the idle ranks), the MT suite's lines and the MODE lines.
//! These lines key the table (processes, groups, mode), so a line here that the reader does
//! not know, or a block that contradicts itself, is an input error: read loosely, tables of
//! two process counts would share one key and merge.

use super::{Pending, Ranks};

/// The whole number that starts `s`, and the rest of `s`.
fn leading_number(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// A rank list's line: `#` then world ranks (` %4d` each). IMB elides long lists with `.` and
/// `...`; `None` for any other line. `Some((count, elided))`.
fn rank_line(trimmed: &str) -> Option<(usize, bool)> {
    let words: Vec<&str> = trimmed.strip_prefix('#')?.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    let mut count = 0;
    let mut elided = false;
    for w in words {
        match w {
            "." | "..." => elided = true,
            w if w.bytes().all(|b| b.is_ascii_digit()) => count += 1,
            _ => return None,
        }
    }
    Some((count, elided))
}

impl Pending {
    /// One line of the banner: true when it is one of the banner's, false for a line that is
    /// not (the column titles, a launcher's message), the reason when it is a banner line that
    /// cannot be placed.
    pub(super) fn detail(&mut self, trimmed: &str) -> Result<bool, String> {
        if !trimmed.starts_with('#') {
            return Ok(false);
        }
        // Rules, the bare `#` lines that end a rank list's row and frame the MODE line.
        if trimmed[1..].bytes().all(|b| b == b'-') {
            return Ok(true);
        }
        if let Some(v) = trimmed.strip_prefix("# #processes = ") {
            return self.process_count(v).map(|()| true);
        }
        if let Some(v) = trimmed.strip_prefix("# ( ") {
            return self.parenthesis(v).map(|()| true);
        }
        if let Some(v) = trimmed.strip_prefix("# Group ") {
            return self.group(v).map(|()| true);
        }
        if let Some((count, elided)) = rank_line(trimmed) {
            return self.ranks_listed(count, elided).map(|()| true);
        }
        // The MT suite's windowed benchmarks (UniBandMT, BiBandMT) print their -window_size.
        if let Some(v) = trimmed.strip_prefix("# window_size = ") {
            return match leading_number(v.trim()) {
                Some((_, "")) => Ok(true),
                _ => Err(format!("{trimmed:?}: a window size is a whole number")),
            };
        }
        if let Some(v) = trimmed.strip_prefix("#    MODE:") {
            let mode = v.trim();
            if !matches!(mode, "AGGREGATE" | "NON-AGGREGATE") {
                return Err(format!(
                    "MODE {mode:?}: a mode is AGGREGATE or NON-AGGREGATE"
                ));
            }
            if self.mode.is_some() {
                return Err(self.twice("MODE line"));
            }
            self.mode = Some(mode.to_string());
            return Ok(true);
        }
        if table_titles(trimmed) {
            return Ok(false);
        }
        Err(format!(
            "{trimmed:?} in the banner of {} (line {}): not a line of a process block, so \
             the table's processes, groups or mode cannot be told",
            self.benchmark, self.line
        ))
    }

    fn twice(&self, what: &str) -> String {
        format!(
            "a second {what} in the banner of {} (line {})",
            self.benchmark, self.line
        )
    }

    /// `N`, `N; rank order (rowwise):` (a `-map` grid's rows follow) or the MT suite's
    /// `N (threads: T)`.
    fn process_count(&mut self, v: &str) -> Result<(), String> {
        if self.processes.is_some() {
            return Err(self.twice("process count"));
        }
        let bad = || format!("\"#processes = {v}\": not a process count this reader knows");
        let (n, rest) = leading_number(v).ok_or_else(bad)?;
        let rest = rest.trim();
        if rest == "; rank order (rowwise):" {
            self.ranks = Ranks::Rowwise(0);
        } else if let Some(t) = rest.strip_prefix("(threads:") {
            let t = t.strip_suffix(')').ok_or_else(bad)?.trim();
            let t = t.parse().map_err(|_| bad())?;
            self.threads =
                Some(mpi_count("threads", t).map_err(|why| format!("{}: {why}", bad()))?);
        } else if !rest.is_empty() {
            return Err(bad());
        }
        self.processes =
            Some(mpi_count("processes", n).map_err(|why| format!("{}: {why}", bad()))?);
        Ok(())
    }

    /// `( G groups of N processes each running simultaneous )` or `( K additional process(es)
    /// waiting in MPI_Barrier)`.
    fn parenthesis(&mut self, v: &str) -> Result<(), String> {
        let w: Vec<&str> = v.split_whitespace().collect();
        let number = |k: usize| w.get(k).and_then(|n| n.parse::<usize>().ok());
        match (number(0), w.get(1..).unwrap_or_default()) {
            (Some(g), ["groups", "of", n, "processes", "each", "running", "simultaneous", ")"]) => {
                if self.processes.is_some() {
                    return Err(self.twice("process count"));
                }
                let n = n
                    .parse()
                    .map_err(|_| format!("\"( {v}\": {n:?} is no process count"))?;
                let what = |why: String| format!("\"( {v}\": {why}");
                let g = mpi_count("groups", g).map_err(what)?;
                let n = mpi_count("processes", n).map_err(what)?;
                self.groups = g;
                self.processes = Some(n);
                self.ranks = Ranks::Groups(Vec::new());
                Ok(())
            }
            (Some(_), ["additional", "process" | "processes", "waiting", "in", "MPI_Barrier)"]) => {
                Ok(())
            }
            _ => Err(format!(
                "\"# ( {v}\": neither the groups of a Multi- table nor the processes waiting \
                 in MPI_Barrier"
            )),
        }
    }

    /// `Group  g:` and its first ranks: group `g` of the groups line.
    fn group(&mut self, v: &str) -> Result<(), String> {
        let bad = || format!("\"# Group {v}\": not a group of this banner");
        let (g, ranks) = v.trim_start().split_once(':').ok_or_else(bad)?;
        let g: usize = g.parse().map_err(|_| bad())?;
        let Ranks::Groups(listed) = &mut self.ranks else {
            return Err(format!(
                "\"# Group {v}\" in the banner of {} (line {}) with no \"( G groups of N \
                 processes …)\" line before it",
                self.benchmark, self.line
            ));
        };
        if g != listed.len() {
            return Err(format!(
                "group {g} listed where group {} comes (groups are numbered from 0 in banner \
                 order)",
                listed.len()
            ));
        }
        listed.push(0);
        match rank_line(&format!("#{ranks}")) {
            Some((count, elided)) => self.ranks_listed(count, elided),
            None if ranks.trim().is_empty() => Ok(()),
            None => Err(bad()),
        }
    }

    /// A line of world ranks: the next row of a `-map` grid, or more of the current group.
    fn ranks_listed(&mut self, count: usize, elided: bool) -> Result<(), String> {
        let listed = match &mut self.ranks {
            Ranks::Rowwise(n) => n,
            Ranks::Groups(g) if !g.is_empty() => g.last_mut().expect("a group"),
            _ => {
                return Err(format!(
                    "ranks listed in the banner of {} (line {}) with no rank order or group \
                     before them",
                    self.benchmark, self.line
                ))
            }
        };
        // Elided lists cannot be counted; usize::MAX marks one as such.
        *listed = if elided {
            usize::MAX
        } else {
            listed.saturating_add(count)
        };
        Ok(())
    }

    /// The banner's key is whole and agrees with its rank lists; checked when its column
    /// titles open the table.
    pub(super) fn complete(&self) -> Result<(), String> {
        let what = format!("the banner of {} (line {})", self.benchmark, self.line);
        let Some(n) = self.processes else {
            return Err(format!(
                "{what} gives no process count (# #processes = N, or the groups of a Multi- table)"
            ));
        };
        let counted = |k: usize| k == n || k == usize::MAX;
        match &self.ranks {
            Ranks::None => Ok(()),
            Ranks::Rowwise(k) if counted(*k) => Ok(()),
            Ranks::Rowwise(k) => Err(format!("{what} lists {k} ranks for {n} processes")),
            Ranks::Groups(g) if g.len() != self.groups => Err(format!(
                "{what} lists {} groups for {}",
                g.len(),
                self.groups
            )),
            Ranks::Groups(g) => match g.iter().position(|k| !counted(*k)) {
                None => Ok(()),
                Some(i) => Err(format!(
                    "{what} lists {} ranks in group {i} for {n} processes a group",
                    g[i]
                )),
            },
        }
    }
}

/// Whether a `#` line holds column titles (a sizeless table's `#repetitions …` starts with
/// `#`; IMB's title lines do not have `# ` before them).
fn table_titles(trimmed: &str) -> bool {
    super::imb::table_header(trimmed).is_some()
}

/// `n` as a count of processes, groups or threads: at least 1, and at most what an MPI `int`
/// counts (a communicator's size is one).
fn mpi_count(what: &str, n: usize) -> Result<usize, String> {
    if n == 0 {
        Err(format!("0 {what}: a table runs on at least 1"))
    } else if n > i32::MAX as usize {
        Err(format!(
            "{n} {what}: more than an MPI int counts ({})",
            i32::MAX
        ))
    } else {
        Ok(n)
    }
}
