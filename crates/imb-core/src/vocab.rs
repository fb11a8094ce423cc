//! The words every layer of the engine shares, kept below all of them so that no module has to
//! reach up for them: how `-multi` reports groups, and the activity classes of white-box
//! section timers.

use serde::{Deserialize, Serialize};

/// `-multi 0|1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Multi {
    /// One row over all processes of all groups.
    Merged,
    /// One row per group.
    PerGroup,
}

/// The activity classes of white-box benchmarking (doc/METHODOLOGY.md, "White-box
/// benchmarking (Jacobi2D)").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Communication,
    DataMovement,
    Computation,
}

impl Activity {
    pub const ALL: [Activity; 3] = [
        Activity::Communication,
        Activity::DataMovement,
        Activity::Computation,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Activity::Communication => "communication",
            Activity::DataMovement => "data movement",
            Activity::Computation => "computation",
        }
    }
}

/// A named code section and its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub name: &'static str,
    pub class: Activity,
}
