//! AFL++ target: imb-omp's command line, one argument a line (scripts/fuzz). imb-omp is a
//! binary crate, so its modules are compiled here from its sources, unchanged; build.rs links
//! its OpenMP kernels.
#![allow(dead_code, unused_imports)]

#[path = "../../../crates/imb-omp/src/cli.rs"]
mod cli;
#[path = "../../../crates/imb-omp/src/constructs.rs"]
mod constructs;
#[path = "../../../crates/imb-omp/src/ffi.rs"]
mod ffi;
#[path = "../../../crates/imb-omp/src/json.rs"]
mod json;
#[path = "../../../crates/imb-omp/src/method.rs"]
mod method;
#[path = "../../../crates/imb-omp/src/native.rs"]
mod native;
#[path = "../../../crates/imb-omp/src/output.rs"]
mod output;

// What imb-omp's main.rs brings into its root, where its modules look for them.
use cli::Options;
use constructs::{Family, CONSTRUCTS};

// What imb-omp's main.rs gives its json module for writing tables; parsing never reaches them.
const COLUMNS: &[&str] = &[];
fn vars_of(_: constructs::Family) -> &'static [&'static str] {
    &[]
}

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some(argv) = imb_fuzz::args(data) else {
            return;
        };
        // The runtime's maximum and thread limit: a 4-CPU machine, and one limited to 2.
        for (max, limit) in [(4, i32::MAX), (4, 2), (1, 1)] {
            match cli::parse(&argv, max, limit) {
                Err(e) => imb_fuzz::one_line("omp", &e, ""),
                Ok(cli::Action::Run(o)) => {
                    assert!(!o.threads.is_empty(), "omp: no thread count");
                    let _ = (cli::points(&o), cli::least_secs(&o));
                }
                Ok(_) => {}
            }
        }
    });
}
