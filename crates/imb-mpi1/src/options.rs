//! imb-mpi1's options and settings as the engine reads them (doc/ARCHITECTURE.md, "A new
//! option"): IMB 2021's `-window_size` of Uniband and Biband and its `-data_type`,
//! `-red_data_type` and `-contig_type` (the datatypes the benchmarks move and sum), keys of its
//! settings file set only from the command line; `-aggregate_mode` and imb-io's `-dir`,
//! `-overwrite` and FILENAME refused. Nothing here touches MPI or the rest of this crate, so
//! fuzz/ compiles this file into its harness as it is.

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

/// DATA_TYPE: IMB 2021's `-data_type`, the datatype of every benchmark but the reductions.
pub const DATA_TYPE: Slot<String> = Slot::new("DATA_TYPE");
/// RED_DATA_TYPE: IMB 2021's `-red_data_type`, the datatype the reductions sum.
pub const RED_DATA_TYPE: Slot<String> = Slot::new("RED_DATA_TYPE");
/// CONTIG_TYPE: IMB 2021's `-contig_type`, how the elements of a message lie in memory.
pub const CONTIG_TYPE: Slot<String> = Slot::new("CONTIG_TYPE");

/// A predefined datatype a message is made of (IMB 2021's `-data_type` and `-red_data_type`
/// values that imb-rs has).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    Byte,
    Char,
    Int,
    Float,
    Double,
}

impl Base {
    const ALL: [Base; 5] = [Base::Byte, Base::Char, Base::Int, Base::Float, Base::Double];

    /// The option's word for it.
    pub const fn word(self) -> &'static str {
        match self {
            Base::Byte => "byte",
            Base::Char => "char",
            Base::Int => "int",
            Base::Float => "float",
            Base::Double => "double",
        }
    }

    /// Its MPI name, as the header prints it.
    pub const fn mpi_name(self) -> &'static str {
        match self {
            Base::Byte => "MPI_BYTE",
            Base::Char => "MPI_CHAR",
            Base::Int => "MPI_INT",
            Base::Float => "MPI_FLOAT",
            Base::Double => "MPI_DOUBLE",
        }
    }

    /// Bytes of one element: the C type's (MPI_CHAR is a C char, MPI_INT a C int).
    pub const fn size(self) -> usize {
        match self {
            Base::Byte | Base::Char => 1,
            Base::Int => std::mem::size_of::<std::os::raw::c_int>(),
            Base::Float => 4,
            Base::Double => 8,
        }
    }

    fn parse(v: &str) -> Option<Base> {
        let v = v.trim().to_ascii_lowercase();
        Base::ALL.into_iter().find(|b| b.word() == v)
    }
}

/// How the elements of a message lie (IMB 2021's `-contig_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contig {
    /// One after the other, described as N elements of the base type.
    Base,
    /// One after the other, described as one MPI_Type_vector of the N elements.
    BaseVec,
    /// Each followed by a gap of its own size: the base type resized to an extent of twice
    /// its size, N of them.
    Resize,
    /// As `Resize`, described as one vector of N resized elements.
    ResizeVec,
}

impl Contig {
    const ALL: [Contig; 4] = [
        Contig::Base,
        Contig::BaseVec,
        Contig::Resize,
        Contig::ResizeVec,
    ];

    pub const fn word(self) -> &'static str {
        match self {
            Contig::Base => "base",
            Contig::BaseVec => "base_vec",
            Contig::Resize => "resize",
            Contig::ResizeVec => "resize_vec",
        }
    }

    /// Whether a message is one vector of its elements.
    pub const fn vector(self) -> bool {
        matches!(self, Contig::BaseVec | Contig::ResizeVec)
    }

    /// Whether each element is followed by a gap of its size.
    pub const fn resized(self) -> bool {
        matches!(self, Contig::Resize | Contig::ResizeVec)
    }

    /// Buffer bytes per byte of message: the resized layouts spread X bytes over 2·X, as
    /// IMB 2021's do (its `size_scale`).
    pub const fn span(self) -> usize {
        if self.resized() {
            2
        } else {
            1
        }
    }
}

/// The datatypes of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Types {
    pub data: Base,
    pub red: Base,
    pub contig: Contig,
}

impl Types {
    /// IMB 3.0's, and IMB 2021's defaults: MPI_BYTE, reductions of MPI_FLOAT, contiguous.
    pub const IMB: Types = Types {
        data: Base::Byte,
        red: Base::Float,
        contig: Contig::Base,
    };
}

/// The datatypes of a run with parameters `p` (IMB's where none was chosen).
pub fn types(p: &Params) -> Types {
    let base = |slot: Slot<String>, or: Base| {
        slot.get(&p.family)
            .and_then(|v| Base::parse(&v))
            .unwrap_or(or)
    };
    Types {
        data: base(DATA_TYPE, Types::IMB.data),
        red: base(RED_DATA_TYPE, Types::IMB.red),
        contig: CONTIG_TYPE
            .get(&p.family)
            .and_then(|v| contig(&v).ok())
            .unwrap_or(Types::IMB.contig),
    }
}

/// IMB 2021's half-precision values: they need a datatype that the MPI standard does not have
/// and that imb-rs does not use. IMB 2021 offers them only where mpi.h defines it.
fn half(v: &str) -> Option<String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "float16" => Some(
            "needs the extension type MPIX_C_FLOAT16, which Open MPI 4.1 does not \
             define and imb-rs does not use (MPICH 4 defines it)"
                .into(),
        ),
        "bfloat16" => Some(
            "needs the extension type MPIX_C_BF16, which neither Open MPI 4.1 nor \
             MPICH 4 defines"
                .into(),
        ),
        _ => None,
    }
}

/// `-data_type`'s value.
pub fn data_type(v: &str) -> Result<Base, String> {
    if let Some(why) = half(v) {
        return Err(why);
    }
    Base::parse(v).ok_or_else(|| "expected byte, char, int, float or double".into())
}

/// `-red_data_type`'s value: MPI_SUM is defined for numbers, not for MPI_BYTE.
pub fn red_data_type(v: &str) -> Result<Base, String> {
    if let Some(why) = half(v) {
        return Err(why);
    }
    match Base::parse(v) {
        Some(Base::Byte) => {
            Err("MPI_SUM does not add MPI_BYTEs; expected char, int, float or double".into())
        }
        Some(b) => Ok(b),
        None => Err("expected char, int, float or double".into()),
    }
}

/// `-contig_type`'s value.
pub fn contig(v: &str) -> Result<Contig, String> {
    let v = v.trim().to_ascii_lowercase();
    Contig::ALL
        .into_iter()
        .find(|c| c.word() == v)
        .ok_or_else(|| "expected base, base_vec, resize or resize_vec".into())
}

const fn text_key(name: &'static str, standard: fn() -> Value, check: Check) -> Key {
    Key {
        name,
        ty: Type::Text,
        standard: InStandard::Default(standard),
        optional: false,
        check,
    }
}

type Check = fn(&Value) -> std::result::Result<(), String>;

/// A settings value as an option's value would be read (`[standard]` may repeat it).
fn checked(v: &Value, read: fn(&str) -> Result<(), String>) -> std::result::Result<(), String> {
    match v {
        Value::Text(s) => read(s),
        _ => Ok(()),
    }
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

/// settings.toml with WINDOW_SIZE and the datatypes, whose standard values a `[standard]`
/// block may repeat.
pub static SETTINGS: Spec = Spec {
    keys: &[
        Key {
            name: "WINDOW_SIZE",
            ty: Type::Count,
            standard: InStandard::Default(|| Value::Count(DEFAULT_WINDOW)),
            optional: false,
            check: settings::any_value,
        },
        text_key(
            "DATA_TYPE",
            || Value::Text(Types::IMB.data.word().into()),
            |v| checked(v, |s| data_type(s).map(drop)),
        ),
        text_key(
            "RED_DATA_TYPE",
            || Value::Text(Types::IMB.red.word().into()),
            |v| checked(v, |s| red_data_type(s).map(drop)),
        ),
        text_key(
            "CONTIG_TYPE",
            || Value::Text(Types::IMB.contig.word().into()),
            |v| checked(v, |s| contig(s).map(drop)),
        ),
    ],
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

/// imb-mpi1's options: `-window_size`, the datatypes, and imb-io's refused.
pub static OPTIONS: Family = Family {
    rows: &[
        Opt::row(
            "window_size",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                WINDOW_SIZE.set(&mut r.family, window(v)?);
                Ok(())
            },
            (10, 1, "[-window_size <W>]"),
            "- -window_size W: Uniband and Biband keep W messages in flight per repetition\n  \
(IMB 2021; default 256).\n",
        ),
        Opt::row(
            "data_type",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                DATA_TYPE.set(&mut r.family, data_type(v)?.word().into());
                Ok(())
            },
            (11, 0, "[-data_type <type>]"),
            "- -data_type T: the datatype of every benchmark but the reductions (IMB 2021): byte\n  \
(MPI_BYTE, the default), char, int, float or double. A message of X bytes is X/size(T)\n  \
elements (the rest of X is not sent), so a size below size(T) sends none.\n",
        ),
        Opt::row(
            "red_data_type",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                RED_DATA_TYPE.set(&mut r.family, red_data_type(v)?.word().into());
                Ok(())
            },
            (11, 1, "[-red_data_type <type>]"),
            "- -red_data_type T: the datatype the reductions sum with MPI_SUM (IMB 2021): char,\n  \
int, float (MPI_FLOAT, the default) or double; X/size(T) elements.\n",
        ),
        Opt::row(
            "contig_type",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                CONTIG_TYPE.set(&mut r.family, contig(v)?.word().into());
                Ok(())
            },
            (11, 2, "[-contig_type <layout>]"),
            "- -contig_type L: how the elements lie (IMB 2021): base (one after the other, the\n  \
default), base_vec (the same, sent as one MPI_Type_vector), resize (each element\n  \
followed by a gap of its size, so the buffers hold 2·X) or resize_vec (those as one\n  \
vector). Under all but base the reductions sum with a user op, as IMB 2021 does.\n",
        ),
    ],
    refused: &REFUSED,
    span: |p, _| types(p).contig.span(),
    ..Family::NONE
};
