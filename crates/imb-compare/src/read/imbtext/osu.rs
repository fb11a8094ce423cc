//! OSU 7.x's layout: a title line per test, then a `#` header whose column titles are two or
//! more spaces apart.

use super::{Pending, Reader};

impl Reader<'_> {
    /// `# OSU MPI … Test v7.4` on line `no`: the file is OSU's, and this test's table follows.
    pub(super) fn osu_title(&mut self, no: usize, trimmed: &str) -> bool {
        if trimmed.starts_with("# OSU MPI") {
            self.osu = true;
            self.run.title = "OSU".to_string();
            self.run.conditions.program = Some(program(trimmed));
            self.pending = Some(Pending::new(benchmark(trimmed), no));
            return true;
        }
        false
    }
}

/// An OSU table header (`# Size       Avg Latency(us)`): the column titles as printed and
/// their keys.
pub(super) fn table_header(trimmed: &str, benchmark: &str) -> Option<(Vec<String>, Vec<String>)> {
    let titles: Vec<String> = trimmed
        .strip_prefix('#')
        .filter(|h| h.contains("Size") || h.contains("Latency"))
        .map(|h| {
            h.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from)
                .collect()
        })?;
    let latency_is_t = benchmark == "PingPong";
    let columns = titles.iter().map(|c| column_key(c, latency_is_t)).collect();
    Some((titles, columns))
}

/// An OSU column title (several words, separated from the next by two or more spaces).
fn column_key(title: &str, latency_is_t: bool) -> String {
    let t = title.trim();
    if t == "Size" {
        return "bytes".to_string();
    }
    if t == "Iterations" {
        return "repetitions".to_string();
    }
    if t.starts_with("Min Latency") {
        return "t_min".to_string();
    }
    if t.starts_with("Max Latency") {
        return "t_max".to_string();
    }
    if t.contains("Latency") {
        // osu_latency's one-way latency is IMB PingPong's t; a collective's average over
        // ranks is IMB's t_avg.
        return if latency_is_t { "t" } else { "t_avg" }.to_string();
    }
    if t.starts_with("Bandwidth") || t.starts_with("MB/s") {
        return "mbytes".to_string();
    }
    t.to_lowercase().replace(' ', "_")
}

/// The IMB benchmark an OSU test measures, from its title line ("# OSU MPI Allreduce Latency
/// Test v7.4" → Allreduce; plain "Latency Test" is PingPong's pattern).
pub(super) fn benchmark(title: &str) -> String {
    let rest = title.trim_start_matches('#').trim();
    let rest = rest.strip_prefix("OSU MPI").unwrap_or(rest).trim();
    let rest = format!(" {rest}");
    let name = rest.split(" Latency Test").next().unwrap_or(&rest).trim();
    let name = name.split(" Test").next().unwrap_or(name).trim();
    match name {
        "" => "PingPong".to_string(),
        "Broadcast" => "Bcast".to_string(),
        n if n.starts_with("All-to-All") || n.starts_with("Alltoall") => "Alltoall".to_string(),
        n => n.to_string(),
    }
}

/// "OSU 7.4" from an OSU test's title line ("… Test v7.4").
pub(super) fn program(title: &str) -> String {
    match title
        .split_whitespace()
        .last()
        .and_then(|w| w.strip_prefix('v'))
    {
        Some(v) if v.starts_with(|c: char| c.is_ascii_digit()) => format!("OSU {v}"),
        _ => "OSU".to_string(),
    }
}
