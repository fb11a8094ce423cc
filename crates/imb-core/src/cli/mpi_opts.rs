//! The options of the MPI executables (imb-mpi1, imb-ext, imb-io, imb-rma, imb-nbc), one row
//! each with its setter into `Raw`: 3.0's calling sequence first, then IMB 2021's names, then
//! imb-rs's own (doc/ReadMe_IMB.md, "Options"). `{npmin}`, `{min}`, `{max}` and `{file}` in the
//! help are the executable's defaults. A declarative table: longer than the engine's other
//! files by design. `read` turns argv into a `Raw` through it.

use super::family::{all_rows, Family};
use super::method_opts::{IMB2021_REFUSED, METHOD};
use super::raw::{Command, Named, Raw};
use super::shared;
use super::table::{self, Accept, Opt, Takes};
use super::value::*;
use crate::error::Result;

type Row = Opt<Raw>;
type Why = std::result::Result<(), String>;

/// A list of `-include`/`-exclude` that names a benchmark: `-include "$LIST"` with an empty
/// variable would otherwise run the default list without a word.
fn names_some(v: &str) -> std::result::Result<&str, String> {
    if v.split(',').all(|n| n.trim().is_empty()) {
        Err("names no benchmark (a comma-separated list of names)".to_string())
    } else {
        Ok(v)
    }
}

const fn value(
    name: &'static str,
    set: table::Set<Raw>,
    synopsis: (u8, u8, &'static str),
    help: &'static str,
) -> Row {
    Opt::row(name, Takes::Value, set, synopsis, help)
}

const fn flag(
    name: &'static str,
    set: table::Set<Raw>,
    synopsis: (u8, u8, &'static str),
    help: &'static str,
) -> Row {
    Opt::row(name, Takes::Flag, set, synopsis, help)
}

/// Where a family's own rows stand in `-help`: after this row.
pub const FAMILY_AFTER: &str = "aggregate_mode";

/// Read argv (without the program name) through `MPI` and `family`'s rows. Pure: the same
/// argv gives the same result anywhere. `-h` wins over everything after it; wrong values over
/// `-list`. `aggregate`: whether the executable has AGGREGATE tables (`Spec::aggregate`).
pub fn read(args: &[String], family: &Family, aggregate: bool) -> Result<Command> {
    let rows = all_rows(&engine_rows(), family, aggregate);
    let Some(given) = table::imb_style(args, &rows, IMB2021_REFUSED)? else {
        return Ok(Command::Help);
    };
    let mut raw = Raw::default();
    table::apply_imb(&mut raw, given, &rows)?;
    if raw.shared.list {
        return Ok(Command::List(raw.method.compat.unwrap_or_default()));
    }
    Ok(Command::Run(Box::new(raw)))
}

/// The engine's rows: `MPI` and IMB 2021's method options (`method_opts::METHOD`).
pub fn engine_rows() -> Vec<Row> {
    [MPI, METHOD].concat()
}

/// Every option of the MPI executables but IMB 2021's method options, in `-help` order.
pub const MPI: &[Row] = &[
    shared::help(
        (0, 0, "[-h{elp}]"),
        "- h ( or help) just provides basic help; all other arguments are then ignored.\n\n",
    ),
    value(
        "npmin",
        |r, v| -> Why {
            r.npmin = Some(positive_int(v)?);
            Ok(())
        },
        (1, 0, "[-npmin  <NPmin>]"),
        "- NPmin is the minimum number of processes to run the benchmarks on: they run on\n  \
NPmin, 2NPmin, 4NPmin, ..., up to the number of processes P, always ending with P.\n  \
Default: NPmin={npmin}.\n\n",
    ),
    value(
        "map",
        |r, v| -> Why {
            r.map = Some(parse_map(v)?);
            Ok(())
        },
        (4, 0, "[-map    <PxQ>]"),
        "- PxQ renumbers the processes along the rows of a P x Q grid (P·Q must equal the number of\n  \
processes): with P processes per node and Q nodes, consecutive ranks then lie on\n  \
different nodes, so e.g. `-map 2x7 PingPong` measures between nodes.\n\n",
    ),
    value(
        "multi",
        |r, v| -> Why {
            r.multi = Some(parse_multi(v)?);
            Ok(())
        },
        (2, 0, "[-multi  <MultiMode>]"),
        "- MultiMode 0 or 1 runs the Multi- versions: disjoint groups of NP processes run the\n  \
benchmark at the same time. 0: one row with min/max/avg over all processes of all groups;\n  \
1: one row per group (a Group column comes first).\n\n",
    ),
    value(
        "msglen",
        |r, v| -> Why {
            r.msglen = Some(v.to_string());
            Ok(())
        },
        (3, 0, "[-msglen <Lengths_file>]"),
        "- Lengths_file holds one message length per line (bytes, optionally followed by k or M);\n  \
lines starting with # and blank lines are skipped. It replaces the default lengths.\n\n",
    ),
    Opt::row(
        "input",
        Takes::Append,
        |r, v| -> Why {
            r.shared.names.push(Named::Input(v.to_string()));
            Ok(())
        },
        (5, 0, "[-input  <filename>]"),
        "- filename (-input) holds one benchmark name per line; # lines are skipped.\n",
    ),
    Opt::row(
        "include",
        Takes::Append,
        |r, v| -> Why {
            r.include.push(names_some(v)?.to_string());
            Ok(())
        },
        (5, 1, "[-include <b1,b2,...>]"),
        "- -include / -exclude b1,b2: add benchmarks to the list (also those run only when named),\n  \
or remove them from it (IMB 2021).\n\n",
    ),
    Opt::row(
        "exclude",
        Takes::Append,
        |r, v| -> Why {
            r.exclude.push(names_some(v)?.to_string());
            Ok(())
        },
        (5, 2, "[-exclude <b1,b2,...>]"),
        "",
    ),
    value(
        "msglog",
        |r, v| -> Why {
            r.msglog = Some(parse_msglog(v)?);
            Ok(())
        },
        (6, 0, "[-msglog [<min>:]<max>]"),
        "- -msglog [min:]max: lengths 0, 2^min, ..., 2^max (default {min}:{max}).\n",
    ),
    value(
        "iter",
        |r, v| -> Why {
            r.iter = Some(parse_iter(v)?);
            Ok(())
        },
        (6, 1, "[-iter <msgs>[,<vol_MB>[,<nonaggr>]]]"),
        "- -iter msgs[,vol_MB[,nonaggr]]: MSGSPERSAMPLE, OVERALL_VOL in MiB, MSGS_NONAGGR.\n",
    ),
    value(
        "time",
        |r, v| -> Why {
            r.time = Some(positive_float(v)?);
            Ok(())
        },
        (7, 0, "[-time <seconds>]"),
        "- -time S: at most about S seconds of repetitions per message size.\n",
    ),
    value(
        "mem",
        |r, v| -> Why {
            r.mem_gb = Some(positive_float(v)?);
            Ok(())
        },
        (7, 1, "[-mem <GB>]"),
        "- -mem GB: skip message sizes whose buffers need more than GB GiB per process.\n",
    ),
    value(
        "zero_size",
        |r, v| -> Why {
            r.zero_size = Some(on_off(v)?);
            Ok(())
        },
        (7, 2, "[-zero_size on|off]"),
        "- -zero_size off: leave out the 0-byte size.\n",
    ),
    shared::force(
        (7, 3, "[-force]"),
        "- -force: run even when the repetition counts cannot finish within an hour on any machine.\n",
    ),
    value(
        "thread_level",
        |r, v| -> Why {
            r.thread_level = Some(ThreadLevel::parse(v)?);
            Ok(())
        },
        (8, 0, "[-thread_level single|funneled|serialized|multiple]"),
        "- -thread_level L: the thread level requested from MPI_Init_thread (default {thread_level}).\n",
    ),
    shared::settings(
        (9, 0, "[-settings <file.toml>]"),
        "- -settings F: parameters from a settings file ({file}); its [optional] block\n  \
applies when IMB_OPTIONAL = true, and the header then says so.\n",
    ),
    value(
            "aggregate_mode",
            |r, v| -> Why {
                r.aggregate_mode = Some(AggregateMode::parse(v)?);
                Ok(())
            },
            (10, 0, "[-aggregate_mode aggregate|non_aggregate|both]"),
            "- -aggregate_mode M: run the AGGREGATE tables, the NON-AGGREGATE tables, or both\n  \
(default).\n",
    )
    .only(Accept::Aggregate),
    flag(
        "adaptive",
        |r, _| -> Why {
            r.adaptive = true;
            Ok(())
        },
        (12, 0, "[-adaptive [-cutoff <pct>] [-min_reps <n>] [-max_reps <n>]]"),
        "- -adaptive: split the n_sample loop of every size into -min_reps timings (default 5)\n  \
and add timings until the 95 % confidence interval of their median is within +-cutoff %\n  \
(default 10) of it, at most -max_reps timings (default 2 x -min_reps, so at most twice the\n  \
standard run's repetitions). Rows show each rank's median; a note after each table gives\n  \
every size's median, interval and timings, and UNSETTLED where the budget ran out.\n",
    ),
    value(
        "cutoff",
        |r, v| -> Why {
            r.cutoff = Some(nonneg_float(v)?);
            Ok(())
        },
        (0, 0, ""),
        "",
    ),
    value(
        "min_reps",
        |r, v| -> Why {
            r.min_reps = Some(positive_int(v)?);
            Ok(())
        },
        (0, 0, ""),
        "",
    ),
    value(
        "max_reps",
        |r, v| -> Why {
            r.max_reps = Some(positive_int(v)?);
            Ok(())
        },
        (0, 0, ""),
        "",
    ),
    shared::json(
        (9, 1, "[-json <file>]"),
        "- -json F: also write every table as JSON to F (rewritten after each table).\n",
    ),
    flag(
        "check",
        |r, _| -> Why {
            r.check = true;
            Ok(())
        },
        (9, 2, "[-check]"),
        "- -check: verify every received buffer; adds the defects column and fails the run on any\n  \
defect (check-mode timings are not benchmark results).\n",
    ),
    flag(
        "summary",
        |r, _| -> Why {
            r.summary = true;
            Ok(())
        },
        (13, 0, "[-summary]"),
        "- -summary: after the last table, each table's lowest latency and highest bandwidth with\n  \
their message sizes, as # comment lines (and under \"summary\" in the -json file).\n",
    ),
    shared::progress(
        (13, 1, "[-progress on|off|auto]"),
        "- -progress on|off|auto: lines on stderr saying which benchmark, process count and size\n  \
the run is at, the time elapsed and an estimate of the time left; never on stdout. auto\n  \
(default): only when stderr is a terminal (launchers usually hand the ranks a pipe: use on).\n",
    ),
    shared::list(
        (9, 3, "[-list]"),
        "- -list: list the benchmarks and exit.\n\n",
    ),
    shared::names(
        (20, 0, "[benchmark1 [benchmark2 [...]]]"),
        "- benchmarki is a benchmark name of this executable, in any case. They run in the order\n  \
given; default: all of the first list below, in its order.\n\n",
    ),
];
