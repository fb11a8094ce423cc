//! Reading a `-json` document back in tests: the file, a provenance parameter, the command line.

use serde_json::Value;

/// The document in `f`, which must be valid JSON.
pub fn read_json(f: impl AsRef<std::path::Path>) -> Value {
    let f = f.as_ref();
    let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()))
}

/// The parameter `name` of a provenance object (`doc["provenance"]`).
pub fn param<'a>(prov: &'a Value, name: &str) -> &'a Value {
    prov["parameters"]
        .as_array()
        .expect("a parameters list")
        .iter()
        .find(|x| x["name"] == name)
        .unwrap_or_else(|| panic!("no parameter {name}"))
}

/// The command line a provenance object recorded, every argument UTF-8.
pub fn argv(prov: &Value) -> Vec<&str> {
    prov["argv"]
        .as_array()
        .expect("an argv list")
        .iter()
        .map(|a| a.as_str().expect("a UTF-8 argument"))
        .collect()
}
