//! The IMB layouts (ours, IMB 3.0's, IMB 2021's): header lines, benchmark banners, table
//! headers, notes after a table, the closing line, and the conditions the header gives.

use super::{column_key, note_flag, Pending, Reader};
use crate::read::header;

/// IMB 2021 (title "Intel(R) MPI Benchmarks 2021.…") counts a megabyte as 10^6 bytes, IMB 3.0
/// and imb-rs as 2^20 (doc/METHODOLOGY.md, "From per-rank times to a row"): its Mbytes/sec are
/// converted on reading so that ratios compare like with like.
pub(super) fn decimal_megabytes(title: &str) -> bool {
    title
        .split_once("MPI Benchmarks ")
        .and_then(|(_, v)| v.get(..4)?.parse::<u32>().ok())
        .is_some_and(|year| year >= 2021)
}

/// The program and its version from a banner title: "imb-rs 0.1.0", "IMB 3.0", "IMB 2021.11",
/// "IMB 2019 Update 6"; `None` for a title we do not know.
pub(super) fn program(title: &str) -> Option<String> {
    let name = title.split(',').next().unwrap_or("").trim();
    if let Some(v) = name.strip_prefix("imb-rs ") {
        return Some(format!("imb-rs {}", v.trim()));
    }
    if let Some((_, v)) = name.split_once("Benchmark Suite V") {
        return Some(format!("IMB {}", v.trim()));
    }
    if let Some((_, v)) = name.split_once("MPI Benchmarks ") {
        return Some(format!("IMB {}", v.trim()));
    }
    None
}

/// IMB 2018 and later, and imb-rs, end a complete run with `# All processes entering
/// MPI_Finalize`; IMB 3.x prints no closing line, nor does IMB 2021's IMB-MT (its C++ driver
/// ends on an empty line).
pub(super) fn has_closing_line(title: &str) -> bool {
    title.starts_with("imb-rs") || (title.contains("MPI Benchmarks ") && !imb_mt(title))
}

/// IMB 2021's IMB-MT ("Intel(R) MPI Benchmarks 2021.11, MT part").
fn imb_mt(title: &str) -> bool {
    title.contains("MPI Benchmarks ") && header::suite(title).as_deref() == Some("MT")
}

/// IMB 2021's IMB-P2P ("Intel(R) MPI Benchmarks 2021.11, IMB-P2P part").
fn imb_p2p(title: &str) -> bool {
    title.contains("MPI Benchmarks ") && header::suite(title).as_deref() == Some("P2P")
}

/// The benchmark a banner names: IMB-P2P's stencils add their grid, `Stencil2D (3 x 2)`,
/// which the process count already fixes.
fn banner_name(name: &str) -> &str {
    let name = name.trim();
    match name.rsplit_once(" (") {
        Some((bench, grid))
            if grid.ends_with(')')
                && grid
                    .trim_end_matches(')')
                    .split(" x ")
                    .all(|side| !side.is_empty() && side.bytes().all(|b| b.is_ascii_digit())) =>
        {
            bench.trim_end()
        }
        _ => name,
    }
}

/// The value after "LABEL:" on a header line.
fn after_colon(line: &str) -> &str {
    line.split_once(':').map_or("", |(_, v)| v.trim())
}

/// IMB 2021 prints an empty "MPI Thread Environment"; its level is then the one its command
/// line asked for (`-thread_level`), MPI_THREAD_SINGLE by default.
fn level_from_command(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    let asked = words
        .iter()
        .position(|w| *w == "-thread_level")
        .and_then(|k| words.get(k + 1))
        .copied()
        .unwrap_or("single");
    format!("MPI_THREAD_{}", asked.to_uppercase())
}

/// The number a script's line starts `v` with, checked: none for a word that is no number (a
/// "?" where the probe could not run), else a finite `what` from 0 to `max`.
fn script_figure(v: &str, what: &str, max: f64) -> Result<Option<f64>, String> {
    let Some(x) = v
        .split_whitespace()
        .next()
        .and_then(|w| w.parse::<f64>().ok())
    else {
        return Ok(None);
    };
    if x.is_finite() && (0.0..=max).contains(&x) {
        Ok(Some(x))
    } else {
        Err(format!(
            "{what} {}: not one a probe measured (from 0 to {})",
            crate::read::check::shown(x),
            crate::read::check::shown(max)
        ))
    }
}

/// "36 ns before, 170 ns after" (a "?" where the probe could not run gives None).
fn core_to_core(v: &str) -> Result<Option<(f64, f64)>, String> {
    let Some((before, after)) = v.split_once(',') else {
        return Ok(None);
    };
    // A second between two cores is beyond any machine's latency.
    let ns = |s: &str| script_figure(s, "core-to-core latency", 1e9);
    Ok(ns(before)?.zip(ns(after)?))
}

impl Reader<'_> {
    /// IMB 2021 prints its command line on the first `#` line after "Calling sequence was".
    pub(super) fn command_line(&mut self, trimmed: &str) -> bool {
        if self.want_command && trimmed.starts_with('#') && trimmed.len() > 1 {
            self.command = Some(trimmed.trim_start_matches('#').trim().to_string());
            self.want_command = false;
            return true;
        }
        false
    }

    /// The banner title at the top of the file ("imb-rs 0.1.0, MPI-1 part"); the first one
    /// wins.
    pub(super) fn title_line(&mut self, trimmed: &str) -> bool {
        if self.run.title.is_empty()
            && (trimmed.contains("MPI Benchmark") || trimmed.starts_with("#    imb-rs"))
        {
            self.run.title = trimmed
                .trim_start_matches('#')
                .trim()
                .trim_end_matches('-')
                .trim()
                .to_string();
            return true;
        }
        false
    }

    /// The header's `LABEL : value` fields that state the launch's conditions and date.
    pub(super) fn header_field(&mut self, trimmed: &str) -> bool {
        if trimmed.starts_with("# MPI Thread Environment") {
            let v = after_colon(trimmed);
            if v.is_empty() {
                self.env_empty = true;
            } else {
                self.run.conditions.thread_level = Some(v.to_string());
            }
            return true;
        }
        if trimmed.starts_with("# Date ") && self.run.identity.date.is_none() {
            self.run.identity.date = Some(after_colon(trimmed).to_string());
            return true;
        }
        if trimmed.starts_with("# MPI Version ") {
            self.run.conditions.mpi_standard = Some(after_colon(trimmed).to_string());
            return true;
        }
        if trimmed.starts_with("# Calling sequence was") {
            self.want_command = true;
            return true;
        }
        false
    }

    /// imb-rs's lines about the launch as a whole: its wall time and the core-to-core probe.
    pub(super) fn launch_line(&mut self, trimmed: &str) -> Result<bool, String> {
        if let Some(v) = trimmed.strip_prefix("# launch wall time:") {
            // A year: no launch the script times runs longer.
            self.run.wall_secs = script_figure(v, "launch wall time", 3.2e7)?;
            return Ok(true);
        }
        if let Some(v) = trimmed.strip_prefix("# core-to-core latency:") {
            self.run.core_to_core = core_to_core(v)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `# !!` warnings: oversubscription, and the block that lists an optional mode's
    /// parameters.
    pub(super) fn warning_line(&mut self, trimmed: &str) -> bool {
        if trimmed.starts_with("# !!") && trimmed.contains("(oversubscribed)") {
            self.run.oversubscribed = Some(trimmed.trim_start_matches("# !!").trim().to_string());
            return true;
        }
        // The method block (`Measured as IMB 2021 measures …`) and the optional-mode block
        // both say how a size was measured.
        let opens = trimmed.contains("OPTIONAL") || trimmed.contains("# !! Measured ");
        if trimmed.starts_with("# !!") && (self.in_optional || opens) {
            self.in_optional = true;
            self.optional
                .push(trimmed.trim_start_matches("# !!").to_string());
            return true;
        }
        false
    }

    /// A note after a table that flags one of its sizes (or the whole table).
    pub(super) fn note_line(&mut self, trimmed: &str) -> bool {
        if let Some(flag) = note_flag(trimmed).filter(|_| trimmed.starts_with("# ")) {
            if let Some(t) = self.done.last_mut() {
                t.table.flags.push(flag);
            }
            return true;
        }
        false
    }

    /// The line that ends a complete run.
    pub(super) fn closing_line(&mut self, trimmed: &str) -> bool {
        if trimmed.starts_with("# All processes entering MPI_Finalize") {
            self.finished = true;
            return true;
        }
        false
    }

    /// `# Benchmarking NAME` on line `no`: a banner, its table's header still to come.
    pub(super) fn banner(&mut self, no: usize, trimmed: &str) -> bool {
        if let Some(name) = trimmed.strip_prefix("# Benchmarking ") {
            self.pending = Some(Pending::new(banner_name(name).to_string(), no));
            return true;
        }
        false
    }

    /// The conditions the header leaves open until every line is read: the program, the
    /// thread level of a header that printed none, and the parameters.
    pub(super) fn settle_conditions(&mut self, title: &str) {
        let c = &mut self.run.conditions;
        if c.program.is_none() {
            c.program = program(title);
        }
        if c.thread_level.is_none() && self.env_empty {
            c.thread_level = Some(level_from_command(self.command.as_deref().unwrap_or("")));
        }
        if !self.threads.is_empty() {
            let t: Vec<String> = self.threads.iter().map(usize::to_string).collect();
            c.threads = Some(t.join(" / "));
        }
        // IMB-MT prints no thread level; it runs threads only under -thread_level multiple
        // (one thread otherwise, which leaves the level unknown).
        if c.thread_level.is_none() && imb_mt(title) && self.threads.iter().any(|&t| t > 1) {
            c.thread_level = Some("MPI_THREAD_MULTIPLE".to_string());
        }
        c.parameters = if title.starts_with("imb-rs") {
            Some(header::optional_parameters(
                self.optional.iter().map(String::as_str),
            ))
        } else if let (Some(cmd), true) = (&self.command, imb_p2p(title)) {
            Some(header::imb2021_p2p_options(cmd))
        } else if let Some(cmd) = &self.command {
            let io = header::suite(title).as_deref() == Some("MPI-IO");
            Some(header::imb2021_options_with(
                cmd,
                if io {
                    &header::IMB2021_IO_COUNTS
                } else {
                    &header::IMB2021_COUNTS
                },
            ))
        } else if title.contains("Benchmark Suite V") && self.optional.is_empty() {
            // IMB 3.0 runs in standard mode unless built with -DIMB_OPTIONAL, which says so
            // (without the values).
            Some(Default::default())
        } else {
            None
        };
    }
}

/// An IMB table header (`#bytes #repetitions t[usec] …`, no `# ` before it): the column
/// titles as printed and their keys.
pub(super) fn table_header(trimmed: &str) -> Option<(Vec<String>, Vec<String>)> {
    if !trimmed.contains("#repetitions") || trimmed.starts_with("# ") {
        return None;
    }
    let titles: Vec<String> = trimmed.split_whitespace().map(String::from).collect();
    let columns = titles.iter().map(|c| column_key(c)).collect();
    Some((titles, columns))
}
