//! imb-refusals: what one MPI executable refuses of another's options and settings keys, each
//! row defined once (doc/ARCHITECTURE.md, "A new option"), and the options and settings of the
//! families that have none of their own: imb-ext's and imb-rma's (`OPTIONS`), imb-nbc's
//! (`WITHOUT_AGGREGATE`), imb-mpi4's rows (its list is its own) and their settings file
//! (`SETTINGS`): imb-mpi1's `-window_size` and datatypes, imb-io's `-dir`, `-overwrite` and
//! FILENAME, and `-aggregate_mode` refused with a reason. Nothing here touches MPI, so fuzz/
//! compiles this file into its harness as it is.

use imb_core::cli::table::Takes;
use imb_core::cli::{Family, Refused};
use imb_core::settings::{self, Foreign, Spec, Type};

/// settings.toml; imb-io's FILENAME names imb-io's file.
pub static SETTINGS: Spec = Spec {
    foreign: &[Foreign {
        name: "FILENAME",
        ty: Type::Text,
        file: "settings_io.toml",
        exe: "imb-io",
    }],
    ..settings::STANDARD
};

/// `-window_size` (imb-mpi1's), refused.
pub const WINDOW: Refused = Refused {
    name: "window_size",
    takes: Takes::Value,
    why: "{exe} has no benchmark with a window of messages (imb-mpi1's Uniband and Biband have)",
};

/// IMB 2021's datatype options, which it has only in IMB-MPI1 (imb-mpi1's), refused.
pub const TYPES: [Refused; 3] = [
    Refused {
        name: "data_type",
        takes: Takes::Value,
        why: "IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {exe} moves \
              MPI_BYTE",
    },
    Refused {
        name: "red_data_type",
        takes: Takes::Value,
        why: "IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {exe} sums \
              MPI_FLOAT",
    },
    Refused {
        name: "contig_type",
        takes: Takes::Value,
        why: "IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {exe}'s messages \
              are contiguous",
    },
];

/// imb-io's options, refused.
pub const DIR: [Refused; 2] = [
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

/// IMB 2021's options for collectives timed call by call and their roots: IMB-EXT has
/// neither; IMB-RMA accepts both but none of its benchmarks uses them, and neither do ours.
pub const COLLECTIVE: [Refused; 2] = [
    Refused {
        name: "sync",
        takes: Takes::Value,
        why: "{exe} has no collective timed call by call (imb-mpi1's and imb-nbc's are)",
    },
    Refused {
        name: "root_shift",
        takes: Takes::Value,
        why: "{exe} has no rooted collective (imb-mpi1 and imb-nbc have)",
    },
];

/// `-aggregate_mode` (imb-ext's and imb-io's), refused by the families without AGGREGATE
/// tables.
pub const AGGREGATE: Refused = Refused {
    name: "aggregate_mode",
    takes: Takes::Value,
    why: "{exe} has no AGGREGATE/NON-AGGREGATE tables (imb-ext and imb-io have)",
};

/// imb-ext's and imb-rma's options: the other executables', refused in this order.
pub static OPTIONS: Family = Family {
    refused: &[
        WINDOW,
        DIR[0],
        DIR[1],
        COLLECTIVE[0],
        COLLECTIVE[1],
        TYPES[0],
        TYPES[1],
        TYPES[2],
    ],
    ..Family::NONE
};

/// imb-nbc's: `-aggregate_mode` (it has no AGGREGATE tables), then the others' options as
/// above but `-sync` and `-root_shift`, which its collectives take.
pub static WITHOUT_AGGREGATE: Family = Family {
    refused: &[
        AGGREGATE, WINDOW, DIR[0], DIR[1], TYPES[0], TYPES[1], TYPES[2],
    ],
    ..Family::NONE
};
