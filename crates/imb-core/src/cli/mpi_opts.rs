//! The options of the MPI executables (imb-mpi1, imb-ext, imb-io), one row each: 3.0's calling
//! sequence first, then IMB 2021's names, then imb-rs's own (doc/ReadMe_IMB.md, "Options").
//! `{npmin}`, `{min}`, `{max}` and `{file}` in the help are the executable's defaults.
//! A declarative table: longer than the engine's other files by design.

use super::syntax::*;
use super::table::{Accept, Opt, Takes};
use super::{AggregateMode, ProgressMode, ThreadLevel};
use clap::builder::ValueParser;

const fn value(
    name: &'static str,
    parser: Option<fn() -> ValueParser>,
    synopsis: (u8, u8, &'static str),
    help: &'static str,
) -> Opt {
    Opt {
        parser,
        ..Opt::row(name, Takes::Value, synopsis, help)
    }
}

const fn flag(name: &'static str, synopsis: (u8, u8, &'static str), help: &'static str) -> Opt {
    Opt::row(name, Takes::Flag, synopsis, help)
}

/// Every option of the MPI executables, in `-help` order.
pub const MPI: &[Opt] = &[
    Opt::row(
        "help",
        Takes::Help,
        (0, 0, "[-h{elp}]"),
        "- h ( or help) just provides basic help; all other arguments are then ignored.\n\n",
    ),
    value(
        "npmin",
        Some(|| ValueParser::new(positive_int)),
        (1, 0, "[-npmin  <NPmin>]"),
        "- NPmin is the minimum number of processes to run the benchmarks on: they run on\n  \
NPmin, 2NPmin, 4NPmin, ..., up to the number of processes P, always ending with P.\n  \
Default: NPmin={npmin}.\n\n",
    ),
    value(
        "map",
        Some(|| ValueParser::new(parse_map)),
        (4, 0, "[-map    <PxQ>]"),
        "- PxQ renumbers the processes along the rows of a P x Q grid (P·Q must equal the number of\n  \
processes): with P processes per node and Q nodes, consecutive ranks then lie on\n  \
different nodes, so e.g. `-map 2x7 PingPong` measures between nodes.\n\n",
    ),
    value(
        "multi",
        Some(|| ValueParser::new(parse_multi)),
        (2, 0, "[-multi  <MultiMode>]"),
        "- MultiMode 0 or 1 runs the Multi- versions: disjoint groups of NP processes run the\n  \
benchmark at the same time. 0: one row with min/max/avg over all processes of all groups;\n  \
1: one row per group (a Group column comes first).\n\n",
    ),
    value(
        "msglen",
        None,
        (3, 0, "[-msglen <Lengths_file>]"),
        "- Lengths_file holds one message length per line (bytes, optionally followed by k or M);\n  \
lines starting with # and blank lines are skipped. It replaces the default lengths.\n\n",
    ),
    Opt::row(
        "input",
        Takes::Append,
        (5, 0, "[-input  <filename>]"),
        "- filename (-input) holds one benchmark name per line; # lines are skipped.\n",
    ),
    Opt::row(
        "include",
        Takes::Append,
        (5, 1, "[-include <b1,b2,...>]"),
        "- -include / -exclude b1,b2: add benchmarks to the list (also those run only when named),\n  \
or remove them from it (IMB 2021).\n\n",
    ),
    Opt::row("exclude", Takes::Append, (5, 2, "[-exclude <b1,b2,...>]"), ""),
    value(
        "msglog",
        Some(|| ValueParser::new(parse_msglog)),
        (6, 0, "[-msglog [<min>:]<max>]"),
        "- -msglog [min:]max: lengths 0, 2^min, ..., 2^max (default {min}:{max}).\n",
    ),
    value(
        "iter",
        Some(|| ValueParser::new(parse_iter)),
        (6, 1, "[-iter <msgs>[,<vol_MB>[,<nonaggr>]]]"),
        "- -iter msgs[,vol_MB[,nonaggr]]: MSGSPERSAMPLE, OVERALL_VOL in MiB, MSGS_NONAGGR.\n",
    ),
    value(
        "iter_policy",
        Some(|| ValueParser::new(iter_policy)),
        (6, 2, "[-iter_policy off]"),
        "- -iter_policy off: IMB 2021's name for the fixed repetition counts imb-rs always uses.\n",
    ),
    value(
        "time",
        Some(|| ValueParser::new(positive_float)),
        (7, 0, "[-time <seconds>]"),
        "- -time S: at most about S seconds of repetitions per message size.\n",
    ),
    value(
        "mem",
        Some(|| ValueParser::new(positive_float)),
        (7, 1, "[-mem <GB>]"),
        "- -mem GB: skip message sizes whose buffers need more than GB GiB per process.\n",
    ),
    value(
        "zero_size",
        Some(|| ValueParser::new(on_off)),
        (7, 2, "[-zero_size on|off]"),
        "- -zero_size off: leave out the 0-byte size.\n",
    ),
    flag(
        "force",
        (7, 3, "[-force]"),
        "- -force: run even when the repetition counts cannot finish within an hour on any machine.\n",
    ),
    value(
        "thread_level",
        Some(|| ValueParser::new(ThreadLevel::parse)),
        (8, 0, "[-thread_level single|funneled|serialized|multiple]"),
        "- -thread_level L: the thread level requested from MPI_Init_thread (default single).\n",
    ),
    value(
        "settings",
        None,
        (9, 0, "[-settings <file.toml>]"),
        "- -settings F: parameters from a settings file ({file}); its [optional] block\n  \
applies when IMB_OPTIONAL = true, and the header then says so.\n",
    ),
    Opt {
        accept: Accept::Aggregate,
        ..value(
            "aggregate_mode",
            Some(|| ValueParser::new(AggregateMode::parse)),
            (10, 0, "[-aggregate_mode aggregate|non_aggregate|both]"),
            "- -aggregate_mode M: run the AGGREGATE tables, the NON-AGGREGATE tables, or both\n  \
(default).\n",
        )
    },
    Opt {
        accept: Accept::Window,
        ..value(
            "window_size",
            Some(|| ValueParser::new(window_size)),
            (10, 1, "[-window_size <W>]"),
            "- -window_size W: Uniband and Biband keep W messages in flight per repetition\n  \
(IMB 2021; default 256).\n",
        )
    },
    Opt {
        accept: Accept::Files,
        ..value(
            "dir",
            None,
            (11, 0, "[-dir <directory>]"),
            "- -dir D: create the files (FILENAME, FILENAME_<rank>, ...) in D (default the\n  \
current directory). They are removed when each benchmark ends, also after an error or a\n  \
signal. A file already there under one of those names stops the run, unless -overwrite\n  \
lets imb-io replace it (and then remove it).\n",
        )
    },
    Opt {
        accept: Accept::Files,
        ..flag("overwrite", (11, 1, "[-overwrite]"), "")
    },
    flag(
        "adaptive",
        (12, 0, "[-adaptive [-cutoff <pct>] [-min_reps <n>] [-max_reps <n>]]"),
        "- -adaptive: split the n_sample loop of every size into -min_reps timings (default 5)\n  \
and add timings until the 95 % confidence interval of their median is within +-cutoff %\n  \
(default 10) of it, at most -max_reps timings (default 2 x -min_reps, so at most twice the\n  \
standard run's repetitions). Rows show each rank's median; a note after each table gives\n  \
every size's median, interval and timings, and UNSETTLED where the budget ran out.\n",
    ),
    value(
        "cutoff",
        Some(|| ValueParser::new(nonneg_float)),
        (0, 0, ""),
        "",
    ),
    value(
        "min_reps",
        Some(|| ValueParser::new(positive_int)),
        (0, 0, ""),
        "",
    ),
    value(
        "max_reps",
        Some(|| ValueParser::new(positive_int)),
        (0, 0, ""),
        "",
    ),
    value(
        "json",
        None,
        (9, 1, "[-json <file>]"),
        "- -json F: also write every table as JSON to F (rewritten after each table).\n",
    ),
    flag(
        "check",
        (9, 2, "[-check]"),
        "- -check: verify every received buffer; adds the defects column and fails the run on any\n  \
defect (check-mode timings are not benchmark results).\n",
    ),
    flag(
        "summary",
        (13, 0, "[-summary]"),
        "- -summary: after the last table, each table's lowest latency and highest bandwidth with\n  \
their message sizes, as # comment lines (and under \"summary\" in the -json file).\n",
    ),
    value(
        "progress",
        Some(|| ValueParser::new(ProgressMode::parse)),
        (13, 1, "[-progress on|off|auto]"),
        "- -progress on|off|auto: lines on stderr saying which benchmark, process count and size\n  \
the run is at, the time elapsed and an estimate of the time left; never on stdout. auto\n  \
(default): only when stderr is a terminal (launchers usually hand the ranks a pipe: use on).\n",
    ),
    flag(
        "list",
        (9, 3, "[-list]"),
        "- -list: list the benchmarks and exit.\n\n",
    ),
    Opt::row(
        "names",
        Takes::Names,
        (14, 0, "[benchmark1 [benchmark2 [...]]]"),
        "- benchmarki is a benchmark name of this executable, in any case. They run in the order\n  \
given; default: all of the first list below, in its order.\n\n",
    ),
];
