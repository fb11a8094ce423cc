//! The reader's tests: whole files of each layout through [`super::parse`], and the helpers
//! that name programs, benchmarks and flags.

use super::imb::{decimal_megabytes, program};
use super::osu::{benchmark as osu_benchmark, program as osu_program};
use super::*;
use crate::read::run::Status;

const IMB30: &str = "\
#---------------------------------------------------
#    Intel (R) MPI Benchmark Suite V3.0, MPI-1 part    
#---------------------------------------------------
# MPI Version           : 3.1
# MPI Thread Environment: MPI_THREAD_MULTIPLE

#---------------------------------------------------
# Benchmarking PingPong 
# #processes = 2 
# ( 2 additional processes waiting in MPI_Barrier)
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.27         0.00
            1         1000         0.26         3.61

#----------------------------------------------------------------
# Benchmarking Multi-Allreduce 
# ( 2 groups of 2 processes each running simultaneous ) 
# Group  0:     0    1
# 
# Group  1:     2    3
# 
#----------------------------------------------------------------
        Group       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            0            0         1000         0.01         0.01         0.01
            1            0         1000         0.02         0.02         0.02

#---------------------------------------------------
# Benchmarking Barrier 
# #processes = 4 
#---------------------------------------------------
 #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
         1000         0.58         0.61         0.60
";

#[test]
fn imb30_tables_and_thread_level() {
    let r = parse("a.txt", IMB30).unwrap();
    assert_eq!(r.title, "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part");
    assert_eq!(r.thread_level(), Some("MPI_THREAD_MULTIPLE"));
    assert_eq!(r.status, Status::Unknown);
    assert_eq!(r.tables.len(), 3);
    let pp = &r.tables[0];
    assert_eq!(
        (pp.benchmark.as_str(), pp.processes, pp.groups),
        ("PingPong", Some(2), 1)
    );
    assert_eq!(pp.columns, ["bytes", "repetitions", "t", "mbytes"]);
    assert_eq!(pp.rows[1], [1.0, 1000.0, 0.26, 3.61]);
    let multi = &r.tables[1];
    assert_eq!((multi.processes, multi.groups), (Some(2), 2));
    assert_eq!(multi.columns[0], "group");
    assert_eq!(multi.rows.len(), 2);
    let barrier = &r.tables[2];
    assert_eq!(barrier.columns, ["repetitions", "t_min", "t_max", "t_avg"]);
    assert_eq!(barrier.processes, Some(4));
}

#[test]
fn imb2021_empty_thread_level_comes_from_the_command() {
    let text = "\
#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part
# MPI Thread Environment: 


# Calling sequence was: 

# ./IMB-MPI1 PingPong -thread_level multiple

# Benchmarking PingPong 
# #processes = 2 
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.12         0.00


# All processes entering MPI_Finalize
";
    let r = parse("b", text).unwrap();
    assert_eq!(r.thread_level(), Some("MPI_THREAD_MULTIPLE"));
    assert_eq!(r.status, Status::Complete);
    assert_eq!(r.core_to_core, None);
    let probed = format!("{text}# core-to-core latency: 36 ns before, 170 ns after\n");
    assert_eq!(
        parse("b", &probed).unwrap().core_to_core,
        Some((36.0, 170.0))
    );
    let timed = format!("{text}# launch wall time: 1.29 s\n");
    assert_eq!(parse("b", &timed).unwrap().wall_secs, Some(1.29));
    let failed = format!("{text}# core-to-core latency: ? ns before, 170 ns after\n");
    assert_eq!(parse("b", &failed).unwrap().core_to_core, None);
    // A figure no probe measured is an input error on its line, not a note of 300 digits.
    let line = text.lines().count() + 1;
    for (bad, want) in [
        (
            "# core-to-core latency: 1e308 ns before, 170 ns after",
            "core-to-core latency 1e308: not one a probe measured (from 0 to 1000000000)",
        ),
        (
            "# core-to-core latency: 36 ns before, -5 ns after",
            "core-to-core latency -5: not one",
        ),
        (
            "# core-to-core latency: nan ns before, inf ns after",
            "core-to-core latency NaN: not one",
        ),
        ("# launch wall time: inf s", "launch wall time inf: not one"),
        ("# launch wall time: -3 s", "launch wall time -3: not one"),
    ] {
        let e = parse("b", &format!("{text}{bad}\n"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&format!("b, line {line}: {want}")), "{e}");
    }
    let plain = text.replace(" -thread_level multiple", "");
    let r = parse("b", &plain).unwrap();
    assert_eq!(r.thread_level(), Some("MPI_THREAD_SINGLE"));
}

/// imb-ext's two tables a process count, each under a banner of its own with its MODE lines;
/// a launcher's message inside a table or a banner is no part of either.
#[test]
fn modes_and_interleaved_warnings() {
    let text = "\
#    imb-rs 0.1.0, MPI-2 part    
#---------------------------------------------------
# Benchmarking Unidir_Put 
# #processes = 2 
#---------------------------------------------------
#
#    MODE: AGGREGATE 
#
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.50         0.00
[vm:1234] some mpirun warning
            1         1000         0.60         1.59

#---------------------------------------------------
# Benchmarking Unidir_Put 
# #processes = 2 
[vm:1234] another warning
#---------------------------------------------------
#
#    MODE: NON-AGGREGATE 
#
       #bytes #repetitions      t[usec]   Mbytes/sec
            0          100         0.90         0.00
";
    let r = parse("c", text).unwrap();
    assert_eq!(r.title, "imb-rs 0.1.0, MPI-2 part");
    assert_eq!(r.thread_level(), None);
    let modes: Vec<_> = r.tables.iter().map(|t| t.mode.clone().unwrap()).collect();
    assert_eq!(modes, ["AGGREGATE", "NON-AGGREGATE"]);
    assert_eq!(r.tables[0].rows.len(), 2);
}

#[test]
fn osu_tables() {
    let text = "\
# OSU MPI Latency Test v7.4
# Datatype: MPI_CHAR.
# Size       Avg Latency(us)
1                       0.22
2                       0.23

# OSU MPI Allreduce Latency Test v7.4
# Datatype: MPI_INT.
# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations
4                       0.40              0.38              0.42        1000

# OSU MPI Barrier Latency Test v7.4
# Avg Latency(us)
             0.51
";
    let r = parse("osu", text).unwrap();
    assert_eq!(r.title, "OSU");
    let names: Vec<_> = r.tables.iter().map(|t| t.benchmark.as_str()).collect();
    assert_eq!(names, ["PingPong", "Allreduce", "Barrier"]);
    assert_eq!(r.tables[0].columns, ["bytes", "t"]);
    assert_eq!(
        r.tables[1].columns,
        ["bytes", "t_avg", "t_min", "t_max", "repetitions"]
    );
    assert_eq!(r.tables[2].columns, ["t_avg"]);
    assert_eq!(r.tables[2].rows, [[0.51]]);
    assert!(r.tables.iter().all(|t| t.processes.is_none()));
    assert_eq!(
        osu_benchmark("# OSU MPI Broadcast Latency Test v7.4"),
        "Bcast"
    );
    assert_eq!(
        osu_benchmark("# OSU MPI All-to-All Personalized Exchange Latency Test v7.4"),
        "Alltoall"
    );
}

#[test]
fn a_short_row_is_an_error_with_its_line() {
    let text = "\
# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.27
";
    let e = parse("x.txt", text).unwrap_err().to_string();
    assert_eq!(
        e,
        "x.txt, line 4: a row of 3 values under a header of 4 columns (line 3)"
    );
}

#[test]
fn flags_oversubscription_and_decimal_megabytes() {
    assert_eq!(
            note_flag("# adaptive: 16 bytes: median 1.74 usec, 98 % interval 1.70..1.77, 10 timings of 10 (slowest rank): UNSETTLED (half-width 1.9 % of the median, cut-off 1 %)"),
            Some((Some(16), Flag::Unsettled))
        );
    assert_eq!(note_flag("# adaptive: 8 bytes: median 1.71 usec"), None);
    assert_eq!(
        note_flag("adaptive: median 0.5 usec: UNSETTLED (half-width 12.0 %)"),
        Some((None, Flag::Unsettled))
    );
    assert_eq!(
        note_flag("# 8 bytes: UNRELIABLE: rank 2: corrected time -0.12 usec <= 0"),
        Some((Some(8), Flag::Unreliable))
    );
    assert_eq!(
        note_flag("# 8 bytes: last receiver: rank 1 (4.39 usec)"),
        None
    );
    let text = "\
#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part
# !! 3 processes share 2 CPUs on one host (oversubscribed): times measure the scheduler
# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            1         1000         0.16         6.25

# 1 bytes: UNRELIABLE: rank 1: corrected time -0.1 usec <= 0
";
    let r = parse("d", text).unwrap();
    assert_eq!(
        r.oversubscribed.as_deref(),
        Some("3 processes share 2 CPUs on one host (oversubscribed): times measure the scheduler")
    );
    assert!((r.tables[0].rows[0][3] - 6.25e6 / 1048576.0).abs() < 1e-9);
    assert_eq!(r.tables[0].flags, [(Some(1), Flag::Unreliable)]);
    assert!(!decimal_megabytes(
        "Intel (R) MPI Benchmark Suite V3.0, MPI-1 part"
    ));
    assert!(!decimal_megabytes(
        "Intel(R) MPI Benchmarks 2019 Update 6, MPI-1 part"
    ));
    assert!(decimal_megabytes(
        "Intel(R) MPI Benchmarks 2021.11, MPI-1 part"
    ));
}

#[test]
fn conditions_and_status_from_the_header() {
    let r = parse("a.txt", IMB30).unwrap();
    let c = &r.conditions;
    assert_eq!(c.program.as_deref(), Some("IMB 3.0"));
    assert_eq!(c.mpi_standard.as_deref(), Some("3.1"));
    assert_eq!(c.parameters.as_ref().map(|p| p.len()), Some(0));
    assert_eq!((c.layout.clone(), c.mpi_library.clone()), (None, None));
    assert_eq!(r.status, Status::Unknown);
    let ours = "\
#    imb-rs 0.1.0, MPI-1 part
# Date                  : Wed Nov 25 05:21:10 2026
# MPI Version           : 3.1
# MPI Thread Environment: MPI_THREAD_SINGLE
#
# !! Results from OPTIONAL mode, not standard mode:
# !! parameters set by the command line:
# !!   MAXMSGLOG = 4 (standard 22)
# !!   MSGSPERSAMPLE = 50 (standard 1000)
#
# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            0           50         0.50         0.00
            1           50         0.36         2.67
";
    let r = parse("o.txt", ours).unwrap();
    assert_eq!(r.identity.date.as_deref(), Some("Wed Nov 25 05:21:10 2026"));
    let p = r.conditions.parameters.as_ref().unwrap();
    assert_eq!(p.keys().collect::<Vec<_>>(), ["MSGSPERSAMPLE"]);
    assert_eq!(
        r.status,
        Status::CutShort("no closing line (# All processes entering MPI_Finalize)".into())
    );
    // Cut in the middle of the last row: that row is no figure.
    let cut = &ours[..ours.len() - 8];
    let r = parse("c.txt", cut).unwrap();
    assert_eq!(r.tables[0].rows.len(), 1);
    assert_eq!(r.status, Status::CutShort("its last row is cut off".into()));
    // A word where a number belongs, in a row-shaped line, is an error naming it.
    let bad = ours.replace("0.36", "n/a.");
    let e = parse("b.txt", &bad).unwrap_err().to_string();
    assert_eq!(
        e,
        "b.txt, line 15: \"n/a.\" where a row has a number (a row of 4 columns, header line 13)"
    );
    assert_eq!(
        program("Intel(R) MPI Benchmarks 2019 Update 6, MPI-1 part").as_deref(),
        Some("IMB 2019 Update 6")
    );
    assert_eq!(osu_program("# OSU MPI Latency Test v7.4"), "OSU 7.4");
}

#[test]
fn time_out_rows_are_flags_without_figures() {
    let text = "\
#    Intel(R) MPI Benchmarks 2021.11, MPI-IO part
# Benchmarking S_IWrite_Indv 
# #processes = 1 
#    MODE: AGGREGATE 
       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]
        32768         1000     10011.25        22.32      9877.96         0.00
        65536 time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\"


# All processes entering MPI_Finalize
";
    let r = parse("t.txt", text).unwrap();
    assert_eq!(r.tables[0].rows.len(), 1);
    assert_eq!(r.tables[0].flags, [(Some(65536), Flag::TimeOut)]);
    assert_eq!(r.status, Status::Complete);
    assert_eq!(
        row_line("   1024 out-of-mem.; needed X=   0.001 GB", 4, false),
        RowLine::NoFigure(1024.0, Flag::OutOfMemory)
    );
    assert_eq!(
        row_line("2 total processes killed", 4, false),
        RowLine::NotARow
    );
}

#[test]
fn group_rows_after_blank_lines() {
    let text = "\
# Benchmarking PingPong 
# #processes = 2 
        Group       #bytes #repetitions      t[usec]   Mbytes/sec

            0            0           50         0.33         0.00

            0            1           50         0.35         2.75

#----------------------------------------------------------------
# Benchmarking Barrier 
# #processes = 2 
        Group #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]

            0           50         0.40         0.41         0.40
";
    let r = parse("m", text).unwrap();
    assert_eq!(r.tables.len(), 2);
    assert_eq!(r.tables[0].rows.len(), 2);
    assert_eq!(r.tables[1].rows, [[0.0, 50.0, 0.40, 0.41, 0.40]]);
}

#[test]
fn no_table_is_an_error() {
    let e = parse("empty.txt", "hello\n").unwrap_err().to_string();
    assert_eq!(e, "empty.txt: no IMB or OSU table in it");
}

/// imb-rs under `-compat 2021`: its method block gives the parameters IMB 2021's runs have
/// by default, and its Mbytes/sec count 10^6 bytes, so they are restated in 2^20.
#[test]
fn compat_2021_text_reads_like_imb_2021() {
    let text = "\
#    imb-rs 0.1.0, MPI-1 part    
# !! Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:
# !!   collectives timed call by call, an untimed barrier after each call (-sync on)
# !!   rooted collectives keep root 0 (-root_shift off)
# !!   -iter_policy dynamic: repetitions cut to about 10 s per size after probe loops
# !!   warm-up: n_sample/10 repetitions before every size (-warm_up on)
# !!   Mbytes/sec counts MB = 10^6 bytes
#

# Benchmarking PingPong 
# #processes = 2 
       #bytes #repetitions      t[usec]   Mbytes/sec
            1         1000         0.16         6.25

";
    let r = parse("c", text).unwrap();
    assert!((r.tables[0].rows[0][3] - 6.25e6 / 1048576.0).abs() < 1e-9);
    let p = r.conditions.parameters.unwrap();
    assert_eq!(
        p,
        crate::read::header::imb2021_options("./IMB-MPI1 PingPong")
    );
}

/// `-map 2x2` at 4 processes: each banner's process count comes before the grid's rank
/// order, and the 2- and 4-process tables keep their keys (read as one before).
#[test]
fn map_banners_key_their_process_count() {
    let text = "\
#    imb-rs 0.1.0, MPI-1 part    
# Date                  : Sat Nov 28 16:09:46 2026

#----------------------------------------------------------------
# Benchmarking Allreduce 
# #processes = 2; rank order (rowwise): 
#     0    2
# 
# ( 2 additional processes waiting in MPI_Barrier)
#----------------------------------------------------------------
       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            0           10         0.01         0.01         0.01
            4           10         3.15         3.16         3.15

#----------------------------------------------------------------
# Benchmarking Allreduce 
# #processes = 4; rank order (rowwise): 
#     0    2
# 
#     1    3
# 
#----------------------------------------------------------------
       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            0           10         0.01         0.01         0.01
            4           10         5.18         5.38         5.33


# All processes entering MPI_Finalize
";
    let r = parse("map.txt", text).unwrap();
    let keys: Vec<_> = r.tables.iter().map(key).collect();
    assert_eq!(
        keys,
        [
            ("Allreduce".to_string(), Some(2), 1, None),
            ("Allreduce".to_string(), Some(4), 1, None)
        ]
    );
    assert_eq!(r.status, Status::Complete);
}

/// A Multi- banner's groups, one listing wrapped after 16 ranks (doc/OUTPUT.md, "Process
/// block"), idle ranks, and a Group column whose rows name the groups.
#[test]
fn multi_banners_with_wrapped_groups_and_idle_ranks() {
    let group = |g: usize, from: usize| {
        let ranks: Vec<String> = (from..from + 18).map(|r| format!(" {r:>4}")).collect();
        format!(
            "# Group  {g}: {}\n# {}\n# \n",
            ranks[..16].concat(),
            ranks[16..].concat()
        )
    };
    let text = format!(
        "\
# Benchmarking Multi-PingPing 
# ( 2 groups of 18 processes each running simultaneous ) 
{}{}# ( 1 additional process waiting in MPI_Barrier)
#-----------------------------------------------------------------------------
        Group       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec

            0            0         1000         2.85         2.86         2.85         0.00
            1            0         1000         2.85         2.86         2.85         0.00
",
        group(0, 0),
        group(1, 18)
    );
    let r = parse("multi.txt", &text).unwrap();
    let t = &r.tables[0];
    assert_eq!(key(t), ("Multi-PingPing".to_string(), Some(18), 2, None));
    assert_eq!(t.rows.len(), 2);
    // The group column names a group of the banner's.
    let beyond = text.replace("            1            0", "            2            0");
    let e = parse("multi.txt", &beyond).unwrap_err().to_string();
    assert_eq!(
        e,
        "multi.txt, line 14: group 2 in a table of 2 group(s) (header line 11)"
    );
}

/// A banner line the reader cannot place, or a process block that contradicts itself, is an
/// input error naming the line: read loosely, the table would go under another key.
#[test]
fn banner_lines_that_cannot_be_placed_are_errors() {
    let table = "\
# Benchmarking Sendrecv 
# #processes = 2; rank order (rowwise): 
#     0    2
# 
# ( 2 additional processes waiting in MPI_Barrier)
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         2.74         0.00
";
    assert_eq!(parse("b.txt", table).unwrap().tables[0].processes, Some(2));
    let cases = [
        (
            "# #processes = 2; rank order (rowwise): ",
            "# #processes = two ",
            "b.txt, line 2: \"#processes = two\": not a process count this reader knows",
        ),
        (
            "; rank order (rowwise): ",
            "; rank order (columnwise): ",
            "b.txt, line 2: \"#processes = 2; rank order (columnwise):\": not a process count \
             this reader knows",
        ),
        (
            "#     0    2\n",
            "#     0\n",
            "b.txt, line 7: the banner of Sendrecv (line 1) lists 1 ranks for 2 processes",
        ),
        (
            "# ( 2 additional processes",
            "# ( 2 extra processes",
            "b.txt, line 5: \"# ( 2 extra processes waiting in MPI_Barrier)\": neither the \
             groups of a Multi- table nor the processes waiting in MPI_Barrier",
        ),
        (
            "# \n# ( 2",
            "# \n# note: something\n# ( 2",
            "b.txt, line 5: \"# note: something\" in the banner of Sendrecv (line 1): not a \
             line of a process block, so the table's processes, groups or mode cannot be told",
        ),
        (
            "# #processes = 2; rank order (rowwise): \n#     0    2\n# \n",
            "",
            "b.txt, line 4: the banner of Sendrecv (line 1) gives no process count (# \
             #processes = N, or the groups of a Multi- table)",
        ),
        (
            "# ( 2 additional",
            "#    MODE: SOMETIMES \n# ( 2 additional",
            "b.txt, line 5: MODE \"SOMETIMES\": a mode is AGGREGATE or NON-AGGREGATE",
        ),
        (
            "# \n# ( 2",
            "# \n# #processes = 2 \n# ( 2",
            "b.txt, line 5: a second process count in the banner of Sendrecv (line 1)",
        ),
    ];
    for (from, to, want) in cases {
        let text = table.replace(from, to);
        assert_ne!(text, table, "{from:?}");
        let e = parse("b.txt", &text).unwrap_err().to_string();
        assert_eq!(e, want, "{to:?}");
    }
    let multi = "\
# Benchmarking Multi-Allreduce 
# ( 2 groups of 2 processes each running simultaneous ) 
# Group  0:     0    2
# 
# Group  1:     1    3
# 
#----------------------------------------------------------------
       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            0         1000         0.01         0.01         0.01
";
    assert_eq!(parse("m.txt", multi).unwrap().tables[0].groups, 2);
    let cases = [
        (
            "# Group  1:     1    3\n# \n",
            "",
            "m.txt, line 6: the banner of Multi-Allreduce (line 1) lists 1 groups for 2",
        ),
        (
            "# Group  1:     1    3",
            "# Group  1:     1",
            "m.txt, line 8: the banner of Multi-Allreduce (line 1) lists 1 ranks in group 1 \
             for 2 processes a group",
        ),
        (
            "# Group  0:",
            "# Group  1:",
            "m.txt, line 3: group 1 listed where group 0 comes (groups are numbered from 0 in \
             banner order)",
        ),
        (
            "# ( 2 groups of 2 processes each running simultaneous ) \n",
            "",
            "m.txt, line 2: \"# Group  0:     0    2\" in the banner of Multi-Allreduce (line \
             1) with no \"( G groups of N processes …)\" line before it",
        ),
    ];
    for (from, to, want) in cases {
        let text = multi.replace(from, to);
        assert_ne!(text, multi, "{from:?}");
        let e = parse("m.txt", &text).unwrap_err().to_string();
        assert_eq!(e, want, "{to:?}");
    }
}

/// Rows and column titles that belong to no banner, and a second table under one key, are
/// input errors, never rows dropped or merged.
#[test]
fn rows_without_a_table_and_tables_under_one_key_are_errors() {
    let table = "\
# Benchmarking PingPong 
# #processes = 2 
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         2.74         0.00
Attention, msg size 100 truncated to 16
           16         1000         2.71         5.63
";
    let r = parse("a.txt", table).unwrap();
    assert_eq!(
        r.tables[0].rows.len(),
        2,
        "the Attention line is inside the table"
    );
    let e = parse(
        "a.txt",
        &format!("{table}# note\n           32  1000  2.8  10.9\n"),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "a.txt, line 9: a row outside any table (no column titles above it)"
    );
    let titles = "       #bytes #repetitions      t[usec]   Mbytes/sec\n";
    let e = parse("a.txt", &format!("{table}\n{titles}"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "a.txt, line 9: column titles with no # Benchmarking banner before them"
    );
    let e = parse("a.txt", &format!("{table}\n{table}"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "a.txt, line 12: a second table of PingPong, 2 processes (the first's header at line \
         4): two launches in one file, or a benchmark named twice? keep each launch in a file \
         of its own and name each benchmark once"
    );
    // Half a banner line at the end of the file is a launch cut short, not an error.
    let cut = format!("{table}\n# Benchmarking PingPing \n# #processes = 2; rank ord");
    assert_eq!(
        parse("a.txt", &cut).unwrap().status,
        Status::CutShort("its last row is cut off".into())
    );
    // Another mode, or another process count, is another table.
    let other = table.replace("# #processes = 2 ", "# #processes = 4 ");
    assert_eq!(
        parse("a.txt", &format!("{table}\n{other}"))
            .unwrap()
            .tables
            .len(),
        2
    );
}

/// Two launches in one file: a second dated header, or a table after the closing line, is
/// refused where it starts; a benchmark named twice under one dated header is one table.
#[test]
fn two_launches_in_one_file_and_a_benchmark_named_twice() {
    let table = "# Benchmarking PingPong \n# #processes = 2 \n\
                 #bytes #repetitions t[usec] Mbytes/sec\n0 1000 0.50 0.00\n";
    let head = "# Date                  : Wed Nov 25 05:21:10 2026\n";
    let end = "# All processes entering MPI_Finalize\n";
    let e = parse("a.txt", &format!("{head}{table}{head}{table}"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "a.txt, line 6: a second launch's header (its Date; the first at line 1): two launches \
         in one file; keep each launch in a file of its own"
    );
    let e = parse("a.txt", &format!("{table}{end}{table}"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "a.txt, line 6: a table after the launch's closing line (# All processes entering \
         MPI_Finalize): two launches in one file; keep each launch in a file of its own"
    );
    let again = table.replace("0.50", "0.70");
    let r = parse("a.txt", &format!("{head}{table}{again}{end}")).unwrap();
    assert_eq!(r.tables.len(), 1);
    assert_eq!(r.tables[0].rows, [[0.0, 1000.0, 0.6, 0.0]]);
}
