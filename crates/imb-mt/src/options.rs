//! imb-mt's options as the engine reads them (doc/ARCHITECTURE.md, "A new option"): IMB-MT's
//! `-count`, `-repeat`, `-warmup`, `-barrier`, `-stride`, `-window_size`, `-datatype`,
//! `-malloc_algo`, `-malloc_align` and its `-check on|off` (which takes a value, unlike the
//! engine's flag), and the thread count, which IMB-MT takes from OpenMP (OMP_NUM_THREADS, else
//! the CPUs the process may run on). Nothing here touches MPI.

use imb_core::cli::raw::Raw;
use imb_core::cli::table::{Opt, Takes};
use imb_core::cli::{Family, FamilyIn, Refused, ThreadLevel};
use imb_core::error::{Error, Result};
use imb_core::values::{Slot, Values};

/// Element counts of the messages, comma-separated as typed (`-count`).
pub const COUNT: Slot<String> = Slot::new("count");
/// Repetitions of every timed loop (`-repeat`; the engine's MSGSPERSAMPLE carries it too).
pub const REPEAT: Slot<usize> = Slot::new("repeat");
/// Untimed repetitions before each size (`-warmup`).
pub const WARMUP: Slot<usize> = Slot::new("warmup");
/// `-barrier on|off|special`.
pub const BARRIER: Slot<String> = Slot::new("barrier");
/// `-stride`: distance of a pair's ranks (0: half the processes).
pub const STRIDE: Slot<usize> = Slot::new("stride");
/// `-window_size`: messages in flight per repetition of UniBandMT and BiBandMT.
pub const WINDOW: Slot<usize> = Slot::new("window_size");
/// `-datatype int|char`.
pub const DATATYPE: Slot<String> = Slot::new("datatype");
/// `-malloc_algo serial|continuous|parallel`.
pub const MALLOC_ALGO: Slot<String> = Slot::new("malloc_algo");
/// `-malloc_align`: bytes each buffer's start is aligned to.
pub const MALLOC_ALIGN: Slot<usize> = Slot::new("malloc_align");
/// Threads per rank, resolved on rank 0 (OMP_NUM_THREADS, else the CPUs allowed; 1 unless
/// the thread level is multiple).
pub const THREADS: Slot<usize> = Slot::new("threads");
/// `-check on|off` as given (the engine's check flag carries it too).
pub const CHECK: Slot<bool> = Slot::new("check");
/// `-noheader`: no header in the text output.
pub const NOHEADER: Slot<bool> = Slot::new("noheader");

/// IMB-MT's defaults.
pub const DEFAULT_COUNTS: &[usize] = &[1, 2, 4, 8];
pub const DEFAULT_REPEAT: usize = 1000;
pub const DEFAULT_WARMUP: usize = 100;
pub const DEFAULT_WINDOW: usize = 64;
pub const DEFAULT_ALIGN: usize = 64;
/// Largest `-window_size` and `-malloc_align` taken: one request each, bytes of slack.
pub const MAX_WINDOW: usize = 1 << 20;
pub const MAX_ALIGN: usize = 1 << 20;
/// Most threads per rank taken (a typo's thousands of threads would only thrash).
pub const MAX_THREADS: usize = 1024;

/// The barrier before a timed loop (IMB-MT's `-barrier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barrier {
    Off,
    /// MPI_Barrier on MPI_COMM_WORLD by thread 0 between two barriers of the rank's threads.
    On,
    /// The same with IMB-MT's dissemination barrier of zero-byte MPI_Sendrecv.
    Special,
}

/// How each thread's buffers are placed (IMB-MT's `-malloc_algo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Malloc {
    /// Every thread's own buffers, allocated by the rank's first thread.
    Serial,
    /// One block per buffer kind for all threads, each thread's part after the other's.
    Continuous,
    /// Each thread allocates its own, after it is bound (first touch on its CPU's memory).
    Parallel,
}

/// The element type of a message (IMB-MT's `-datatype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Datatype {
    Int,
    Char,
}

impl Datatype {
    pub const fn size(self) -> usize {
        match self {
            Datatype::Int => std::mem::size_of::<std::os::raw::c_int>(),
            Datatype::Char => 1,
        }
    }
    pub const fn word(self) -> &'static str {
        match self {
            Datatype::Int => "int",
            Datatype::Char => "char",
        }
    }
}

/// What the benchmarks read of the resolved options.
#[derive(Debug, Clone, PartialEq)]
pub struct Mt {
    pub threads: usize,
    pub repeat: usize,
    pub warmup: usize,
    pub barrier: Barrier,
    pub stride: usize,
    pub window: usize,
    pub datatype: Datatype,
    pub malloc: Malloc,
    pub align: usize,
}

impl Mt {
    /// The options of a run from its resolved values and thread level: one thread per rank,
    /// on MPI_COMM_WORLD, buffers allocated serially, unless the level is multiple (IMB-MT).
    pub fn of(v: &Values, level: ThreadLevel) -> Mt {
        let multiple = level == ThreadLevel::Multiple;
        let malloc = match MALLOC_ALGO.get(v).as_deref() {
            Some("continuous") if multiple => Malloc::Continuous,
            Some("parallel") if multiple => Malloc::Parallel,
            _ => Malloc::Serial,
        };
        Mt {
            threads: if multiple {
                THREADS.get(v).unwrap_or(1).max(1)
            } else {
                1
            },
            repeat: REPEAT.get(v).unwrap_or(DEFAULT_REPEAT),
            warmup: WARMUP.get(v).unwrap_or(DEFAULT_WARMUP),
            barrier: match BARRIER.get(v).as_deref() {
                Some("off") => Barrier::Off,
                Some("special") => Barrier::Special,
                _ => Barrier::On,
            },
            stride: STRIDE.get(v).unwrap_or(0),
            window: WINDOW.get(v).unwrap_or(DEFAULT_WINDOW),
            datatype: datatype_of(v),
            malloc,
            align: MALLOC_ALIGN.get(v).unwrap_or(DEFAULT_ALIGN),
        }
    }
}

/// `-count`'s list: positive element counts, comma-separated.
pub fn counts(v: &str) -> std::result::Result<Vec<usize>, String> {
    let out: Option<Vec<usize>> = v
        .split(',')
        .map(|c| c.trim().parse::<usize>().ok().filter(|&n| n > 0))
        .collect();
    match out {
        Some(c) if !c.is_empty() => Ok(c),
        _ => Err("expected element counts above 0, separated by commas (e.g. 1,2,4,8)".into()),
    }
}

/// The message bytes of one thread for the counts and datatype: count × the type's size.
pub fn lengths(counts: &[usize], dt: Datatype) -> Vec<usize> {
    counts.iter().map(|c| c.saturating_mul(dt.size())).collect()
}

fn number(v: &str, lo: usize, hi: usize) -> std::result::Result<usize, String> {
    match v.trim().parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from {lo} to {hi}")),
    }
}

fn word(v: &str, words: &[&str]) -> std::result::Result<String, String> {
    let w = v.trim().to_ascii_lowercase();
    if words.contains(&w.as_str()) {
        Ok(w)
    } else {
        Err(format!("expected {}", words.join(", ")))
    }
}

/// IMB-MT's words for a switch (its option parser's).
fn switch(v: &str) -> std::result::Result<bool, String> {
    match v.trim() {
        "on" | "yes" | "ON" | "YES" | "true" | "enable" | "TRUE" | "ENABLE" | "1" => Ok(true),
        "off" | "no" | "OFF" | "NO" | "false" | "disable" | "FALSE" | "DISABLE" | "0" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

/// The threads of a rank: OMP_NUM_THREADS (its first value, as OpenMP reads the outer level),
/// else the CPUs this process may run on, as OpenMP counts them.
pub fn threads_from(env: Option<&str>, cpus: usize) -> std::result::Result<usize, String> {
    match env.map(str::trim).filter(|e| !e.is_empty()) {
        None => Ok(cpus.clamp(1, MAX_THREADS)),
        Some(e) => {
            let first = e.split(',').next().unwrap_or("").trim();
            match first.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
                _ => Err(format!(
                    "OMP_NUM_THREADS={e:?}: expected a thread count from 1 to {MAX_THREADS}"
                )),
            }
        }
    }
}

/// The threads OMP_NUM_THREADS asks for when it asks for more than one and the thread level
/// `level` runs one (below multiple).
pub fn threads_asked(level: ThreadLevel) -> Option<usize> {
    if level == ThreadLevel::Multiple {
        return None;
    }
    let env = std::env::var("OMP_NUM_THREADS").ok();
    threads_from(env.as_deref(), 1).ok().filter(|&t| t > 1)
}

fn resolve(f: &FamilyIn) -> Result<Values> {
    let mut v = f.raw.clone();
    let env = std::env::var("OMP_NUM_THREADS").ok();
    let cpus = imb_harness::binding::allowed_cpus()
        .map(|c| c.len())
        .unwrap_or(1);
    let t = if f.thread_level == ThreadLevel::Multiple {
        threads_from(env.as_deref(), cpus).map_err(|e| Error::arg("OMP_NUM_THREADS", e))?
    } else {
        1
    };
    THREADS.set(&mut v, t);
    if CHECK.get(&v) == Some(true) && DATATYPE.get(&v).as_deref() == Some("char") {
        return Err(Error::arg(
            "-check",
            "verifies int elements only, as IMB-MT's does: use -datatype int",
        ));
    }
    // The engine cuts a longer message to its largest size (2^MAXMSGLOG bytes) and runs
    // that instead; a count is what the user asked for, so it is refused, not changed.
    if let Some(c) = COUNT.get(&v) {
        let dt = datatype_of(&v);
        let cap = imb_core::lengths::maxmsg(f.params, 1);
        if let Some(&big) = counts(&c)
            .unwrap_or_default()
            .iter()
            .find(|&&n| n.saturating_mul(dt.size()) > cap)
        {
            return Err(Error::arg(
                "-count",
                format!(
                    "{big} {w} elements are {} bytes a message, above imb-rs's largest message \
                     ({cap} bytes: at most {} {w} elements)",
                    big.saturating_mul(dt.size()),
                    cap / dt.size(),
                    w = dt.word(),
                ),
            ));
        }
    }
    if let Some(s) = STRIDE.get(&v).filter(|&s| s > 0) {
        if s > f.np / 2 {
            return Err(Error::arg(
                "-stride",
                format!(
                    "{s} leaves no pair on {} processes (at most half the processes, {})",
                    f.np,
                    f.np / 2
                ),
            ));
        }
    }
    Ok(v)
}

/// `-datatype`'s type (int unless char).
fn datatype_of(v: &Values) -> Datatype {
    match DATATYPE.get(v).as_deref() {
        Some("char") => Datatype::Char,
        _ => Datatype::Int,
    }
}

/// The run's message lengths: `-count`'s counts (IMB-MT's 1,2,4,8 by default) times the
/// datatype's size.
fn run_lengths(_: &FamilyIn, v: &Values) -> Option<Vec<usize>> {
    let c = COUNT
        .get(v)
        .and_then(|c| counts(&c).ok())
        .unwrap_or_else(|| DEFAULT_COUNTS.to_vec());
    Some(lengths(&c, datatype_of(v)))
}

/// Options of the other executables, and the engine's options IMB-MT does not have, refused
/// here with the reason: each would otherwise be accepted and change nothing, or change the
/// run in a way IMB-MT never does (`-compat 2021`'s probe loops would cut `-repeat`).
pub const REFUSED: [Refused; 25] = [
    Refused {
        name: "aggregate_mode",
        takes: Takes::Value,
        why: "{exe} has no AGGREGATE/NON-AGGREGATE tables (imb-ext and imb-io have)",
    },
    Refused {
        name: "dir",
        takes: Takes::Value,
        why: "only imb-io creates files",
    },
    Refused {
        name: "off_cache",
        takes: Takes::Value,
        why: "{exe}'s threads each send from buffers of their own, as IMB-MT's; IMB-MT has no -off_cache",
    },
    Refused {
        name: "sync",
        takes: Takes::Value,
        why: "{exe}'s collectives always time each call alone with -barrier's barriers after it, as IMB-MT's",
    },
    Refused {
        name: "root_shift",
        takes: Takes::Value,
        why: "{exe}'s rooted collectives use root 0, as IMB-MT's",
    },
    Refused {
        name: "imb_barrier",
        takes: Takes::Value,
        why: "{exe} chooses its barrier with -barrier on|off|special, as IMB-MT does",
    },
    Refused {
        name: "warm_up",
        takes: Takes::Value,
        why: "{exe} warms up every size in every thread: use -warmup N, as IMB-MT does",
    },
    Refused {
        name: "msg_pause",
        takes: Takes::Value,
        why: "IMB-MT has no pause between sizes",
    },
    Refused {
        name: "compat",
        takes: Takes::Value,
        why: "{exe} always measures as IMB 2021's IMB-MT does (-repeat repetitions after -warmup, \
              the megabyte 10^6 bytes); IMB 3.0 had no MT part",
    },
    Refused {
        name: "iter_policy",
        takes: Takes::Value,
        why: "{exe} runs every size -repeat times, as IMB-MT does",
    },
    Refused {
        name: "iter",
        takes: Takes::Value,
        why: "{exe} runs every size -repeat times, as IMB-MT does: use -repeat N",
    },
    Refused {
        name: "time",
        takes: Takes::Value,
        why: "{exe} runs every size -repeat times, as IMB-MT does: lower -repeat or -count",
    },
    Refused {
        name: "npmin",
        takes: Takes::Value,
        why: "{exe} runs every benchmark once on all processes of the run, as IMB-MT does",
    },
    Refused {
        name: "multi",
        takes: Takes::Value,
        why: "{exe} runs every benchmark once on all processes of the run, as IMB-MT does",
    },
    Refused {
        name: "map",
        takes: Takes::Value,
        why: "{exe}'s threads pair world ranks r and r+S (-stride S), as IMB-MT's do",
    },
    Refused {
        name: "mem",
        takes: Takes::Value,
        why: "IMB-MT has no -mem: lower -count",
    },
    Refused {
        name: "zero_size",
        takes: Takes::Value,
        why: "{exe}'s sizes are -count's element counts, none of them 0",
    },
    Refused {
        name: "adaptive",
        takes: Takes::Flag,
        why: "{exe}'s threads time all -repeat repetitions of a size in one loop each, as \
              IMB-MT's do",
    },
    Refused {
        name: "cutoff",
        takes: Takes::Value,
        why: "{exe} has no -adaptive (IMB-MT's threads time one loop each)",
    },
    Refused {
        name: "min_reps",
        takes: Takes::Value,
        why: "{exe} has no -adaptive (IMB-MT's threads time one loop each)",
    },
    Refused {
        name: "max_reps",
        takes: Takes::Value,
        why: "{exe} has no -adaptive (IMB-MT's threads time one loop each)",
    },
    Refused {
        name: "data_type",
        takes: Takes::Value,
        why: "IMB 2021 has it only in IMB-MPI1: {exe}'s element type is -datatype int|char, as IMB-MT's",
    },
    Refused {
        name: "red_data_type",
        takes: Takes::Value,
        why: "IMB 2021 has it only in IMB-MPI1: {exe}'s reductions sum -datatype's type, as IMB-MT's",
    },
    Refused {
        name: "contig_type",
        takes: Takes::Value,
        why: "IMB 2021 has it only in IMB-MPI1: {exe}'s messages are contiguous, as IMB-MT's",
    },
    Refused {
        name: "settings",
        takes: Takes::Value,
        why: "IMB-MT reads no settings file: its parameters are -count, -repeat, -warmup and \
              its other options",
    },
];

fn refuse_lengths(_: &mut Raw, _: &str) -> std::result::Result<(), String> {
    Err("imb-mt's sizes are element counts: use -count (and -datatype)".into())
}

/// imb-mt's options.
pub static OPTIONS: Family = Family {
    rows: &[
        Opt::row(
            "count",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                counts(v)?;
                COUNT.set(&mut r.family, v.trim().to_string());
                Ok(())
            },
            (10, 0, "[-count <n1,n2,...>]"),
            "- -count N1,N2,...: element counts of the messages (default 1,2,4,8); #bytes shows\n  \
count x the datatype's size x the threads of a rank.\n",
        ),
        Opt::row(
            "datatype",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                DATATYPE.set(&mut r.family, word(v, &["int", "char"])?);
                Ok(())
            },
            (10, 1, "[-datatype int|char]"),
            "- -datatype int|char: the element type (default int; -check needs int).\n",
        ),
        Opt::row(
            "repeat",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                let n = number(v, 1, 1 << 30)?;
                REPEAT.set(&mut r.family, n);
                r.iter = Some((n, None, None));
                Ok(())
            },
            (10, 2, "[-repeat <n>]"),
            "- -repeat N: timed repetitions of every size (default 1000).\n",
        ),
        Opt::row(
            "warmup",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                WARMUP.set(&mut r.family, number(v, 0, 1 << 30)?);
                Ok(())
            },
            (10, 3, "[-warmup <n>]"),
            "- -warmup N: untimed repetitions before each size (default 100).\n",
        ),
        Opt::row(
            "barrier",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                BARRIER.set(&mut r.family, word(v, &["on", "off", "special"])?);
                Ok(())
            },
            (11, 0, "[-barrier on|off|special]"),
            "- -barrier on|off|special: the barrier before each timed loop (and after each call\n  \
of a collective): MPI_Barrier on MPI_COMM_WORLD (default), none, or IMB-MT's barrier of\n  \
zero-byte MPI_Sendrecv.\n",
        ),
        Opt::row(
            "stride",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                STRIDE.set(&mut r.family, number(v, 0, 1 << 30)?);
                Ok(())
            },
            (11, 1, "[-stride <s>]"),
            "- -stride S: rank r pairs with r+S (0, the default: half the processes).\n",
        ),
        Opt::row(
            "window_size",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                WINDOW.set(&mut r.family, number(v, 1, MAX_WINDOW)?);
                Ok(())
            },
            (11, 2, "[-window_size <w>]"),
            "- -window_size W: messages in flight per repetition of UniBandMT and BiBandMT\n  \
(default 64).\n",
        ),
        Opt::row(
            "malloc_algo",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                MALLOC_ALGO.set(
                    &mut r.family,
                    word(v, &["serial", "continuous", "parallel"])?,
                );
                Ok(())
            },
            (14, 0, "[-malloc_algo serial|continuous|parallel]"),
            "- -malloc_algo serial|continuous|parallel: each thread's buffers allocated by the\n  \
first thread, as one block for all threads, or by each thread once bound (default serial;\n  \
serial unless -thread_level is multiple).\n",
        ),
        Opt::row(
            "malloc_align",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                MALLOC_ALIGN.set(&mut r.family, number(v, 1, MAX_ALIGN)?);
                Ok(())
            },
            (14, 1, "[-malloc_align <bytes>]"),
            "- -malloc_align A: each buffer starts at a multiple of A bytes (default 64).\n",
        ),
        Opt::row(
            "check",
            Takes::Value,
            |r: &mut Raw, v| -> std::result::Result<(), String> {
                r.check = switch(v)?;
                CHECK.set(&mut r.family, r.check);
                Ok(())
            },
            (14, 2, "[-check on|off]"),
            "- -check on|off: verify what every thread received (int only; adds the defects\n  \
column).\n",
        ),
        Opt::row(
            "noheader",
            Takes::Flag,
            |r: &mut Raw, _| -> std::result::Result<(), String> {
                NOHEADER.set(&mut r.family, true);
                Ok(())
            },
            (14, 3, "[-noheader]"),
            "- -noheader: no header before the tables (-json keeps it).\n",
        ),
        Opt::row("msglog", Takes::Value, refuse_lengths, (0, 0, ""), ""),
        Opt::row("msglen", Takes::Value, refuse_lengths, (0, 0, ""), ""),
        Opt::row("msgsize", Takes::Value, refuse_lengths, (0, 0, ""), ""),
    ],
    refused: &REFUSED,
    resolve,
    span: |_, _| 1,
    thread_level: ThreadLevel::Multiple,
    lengths: run_lengths,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_positive_lists() {
        assert_eq!(counts("1,2,4,8").unwrap(), [1, 2, 4, 8]);
        assert_eq!(counts(" 3 ").unwrap(), [3]);
        for bad in ["", "0", "1,,2", "-1", "x"] {
            assert!(counts(bad).is_err(), "{bad}");
        }
        assert_eq!(lengths(&[1, 3], Datatype::Int), [4, 12]);
        assert_eq!(lengths(&[1, 3], Datatype::Char), [1, 3]);
    }

    #[test]
    fn threads_as_openmp_reads_them() {
        assert_eq!(threads_from(None, 2), Ok(2));
        assert_eq!(threads_from(Some("4"), 2), Ok(4));
        assert_eq!(threads_from(Some("3,2"), 2), Ok(3));
        assert_eq!(threads_from(Some(""), 0), Ok(1));
        assert!(threads_from(Some("0"), 2).is_err());
        assert!(threads_from(Some("many"), 2).is_err());
    }

    #[test]
    fn one_thread_unless_multiple() {
        let mut v = Values::default();
        THREADS.set(&mut v, 4);
        MALLOC_ALGO.set(&mut v, "parallel".into());
        let m = Mt::of(&v, ThreadLevel::Multiple);
        assert_eq!((m.threads, m.malloc), (4, Malloc::Parallel));
        let s = Mt::of(&v, ThreadLevel::Serialized);
        assert_eq!((s.threads, s.malloc), (1, Malloc::Serial));
        assert_eq!(s.window, DEFAULT_WINDOW);
        assert_eq!(s.barrier, Barrier::On);
    }

    #[test]
    fn switches_as_imb_mt() {
        assert_eq!(switch("on"), Ok(true));
        assert_eq!(switch("0"), Ok(false));
        assert!(switch("maybe").is_err());
    }
}
