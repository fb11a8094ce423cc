//! `-help` and `-list`, and the dash spellings of option names in messages.

use super::*;

/// `-list`: the benchmarks of this executable in default run order.
pub fn list(spec: &Spec) -> String {
    let mut s = format!("# Benchmarks of {} (default run order):\n", spec.exe);
    for n in &spec.names[..spec.defaults] {
        s.push_str(&format!("# {n}\n"));
    }
    if spec.defaults < spec.names.len() {
        s.push_str("# Run only when named:\n");
        for n in &spec.names[spec.defaults..] {
            s.push_str(&format!("# {n}\n"));
        }
    }
    s
}

/// `-help`: 3.0's calling sequence, then the options imb-rs adds; only the options this
/// executable accepts.
pub fn help(spec: &Spec) -> String {
    let exe = format!("{:<12}", spec.exe);
    let pad = " ".repeat(12);
    let io = spec.kind == Kind::Io;
    let mut synopsis = vec![
        format!("{exe}[-h{{elp}}]"),
        "[-npmin  <NPmin>]".into(),
        "[-multi  <MultiMode>]".into(),
        "[-msglen <Lengths_file>]".into(),
        "[-map    <PxQ>]".into(),
        "[-input  <filename>] [-include <b1,b2,...>] [-exclude <b1,b2,...>]".into(),
        "[-msglog [<min>:]<max>] [-iter <msgs>[,<vol_MB>[,<nonaggr>]]] [-iter_policy off]".into(),
        "[-time <seconds>] [-mem <GB>] [-zero_size on|off] [-force]".into(),
        "[-thread_level single|funneled|serialized|multiple]".into(),
        "[-settings <file.toml>] [-json <file>] [-check] [-list]".into(),
    ];
    if spec.aggregate {
        synopsis.push("[-aggregate_mode aggregate|non_aggregate|both]".into());
    }
    if io {
        synopsis.push("[-dir <directory>] [-overwrite]".into());
    }
    synopsis.push("[-adaptive [-cutoff <pct>] [-min_reps <n>] [-max_reps <n>]]".into());
    synopsis.push("[benchmark1 [benchmark2 [...]]]".into());
    let mut s = String::from("\nCalling sequence:\n\n\n");
    for (i, l) in synopsis.iter().enumerate() {
        if i > 0 {
            s.push_str(&pad);
        }
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("\nwhere \n\n");
    let npmin = spec.npmin;
    let std = settings::standard(spec.kind);
    s.push_str(&format!(
        "- h ( or help) just provides basic help; all other arguments are then ignored.\n\n\
- NPmin is the minimum number of processes to run the benchmarks on: they run on\n  \
NPmin, 2NPmin, 4NPmin, ..., up to the number of processes P, always ending with P.\n  \
Default: NPmin={npmin}.\n\n\
- PxQ renumbers the processes along the rows of a P x Q grid (P·Q must equal the number of\n  \
processes): with P processes per node and Q nodes, consecutive ranks then lie on\n  \
different nodes, so e.g. `-map 2x7 PingPong` measures between nodes.\n\n\
- MultiMode 0 or 1 runs the Multi- versions: disjoint groups of NP processes run the\n  \
benchmark at the same time. 0: one row with min/max/avg over all processes of all groups;\n  \
1: one row per group (a Group column comes first).\n\n\
- Lengths_file holds one message length per line (bytes, optionally followed by k or M);\n  \
lines starting with # and blank lines are skipped. It replaces the default lengths.\n\n\
- filename (-input) holds one benchmark name per line; # lines are skipped.\n\
- -include / -exclude b1,b2: add benchmarks to the list (also those run only when named),\n  \
or remove them from it (IMB 2021).\n\n\
- -msglog [min:]max: lengths 0, 2^min, ..., 2^max (default {min}:{max}).\n\
- -iter msgs[,vol_MB[,nonaggr]]: MSGSPERSAMPLE, OVERALL_VOL in MiB, MSGS_NONAGGR.\n\
- -iter_policy off: IMB 2021's name for the fixed repetition counts imb-rs always uses.\n\
- -time S: at most about S seconds of repetitions per message size.\n\
- -mem GB: skip message sizes whose buffers need more than GB GiB per process.\n\
- -zero_size off: leave out the 0-byte size.\n\
- -force: run even when the repetition counts cannot finish within an hour on any machine.\n\
- -thread_level L: the thread level requested from MPI_Init_thread (default single).\n\
- -settings F: parameters from a settings file ({file}); its [optional] block\n  \
applies when IMB_OPTIONAL = true, and the header then says so.\n",
        min = std.minmsglog,
        max = std.maxmsglog,
        file = if io {
            "settings/settings_io.toml"
        } else {
            "settings/settings.toml"
        },
    ));
    if spec.aggregate {
        s.push_str(
            "- -aggregate_mode M: run the AGGREGATE tables, the NON-AGGREGATE tables, or both\n  \
(default).\n",
        );
    }
    if io {
        s.push_str(
            "- -dir D: create the files (FILENAME, FILENAME_<rank>, ...) in D (default the\n  \
current directory). They are removed when each benchmark ends, also after an error or a\n  \
signal. A file already there under one of those names stops the run, unless -overwrite\n  \
lets imb-io replace it (and then remove it).\n",
        );
    }
    s.push_str(&format!(
        "- -adaptive: split the n_sample loop of every size into -min_reps timings (default 5)\n  \
and add timings until the 95 % confidence interval of their median is within +-cutoff %\n  \
(default 10) of it, at most -max_reps timings (default 2 x -min_reps, so at most twice the\n  \
standard run's repetitions). Rows show each rank's median; a note after each table gives\n  \
every size's median, interval and timings, and UNSETTLED where the budget ran out.\n\
- -json F: also write every table as JSON to F (rewritten after each table).\n\
- -check: verify every received buffer; adds the defects column and fails the run on any\n  \
defect (check-mode timings are not benchmark results).\n\
- -list: list the benchmarks and exit.\n\n\
- benchmarki is a benchmark name of this executable, in any case. They run in the order\n  \
given; default: all of the first list below, in its order.\n\n\
List of benchmarks of {exe}:\n",
        exe = spec.exe,
    ));
    for n in &spec.names[..spec.defaults] {
        s.push_str(&format!("{n}\n"));
    }
    if spec.defaults < spec.names.len() {
        s.push_str("\nRun only when named:\n");
        for n in &spec.names[spec.defaults..] {
            s.push_str(&format!("{n}\n"));
        }
    }
    s
}

/// For the suites with their own options (imb-threads, imb-omp): IMB style (`-name value`,
/// `-name=value`, `--name`) to clap's `--name=value`. A value option without its value, a flag
/// with one, and an unknown option are one-line errors naming them.
pub fn dashes(
    args: &[String],
    value_opts: &[&str],
    flag_opts: &[&str],
) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(bare) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
            out.push(a.clone());
            continue;
        };
        let (name, inline) = match bare.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (bare, None),
        };
        if value_opts.contains(&name) {
            let value = match inline {
                Some(v) => v,
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("-{name}: needs a value"))?,
            };
            out.push(format!("--{name}={value}"));
        } else if flag_opts.contains(&name) {
            if inline.is_some() {
                return Err(format!("-{name}: takes no value"));
            }
            out.push(format!("--{name}"));
        } else {
            return Err(format!("-{name}: unknown option (see -help)"));
        }
    }
    Ok(out)
}

/// The whole command line of a suite with its own options (imb-threads, imb-omp): `dashes`,
/// then clap with every value option taking one value, every flag a switch, and the rest as
/// `names`. Errors are one line.
pub fn dash_matches(
    exe: &'static str,
    args: &[String],
    value_opts: &[&'static str],
    flag_opts: &[&'static str],
) -> std::result::Result<clap::ArgMatches, String> {
    let norm = dashes(args, value_opts, flag_opts)?;
    let mut c = Command::new(exe)
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args_override_self(true);
    for o in value_opts {
        c = c.arg(Arg::new(*o).long(*o).num_args(1).allow_hyphen_values(true));
    }
    for o in flag_opts {
        c = c.arg(Arg::new(*o).long(*o).action(ArgAction::SetTrue));
    }
    c.arg(Arg::new("names").action(ArgAction::Append).num_args(0..))
        .try_get_matches_from(&norm)
        .map_err(|e| e.to_string().lines().next().unwrap_or_default().to_string())
}
