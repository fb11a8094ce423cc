//! imb-p2p: IMB 2021's IMB-P2P suite (doc/ReadMe_IMB.md, "imb-p2p"): PingPong, PingPing,
//! Unirandom, Birandom, Corandom and SendRecv_Replace on every process of the run at once,
//! and Stencil2D and Stencil3D, run only when named, on the process counts that make a grid.
//! Each table is `#bytes #repetitions t[usec] Mbytes/sec Msg/sec` (`table`). This crate
//! declares the benchmarks and one repetition of each pattern (`patterns`) inside IMB-P2P's
//! loop (`kernel`); imb-core runs them.

#![allow(non_camel_case_types)] // benchmark types carry IMB-P2P's names (SendRecv_Replace)

pub mod grid;
pub mod kernel;
pub mod options;
pub mod patterns;
pub mod table;

use imb_core::bench::{Class, Effort, Info, Procs, Shape};
use imb_core::buffers::Buffer;
use imb_core::kernel::{Benchmark, Ctx, Hooks, Prep, Suite, Timed};
use kernel::P2pLoop;
use options::Conf;
use patterns::*;
use std::any::Any;

/// What one repetition does on one process, for the run-time bound: `calls` blocking steps,
/// each moving X bytes.
const fn info(name: &'static str, procs: Procs, effort: fn(&Shape) -> Effort) -> Info {
    Info {
        procs,
        table: &table::P2P,
        effort,
        ..Info::mpi1(name, Class::ParallelTransfer)
    }
}

fn one(s: &Shape) -> Effort {
    Effort::call(s.x)
}

/// Unirandom and Birandom: NP draws a repetition, this process in about two of them.
fn draws(s: &Shape) -> Effort {
    Effort::call(2 * s.x)
}

fn neighbours(s: &Shape, n: usize) -> Effort {
    Effort {
        msgs: (2 * n) as f64,
        bytes: (2 * n * s.x) as f64,
        ..Effort::call(0)
    }
}

static PINGPONG: Info = Info {
    table: &table::P2P_HALF,
    ..info("PingPong", Procs::Pairs, one)
};
static PINGPING: Info = info("PingPing", Procs::Pairs, one);
static UNIRANDOM: Info = info("Unirandom", Procs::AtLeastTwo, draws);
static BIRANDOM: Info = info("Birandom", Procs::AtLeastTwo, draws);
static CORANDOM: Info = info("Corandom", Procs::AtLeastTwo, one);
static SENDRECV_REPLACE: Info = info("SendRecv_Replace", Procs::AtLeastTwo, one);
static STENCIL2D: Info = Info {
    on_request: true,
    ..info("Stencil2D", Procs::Any, |s| neighbours(s, 4))
};
static STENCIL3D: Info = Info {
    on_request: true,
    ..info("Stencil3D", Procs::Any, |s| neighbours(s, 6))
};

/// The run's `-msgrd`, `-msgwr` and `-pause`, handed to every kernel of a step.
fn conf(p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
    Ok(Some(Box::new(Conf::of(p.family))))
}

fn conf_of(c: &Ctx) -> Conf {
    c.prep
        .and_then(|a| a.downcast_ref::<Conf>())
        .copied()
        .unwrap_or(Conf::IMB)
}

/// A benchmark of the suite: its `Info` and how its kernel is built.
macro_rules! p2p {
    ($ty:ident, $info:ident, |$c:ident| $pattern:expr) => {
        pub struct $ty;
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn prepare(&self, p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
                conf(p)
            }
            fn kernel<'a>(&self, $c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                let conf = conf_of(&$c);
                Box::new(P2pLoop::new($pattern, &conf))
            }
        }
    };
}

p2p!(PingPong, PINGPONG, |c| PingPongP(Pair::new(&c)));
p2p!(PingPing, PINGPING, |c| PingPingP(Pair::new(&c)));
p2p!(Unirandom, UNIRANDOM, |c| Random::<false>::new(&c));
p2p!(Birandom, BIRANDOM, |c| Random::<true>::new(&c));
p2p!(Corandom, CORANDOM, |c| patterns::Corandom::new(&c));
p2p!(SendRecv_Replace, SENDRECV_REPLACE, |c| {
    SendRecvReplaceP::new(&c)
});

/// A stencil runs only where IMB-P2P finds its grid; elsewhere the run ends before any
/// table of it, naming the process counts that make one.
fn grid_or<T>(np: usize, g: Option<T>, some: &str) -> Result<T, String> {
    g.ok_or_else(|| {
        format!("needs a process count that makes a grid with every side at least 2 ({some}, ...); this step has {np}")
    })
}

pub struct Stencil2D;
impl Benchmark for Stencil2D {
    fn info(&self) -> &'static Info {
        &STENCIL2D
    }
    fn prepare(&self, p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
        grid_or(p.size, grid::sides2(p.size), "4, 6, 8, 9")?;
        conf(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let conf = conf_of(&c);
        let g = grid::sides2(c.size).unwrap_or((c.size, 1));
        let nb = grid::neighbours2(c.rank, g);
        Box::new(P2pLoop::new(Stencil::<4>::new(&c, nb), &conf))
    }
}

pub struct Stencil3D;
impl Benchmark for Stencil3D {
    fn info(&self) -> &'static Info {
        &STENCIL3D
    }
    fn prepare(&self, p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
        grid_or(p.size, grid::sides3(p.size), "8, 12, 16, 18")?;
        conf(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let conf = conf_of(&c);
        let g = grid::sides3(c.size).unwrap_or((c.size, 1, 1));
        let nb = grid::neighbours3(c.rank, g);
        Box::new(P2pLoop::new(Stencil::<6>::new(&c, nb), &conf))
    }
}

/// Every benchmark, in IMB-P2P's order; the stencils, run only when named, last.
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &PingPong,
    &PingPing,
    &Unirandom,
    &Birandom,
    &Corandom,
    &SendRecv_Replace,
    &Stencil2D,
    &Stencil3D,
];

/// The imb-p2p executable: every benchmark on all processes of the run (`npmin` above any
/// world), no warm-up with the largest size (each size warms itself up, `kernel`).
pub static SUITE: Suite = Suite {
    exe: "imb-p2p",
    part: "P2P part",
    settings: &options::SETTINGS,
    npmin: 1 << 20,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &options::OPTIONS,
    hooks: Hooks {
        warm_up: false,
        fill: Buffer::fill,
        ..Hooks::IMB
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_once_in_imb_p2p_order() {
        assert_eq!(
            SUITE.names(),
            [
                "PingPong",
                "PingPing",
                "Unirandom",
                "Birandom",
                "Corandom",
                "SendRecv_Replace",
                "Stencil2D",
                "Stencil3D"
            ]
        );
        assert_eq!(SUITE.defaults(), 6);
        for b in BENCHMARKS {
            let i = b.info();
            assert!(i.checked, "{}", i.name);
            assert_eq!(i.table.columns.len(), 5, "{}", i.name);
        }
    }
}
