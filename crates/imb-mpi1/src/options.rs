//! imb-mpi1's options and settings as the engine reads them (doc/ARCHITECTURE.md, "A new
//! option"): IMB 2021's `-window_size` of Uniband and Biband, a key of its settings file set
//! only from the command line; `-aggregate_mode` and imb-io's `-dir`, `-overwrite` and FILENAME
//! refused. Nothing
//! here touches MPI or the rest of this crate, so fuzz/ compiles this file into its harness as
//! it is.

use imb_core::cli::raw::Raw;
use imb_core::cli::table::{Opt, Takes};
use imb_core::cli::{Family, Refused};
use imb_core::settings::{self, Foreign, InStandard, Key, Params, Spec, Type};
use imb_core::values::{Slot, Value};

/// WINDOW_SIZE: messages in flight per repetition of Uniband and Biband (doc/ReadMe_IMB.md,
/// "Uniband and Biband").
pub const WINDOW_SIZE: Slot<usize> = Slot::new("WINDOW_SIZE");

/// IMB 2021's `-window_size` default.
pub const DEFAULT_WINDOW: usize = 256;

/// Largest `-window_size`: one MPI_Request each, allocated before timing.
pub const MAX_WINDOW: usize = 1 << 20;

/// The window of a run.
pub fn window_size(p: &Params) -> usize {
    WINDOW_SIZE.get(&p.family).unwrap_or(DEFAULT_WINDOW)
}

/// Keys of imb-io's file, refused with the file to use.
pub const FROM_IO: Foreign = Foreign {
    name: "FILENAME",
    ty: Type::Text,
    file: "settings_io.toml",
    exe: "imb-io",
};

/// Options of the other executables, refused, in the order they are checked: `-aggregate_mode`
/// (no AGGREGATE tables here), imb-io's.
pub const REFUSED: [Refused; 3] = [
    Refused {
        name: "aggregate_mode",
        takes: Takes::Value,
        why: "{exe} has no AGGREGATE/NON-AGGREGATE tables (imb-ext and imb-io have)",
    },
    Refused {
        name: "dir",
        takes: Takes::Value,
        why: "only imb-io creates files",
    },
    Refused {
        name: "overwrite",
        takes: Takes::Flag,
        why: "only imb-io creates files",
    },
];

/// settings.toml with WINDOW_SIZE, whose standard value a `[standard]` block may repeat.
pub static SETTINGS: Spec = Spec {
    keys: &[Key {
        name: "WINDOW_SIZE",
        ty: Type::Count,
        standard: InStandard::Default(|| Value::Count(DEFAULT_WINDOW)),
        optional: false,
        check: settings::any_value,
    }],
    foreign: &[FROM_IO],
    ..settings::STANDARD
};

fn window(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_WINDOW).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of messages from 1 to {MAX_WINDOW}"
        )),
    }
}

/// imb-mpi1's options: `-window_size`, and imb-io's refused.
pub static OPTIONS: Family = Family {
    rows: &[Opt::row(
        "window_size",
        Takes::Value,
        |r: &mut Raw, v| -> Result<(), String> {
            WINDOW_SIZE.set(&mut r.family, window(v)?);
            Ok(())
        },
        (10, 1, "[-window_size <W>]"),
        "- -window_size W: Uniband and Biband keep W messages in flight per repetition\n  \
(IMB 2021; default 256).\n",
    )],
    refused: &REFUSED,
    ..Family::NONE
};
