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
use imb_core::cli::Options;
use imb_core::header::Header;
use imb_core::kernel::{Benchmark, Ctx, Hooks, Prep, Suite, Timed};
use imb_core::method::DECIMAL_MEGABYTE;
use imb_core::note::{Note, Remark};
use kernel::P2pLoop;
use options::Conf;
use patterns::*;
use serde::Serialize;
use std::any::Any;

/// What one repetition does on one process, for the run-time bound: `calls` blocking steps,
/// each moving X bytes. Every benchmark runs once on the whole world (`Procs::World`), where
/// `valid` says it can, with IMB-P2P's repetition count.
const fn info(name: &'static str, valid: fn(usize) -> bool, effort: fn(&Shape) -> Effort) -> Info {
    Info {
        procs: Procs::World,
        table: &table::P2P,
        effort,
        valid_np: valid,
        volume_rule: n_sample,
        ..Info::mpi1(name, Class::ParallelTransfer)
    }
}

/// IMB-P2P's count of repetitions: OVERALL_VOL / X rounded to the nearest, between 1 and the
/// cap; the cap for 0 bytes.
pub fn n_sample(x: usize, cap: usize, overall_vol: usize) -> usize {
    match x {
        0 => cap,
        _ => ((overall_vol as f64 / x as f64).round() as usize).clamp(1, cap),
    }
}

/// A pair of partners for every process: an even count.
fn pairs(np: usize) -> bool {
    np >= 2 && np.is_multiple_of(2)
}

/// Someone else to talk to.
fn two(np: usize) -> bool {
    np >= 2
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
    ..info("PingPong", pairs, one)
};
static PINGPING: Info = info("PingPing", pairs, one);
static UNIRANDOM: Info = info("Unirandom", two, draws);
static BIRANDOM: Info = info("Birandom", two, draws);
static CORANDOM: Info = info("Corandom", two, one);
static SENDRECV_REPLACE: Info = info("SendRecv_Replace", two, one);
/// The stencils' banners name the grid as IMB-P2P does, slowest-varying side first.
static STENCIL2D: Info = Info {
    banner: |np| {
        grid::sides2(np)
            .map(|(x, y)| format!(" ({y} x {x})"))
            .unwrap_or_default()
    },
    ..info(
        "Stencil2D",
        |np| grid::sides2(np).is_some(),
        |s| neighbours(s, 4),
    )
};
static STENCIL3D: Info = Info {
    banner: |np| {
        grid::sides3(np)
            .map(|(x, y, z)| format!(" ({z} x {y} x {x})"))
            .unwrap_or_default()
    },
    ..info(
        "Stencil3D",
        |np| grid::sides3(np).is_some(),
        |s| neighbours(s, 6),
    )
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

pub struct Stencil2D;
impl Benchmark for Stencil2D {
    fn info(&self) -> &'static Info {
        &STENCIL2D
    }
    fn prepare(&self, p: &Prep) -> Result<Option<Box<dyn Any>>, String> {
        conf(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let conf = conf_of(&c);
        let g = grid::sides2(c.size).expect("the plan runs Stencil2D only on a grid");
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
        conf(p)
    }
    fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
        let conf = conf_of(&c);
        let g = grid::sides3(c.size).expect("the plan runs Stencil3D only on a grid");
        let nb = grid::neighbours3(c.rank, g);
        Box::new(P2pLoop::new(Stencil::<6>::new(&c, nb), &conf))
    }
}

/// Every benchmark, in IMB-P2P's order.
pub static BENCHMARKS: &[&dyn Benchmark] = &[
    &PingPong,
    &PingPing,
    &Unirandom,
    &Birandom,
    &Corandom,
    &Stencil2D,
    &Stencil3D,
    &SendRecv_Replace,
];

/// IMB-P2P's method, stated in the header's `# !!` blocks as `-compat 2021`'s is for the
/// other executables: readers of the output (imb-compare) learn the megabyte from it.
/// Its options that differ from IMB-P2P's defaults are listed as given (`-pause 0`), so two
/// runs' conditions can be compared from their text output alone.
#[derive(Serialize)]
pub struct P2pMethod {
    pub megabyte: f64,
    pub options: Vec<String>,
}

impl Remark for P2pMethod {
    const KIND: &'static str = "p2p_method";
    fn lines(&self) -> Vec<String> {
        vec![
            "Measured as IMB 2021's IMB-P2P measures:".into(),
            "  n_sample = OVERALL_VOL / X rounded to the nearest count; n_sample/10 warm-up \
             repetitions before every size"
                .into(),
            "  IMB 2021's dissemination barrier before the warm-up and the timer".into(),
            format!("  {DECIMAL_MEGABYTE}"),
        ]
        .into_iter()
        .chain(self.options.iter().map(|o| format!("  {o}")))
        .collect()
    }
}

fn p2p_header(h: &mut Header, o: &Options) {
    let method = P2pMethod {
        megabyte: table::MB,
        options: Conf::of(&o.family).changes(),
    };
    h.notes.insert(0, Note::of(&method));
}

/// The imb-p2p executable: every benchmark once on all processes of the run, no warm-up with
/// the largest size (each size warms itself up, `kernel`).
pub static SUITE: Suite = Suite {
    exe: "imb-p2p",
    part: "P2P part",
    settings: &options::SETTINGS,
    npmin: 2,
    benchmarks: BENCHMARKS,
    defaults_2021: &[],
    options: &options::OPTIONS,
    hooks: Hooks {
        warm_up: false,
        fill: Buffer::fill,
        header: p2p_header,
        sleep: options::sleep,
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
                "Stencil2D",
                "Stencil3D",
                "SendRecv_Replace"
            ]
        );
        assert_eq!(SUITE.defaults(), 8);
        for b in BENCHMARKS {
            let i = b.info();
            assert!(i.checked, "{}", i.name);
            assert_eq!(i.table.columns.len(), 5, "{}", i.name);
        }
    }
}

#[cfg(test)]
mod rules {
    use super::*;

    #[test]
    fn counts_round_to_nearest() {
        assert_eq!(n_sample(0, 100_000, 800 << 20), 100_000);
        assert_eq!(n_sample(4 << 20, 100_000, 800 << 20), 200);
        // 838860800 / 3000 = 279620.3 (capped); / 30000 = 27962.03; / 50000 = 16777.216;
        // / 7 MiB = 114.29.
        assert_eq!(n_sample(3000, 100_000, 800 << 20), 100_000);
        assert_eq!(n_sample(30_000, 100_000, 800 << 20), 27_962);
        assert_eq!(n_sample(4_194_305 * 2, 100_000, 800 << 20), 100);
        assert_eq!(n_sample(1 << 40, 100_000, 800 << 20), 1);
        assert_eq!(n_sample(2_500, 1_000, 2_000), 1);
        assert_eq!(n_sample(1_600, 1_000, 2_000), 1);
        assert_eq!(n_sample(1_100, 1_000, 2_000), 2);
    }

    #[test]
    fn where_each_runs_and_its_banner() {
        for np in 1..=9 {
            assert_eq!((PINGPONG.valid_np)(np), np % 2 == 0, "{np}");
            assert_eq!((UNIRANDOM.valid_np)(np), np >= 2, "{np}");
        }
        assert!(!(STENCIL2D.valid_np)(3) && (STENCIL2D.valid_np)(6));
        assert_eq!((STENCIL2D.banner)(6), " (3 x 2)");
        assert_eq!((STENCIL3D.banner)(12), " (2 x 3 x 2)");
        assert_eq!((PINGPONG.banner)(4), "");
    }
}
