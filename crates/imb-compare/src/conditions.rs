//! What defines a result, and whether two runs share it (doc/ACCEPTANCE.md, "Comparable
//! runs"). Two figures of one benchmark and size compare only when the program, the MPI
//! library, the thread level, the parameters that set the repetitions and the timing method,
//! where the table's ranks ran, how the job's ranks sat on its hosts and how they were bound to
//! CPUs are the same; each is a [`Kind`]. A comparison prints every difference above the
//! tables it affects, and a criterion judged across one fails unless the user accepts that
//! kind by name (`--accept-difference`). What a file does not record (text has no hosts) is
//! said once, never taken as equal or as different.

use crate::agree::TableKey;
use crate::run::Run;
use crate::sides::Side;
use std::collections::BTreeMap;

/// One kind of result-defining condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// In the order a report lists differences: the ones that move small-message times most
/// (and are easiest to overlook) first.
pub enum Kind {
    /// The granted MPI thread level.
    ThreadLevel,
    /// The threads each process ran the benchmark on (IMB-MT's `(threads: T)`).
    Threads,
    /// How the ranks were bound to CPUs: a rank on one CPU and a rank free to move differ by
    /// orders of magnitude where the kernel's network work waits for a busy CPU.
    Binding,
    /// Where a table's ranks ran: one host or several, per group.
    Placement,
    /// How the job's ranks sat on its hosts.
    Layout,
    /// The MPI library and the standard version it reports.
    Mpi,
    /// The program and its version (IMB 3.0, IMB 2021.11, imb-rs 0.1.0, OSU 7.4).
    Program,
    /// Repetitions, warm-up, time cap, `-adaptive` and other parameters off standard mode.
    Parameters,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Program,
        Kind::Mpi,
        Kind::ThreadLevel,
        Kind::Parameters,
        Kind::Placement,
        Kind::Layout,
        Kind::Binding,
        Kind::Threads,
    ];

    /// The name `--accept-difference` takes.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Program => "program",
            Kind::Mpi => "mpi",
            Kind::ThreadLevel => "thread-level",
            Kind::Threads => "threads",
            Kind::Parameters => "parameters",
            Kind::Placement => "placement",
            Kind::Layout => "layout",
            Kind::Binding => "binding",
        }
    }

    /// The words a report uses.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Program => "program",
            Kind::Mpi => "MPI library",
            Kind::ThreadLevel => "thread level",
            Kind::Threads => "threads per process",
            Kind::Parameters => "parameters",
            Kind::Placement => "placement",
            Kind::Layout => "ranks per host",
            Kind::Binding => "binding",
        }
    }

    pub fn parse(s: &str) -> Result<Kind, String> {
        Kind::ALL.into_iter().find(|k| k.key() == s).ok_or_else(|| {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.key()).collect();
            format!("{s:?}: the kinds are {}", names.join(", "))
        })
    }
}

/// One condition that differs between two runs, or between launches of one run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Difference {
    pub kind: Kind,
    /// "thread level: MPI_THREAD_MULTIPLE (base) vs MPI_THREAD_SINGLE (new)".
    pub text: String,
}

/// The parameters of an optional-mode block (imb-rs's `# !!` lines, or the `text` of a
/// `-json` file's `optional_mode` note: the same lines) that change a size's figure: every
/// `KEY = value (standard …)` but the size range (MINMSGLOG, MAXMSGLOG), the `-time` cap and
/// the `-adaptive` rule; and the method block's options (`-compat 2021`, `-sync on`, …, each
/// line ending in the option as given, `-iter_policy P: …`, and the lines of imb-p2p's
/// block that are an option as typed, `-pause 0`). Text and `-json` of one launch give the
/// same map.
pub fn optional_parameters<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    // A method block (`Measured as …`) describes the method in words, some with `=` in them
    // (`n_sample = OVERALL_VOL / X …`): only its options count there.
    let mut in_method = false;
    for line in lines {
        let l = line.trim();
        if l.starts_with("Measured ") {
            in_method = true;
        } else if l.starts_with("Results from OPTIONAL mode") {
            in_method = false;
        }
        let options = method_options(l);
        if !options.is_empty() {
            m.extend(options);
        } else if let Some((name, value)) = typed_option(l) {
            m.insert(name, value);
        } else if in_method {
            continue;
        } else if let Some(rest) = l.strip_prefix("repetitions capped by -time ") {
            let secs = rest.split_whitespace().next().unwrap_or("");
            m.insert("-time".to_string(), format!("{secs} s"));
        } else if let Some(rest) = l.strip_prefix("-adaptive:") {
            // "… split into 5 timings, and timings are added (at most 10) until the 95 %
            // confidence interval of their median is within +-1 %; …": the numbers say it.
            let n: Vec<&str> = rest
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|w| !w.is_empty() && *w != ".")
                .collect();
            let v = match n.as_slice() {
                [min, max, _, cut, ..] => format!("{min}..{max} timings, cut-off {cut} %"),
                _ => rest.trim().to_string(),
            };
            m.insert("-adaptive".to_string(), v);
        } else if let Some((key, rest)) = l.split_once(" = ") {
            let key = key.trim();
            let size_range = matches!(key, "MINMSGLOG" | "MAXMSGLOG");
            if !size_range && !key.is_empty() && !key.contains(' ') {
                let value = rest.split(" (standard").next().unwrap_or(rest).trim();
                m.insert(key.to_string(), value.to_string());
            }
        }
    }
    m
}

/// Whether `name` (without its `-`) is spelt as an option: lowercase letters and `_`.
fn option_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// A line that is one option as typed, `-pause 0` (imb-p2p's method block lists its options
/// that differ from IMB-P2P's so).
fn typed_option(l: &str) -> Option<(String, String)> {
    let (name, value) = l.strip_prefix('-')?.split_once(' ')?;
    let value = value.trim();
    (option_name(name) && !value.is_empty() && !value.contains(' '))
        .then(|| (format!("-{name}"), value.to_string()))
}

/// The options a method line names: `… (-sync on)`, `Measured as IMB 2021 measures (-compat
/// 2021), …`, `-iter_policy dynamic: … (-time 1)` (the policy and the time it cuts to), each
/// with its value.
fn method_options(l: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(rest) = l.strip_prefix("-iter_policy ") {
        if let Some(v) = rest.split(':').next() {
            out.push(("-iter_policy".into(), v.trim().into()));
        }
    }
    let mut rest = l;
    while let Some((_, after)) = rest.split_once("(-") {
        rest = after;
        let Some(inside) = after.split(')').next() else {
            break;
        };
        if let Some((name, value)) = inside.split_once(' ') {
            if option_name(name) {
                out.push((format!("-{name}"), value.trim().to_string()));
            }
        }
    }
    out
}

/// IMB 2021's options that only choose what runs, not how a size is measured.
const IMB2021_CHOOSING: &[&str] = &[
    "-msglog",
    "-msglen",
    "-npmin",
    "-input",
    "-include",
    "-exclude",
    "-mem",
    "-multi",
    "-map",
    "-thread_level",
    "-zero_size",
    "-list",
    "-help",
];

/// IMB 2021's method where imb-rs's standard (IMB 3.0's) differs, as imb-rs's `-compat 2021`
/// block names it: an IMB 2021 run has these unless its command line says otherwise.
const IMB2021_METHOD: &[(&str, &str)] = &[
    ("-compat", "2021"),
    ("-iter_policy", "dynamic"),
    ("-root_shift", "off"),
    ("-sync", "on"),
    ("-warm_up", "on"),
];

/// IMB 2021's booleans (`1`, `yes`, `enable`, …) as imb-rs writes them, read by imb-rs's own
/// parser of them; anything else as given.
fn on_off(v: &str) -> String {
    match imb_core::cli::value::on_off(v) {
        Ok(true) => "on".into(),
        Ok(false) => "off".into(),
        Err(_) => v.to_string(),
    }
}

/// IMB 2021's counts that `-iter n[,vol[,nonaggr]]` sets, by the names imb-rs's header uses,
/// with their defaults (IMB_settings.h; IMB_settings_io.h for IMB-IO): imb-rs's standard
/// counts (settings/settings.toml, settings_io.toml) are the same.
pub type IterCounts = [(&'static str, u64); 3];

/// IMB-MPI1's, IMB-NBC's, IMB-EXT's, IMB-RMA's and IMB-MPI4's.
pub const IMB2021_COUNTS: IterCounts = [
    ("MSGSPERSAMPLE", 1000),
    ("OVERALL_VOL", 40 << 20),
    ("MSGS_NONAGGR", 100),
];

/// IMB-IO's.
pub const IMB2021_IO_COUNTS: IterCounts = [
    ("MSGSPERSAMPLE", 50),
    ("OVERALL_VOL", 16 << 20),
    ("MSGS_NONAGGR", 10),
];

/// The counts an `-iter` value sets, as IMB 2021 reads it: comma-separated fields, each
/// starting with a digit (else IMB 2021 refuses the run), the second in MiB.
fn iter_counts(value: &str, counts: &IterCounts, m: &mut BTreeMap<String, String>) {
    for (field, (key, _)) in value.split(',').zip(counts) {
        let Some(n) = field
            .starts_with(|c: char| c.is_ascii_digit())
            .then(|| leading_int(field))
            .flatten()
        else {
            return;
        };
        let n = if *key == "OVERALL_VOL" {
            n.saturating_mul(1 << 20)
        } else {
            n
        };
        m.insert(key.to_string(), n.to_string());
    }
}

/// The options on IMB 2021's calling sequence that change a size's figure (`-iter`, `-time`,
/// `-iter_policy`, `-sync`, `-off_cache`, …), each with its value, over IMB 2021's method
/// (`IMB2021_METHOD`), so that imb-rs's `-compat 2021` runs give the same map; `-iter`'s
/// counts under the names and in the units of imb-rs's optional-mode block (MSGSPERSAMPLE,
/// OVERALL_VOL in bytes, MSGS_NONAGGR), where they differ from IMB-MPI1's defaults.
pub fn imb2021_options(command: &str) -> BTreeMap<String, String> {
    imb2021_options_with(command, &IMB2021_COUNTS)
}

/// [`imb2021_options`] for a suite whose `-iter` defaults are `counts` (IMB-IO's).
pub fn imb2021_options_with(command: &str, counts: &IterCounts) -> BTreeMap<String, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut m: BTreeMap<String, String> = IMB2021_METHOD
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut k = 1;
    while k < words.len() {
        let w = words[k];
        if w.starts_with('-') && w.len() > 1 && w[1..].starts_with(|c: char| c.is_alphabetic()) {
            let value = words.get(k + 1).copied().unwrap_or("");
            if w == "-iter" {
                iter_counts(value, counts, &mut m);
            } else if !IMB2021_CHOOSING.contains(&w) {
                let value = match w {
                    "-sync" | "-root_shift" | "-warm_up" | "-imb_barrier" | "-msg_pause" => {
                        Some(on_off(value))
                    }
                    // In the spelling of imb-rs's method line; `0` is no copies at all.
                    "-off_cache" => match imb_core::method::parse_off_cache(value) {
                        Ok(oc) => oc.map(|oc| oc.arg()),
                        Err(_) => Some(value.to_string()),
                    },
                    _ => Some(value.to_string()),
                };
                if let Some(value) = value {
                    m.insert(w.to_string(), value);
                }
            }
            k += 2;
        } else {
            k += 1;
        }
    }
    for (key, standard) in counts {
        if m.get(*key) == Some(&standard.to_string()) {
            m.remove(*key);
        }
    }
    m
}

/// IMB-P2P's defaults (`-iter 100000,800`, `-msgrd on`, `-msgwr on`, `-pause 100000`) in
/// the names imb-p2p's header uses: its standard counts (settings/settings_p2p.toml) are
/// these, and it lists its options that differ from them as typed.
const IMB2021_P2P_DEFAULTS: &[(&str, &str)] = &[
    ("MSGSPERSAMPLE", "100000"),
    ("OVERALL_VOL", "838860800"),
    ("-msgrd", "on"),
    ("-msgwr", "on"),
    ("-pause", "100000"),
];

/// The leading whole number of `s`, sign and all, as C's `%d` reads it.
fn leading_int(s: &str) -> Option<i64> {
    let end = s
        .char_indices()
        .find(|&(k, c)| !(c.is_ascii_digit() || (k == 0 && (c == '-' || c == '+'))))
        .map_or(s.len(), |(k, _)| k);
    s[..end].parse().ok()
}

/// The options on IMB-P2P's calling sequence that change a size's figure, as imb-p2p's
/// header names them: `-iter max[,numerator]` is MSGSPERSAMPLE (max) and OVERALL_VOL
/// (numerator MiB, in bytes); `-msgrd`, `-msgwr` (on or off) and `-pause` (usec). Only the
/// values that differ from IMB-P2P's defaults are kept, so a run with its defaults is
/// standard, as an imb-p2p run is. IMB-P2P reads its options without regard to case, the last
/// one given wins, and an `-iter` whose numbers are not above 0 is ignored, as there.
pub fn imb2021_p2p_options(command: &str) -> BTreeMap<String, String> {
    let mut m: BTreeMap<String, String> = IMB2021_P2P_DEFAULTS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut k = 1;
    while k < words.len() {
        let value = words.get(k + 1).copied().unwrap_or("");
        match words[k].to_ascii_lowercase().as_str() {
            "-iter" => {
                let mut parts = value.splitn(2, ',');
                let max = parts.next().and_then(leading_int);
                let numerator = parts.next().and_then(leading_int);
                match (max, numerator) {
                    (Some(max), Some(mib)) if max > 0 && mib > 0 => {
                        m.insert("MSGSPERSAMPLE".into(), max.to_string());
                        m.insert(
                            "OVERALL_VOL".into(),
                            mib.saturating_mul(1 << 20).to_string(),
                        );
                    }
                    (Some(max), None) if max > 0 => {
                        m.insert("MSGSPERSAMPLE".into(), max.to_string());
                    }
                    _ => {}
                }
            }
            w @ ("-msgrd" | "-msgwr") => {
                m.insert(w.to_string(), on_off(value));
            }
            "-pause" => {
                // A pause below 0 is none at all there, as 0 is.
                let v = leading_int(value).map_or(value.to_string(), |p| p.max(0).to_string());
                m.insert("-pause".into(), v);
            }
            _ => {
                k += 1;
                continue;
            }
        }
        k += 2;
    }
    for (key, standard) in IMB2021_P2P_DEFAULTS {
        if m.get(*key).map(String::as_str) == Some(*standard) {
            m.remove(*key);
        }
    }
    m
}

/// The suite a banner title names, as IMB 2021 and imb-rs both call it once the program's
/// own words are set aside: "MPI-1" ("…, MPI-1 part"), "P2P" (IMB 2021's "IMB-P2P part",
/// imb-rs's "P2P part"), "MT", "MPI-4", …; `None` for a title without a part (OSU).
pub fn suite(title: &str) -> Option<String> {
    let part = title.split(", ").find(|p| p.contains(" part"))?;
    let name = part.split(" part").next()?.trim();
    let name = name.strip_prefix("IMB-").unwrap_or(name);
    (!name.is_empty()).then(|| name.to_string())
}

/// "2 ranks on 1 host", "1+1 ranks on 2 hosts": how many ranks sat on each host, largest first.
pub fn spread(mut per_host: Vec<usize>) -> String {
    per_host.sort_unstable_by(|a, b| b.cmp(a));
    let total: usize = per_host.iter().sum();
    let ranks = if total == 1 { "rank" } else { "ranks" };
    match per_host.len() {
        1 => format!("{total} {ranks} on 1 host"),
        h => {
            let parts: Vec<String> = per_host.iter().map(usize::to_string).collect();
            format!("{} {ranks} on {h} hosts", parts.join("+"))
        }
    }
}

/// A side's known values of one condition, with the launches that had each.
struct Seen {
    values: BTreeMap<String, Vec<usize>>,
}

fn seen(side: &Side, f: impl Fn(&Run) -> Option<String>) -> Seen {
    let mut s = Seen {
        values: BTreeMap::new(),
    };
    for (k, r) in side.runs.iter().enumerate() {
        if let Some(v) = f(r) {
            s.values.entry(v).or_default().push(k);
        }
    }
    s
}

fn launches(side: &Side, ks: &[usize]) -> String {
    let names: Vec<String> = ks
        .iter()
        .map(|&k| {
            side.files.get(k).map_or(format!("launch {}", k + 1), |f| {
                std::path::Path::new(f)
                    .file_name()
                    .map_or(f.clone(), |n| n.to_string_lossy().into_owned())
            })
        })
        .collect();
    names.join(", ")
}

/// A difference among the launches of one side, when they disagree.
fn within(kind: Kind, what: &str, side: &Side, name: &str, s: &Seen, out: &mut Vec<Difference>) {
    if s.values.len() > 1 {
        let parts: Vec<String> = s
            .values
            .iter()
            .map(|(v, ks)| format!("{v} ({})", launches(side, ks)))
            .collect();
        out.push(Difference {
            kind,
            text: format!(
                "{what}: the launches of {name} differ: {}",
                parts.join(" vs ")
            ),
        });
    }
}

/// The differences of one condition between `a` and `b` (named `na`, `nb` in the text), and
/// within each.
fn differ(
    kind: Kind,
    what: &str,
    (a, na, sa): (&Side, &str, &Seen),
    (b, nb, sb): (&Side, &str, &Seen),
    out: &mut Vec<Difference>,
) {
    within(kind, what, a, na, sa, out);
    within(kind, what, b, nb, sb, out);
    if !sa.values.is_empty() && !sb.values.is_empty() && sa.values.keys().ne(sb.values.keys()) {
        let list = |s: &Seen| s.values.keys().cloned().collect::<Vec<_>>().join(" / ");
        out.push(Difference {
            kind,
            text: format!("{what}: {} ({na}) vs {} ({nb})", list(sa), list(sb)),
        });
    }
}

/// The conditions that hold for a whole run, but the parameters, with their words.
type RunCondition = (Kind, &'static str, fn(&Run) -> Option<String>);
const RUN_CONDITIONS: [RunCondition; 8] = [
    (Kind::Program, "program", |r| r.conditions.program.clone()),
    // IMB-MPI1's PingPong and IMB-P2P's are other methods under one name.
    (Kind::Program, "suite", |r| suite(&r.title)),
    (Kind::Mpi, "MPI standard", |r| {
        r.conditions.mpi_standard.clone()
    }),
    (Kind::Mpi, "MPI library", |r| {
        r.conditions.mpi_library.clone()
    }),
    (Kind::ThreadLevel, "thread level", |r| {
        r.conditions.thread_level.clone()
    }),
    (Kind::Layout, "ranks per host", |r| {
        r.conditions.layout.clone()
    }),
    (Kind::Binding, "binding", |r| r.conditions.binding.clone()),
    (Kind::Threads, "threads per process", |r| {
        r.conditions.threads.clone()
    }),
];

/// A side's parameters in words: "standard", or "MSGSPERSAMPLE 50, -time 0.5 s".
fn render(m: &BTreeMap<String, String>) -> String {
    if m.is_empty() {
        return "standard".to_string();
    }
    let v: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
    v.join(", ")
}

/// Every difference of the conditions that hold for the whole run (all but placement)
/// between sides `a` and `b`, named `na` and `nb`.
pub fn run_differences(a: (&Side, &str), b: (&Side, &str)) -> Vec<Difference> {
    let mut out = Vec::new();
    for (kind, what, f) in RUN_CONDITIONS {
        let (sa, sb) = (seen(a.0, f), seen(b.0, f));
        differ(kind, what, (a.0, a.1, &sa), (b.0, b.1, &sb), &mut out);
    }
    parameter_differences(a, b, &mut out);
    out
}

/// The differences among the launches of one side only (when no baseline is judged).
pub fn side_differences(a: (&Side, &str)) -> Vec<Difference> {
    let mut out = Vec::new();
    for (kind, what, f) in RUN_CONDITIONS {
        within(kind, what, a.0, a.1, &seen(a.0, f), &mut out);
    }
    let s = seen(a.0, |r| r.conditions.parameters.as_ref().map(render));
    within(Kind::Parameters, "parameters", a.0, a.1, &s, &mut out);
    out
}

/// The placement differences among one side's launches for one table.
pub fn table_side_differences(key: &TableKey, a: (&Side, &str, &Placements)) -> Vec<Difference> {
    let mut out = Vec::new();
    within(
        Kind::Placement,
        "placement",
        a.0,
        a.1,
        &a.2.seen(key),
        &mut out,
    );
    out
}

/// Parameters compare key by key: a key one side does not set is at its standard value.
fn parameter_differences(a: (&Side, &str), b: (&Side, &str), out: &mut Vec<Difference>) {
    // Launches of one side that differ among themselves are named as such first.
    for (side, name) in [a, b] {
        let s = seen(side, |r| r.conditions.parameters.as_ref().map(render));
        within(Kind::Parameters, "parameters", side, name, &s, out);
    }
    let first = |s: &Side| s.runs.iter().find_map(|r| r.conditions.parameters.clone());
    let (Some(pa), Some(pb)) = (first(a.0), first(b.0)) else {
        return;
    };
    let keys: std::collections::BTreeSet<&String> = pa.keys().chain(pb.keys()).collect();
    for k in keys {
        let (va, vb) = (pa.get(k), pb.get(k));
        if va != vb {
            let show = |v: Option<&String>| v.map_or("standard".to_string(), |v| v.clone());
            out.push(Difference {
                kind: Kind::Parameters,
                text: format!(
                    "parameters: {k} {} ({}) vs {} ({})",
                    show(va),
                    a.1,
                    show(vb),
                    b.1
                ),
            });
        }
    }
}

/// Where each launch's tables ran (a `-json` file's placement), by table. Built once per side
/// and comparison: a scan of the launch for every table was quadratic in the tables, minutes
/// for a file of thousands.
pub struct Placements(Vec<BTreeMap<TableKey, String>>);

impl Placements {
    pub fn of(side: &Side, world: &BTreeMap<String, usize>) -> Placements {
        Placements(
            side.runs
                .iter()
                .map(|r| {
                    let mut m = BTreeMap::new();
                    for t in &r.tables {
                        if let Some(p) = &t.placement {
                            m.entry(TableKey::of(t, world)).or_insert_with(|| p.clone());
                        }
                    }
                    m
                })
                .collect(),
        )
    }

    /// Each launch's placements of table `key`.
    fn seen(&self, key: &TableKey) -> Seen {
        let mut s = Seen {
            values: BTreeMap::new(),
        };
        for (k, m) in self.0.iter().enumerate() {
            if let Some(v) = m.get(key) {
                s.values.entry(v.clone()).or_default().push(k);
            }
        }
        s
    }
}

/// The placement differences of one table (by `key`) between `a` and `b`, each side with its
/// [`Placements`].
pub fn table_differences(
    key: &TableKey,
    a: (&Side, &str, &Placements),
    b: (&Side, &str, &Placements),
) -> Vec<Difference> {
    let (sa, sb) = (a.2.seen(key), b.2.seen(key));
    let mut out = Vec::new();
    differ(
        Kind::Placement,
        "placement",
        (a.0, a.1, &sa),
        (b.0, b.1, &sb),
        &mut out,
    );
    out
}

/// Whether a launch records each condition, with its words and kind (placement stands for
/// ranks per host too: both come from `-json` provenance).
type Recorded = (Kind, &'static str, fn(&Run) -> bool);
const RECORDED: [Recorded; 7] = [
    (Kind::ThreadLevel, "thread level", |r| {
        r.conditions.thread_level.is_some()
    }),
    (Kind::Mpi, "MPI library", |r| {
        r.conditions.mpi_library.is_some()
    }),
    (Kind::Parameters, "parameters", |r| {
        r.conditions.parameters.is_some()
    }),
    (Kind::Placement, "placement and ranks per host", |r| {
        r.conditions.layout.is_some()
    }),
    (Kind::Binding, "binding", |r| r.conditions.binding.is_some()),
    (Kind::Program, "program", |r| r.conditions.program.is_some()),
    // Only the MT suite runs a benchmark on several threads of a process.
    (Kind::Threads, "threads per process", |r| {
        r.conditions.threads.is_some() || suite(&r.title).as_deref() != Some("MT")
    }),
];

/// The conditions some launch of `side` does not record: kind and words.
pub fn unrecorded_by(side: &Side) -> Vec<(Kind, &'static str)> {
    RECORDED
        .iter()
        .filter(|(_, _, known)| side.runs.iter().any(|r| !known(r)))
        .map(|&(kind, what, _)| (kind, what))
        .collect()
}

/// The conditions a side's files do not record, in words ("placement: not recorded by
/// base (text output has no hosts)"), one line per kind and side.
pub fn unrecorded(sides: &[(&Side, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    for (kind, what, _) in RECORDED {
        let missing: Vec<&str> = sides
            .iter()
            .filter(|(s, _)| unrecorded_by(s).iter().any(|(k, _)| *k == kind))
            .map(|(_, n)| *n)
            .collect();
        if !missing.is_empty() {
            out.push(format!(
                "{what}: not recorded by {} (keep -json files with provenance to have it checked)",
                missing.join(", ")
            ));
        }
    }
    out
}

/// What differs between sides `a` and `b` without defining their figures, one line each: the
/// hosts they ran on (the same fabric on other nodes is comparable), and the facts of schema 4
/// that describe a run (OS, kernel, CPU model and topology, frequency governor, fabric
/// libraries, build, binary) and the MPI control variables it set. doc/ACCEPTANCE.md,
/// "Comparable runs", says why these describe rather than define a result. (Named for its
/// first line, the hosts; `comparison` calls it.)
pub fn host_note(a: (&Side, &str), b: (&Side, &str)) -> Vec<String> {
    let mut out = Vec::new();
    let hosts = |s: &Side| {
        let mut h: Vec<String> = s
            .runs
            .iter()
            .filter_map(|r| r.conditions.hosts.clone())
            .flatten()
            .collect();
        h.sort();
        h.dedup();
        h
    };
    let (ha, hb) = (hosts(a.0), hosts(b.0));
    if !ha.is_empty() && !hb.is_empty() && ha != hb {
        out.push(format!(
            "hosts: {} ({}) vs {} ({})",
            ha.join(", "),
            a.1,
            hb.join(", "),
            b.1
        ));
    }
    let facts = |s: &Side| {
        let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in &s.runs {
            for (k, v) in &r.conditions.facts {
                let e = m.entry(k.clone()).or_default();
                if !e.contains(v) {
                    e.push(v.clone());
                }
            }
        }
        m
    };
    let (fa, fb) = (facts(a.0), facts(b.0));
    for (k, va) in &fa {
        if let Some(vb) = fb.get(k) {
            if va != vb {
                out.push(format!(
                    "{k}: {} ({}) vs {} ({})",
                    va.join(" / "),
                    a.1,
                    vb.join(" / "),
                    b.1
                ));
            }
        }
    }
    out.extend(control_variable_notes(a, b));
    out
}

/// The MPI control variables that the runs of `a` and `b` set to different values, or that
/// one side set and the other did not, when both sides record them.
fn control_variable_notes(a: (&Side, &str), b: (&Side, &str)) -> Vec<String> {
    // Per name, each side's values over its launches that record control variables ("not
    // set" for a launch that did not set it).
    let values = |s: &Side| -> Option<BTreeMap<String, Vec<String>>> {
        let recorded: Vec<&BTreeMap<String, String>> = s
            .runs
            .iter()
            .filter_map(|r| r.conditions.control_variables.as_ref())
            .collect();
        if recorded.is_empty() {
            return None;
        }
        let names: std::collections::BTreeSet<&String> =
            recorded.iter().flat_map(|m| m.keys()).collect();
        Some(
            names
                .into_iter()
                .map(|n| {
                    let mut v: Vec<String> = recorded
                        .iter()
                        .map(|m| m.get(n).cloned().unwrap_or("not set".to_string()))
                        .collect();
                    v.sort();
                    v.dedup();
                    (n.clone(), v)
                })
                .collect(),
        )
    };
    let (Some(va), Some(vb)) = (values(a.0), values(b.0)) else {
        return Vec::new();
    };
    let names: std::collections::BTreeSet<&String> = va.keys().chain(vb.keys()).collect();
    let unset = vec!["not set".to_string()];
    names
        .into_iter()
        .filter_map(|n| {
            let (x, y) = (va.get(n).unwrap_or(&unset), vb.get(n).unwrap_or(&unset));
            (x != y).then(|| {
                format!(
                    "MPI control variable {n}: {} ({}) vs {} ({})",
                    x.join(" / "),
                    a.1,
                    y.join(" / "),
                    b.1
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_block_lines() {
        let lines = [
            " Results from OPTIONAL mode, not standard mode:",
            " parameters set by the command line:",
            "   MINMSGLOG = 2 (standard 0)",
            "   MAXMSGLOG = 4 (standard 22)",
            "   MSGSPERSAMPLE = 50 (standard 1000)",
            "   repetitions capped by -time 0.5 s per message size",
            "   -adaptive: each size's n_sample loop is split into 5 timings, and timings are \
             added (at most 10) until the 95 % confidence interval of their median is within \
             +-1 %; rows show each rank's median",
        ];
        let m = optional_parameters(lines.into_iter());
        let got: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            got,
            [
                ("-adaptive", "5..10 timings, cut-off 1 %"),
                ("-time", "0.5 s"),
                ("MSGSPERSAMPLE", "50")
            ]
        );
    }

    #[test]
    fn imb2021_calling_sequence() {
        let m = imb2021_options(
            "./IMB-MPI1 PingPong -msglog 0:4 -iter 50 -thread_level multiple -time 2 Barrier",
        );
        let got: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            got,
            [
                ("-compat", "2021"),
                ("-iter_policy", "dynamic"),
                ("-root_shift", "off"),
                ("-sync", "on"),
                ("-time", "2"),
                ("-warm_up", "on"),
                ("MSGSPERSAMPLE", "50"),
            ]
        );
        assert_eq!(imb2021_options("./IMB-MPI1 -sync 0")["-sync"], "off");
        // -iter's fields are imb-rs's counts, in its units; a default is standard.
        let m = imb2021_options("./IMB-MPI1 -iter 1000,8,7");
        assert!(!m.contains_key("MSGSPERSAMPLE"));
        assert_eq!(m["OVERALL_VOL"], "8388608");
        assert_eq!(m["MSGS_NONAGGR"], "7");
        let io = imb2021_options_with("./IMB-IO -iter 50,2", &IMB2021_IO_COUNTS);
        assert!(!io.contains_key("MSGSPERSAMPLE"));
        assert_eq!(io["OVERALL_VOL"], "2097152");
        // imb-rs's -compat 2021 block gives the same map as IMB 2021's defaults.
        let ours = optional_parameters(
            [
                " Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:",
                "   collectives timed call by call, an untimed barrier after each call (-sync on)",
                "   rooted collectives keep root 0 (-root_shift off)",
                "   -iter_policy dynamic: repetitions cut to about 10 s per size after probe loops",
                "   warm-up: n_sample/10 repetitions before every size (-warm_up on)",
                "   Mbytes/sec counts MB = 10^6 bytes",
            ]
            .into_iter(),
        );
        assert_eq!(ours, imb2021_options("./IMB-MPI1 PingPong"));
        // -time under -compat 2021 is on the policy's line, as imb-mpi1 prints it: a condition,
        // read as IMB 2021's -time reads.
        let timed = |t: &str| {
            optional_parameters(
                [
                    " Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:",
                    "   collectives timed call by call, an untimed barrier after each call (-sync on)",
                    "   rooted collectives keep root 0 (-root_shift off)",
                    &format!(
                        "   -iter_policy dynamic: repetitions cut to about {t} s per size after \
                         probe loops (-time {t})"
                    ),
                    "   warm-up: n_sample/10 repetitions before every size (-warm_up on)",
                ]
                .into_iter(),
            )
        };
        assert_eq!(timed("1")["-time"], "1");
        assert_ne!(timed("1"), timed("0.01"));
        assert_eq!(timed("1"), imb2021_options("./IMB-MPI1 -time 1 PingPong"));
        assert_eq!(
            imb2021_options("./IMB-MPI1 -off_cache -1")["-off_cache"],
            "8,64"
        );
        assert!(!imb2021_options("./IMB-MPI1 -off_cache 0").contains_key("-off_cache"));
        // imb-rs's header line for -off_cache, however it was given, reads as IMB 2021's.
        use imb_core::method::{parse_off_cache, Compat, Given, Method};
        for given in ["-1", "8", "8,64"] {
            let m = Method::resolve(&Given {
                compat: Some(Compat::V2021),
                off_cache: parse_off_cache(given).unwrap(),
                ..Given::default()
            });
            let lines = m.changes(None);
            let title =
                "Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:";
            let ours =
                optional_parameters([title].into_iter().chain(lines.iter().map(String::as_str)));
            assert_eq!(
                ours,
                imb2021_options("./IMB-MPI1 -off_cache -1"),
                "{given}: {lines:?}"
            );
        }
    }

    #[test]
    fn imb_p2p_calling_sequence() {
        let got =
            |cmd: &str| -> Vec<(String, String)> { imb2021_p2p_options(cmd).into_iter().collect() };
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        // IMB-P2P's own defaults are standard: none of IMB-MPI1's method.
        assert!(got("./IMB-P2P PingPong -msglog 0:4").is_empty());
        assert!(got("./IMB-P2P -iter 100000,800 -pause 100000 -msgrd yes -MSGWR 1").is_empty());
        assert_eq!(
            got("./IMB-P2P -msglog 0:12 -iter 1000 -pause 0 PingPong"),
            [pair("-pause", "0"), pair("MSGSPERSAMPLE", "1000")]
        );
        // max,numerator: the numerator in MiB; case, the last one given, 0 ignored.
        assert_eq!(
            got("./IMB-P2P -iter 100,5 -MsgRd off -pause 7 -pause -3 -iter 0,9"),
            [
                pair("-msgrd", "off"),
                pair("-pause", "0"),
                pair("MSGSPERSAMPLE", "100"),
                pair("OVERALL_VOL", "5242880"),
            ]
        );
        // imb-p2p's header, text or -json note, gives the same map.
        let ours = optional_parameters(
            [
                "Measured as IMB 2021's IMB-P2P measures:",
                "  n_sample = OVERALL_VOL / X rounded to the nearest count; n_sample/10 warm-up \
                 repetitions before every size",
                "  IMB 2021's dissemination barrier before the warm-up and the timer",
                "  Mbytes/sec counts MB = 10^6 bytes",
                "  -msgrd off",
                "  -pause 0",
                "",
                "Results from OPTIONAL mode, not standard mode:",
                "parameters set by the command line:",
                "  MAXMSGLOG = 4 (standard 22)",
                "  MSGSPERSAMPLE = 100 (standard 100000)",
                "  OVERALL_VOL = 5242880 (standard 838860800)",
            ]
            .into_iter(),
        );
        assert_eq!(
            ours,
            imb2021_p2p_options("./IMB-P2P -iter 100,5 -pause 0 -msgrd 0")
        );
    }

    #[test]
    fn suites() {
        let s = |t: &str| suite(t);
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, IMB-P2P part").as_deref(),
            Some("P2P")
        );
        assert_eq!(s("imb-rs 0.1.0, P2P part").as_deref(), Some("P2P"));
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, MT part").as_deref(),
            Some("MT")
        );
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, MPI-4 part").as_deref(),
            Some("MPI-4")
        );
        assert_eq!(
            s("Intel (R) MPI Benchmark Suite V3.0, MPI-1 part").as_deref(),
            Some("MPI-1")
        );
        // IMB 2021's IMB-IO title lacks its newline escape: "MPI-IO partn".
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, MPI-IO partn").as_deref(),
            Some("MPI-IO")
        );
        assert_eq!(s("OSU"), None);
    }

    #[test]
    fn spreads() {
        assert_eq!(spread(vec![2]), "2 ranks on 1 host");
        assert_eq!(spread(vec![1]), "1 rank on 1 host");
        assert_eq!(spread(vec![1, 1]), "1+1 ranks on 2 hosts");
        assert_eq!(spread(vec![1, 3]), "3+1 ranks on 2 hosts");
        assert_eq!(Kind::parse("thread-level"), Ok(Kind::ThreadLevel));
        assert_eq!(Kind::parse("binding"), Ok(Kind::Binding));
        assert!(Kind::parse("hosts")
            .unwrap_err()
            .contains("program, mpi, thread-level"));
    }
}
