//! The command line, in the suite's style: IMB-like single-dash options (`-cutoff 2`, also
//! `--cutoff=2`), benchmark names in any case, defaults from `settings/threads.toml` (embedded,
//! or `-settings FILE`). Every error is one line naming the option, file or line.

use crate::suite::BENCHMARKS;
use imb_core::binding::{self, Bind};
use serde::Deserialize;

const VALUE_OPTS: &[&str] = &[
    "cutoff", "min_reps", "max_reps", "bind", "threads", "cpus", "settings",
];
const FLAG_OPTS: &[&str] = &["help", "h", "list", "correct", "force"];

/// Most threads a benchmark may be asked for: far above any CPU count this suite is meant for,
/// low enough that creating them never meets the system's thread limits.
pub const MAX_THREADS: usize = 1024;

/// A run whose least possible duration exceeds this is refused unless `-force` is given.
const LONG_RUN_SECS: f64 = 3600.0;

const DEFAULTS: &str = include_str!("../../../settings/threads.toml");

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Indices into BENCHMARKS, in run order.
    pub benchmarks: Vec<usize>,
    pub cutoff_pct: f64,
    pub min_reps: usize,
    pub max_reps: usize,
    pub binds: Vec<Bind>,
    pub threads: Vec<usize>,
    /// CPUs to bind to (a subset of the inherited mask), or None for the whole mask.
    pub cpus: Option<Vec<usize>>,
    pub correct: bool,
    pub settings: Option<String>,
    /// `-force`: run even when the run cannot finish within an hour.
    pub force: bool,
}

pub enum Action {
    Run(Options),
    Help,
    List,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    defaults: Defaults,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Defaults {
    #[serde(rename = "CUTOFF_PCT")]
    cutoff_pct: f64,
    #[serde(rename = "MIN_REPS")]
    min_reps: usize,
    #[serde(rename = "MAX_REPS")]
    max_reps: usize,
    #[serde(rename = "BIND")]
    bind: String,
    #[serde(rename = "THREADS")]
    threads: String,
    #[serde(rename = "CORRECT")]
    correct: bool,
}

fn defaults(text: &str, file: &str) -> Result<Defaults, String> {
    toml::from_str::<File>(text)
        .map(|f| f.defaults)
        .map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].lines().count().max(1))
                .map_or(String::new(), |l| format!(", line {l}"));
            format!("-settings {file}{line}: {}", e.message())
        })
}

/// `same`, `all`, `same,none`, … in a fixed order without repeats.
pub fn parse_binds(s: &str) -> Result<Vec<Bind>, String> {
    let mut v = Vec::new();
    for w in s.split(',') {
        if w.trim().eq_ignore_ascii_case("all") {
            v.extend([Bind::None, Bind::Same, Bind::Different]);
        } else {
            v.push(Bind::parse(w.trim()).map_err(|_| {
                format!(
                    "-bind {s}: unknown value {:?} (valid: same, different, none, all, or a \
                     comma list such as same,none)",
                    w.trim()
                )
            })?);
        }
    }
    let mut out = Vec::new();
    for b in [Bind::None, Bind::Same, Bind::Different] {
        if v.contains(&b) {
            out.push(b);
        }
    }
    Ok(out)
}

/// `4`, `1,2,4`, `1-4` (each at least 1, at most 1024).
pub fn parse_list(opt: &str, s: &str, min: usize) -> Result<Vec<usize>, String> {
    let bad = || format!("{opt} {s}: expected numbers like 4, 1,2,4 or 1-4 (each >= {min})");
    let mut v = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if a < min || b < a {
            return Err(bad());
        }
        if b > MAX_THREADS {
            return Err(format!(
                "{opt} {s}: {b} is above the limit of {MAX_THREADS}"
            ));
        }
        v.extend(a..=b);
    }
    Ok(v)
}

pub fn parse(args: &[String]) -> Result<Action, String> {
    let m = imb_core::cli::dash_matches("imb-threads", args, VALUE_OPTS, FLAG_OPTS)?;
    if m.get_flag("help") || m.get_flag("h") {
        return Ok(Action::Help);
    }
    if m.get_flag("list") {
        return Ok(Action::List);
    }
    let settings = m.get_one::<String>("settings").cloned();
    let d = match &settings {
        Some(f) => {
            // A regular file of at most 4 MiB: /dev/zero or a FIFO is an error, not a hang.
            let text = imb_core::safefile::read_text("-settings", f).map_err(|e| e.to_string())?;
            let d = defaults(&text, f)?;
            check_file(&d, &text, f)?;
            d
        }
        None => defaults(DEFAULTS, "<built-in>")?,
    };
    let num = |name: &str, v: Option<&String>, d: usize| -> Result<usize, String> {
        v.map_or(Ok(d), |s| {
            s.parse()
                .map_err(|_| format!("-{name} {s}: expected a whole number"))
        })
    };
    let cutoff_pct = match m.get_one::<String>("cutoff") {
        Some(s) => s
            .parse::<f64>()
            .map_err(|_| format!("-cutoff {s}: expected a percentage"))?,
        None => d.cutoff_pct,
    };
    let min_reps = num("min_reps", m.get_one("min_reps"), d.min_reps)?;
    let max_reps = num("max_reps", m.get_one("max_reps"), d.max_reps)?;
    let binds = parse_binds(m.get_one::<String>("bind").unwrap_or(&d.bind))?;
    let threads = parse_list(
        "-threads",
        m.get_one::<String>("threads").unwrap_or(&d.threads),
        1,
    )?;
    let cpus = m
        .get_one::<String>("cpus")
        .map(|s| parse_list("-cpus", s, 0))
        .transpose()?;
    let mut benchmarks = Vec::new();
    for n in m.get_many::<String>("names").into_iter().flatten() {
        match BENCHMARKS
            .iter()
            .position(|b| b.name.eq_ignore_ascii_case(n))
        {
            Some(i) => benchmarks.push(i),
            None => {
                let names: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
                return Err(format!(
                    "{n}: unknown benchmark; valid names: {}",
                    names.join(", ")
                ));
            }
        }
    }
    if benchmarks.is_empty() {
        benchmarks = (0..BENCHMARKS.len()).collect();
    }
    Ok(Action::Run(Options {
        benchmarks,
        cutoff_pct,
        min_reps,
        max_reps,
        binds,
        threads,
        cpus,
        correct: m.get_flag("correct") || d.correct,
        settings,
        force: m.get_flag("force"),
    }))
}

/// The line of `key = …` in a settings file (0 when absent).
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with('='))
        })
        .map_or(0, |i| i + 1)
}

/// The values of a settings file, checked with the file and line in the error (the same
/// values from the command line are checked later and name the option).
fn check_file(d: &Defaults, text: &str, file: &str) -> Result<(), String> {
    let at = |key: &str, msg: String| -> String {
        match key_line(text, key) {
            0 => format!("-settings {file}: {key}: {msg}"),
            l => format!("-settings {file}, line {l}: {key}: {msg}"),
        }
    };
    if !(d.cutoff_pct.is_finite() && d.cutoff_pct >= 0.0) {
        return Err(at(
            "CUTOFF_PCT",
            format!("{}: must be a percentage >= 0", d.cutoff_pct),
        ));
    }
    if d.min_reps < 2 {
        return Err(at(
            "MIN_REPS",
            format!("{}: must be at least 2", d.min_reps),
        ));
    }
    if d.max_reps < d.min_reps || d.max_reps > imb_core::adaptive::MAX_REPS_LIMIT {
        return Err(at(
            "MAX_REPS",
            format!(
                "{}: must be between MIN_REPS ({}) and {}",
                d.max_reps,
                d.min_reps,
                imb_core::adaptive::MAX_REPS_LIMIT
            ),
        ));
    }
    parse_binds(&d.bind).map_err(|e| at("BIND", e))?;
    parse_list("THREADS", &d.threads, 1).map_err(|e| at("THREADS", e))?;
    Ok(())
}

/// Checks that need the CPUs and the harness: duplicate CPUs cannot give `-bind different`
/// its distinct CPUs, and a run that needs more than an hour at the least is refused unless
/// `-force` (each benchmark takes at least min_reps timings of min_timing each, Thread_Create's
/// of CREATE_MIN_TIMING).
pub fn check_run(
    o: &Options,
    cpus: &[usize],
    p: &imb_core::adaptive::Policy,
) -> Result<(), String> {
    if o.binds.contains(&Bind::Different) {
        let mut seen = std::collections::BTreeSet::new();
        if let Some(c) = cpus.iter().find(|&&c| !seen.insert(c)) {
            return Err(format!(
                "-cpus: CPU {c} is listed twice; -bind different needs distinct CPUs"
            ));
        }
    }
    let least: f64 = o
        .benchmarks
        .iter()
        .map(|&i| {
            let floor = if BENCHMARKS[i].name == "Thread_Create" {
                crate::suite::CREATE_MIN_TIMING
            } else {
                0.0
            };
            p.min_reps as f64 * p.min_timing.max(floor)
        })
        .sum();
    if least > LONG_RUN_SECS && !o.force {
        return Err(format!(
            "this run needs at least {:.0} min ({} timings per benchmark, each at least the \
             harness's minimum timing of {:.0} usec, 50 ms for Thread_Create); lower -min_reps, \
             or pass -force to run it anyway",
            (least / 60.0).ceil(),
            p.min_reps,
            p.min_timing * 1e6
        ));
    }
    Ok(())
}

/// The CPUs to bind to: `-cpus` (each must be in the inherited mask) or the whole mask.
pub fn cpus(o: &Options, allowed: &[usize]) -> Result<Vec<usize>, String> {
    match &o.cpus {
        None => Ok(allowed.to_vec()),
        Some(v) => {
            for &c in v {
                binding::check_allowed(c, allowed)?;
            }
            Ok(v.clone())
        }
    }
}

pub fn help() -> String {
    let mut s = String::from(
        "\nCalling sequence:\n\n\
imb-threads [-h{elp}] [-list] [-cutoff PCT] [-min_reps N] [-max_reps N]\n\
            [-bind same|different|none|all] [-threads LIST] [-cpus LIST] [-correct]\n\
            [-settings FILE.toml] [-force] [benchmark1 [benchmark2 ...]]\n\n\
- -cutoff PCT: a data point settles when the standard deviation of its timings is at most\n  \
PCT % of their mean (default 5), after at least -min_reps timings (default 5); after\n  \
-max_reps timings (default 100) it stops and is flagged UNSETTLED.\n\
- -bind: where the threads of two-thread benchmarks run: all on one CPU, each on its own,\n  \
left to the OS, or all three (default). A comma list works (same,none).\n\
- -threads LIST: thread counts of Cond_Broadcast, Barrier and Std_Barrier (default 2,4),\n  \
e.g. 4, 1,2,4 or 1-4; at most 1024.\n\
- -cpus LIST: bind only to these CPUs (they must be in the process's affinity mask).\n\
- -correct: subtract the harness's own cost (an empty action) from every mean; a row whose\n  \
correction is anomalous is flagged UNRELIABLE.\n\
- -settings FILE: defaults from a file like settings/threads.toml.\n\
- -force: run even when the repetitions asked for need more than an hour.\n\
- benchmarki: names in any case; default all, in the order below.\n\nBenchmarks:\n",
    );
    for b in BENCHMARKS {
        s.push_str(&format!("{:<22}{}\n", b.name, b.what));
    }
    s
}

pub fn list() -> String {
    let mut s = String::from("# Benchmarks of imb-threads (default run order):\n");
    for b in BENCHMARKS {
        s.push_str(&format!("# {}\n", b.name));
    }
    s.push_str("# (Rust std::sync equivalents are the Std_ rows; WORKSHARE-like constructs do not exist here)\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &str) -> Result<Options, String> {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        parse(&args).map(|a| match a {
            Action::Run(o) => o,
            _ => panic!("not a run"),
        })
    }

    #[test]
    fn defaults_and_options() {
        let o = run("").unwrap();
        assert_eq!((o.cutoff_pct, o.min_reps, o.max_reps), (5.0, 5, 100));
        assert_eq!(o.binds, [Bind::None, Bind::Same, Bind::Different]);
        assert_eq!(o.threads, [2, 4]);
        assert_eq!(o.benchmarks.len(), BENCHMARKS.len());
        let o =
            run("mutex_pingpong -cutoff 2 -bind SAME -threads 1-3 --max_reps=7 -correct").unwrap();
        assert_eq!(BENCHMARKS[o.benchmarks[0]].name, "Mutex_PingPong");
        assert_eq!((o.cutoff_pct, o.max_reps, o.correct), (2.0, 7, true));
        assert_eq!(o.binds, [Bind::Same]);
        assert_eq!(o.threads, [1, 2, 3]);
    }

    #[test]
    fn errors_name_the_culprit() {
        for (cmd, want) in [
            (
                "Nope",
                "Nope: unknown benchmark; valid names: Thread_Create",
            ),
            ("-cutoff x", "-cutoff x: expected a percentage"),
            ("-bind both", "-bind both: "),
            ("-threads 0", "-threads 0: expected numbers"),
            ("-threads a", "-threads a: expected numbers"),
            ("-min_reps -3", "-min_reps -3: expected a whole number"),
            ("-foo", "-foo: unknown option"),
            ("-cutoff", "-cutoff: needs a value"),
            ("-settings /no/such", "-settings /no/such: cannot read it"),
        ] {
            let e = run(cmd).err().unwrap_or_default();
            assert!(e.starts_with(want), "{cmd}: {e}");
            assert!(!e.contains('\n'), "{cmd}: {e}");
        }
    }

    #[test]
    fn settings_file_errors_have_lines() {
        let f = std::env::temp_dir().join(format!("imb-threads-set-{}.toml", std::process::id()));
        std::fs::write(&f, "[defaults]\nCUTOFF_PCT = \"x\"\n").unwrap();
        let e = run(&format!("-settings {}", f.display())).err().unwrap();
        assert!(
            e.starts_with(&format!("-settings {}, line 2: ", f.display())),
            "{e}"
        );
        std::fs::remove_file(&f).unwrap();
        assert!(defaults(DEFAULTS, "x").is_ok());
    }
}
