//! Notes a family brings (the Sphinx latencies' slowest rank, IMB-IO's CPU_Exploit block): the
//! family declares its own typed value and its printed lines through `Remark`; the engine
//! carries it as `Note::Family` without knowing its fields, and the JSON sink writes them
//! under the family's `kind` as it writes its own notes' fields.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// A family's note type.
pub trait Remark: Serialize {
    /// The JSON `kind`, snake_case like the engine's own (doc/OUTPUT.md lists them all).
    const KIND: &'static str;
    /// The printed lines, without the `# ` prefix the sink adds; an empty string prints as a
    /// blank line.
    fn lines(&self) -> Vec<String>;
}

/// A family's note, made plain data when the family builds it.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyNote {
    pub kind: &'static str,
    pub fields: Map<String, Value>,
    pub lines: Vec<String>,
}

impl FamilyNote {
    pub fn of<R: Remark>(r: &R) -> FamilyNote {
        let fields = match serde_json::to_value(r) {
            Ok(Value::Object(m)) => m,
            // A remark is a struct of plain data: nothing else can come out.
            _ => Map::new(),
        };
        FamilyNote {
            kind: R::KIND,
            fields,
            lines: r.lines(),
        }
    }
}

/// Like an engine note: `kind` first, then the fields.
impl Serialize for FamilyNote {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = Map::new();
        m.insert("kind".into(), Value::from(self.kind));
        for (k, v) in &self.fields {
            m.entry(k.clone()).or_insert_with(|| v.clone());
        }
        m.serialize(s)
    }
}
