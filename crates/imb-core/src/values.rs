//! Values a family declares beyond the engine's own: the keys of its settings file
//! (`settings::Params::family`, e.g. a file name) and what its own options resolved to
//! (`cli::Options::family`, e.g. a directory). The engine stores, merges, broadcasts and shows
//! them without knowing them; the family reads and writes each through a typed `Slot`, so no
//! use of a value spells its key or converts its type.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::marker::PhantomData;

/// One value: a switch, a count or a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Flag(bool),
    Count(usize),
    Text(String),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Flag(b) => write!(f, "{b}"),
            Value::Count(n) => write!(f, "{n}"),
            Value::Text(s) => f.write_str(s),
        }
    }
}

/// Values by key, in the order they were first set; serialised as a map (in JSON, one member
/// each beside the engine's own).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values(Vec<(String, Value)>);

impl Values {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// Set `key` (in its place if it is there, else last).
    pub fn set(&mut self, key: &str, value: Value) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key.to_string(), value)),
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Values {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Values {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Values;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Values, A::Error> {
                let mut v = Values::default();
                while let Some((k, x)) = m.next_entry::<String, Value>()? {
                    v.set(&k, x);
                }
                Ok(v)
            }
        }
        d.deserialize_map(Entries)
    }
}

/// A type a `Slot` holds.
pub trait Typed: Sized {
    fn into_value(self) -> Value;
    fn from_value(v: &Value) -> Option<Self>;
}

impl Typed for bool {
    fn into_value(self) -> Value {
        Value::Flag(self)
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Flag(b) => Some(*b),
            _ => None,
        }
    }
}

impl Typed for usize {
    fn into_value(self) -> Value {
        Value::Count(self)
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Count(n) => Some(*n),
            _ => None,
        }
    }
}

impl Typed for String {
    fn into_value(self) -> Value {
        Value::Text(self)
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

/// A family's value of type `T` under one key: declared once, as a constant, by the family
/// (`pub const DIR: Slot<String> = Slot::new("dir")`), and the only way it reads or writes it.
pub struct Slot<T> {
    key: &'static str,
    _type: PhantomData<fn() -> T>,
}

impl<T: Typed> Slot<T> {
    pub const fn new(key: &'static str) -> Slot<T> {
        Slot {
            key,
            _type: PhantomData,
        }
    }
    pub const fn key(&self) -> &'static str {
        self.key
    }
    /// The value, if it is set (and of this type).
    pub fn get(&self, v: &Values) -> Option<T> {
        v.get(self.key).and_then(T::from_value)
    }
    pub fn set(&self, v: &mut Values, x: T) {
        v.set(self.key, x.into_value());
    }
}
