//! A table column as every sink needs it: the IMB title the text prints (and IMB-output
//! scripts parse), the machine key with units a `-json` row uses (doc/OUTPUT.md, "JSON"), and
//! how its values print. A declaration, not printing: table kinds hold their columns and the
//! sinks read them. Only the columns of IMB's plain tables and the two the driver adds
//! (`Group`, `defects`) are here; a family declares its own beside the table kind that fills
//! them, so a new column needs no edit of the engine.

/// One column of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// As IMB prints it, e.g. `t_ovrl[usec]`.
    pub title: &'static str,
    /// The JSON row key, with units, e.g. `t_ovrl_us`.
    pub key: &'static str,
    /// Printed as a whole number (`%13.0f`, IMB 2021's Msg/sec) rather than with two
    /// decimals.
    pub whole: bool,
}

impl Column {
    /// A column printed with two decimals, as IMB prints times and rates.
    pub const fn new(title: &'static str, key: &'static str) -> Column {
        Column {
            title,
            key,
            whole: false,
        }
    }
    /// A column printed as a whole number.
    pub const fn new_whole(title: &'static str, key: &'static str) -> Column {
        Column {
            title,
            key,
            whole: true,
        }
    }
    /// Whether a row holds it as an integer before the values (the printed `Row`).
    pub fn is_int(&self) -> bool {
        [GROUP, BYTES, REPETITIONS].contains(self)
    }
}

/// `-multi 1`: the group of the row.
pub const GROUP: Column = Column::new("Group", "group");
pub const BYTES: Column = Column::new("#bytes", "bytes");
pub const REPETITIONS: Column = Column::new("#repetitions", "repetitions");
/// The time of a single transfer: the slowest rank's.
pub const T: Column = Column::new("t[usec]", "t_us");
pub const T_MIN: Column = Column::new("t_min[usec]", "t_min_us");
pub const T_MAX: Column = Column::new("t_max[usec]", "t_max_us");
pub const T_AVG: Column = Column::new("t_avg[usec]", "t_avg_us");
/// MB = 2^20 bytes (guide 3.3.2).
pub const MBYTES: Column = Column::new("Mbytes/sec", "mbytes_per_s");
/// `-check`: the largest relative difference found.
pub const DEFECTS: Column = Column::new("defects", "defects");
