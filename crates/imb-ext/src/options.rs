//! The options and settings of imb-ext, also imb-rma's and imb-nbc's (doc/ARCHITECTURE.md, "A
//! new option"): none of their own; imb-mpi1's `-window_size` and imb-io's `-dir`,
//! `-overwrite` and FILENAME refused with a reason. Nothing here touches MPI or the rest of
//! this crate, so fuzz/ compiles this file into its harness as it is.

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

/// The options of the other executables, refused, in the order they are checked.
pub static OPTIONS: Family = Family {
    refused: &[
        Refused {
            name: "window_size",
            takes: Takes::Value,
            why: "{exe} has no benchmark with a window of messages (imb-mpi1's Uniband and \
                  Biband have)",
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
    ],
    ..Family::NONE
};
