//! imb-mt: IMB 2021's IMB-MT on imb-core. Every rank runs T threads (OMP_NUM_THREADS, else
//! its CPUs; one thread unless the thread level is multiple), each on its own duplicate of
//! MPI_COMM_WORLD, and each thread runs the whole pattern with its own buffers: PingPongMT,
//! PingPingMT, SendRecvMT, ExchangeMT, UniBandMT, BiBandMT, BarrierMT, BcastMT, ReduceMT and
//! AllReduceMT, the benchmarks IMB 2021.11 builds (doc/ReadMe_IMB.md, "imb-mt"). Sizes are
//! element counts (`-count`), every size runs `-repeat` times after `-warmup` untimed
//! repetitions, on every process at once; a row's #bytes is what all of a rank's threads
//! move (count·type size·T). The crate declares the benchmarks (here), its options
//! (`options`), the threads and their kernel (`team`), each thread's pattern (`patterns`, its
//! MPI calls imb-mpi's `threaded` wrappers), the threads' barrier both pass (`rendezvous`), the
//! tables (`table`) and the run-time bound (`cost`); imb-core runs them.

#![allow(non_upper_case_globals)] // benchmark statics carry IMB-MT's names

pub mod cost;
pub mod options;
pub mod patterns;
mod rendezvous;
pub mod table;
mod team;

use imb_core::bench::{Class, Info, Procs};
use imb_core::cli::{Options, ThreadLevel};
use imb_core::header::Header;
use imb_core::kernel::{Benchmark, Ctx, Hooks, RunState, Suite, Timed};
use imb_core::note::{Note, Remark};
use imb_core::plan::{Plan, StepPlan};
use imb_core::vocab::Layout;
use imb_mpi::thread;
use patterns::Pattern;
use serde::Serialize;
use team::{MtKernel, Run};

/// One IMB-MT benchmark: its metadata and its pattern.
pub struct Mt {
    info: &'static Info,
    pattern: Pattern,
}

impl Benchmark for Mt {
    fn info(&self) -> &'static Info {
        self.info
    }
    fn kernel<'a>(&self, ctx: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let run = ctx
            .run
            .and_then(|r| r.downcast_ref::<Run>())
            .expect("imb-mt: run_state builds the threads' state before any kernel");
        Box::new(MtKernel {
            pattern: self.pattern,
            run,
            x: ctx.x,
        })
    }
}

/// Every size runs `-repeat` times (IMB-MT has no volume rule).
fn repeat_cap(_: usize, cap: usize, _: usize) -> usize {
    cap
}

/// A pair pattern needs two processes at least.
fn two_or_more(np: usize) -> bool {
    np >= 2
}

const fn info(name: &'static str, class: Class, pattern: Pattern) -> Info {
    let base = Info::mpi1(name, class);
    let table = match pattern {
        Pattern::PingPong | Pattern::PingPing | Pattern::SendRecv | Pattern::Exchange => {
            &table::PT2PT
        }
        Pattern::UniBand | Pattern::BiBand => &table::BAND,
        Pattern::Barrier => &table::SYNC,
        _ => &table::COLL,
    };
    Info {
        procs: Procs::World,
        table,
        scale_bw: match pattern {
            Pattern::SendRecv => 2.0,
            Pattern::Exchange => 4.0,
            _ => 1.0,
        },
        valid_np: if pattern.paired() {
            two_or_more
        } else {
            imb_core::bench::any_np
        },
        volume_rule: repeat_cap,
        // imb-mt prices its runs itself (`cost`).
        effort: cost::no_effort,
        ..base
    }
}

/// Declare benchmark `$id` of `$class` running `$p`.
macro_rules! mt {
    ($id:ident, $class:ident, $p:ident) => {
        pub static $id: Mt = Mt {
            info: &info(stringify!($id), Class::$class, Pattern::$p),
            pattern: Pattern::$p,
        };
    };
}

mt!(PingPongMT, ParallelTransfer, PingPong);
mt!(PingPingMT, ParallelTransfer, PingPing);
mt!(SendRecvMT, ParallelTransfer, SendRecv);
mt!(ExchangeMT, ParallelTransfer, Exchange);
mt!(UniBandMT, ParallelTransfer, UniBand);
mt!(BiBandMT, ParallelTransfer, BiBand);
mt!(BarrierMT, Sync, Barrier);
mt!(BcastMT, Collective, Bcast);
mt!(ReduceMT, Collective, Reduce);
mt!(AllReduceMT, Collective, AllReduce);

/// IMB-MT's benchmarks in its default order.
pub static BENCHMARKS: &[&Mt] = &[
    &PingPongMT,
    &PingPingMT,
    &SendRecvMT,
    &ExchangeMT,
    &UniBandMT,
    &BiBandMT,
    &BarrierMT,
    &BcastMT,
    &ReduceMT,
    &AllReduceMT,
];

static AS_BENCHMARKS: [&dyn Benchmark; 10] = [
    &PingPongMT,
    &PingPingMT,
    &SendRecvMT,
    &ExchangeMT,
    &UniBandMT,
    &BiBandMT,
    &BarrierMT,
    &BcastMT,
    &ReduceMT,
    &AllReduceMT,
];

/// The threads' communicators, datatype and CPUs, once for the run (collective).
fn run_state(_: &[&'static Info], o: &Options) -> Option<RunState> {
    let multiple = o.thread_level == ThreadLevel::Multiple;
    let mt = options::Mt::of(&o.family, o.thread_level);
    Some((Box::new(Run::new(mt, multiple)), None))
}

/// The pattern of benchmark `name`.
fn pattern_of(name: &str) -> Option<Pattern> {
    BENCHMARKS
        .iter()
        .find(|b| b.info.name == name)
        .map(|b| b.pattern)
}

/// Before the header (rank 0): the run-time bound (`cost`, `-force`); the threads of a rank
/// call MPI at once, which needs MPI_THREAD_MULTIPLE granted; and below multiple, where
/// IMB-MT runs one thread whatever OMP_NUM_THREADS says, one line on stderr when it asked for
/// more (the header says so too: `OneThread`).
fn before_run(plan: &Plan, o: &Options) -> std::result::Result<(), String> {
    let mt = options::Mt::of(&o.family, o.thread_level);
    let (secs, longest) = cost::least(plan, &mt, pattern_of);
    if let Some(line) = cost::refusal(secs, longest, o.force) {
        return Err(line);
    }
    // The ranks on this host, as the launcher says (rank 0 alone runs this), else all.
    let world = plan
        .benchmarks
        .iter()
        .flat_map(|b| &b.steps)
        .find_map(|s| match s {
            StepPlan::Run { layout, .. } => Some(layout.np),
            _ => None,
        })
        .unwrap_or(1);
    let local = ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"]
        .iter()
        .find_map(|k| std::env::var(k).ok()?.trim().parse().ok())
        .unwrap_or(world);
    let bytes = cost::rank_bytes(plan, &mt, pattern_of);
    if let Some(line) = cost::memory_short(bytes, local, imb_core::sysinfo::mem_available()) {
        return Err(line);
    }
    if o.thread_level == ThreadLevel::Multiple && thread::granted_level() < thread::level_multiple()
    {
        return Err(format!(
            "the MPI library did not grant MPI_THREAD_MULTIPLE, which {} threads per rank \
             calling MPI need (-thread_level single runs one thread per rank)",
            mt.threads
        ));
    }
    if let Some(asked) = options::threads_asked(o.thread_level) {
        eprintln!(
            "imb-mt: note: -thread_level {} runs one thread per rank, not the {asked} of \
             OMP_NUM_THREADS (IMB-MT starts threads only under -thread_level multiple)",
            o.thread_level.name()
        );
    }
    Ok(())
}

/// Below MPI_THREAD_MULTIPLE a rank runs one thread, as IMB-MT's does, whatever
/// OMP_NUM_THREADS says: said in the header, so a one-thread run is never taken for T threads.
#[derive(Debug, Clone, Serialize)]
pub struct OneThread {
    pub thread_level: &'static str,
    pub threads: usize,
}

impl Remark for OneThread {
    const KIND: &'static str = "mt_one_thread";
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "-thread_level {}: one thread per rank (IMB-MT runs OMP_NUM_THREADS's threads only \
             under -thread_level multiple)",
            self.thread_level
        )]
    }
}

/// A row's #bytes: what all the threads of a rank move (IMB-MT's weak-scaling size).
fn row_bytes(x: usize, o: &Options) -> usize {
    x.saturating_mul(options::Mt::of(&o.family, o.thread_level).threads)
}

/// IMB-MT's banner lines: the processes of the run and the threads of each, and the window
/// of UniBandMT and BiBandMT. Every process runs the benchmark (one without a partner still
/// passes the barriers), so the count is the run's, as `-json`'s `processes` says; IMB-MT
/// counts only the paired ones (doc/ReadMe_IMB.md, "imb-mt").
fn process_block(info: &Info, l: &Layout, o: &Options) -> Option<Vec<String>> {
    let mt = options::Mt::of(&o.family, o.thread_level);
    let b = BENCHMARKS.iter().find(|b| b.info.name == info.name)?;
    let mut lines = vec![format!("#processes = {} (threads: {})", l.np, mt.threads)];
    if matches!(b.pattern, Pattern::UniBand | Pattern::BiBand) {
        lines.push(format!("window_size = {}", mt.window));
    }
    Some(lines)
}

/// `-noheader`, and the datatype lines naming `-datatype`'s type, which the reductions use
/// too (the engine's say MPI_BYTE and MPI_FLOAT).
fn header(h: &mut Header, o: &Options) {
    h.hidden = options::NOHEADER.get(&o.family).unwrap_or(false);
    let name = match options::Mt::of(&o.family, o.thread_level).datatype {
        options::Datatype::Int => "MPI_INT",
        options::Datatype::Char => "MPI_CHAR",
    };
    h.notes.push(Note::Datatypes {
        data: name.into(),
        reductions: name.into(),
    });
    if o.thread_level != ThreadLevel::Multiple {
        h.notes.push(Note::of(&OneThread {
            thread_level: o.thread_level.name(),
            threads: 1,
        }));
    }
}

/// imb-mt as the engine runs it.
pub static SUITE: Suite = Suite {
    exe: "imb-mt",
    part: "MT part",
    settings: &imb_core::settings::STANDARD,
    npmin: 2,
    benchmarks: &AS_BENCHMARKS,
    defaults_2021: &[],
    options: &options::OPTIONS,
    hooks: Hooks {
        // IMB-MT warms up every size itself (`-warmup`), in each thread.
        warm_up: false,
        run_state,
        before_run,
        row_bytes,
        process_block,
        header,
        ..Hooks::IMB
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imb_mt_names_in_its_order() {
        assert_eq!(
            SUITE.names(),
            [
                "PingPongMT",
                "PingPingMT",
                "SendRecvMT",
                "ExchangeMT",
                "UniBandMT",
                "BiBandMT",
                "BarrierMT",
                "BcastMT",
                "ReduceMT",
                "AllReduceMT"
            ]
        );
        assert_eq!(SUITE.defaults(), 10);
    }

    #[test]
    fn every_size_runs_repeat_times() {
        assert_eq!(repeat_cap(1 << 20, 1000, 1 << 10), 1000);
        assert!(!(PingPongMT.info.valid_np)(1));
        assert!((BcastMT.info.valid_np)(1));
    }
}
