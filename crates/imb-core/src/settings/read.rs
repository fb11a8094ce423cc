//! A settings file's blocks as a derived serde reader would read them, with the keys each
//! block takes taken from the suite's `Spec` (the guide's eight, the suite's own, and other
//! suites' keys, which name the file to use): values in the order TOML hands the keys over,
//! each with its line, and every error raised where TOML places it (the key of an unknown
//! field, the value of a wrong type), in TOML's and serde's words.

use super::*;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// The guide's keys, in the order of the files and of every list of them.
pub(super) const GUIDE: [&str; 8] = [
    "MINMSGLOG",
    "MAXMSGLOG",
    "MSGSPERSAMPLE",
    "MSGS_NONAGGR",
    "OVERALL_VOL",
    "N_WARMUP",
    "N_BARR",
    "TARGET_CPU_SECS",
];

/// What a key's value is read as.
#[derive(Debug, Clone, Copy)]
enum Ty {
    U32,
    Usize,
    F64,
    Bool,
    Own(Type),
}

/// A value as read.
#[derive(Debug, Clone)]
pub(super) enum Read {
    U32(u32),
    Usize(usize),
    F64(f64),
    Bool(bool),
    Own(Value),
}

/// A block's values in file order: key, value, line.
#[derive(Debug, Default)]
pub(super) struct Block(pub(super) Vec<(&'static str, Read, usize)>);

impl Block {
    pub(super) fn get(&self, key: &str) -> Option<&(&'static str, Read, usize)> {
        self.0.iter().find(|(k, ..)| *k == key)
    }
}

/// serde's words for an unknown key, as a derived reader says them.
fn unknown_field(field: &str, expected: &[&str]) -> String {
    let names: Vec<String> = expected.iter().map(|n| format!("`{n}`")).collect();
    match names.len() {
        0 => format!("unknown field `{field}`, there are no fields"),
        1 => format!("unknown field `{field}`, expected {}", names[0]),
        2 => format!(
            "unknown field `{field}`, expected {} or {}",
            names[0], names[1]
        ),
        _ => format!(
            "unknown field `{field}`, expected one of {}",
            names.join(", ")
        ),
    }
}

/// A key of a block: one of `keys`, or an unknown-field error (TOML places it at the key).
struct KeySeed<'a>(&'a [(&'static str, Ty)]);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = (&'static str, Ty);
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = (&'static str, Ty);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
        match self.0.iter().find(|(k, _)| *k == v) {
            Some(&k) => Ok(k),
            None => {
                let names: Vec<&str> = self.0.iter().map(|(k, _)| *k).collect();
                Err(E::custom(unknown_field(v, &names)))
            }
        }
    }
}

/// A block and the keys it takes; `name` is what a value that is no table was expected to be.
struct BlockSeed<'a> {
    name: &'static str,
    keys: &'a [(&'static str, Ty)],
    text: &'a str,
}

impl<'de> DeserializeSeed<'de> for BlockSeed<'_> {
    type Value = Block;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Block, D::Error> {
        d.deserialize_struct(self.name, &[], self)
    }
}

impl<'de> Visitor<'de> for BlockSeed<'_> {
    type Value = Block;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "struct {}", self.name)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> std::result::Result<Block, A::Error> {
        let mut b = Block::default();
        let line = |s: std::ops::Range<usize>| line_of(self.text, s.start);
        while let Some((key, ty)) = m.next_key_seed(KeySeed(self.keys))? {
            let (v, at) = match ty {
                Ty::U32 => m
                    .next_value::<Spanned<u32>>()
                    .map(|v| (Read::U32(*v.get_ref()), v.span()))?,
                Ty::Usize => m
                    .next_value::<Spanned<usize>>()
                    .map(|v| (Read::Usize(*v.get_ref()), v.span()))?,
                Ty::F64 => m
                    .next_value::<Spanned<f64>>()
                    .map(|v| (Read::F64(*v.get_ref()), v.span()))?,
                Ty::Bool => m
                    .next_value::<Spanned<bool>>()
                    .map(|v| (Read::Bool(*v.get_ref()), v.span()))?,
                Ty::Own(Type::Count) => m
                    .next_value::<Spanned<usize>>()
                    .map(|v| (Read::Own(Value::Count(*v.get_ref())), v.span()))?,
                Ty::Own(Type::Text) => m
                    .next_value::<Spanned<String>>()
                    .map(|v| (Read::Own(Value::Text(v.get_ref().clone())), v.span()))?,
            };
            b.0.push((key, v, line(at)));
        }
        Ok(b)
    }
}

pub(super) type Info = BTreeMap<Spanned<String>, Spanned<String>>;

/// The whole file: its blocks.
#[derive(Default)]
pub(super) struct Layout {
    /// Absent: the built-in standard values (a file may hold only its `[optional]` block).
    pub(super) standard: Option<Block>,
    pub(super) optional: Block,
    /// MPI_Info hints for MPI_Win_create / MPI_File_open (the guide's `User_Set_Info`).
    pub(super) info: Info,
}

/// Reads the whole file of `spec`'s suite (`text` gives the lines).
pub(super) struct LayoutSeed<'a> {
    pub(super) spec: &'a Spec,
    pub(super) text: &'a str,
}

const BLOCKS: [(&str, Ty); 3] = [
    ("standard", Ty::Bool),
    ("optional", Ty::Bool),
    ("info", Ty::Bool),
];

impl<'de> DeserializeSeed<'de> for LayoutSeed<'_> {
    type Value = Layout;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Layout, D::Error> {
        d.deserialize_struct("FileLayout", &[], self)
    }
}

impl<'de> Visitor<'de> for LayoutSeed<'_> {
    type Value = Layout;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct FileLayout")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> std::result::Result<Layout, A::Error> {
        let guide = |ty: fn(usize) -> Ty| GUIDE.iter().enumerate().map(move |(i, &k)| (k, ty(i)));
        let ty = |i: usize| match i {
            0 | 1 => Ty::U32,
            7 => Ty::F64,
            _ => Ty::Usize,
        };
        let foreign = self.spec.foreign.iter().map(|f| (f.name, Ty::Own(f.ty)));
        let own = |optional: bool| {
            self.spec
                .keys
                .iter()
                .filter(move |k| !optional || k.optional)
                .map(|k| (k.name, Ty::Own(k.ty)))
        };
        let std_keys: Vec<_> = guide(ty).chain(foreign.clone()).chain(own(false)).collect();
        let opt_keys: Vec<_> = std::iter::once(("IMB_OPTIONAL", Ty::Bool))
            .chain(guide(ty))
            .chain(foreign)
            .chain(own(true))
            .collect();
        let mut l = Layout::default();
        while let Some((block, _)) = m.next_key_seed(KeySeed(&BLOCKS))? {
            let seed = |name, keys| BlockSeed {
                name,
                keys,
                text: self.text,
            };
            match block {
                "standard" => {
                    l.standard = Some(m.next_value_seed(seed("StandardBlock", &std_keys))?)
                }
                "optional" => l.optional = m.next_value_seed(seed("OptionalBlock", &opt_keys))?,
                _ => l.info = m.next_value()?,
            }
        }
        Ok(l)
    }
}
