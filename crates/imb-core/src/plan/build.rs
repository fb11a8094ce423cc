//! The whole run as a value: for each selected benchmark its steps (process count, layout and
//! groups) and for each step its sizes, repetition counts, warm-up and `-mem` skips. Pure: it
//! needs the options, the benchmarks' `Info` and the world size, no MPI, so every rank builds
//! the same plan and tests can look at a run without running it.

use super::{steps, Layout, Sizes, Step};
use crate::bench::{Class, Info};
use crate::cli::{Lengths, Options};
use crate::lengths::{self, Len};

/// Everything a run will measure, in order.
#[derive(Debug, Clone)]
pub struct Plan {
    pub benchmarks: Vec<BenchmarkPlan>,
}

/// One benchmark's part of the run.
#[derive(Debug, Clone)]
pub struct BenchmarkPlan {
    pub info: &'static Info,
    /// Sizes the run asked for that the benchmark does not run (the range note before its
    /// first table; only for benchmarks with a range of their own).
    pub outside: Vec<usize>,
    pub steps: Vec<StepPlan>,
}

/// One step of a benchmark.
#[derive(Debug, Clone, PartialEq)]
pub enum StepPlan {
    /// The benchmark cannot run on this many processes.
    Invalid {
        np: usize,
    },
    /// No size is left to run (only 0 was, and `-zero_size off` removed it).
    NoLengths,
    Run {
        layout: Layout,
        sizes: Box<Sizes>,
    },
}

/// The plan of a run of `infos` (in run order) on `np` processes.
pub fn build(opts: &Options, infos: &[&'static Info], np: usize) -> Plan {
    Plan {
        benchmarks: infos
            .iter()
            .map(|&info| benchmark(opts, info, np))
            .collect(),
    }
}

fn benchmark(opts: &Options, info: &'static Info, np: usize) -> BenchmarkPlan {
    let lens = lengths_of(opts, info);
    // A one-size benchmark keeps its range to that size without a note about the others.
    let ranged = (info.min_x, info.max_x) != (0, usize::MAX) && info.one_size.is_none();
    let steps = steps(np, opts.npmin, info.procs, opts.map, opts.multi.is_some())
        .into_iter()
        .map(|s| match s {
            Step::Invalid { np } => StepPlan::Invalid { np },
            Step::Run(layout) if !(info.valid_np)(layout.np) => StepPlan::Invalid { np: layout.np },
            Step::Run(_) if lens.is_empty() => StepPlan::NoLengths,
            Step::Run(layout) => StepPlan::Run {
                sizes: Box::new(Sizes::new(opts, info, layout.np, lens.clone())),
                layout,
            },
        })
        .collect();
    BenchmarkPlan {
        info,
        outside: if ranged {
            outside(opts, info)
        } else {
            Vec::new()
        },
        steps,
    }
}

/// The sizes the ladder or `-msglen` asks of a benchmark, before its own range applies.
fn requested(opts: &Options, info: &Info) -> Vec<Len> {
    let p = &opts.params;
    let values = match &opts.lengths {
        Lengths::Ladder => lengths::default_ladder(p, info.unit, info.second_min),
        Lengths::File { values, .. } | Lengths::List { values } => values.clone(),
    };
    lengths::resolve(&values, p, info.unit, info.second_min)
}

/// The sizes the run asked for that are outside the benchmark's `min_x..=max_x` (a 0 that
/// `-zero_size off` removes anyway is not mentioned).
fn outside(opts: &Options, info: &Info) -> Vec<usize> {
    requested(opts, info)
        .into_iter()
        .map(|l| l.x)
        .filter(|&x| !(info.min_x..=info.max_x).contains(&x))
        .filter(|&x| x != 0 || opts.zero_size)
        .collect()
}

/// The lengths of one benchmark's tables.
fn lengths_of(opts: &Options, info: &Info) -> Vec<Len> {
    if let Some(x) = info.one_size {
        return vec![Len {
            x,
            truncated_from: None,
        }];
    }
    let mut lens = requested(opts, info);
    lens.retain(|l| (info.min_x..=info.max_x).contains(&l.x));
    if info.class == Class::Sync {
        // One row, whose repetition count comes from the first length (3.0: with the ladder
        // that is 0; with -msglen, the file's first entry). -zero_size is about message
        // sizes, which Sync benchmarks do not have.
        lens.truncate(1);
    } else if !opts.zero_size {
        lens.retain(|l| l.x != 0);
    }
    lens
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BufShape, Mode, Procs};
    use crate::cli::{self, Action, AggregateMode, Multi, Spec};
    use crate::settings::STANDARD;

    /// The options of `imb-mpi1 -msglog 3` on 4 processes, changed by each test as needed.
    fn opts() -> Options {
        let spec = Spec {
            exe: "imb-mpi1",
            names: &["PingPong"],
            defaults: 1,
            defaults_2021: &[],
            settings: &STANDARD,
            npmin: 2,
            aggregate: true,
            family: &cli::Family::NONE,
        };
        match cli::parse(&spec, &["-msglog".into(), "3".into()], 4).unwrap() {
            Action::Run(o) => *o,
            a => panic!("{a:?}"),
        }
    }

    static PINGPONG: Info = Info::mpi1("PingPong", Class::SingleTransfer);
    static ALLGATHER: Info = Info {
        bufs: BufShape::GatherRecv,
        ..Info::mpi1("Allgather", Class::Collective)
    };
    static BARRIER: Info = Info::mpi1("Barrier", Class::Sync);
    static LATENCY: Info = Info {
        procs: Procs::AtLeastTwo,
        min_x: 1,
        ..Info::mpi1("Bcast_latency", Class::Collective)
    };
    static WRITE: Info = Info {
        modes: &[Mode::Aggregate, Mode::NonAggregate],
        ..Info::mpi1("Unidir_Put", Class::SingleTransfer)
    };

    /// IMB-P2P's way: the whole world at once, an even count only, counts rounded to nearest.
    static WORLD_PAIRS: Info = Info {
        procs: Procs::World,
        valid_np: |np| np >= 2 && np % 2 == 0,
        volume_rule: |x, cap, vol| match x {
            0 => cap,
            _ => ((vol as f64 / x as f64).round() as usize).clamp(1, cap),
        },
        ..Info::mpi1("PingPong", Class::ParallelTransfer)
    };

    fn run_sizes(p: &BenchmarkPlan, k: usize) -> (&Layout, &Sizes) {
        match &p.steps[k] {
            StepPlan::Run { layout, sizes } => (layout, sizes),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn steps_sizes_and_repetitions() {
        let plan = build(&opts(), &[&PINGPONG, &ALLGATHER, &BARRIER], 3);
        let pp = &plan.benchmarks[0];
        assert_eq!(pp.steps.len(), 1);
        let (l, s) = run_sizes(pp, 0);
        assert_eq!((l.np, l.idle), (2, 1));
        let xs: Vec<usize> = s.lens.iter().map(|l| l.x).collect();
        assert_eq!(xs, [0, 1, 2, 4, 8]);
        assert_eq!(s.n_sample, [vec![1000; 5]]);
        assert_eq!((s.warm_x, s.buf_x, s.first), (8, 8, 0));
        // Allgather on 2 and then 3 processes.
        assert_eq!(plan.benchmarks[1].steps.len(), 2);
        // Barrier: one row, its count from the first length.
        let (_, s) = run_sizes(&plan.benchmarks[2], 1);
        assert_eq!((s.lens.len(), s.x(&s.lens[0])), (1, 0));
    }

    #[test]
    fn the_world_in_one_step_where_the_benchmark_can_run() {
        let mut o = opts();
        o.npmin = 2;
        for np in [2, 4, 6] {
            let plan = build(&o, &[&WORLD_PAIRS], np);
            assert_eq!(plan.benchmarks[0].steps.len(), 1, "{np}");
            let (l, _) = run_sizes(&plan.benchmarks[0], 0);
            assert_eq!((l.np, l.idle), (np, 0));
        }
        for np in [1, 3, 5] {
            let plan = build(&o, &[&WORLD_PAIRS], np);
            assert_eq!(plan.benchmarks[0].steps, [StepPlan::Invalid { np }]);
        }
        // -npmin does not split the world.
        o.npmin = 1;
        assert_eq!(build(&o, &[&WORLD_PAIRS], 8).benchmarks[0].steps.len(), 1);
    }

    #[test]
    fn a_benchmarks_own_volume_rule() {
        let mut o = opts();
        o.lengths = Lengths::List {
            values: vec![0, 3, 5, 7],
        };
        o.params.overall_vol = 1000;
        o.params.msgspersample = 300;
        let plan = build(&o, &[&WORLD_PAIRS, &PINGPONG], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        // 1000/3 = 333.3 (capped), 1000/5, 1000/7 = 142.9 rounded up.
        assert_eq!(s.n_sample, [vec![300, 300, 200, 143]]);
        let (_, s) = run_sizes(&plan.benchmarks[1], 0);
        assert_eq!(s.n_sample, [vec![300, 300, 200, 142]]);
    }

    #[test]
    fn one_process_and_ranges() {
        let mut o = opts();
        o.zero_size = true;
        let plan = build(&o, &[&PINGPONG, &LATENCY], 1);
        assert_eq!(plan.benchmarks[0].steps, [StepPlan::Invalid { np: 1 }]);
        assert_eq!(plan.benchmarks[1].outside, [0]);
        o.zero_size = false;
        let plan = build(&o, &[&LATENCY], 2);
        assert!(plan.benchmarks[0].outside.is_empty());
        o.lengths = Lengths::File {
            file: "m".into(),
            values: vec![0],
        };
        let plan = build(&o, &[&PINGPONG], 2);
        assert_eq!(plan.benchmarks[0].steps, [StepPlan::NoLengths]);
    }

    #[test]
    fn one_size_whatever_the_ladder() {
        static FOP: Info = Info {
            unit: 4,
            min_x: 4,
            max_x: 4,
            one_size: Some(4),
            ..Info::mpi1("Fetch_and_op", Class::SingleTransfer)
        };
        let mut o = opts();
        for lengths in [
            Lengths::Ladder,
            Lengths::File {
                file: "m".into(),
                values: vec![0, 1, 1000],
            },
        ] {
            o.lengths = lengths;
            let plan = build(&o, &[&FOP], 2);
            assert!(plan.benchmarks[0].outside.is_empty());
            let (_, s) = run_sizes(&plan.benchmarks[0], 0);
            assert_eq!(s.lens.iter().map(|l| l.x).collect::<Vec<_>>(), [4]);
            assert_eq!((s.warm_x, s.buf_x), (4, 4));
        }
    }

    #[test]
    fn mem_skips_and_caps() {
        let mut o = opts();
        o.params.maxmsglog = 20;
        // 2 MiB per process: Allgather's receive buffer on 2 processes is 2·X.
        o.mem = Some((2u64 << 20) as f64);
        let plan = build(&o, &[&ALLGATHER], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        assert_eq!(s.skipped(), [1 << 20]);
        assert_eq!(s.warm_x, 1 << 19);
        assert_eq!(s.buf_x, 1 << 19);
        // OVERALL_VOL caps the repetitions of the large sizes.
        assert!(s.n_sample[0].last().unwrap() < &1000);
        assert_eq!(s.volume, s.n_sample[0][s.lens.len() - 2] * (1 << 19));
    }

    /// Elements two sizes apart (`Options::span` 2): buffers of twice the largest size, and
    /// `-mem` counts the doubled buffers.
    #[test]
    fn span_doubles_the_buffers_and_what_mem_counts() {
        let mut o = opts();
        o.span = 2;
        let plan = build(&o, &[&PINGPONG], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        assert_eq!((s.warm_x, s.buf_x), (8, 16));
        o.params.maxmsglog = 20;
        o.mem = Some((2u64 << 20) as f64);
        let plan = build(&o, &[&ALLGATHER], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        assert_eq!(s.skipped(), [1 << 19, 1 << 20]);
        assert_eq!((s.warm_x, s.buf_x), (1 << 18, 1 << 19));
    }

    /// The warm-up keeps N_WARMUP repetitions unless OVERALL_VOL holds fewer of the warm-up
    /// size (repetition i of an AGGREGATE one-sided pattern lies at i·X).
    #[test]
    fn warm_up_fits_the_volume() {
        let mut o = opts();
        let plan = build(&o, &[&ALLGATHER], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        assert_eq!(s.warm_n, o.params.n_warmup);
        o.params.maxmsglog = 12;
        o.params.overall_vol = 4096;
        o.params.n_warmup = 3;
        let plan = build(&o, &[&ALLGATHER], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        assert_eq!((s.warm_x, s.warm_n), (4096, 1));
    }

    /// `-off_cache`: buffers hold every copy of the largest size's messages, and `-mem`
    /// counts them.
    #[test]
    fn off_cache_copies_size_the_buffers() {
        let mut o = opts();
        o.method.off_cache = crate::method::parse_off_cache("0.01").unwrap();
        let plan = build(&o, &[&ALLGATHER], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        let last = s.lens.len() - 1;
        let rot = s.rot[0][last];
        assert!(rot.send.copies > 1, "{rot:?}");
        assert!(s.buf_bytes.0 >= rot.send.bytes() && s.buf_bytes.1 >= rot.recv.bytes());
        let need = (s.buf_bytes.0 + s.buf_bytes.1) as f64;
        o.mem = Some(need - 1.0);
        let plan = build(&o, &[&ALLGATHER], 2);
        let (_, s) = run_sizes(&plan.benchmarks[0], 0);
        assert!(!s.skipped().is_empty());
    }

    #[test]
    fn modes_and_multi() {
        let mut o = opts();
        o.aggregate_mode = AggregateMode::NonAggregate;
        o.multi = Some(Multi::PerGroup);
        let plan = build(&o, &[&WRITE], 4);
        let (l, s) = run_sizes(&plan.benchmarks[0], 0);
        assert_eq!(l.groups.len(), 2);
        assert_eq!(s.modes, [Mode::NonAggregate]);
        assert_eq!(s.warm_mode, Mode::Aggregate);
        assert_eq!(s.n_sample[0][0], o.params.msgs_nonaggr);
    }

    #[test]
    fn work_lists_every_table_and_measured_size() {
        let mut o = opts();
        o.aggregate_mode = AggregateMode::Both;
        let plan = build(&o, &[&PINGPONG, &WRITE, &BARRIER, &ALLGATHER], 3);
        let w = super::super::work(&plan, &o.params, None);
        assert_eq!(w.benchmarks, 4);
        let tables: Vec<(usize, &str, usize, Mode, usize)> = w
            .tables
            .iter()
            .map(|t| (t.bench, t.name.as_str(), t.np, t.mode, t.sizes.len()))
            .collect();
        assert_eq!(
            tables,
            [
                (1, "PingPong", 2, Mode::Plain, 5),
                (2, "Unidir_Put", 2, Mode::Aggregate, 5),
                (2, "Unidir_Put", 2, Mode::NonAggregate, 5),
                (3, "Barrier", 2, Mode::Plain, 1),
                (3, "Barrier", 3, Mode::Plain, 1),
                (4, "Allgather", 2, Mode::Plain, 5),
                (4, "Allgather", 3, Mode::Plain, 5),
            ]
        );
        assert_eq!(w.tables[3].sizes[0].0, None);
        assert_eq!(w.tables[0].sizes[4].0, Some(8));
        // 1000 repetitions outweigh 100 of the same size; -time caps the count.
        assert!(w.tables[1].sizes[0].1 > w.tables[2].sizes[0].1);
        let capped = super::super::work(&plan, &o.params, Some(1e-6));
        assert!(capped.tables[0].sizes[0].1 < w.tables[0].sizes[0].1);
        // -mem's skipped sizes are not work.
        o.mem = Some((2u64 << 20) as f64);
        o.params.maxmsglog = 20;
        let plan = build(&o, &[&ALLGATHER], 2);
        assert_eq!(
            super::super::work(&plan, &o.params, None).tables[0]
                .sizes
                .len(),
            21
        );
    }
}
