//! IMB 2021's Source variants of the single transfers: PingPongSpecificSource,
//! PingPongAnySource, PingPingSpecificSource, PingPingAnySource. PingPong's and PingPing's
//! patterns, tables and scaling (guide 3.3.2), with the receives naming the partner (Specific)
//! or MPI_ANY_SOURCE (Any) whatever `-compat` says, so the cost of matching any sender can be
//! read beside a named one in one run. Run only when named. Being PingPong's and PingPing's
//! kernels, they move through `-off_cache`'s copies as those do.

use crate::coll2021::on_request;
use crate::p2p::{pingping, pingpong, Source};
use imb_core::bench::{Class, Info};
use imb_core::kernel::{Benchmark, Ctx, Timed};

const fn pingpong_info(name: &'static str) -> Info {
    on_request(Info {
        scale_time: 0.5,
        ..Info::mpi1(name, Class::SingleTransfer)
    })
}

const fn pingping_info(name: &'static str) -> Info {
    on_request(Info::mpi1(name, Class::SingleTransfer))
}

/// A benchmark type whose kernel is `$pattern`'s with receives from `$from`.
macro_rules! sourced {
    ($ty:ident, $info:ident = $make:ident, $pattern:ident, $from:expr) => {
        static $info: Info = $make(stringify!($ty));
        pub struct $ty;
        impl Benchmark for $ty {
            fn info(&self) -> &'static Info {
                &$info
            }
            fn kernel<'a>(&self, c: Ctx<'a>) -> Box<dyn Timed + 'a> {
                $pattern(c, $from)
            }
        }
    };
}

sourced!(
    PingPongSpecificSource,
    PINGPONG_SPECIFIC = pingpong_info,
    pingpong,
    Source::Partner
);
sourced!(
    PingPongAnySource,
    PINGPONG_ANY = pingpong_info,
    pingpong,
    Source::Any
);
sourced!(
    PingPingSpecificSource,
    PINGPING_SPECIFIC = pingping_info,
    pingping,
    Source::Partner
);
sourced!(
    PingPingAnySource,
    PINGPING_ANY = pingping_info,
    pingping,
    Source::Any
);
