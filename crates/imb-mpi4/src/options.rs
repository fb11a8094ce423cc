//! imb-mpi4's options (doc/ARCHITECTURE.md, "A new option"): none of its own. The other
//! executables' options are refused as imb-nbc refuses them, and so are two that IMB 2021's
//! IMB-MPI4 accepts and ignores, `-root_shift` and `-off_cache`: its persistent requests are
//! initialised once with root 0 on the first copy of the buffers, so neither option changes
//! what is measured (ops.rs). `resolve` looks the persistent collectives up on rank 0, so a
//! library without them ends the run before any table, on every rank.

use imb_core::cli::table::Takes;
use imb_core::cli::{Family, FamilyIn, Refused};
use imb_core::error::{Error, Result};
use imb_core::values::Values;
use imb_mpi::persistent;
use imb_refusals::{AGGREGATE, DIR, TYPES, WINDOW};

/// The options refused, in the order they are checked.
pub const REFUSED: [Refused; 9] = [
    AGGREGATE,
    WINDOW,
    DIR[0],
    DIR[1],
    Refused {
        name: "root_shift",
        takes: Takes::Value,
        why: "a persistent collective's root is fixed when it is initialised: {exe}'s, as \
              IMB 2021's IMB-MPI4's (which accepts the option and ignores it), use root 0 \
              (imb-nbc moves its roots)",
    },
    Refused {
        name: "off_cache",
        takes: Takes::Value,
        why: "a persistent collective's buffers are fixed when it is initialised: {exe}'s, as \
              IMB 2021's IMB-MPI4's (which accepts the option and ignores it), use one copy \
              of the messages (imb-nbc moves through copies)",
    },
    TYPES[0],
    TYPES[1],
    TYPES[2],
];

/// imb-mpi4's options.
pub static OPTIONS: Family = Family {
    refused: &REFUSED,
    resolve,
    ..Family::NONE
};

/// No values of its own; the run needs the persistent collectives.
fn resolve(_: &FamilyIn) -> Result<Values> {
    persistent::api().map_err(|e| Error::Run(e.to_string()))?;
    Ok(Values::default())
}
