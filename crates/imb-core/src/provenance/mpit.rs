//! The MPI library's control variables that this run set, read through the MPI tool
//! information interface (MPI_T, MPI 3.1 chapter 14.3; imb-mpi's `tool`) on world rank 0.
//!
//! MPI_T gives a variable's current value but not its default, nor where the value came
//! from, and the default cannot be learnt in-process: Open MPI reads its parameters once, at
//! initialisation. So the rule is the one that can be kept honestly: the variables *named*
//! by this process's environment (`OMPI_MCA_name`, which mpirun's `--mca name value` also
//! sets; MPICH's `MPIR_CVAR_NAME`, `MPICH_NAME`, `MPIR_PARAM_NAME`) or by an Open MPI
//! parameter file (the files of the library's own `mca_base_param_files`), each with the
//! value the library holds, read through MPI_T, and where it was named. A name the library
//! has no variable for is listed apart (a misspelling, or a component that is not loaded).
//! Open MPI's launcher names some per job (the variables of its runtime frameworks, `orte_*`,
//! `ess_*`, `plm`, `oob_*`, …): those are marked `launcher`. Whatever fails is recorded as the
//! reason; it never stops the run.

use super::sysfs::Fact;
use imb_mpi::tool::Session;
use serde::Serialize;
use serde_json::Value;
use std::ffi::{c_int, OsString};

/// At most this many variables (and as many unknown names) are listed.
pub const MAX_LISTED: usize = 100;
/// A variable's value larger than this is not read.
const MAX_VALUE_BYTES: usize = 1 << 16;

/// A name a run set, and where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Named {
    /// The control variable's name as the library knows it (`btl`, `MPIR_CVAR_ASYNC_PROGRESS`).
    pub name: String,
    /// `environment OMPI_MCA_btl`, `file /etc/openmpi/openmpi-mca-params.conf`.
    pub source: String,
    /// Set by Open MPI's launcher for this job, not by the user.
    pub launcher: bool,
}

/// One control variable that was set, with the value the library holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cvar {
    #[serde(flatten)]
    pub named: Named,
    pub value: Fact<Value>,
}

/// The control variables of the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ControlVariables {
    /// The rule above in a line, for the reader of the file.
    pub rule: &'static str,
    /// Control variables the library has (`MPI_T_cvar_get_num`).
    pub count: usize,
    pub set: Vec<Cvar>,
    /// Names set that the library has no control variable for.
    pub unknown: Vec<Named>,
    /// Whether either list was cut at `MAX_LISTED`.
    pub truncated: bool,
    /// What MPI_T_init_thread to MPI_T_finalize took, in microseconds (Open MPI 4.1 spends
    /// some 0.2 s initialising MPI_T, most of the provenance's collection time).
    pub read_us: f64,
}

pub const RULE: &str = "variables named by the environment (OMPI_MCA_*, MPIR_CVAR_*, MPICH_*, \
                        MPIR_PARAM_*) or an Open MPI parameter file, with the value read \
                        through MPI_T; MPI_T gives no defaults";

/// Open MPI's runtime frameworks (ORTE and PMIx: launch, mapping, out-of-band messages,
/// daemons), whose variables mpirun sets for every job or reads itself; their values name the
/// job, its daemons and directories, not how the MPI library moves data.
const RUNTIME_FRAMEWORKS: &[&str] = &[
    "orte", "ess", "pmix", "plm", "ras", "rmaps", "routed", "odls", "oob", "iof", "errmgr",
    "filem", "grpcomm", "rml", "rtc", "schizo", "state",
];

/// Set by Open MPI's launcher (a runtime framework's variable, or one mpirun hands every rank).
fn launcher_set(name: &str) -> bool {
    RUNTIME_FRAMEWORKS.iter().any(|f| {
        name == *f
            || name
                .strip_prefix(f)
                .is_some_and(|rest| rest.starts_with('_'))
    }) || matches!(name, "initial_wdir" | "shmem_RUNTIME_QUERY_hint")
}

/// The control variable names `vars` set, environment order kept by name.
pub fn from_env(vars: impl Iterator<Item = (OsString, OsString)>) -> Vec<Named> {
    let mut v: Vec<Named> = vars
        .filter_map(|(k, _)| {
            let k = k.into_string().ok()?;
            let name = if let Some(n) = k.strip_prefix("OMPI_MCA_") {
                n.to_string()
            } else if k.starts_with("MPIR_CVAR_") {
                k.clone()
            } else if let Some(n) = k
                .strip_prefix("MPICH_")
                .or_else(|| k.strip_prefix("MPIR_PARAM_"))
            {
                format!("MPIR_CVAR_{n}")
            } else {
                return None;
            };
            (!name.is_empty()).then(|| Named {
                launcher: launcher_set(&name),
                source: format!("environment {k}"),
                name,
            })
        })
        .collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

/// The names an Open MPI parameter file (`name = value` lines, `#` comments) sets.
pub fn from_param_file(path: &str, text: &str) -> Vec<Named> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            if l.starts_with('#') {
                return None;
            }
            let (name, _) = l.split_once('=')?;
            let name = name.trim();
            (!name.is_empty() && !name.contains(char::is_whitespace)).then(|| Named {
                name: name.to_string(),
                source: format!("file {path}"),
                launcher: false,
            })
        })
        .collect()
}

/// The names of `lists` in order, each once: the first (the environment, then the files in
/// the library's order) is the one that holds, as Open MPI and MPICH apply them.
pub fn merge(lists: Vec<Vec<Named>>) -> Vec<Named> {
    let mut out: Vec<Named> = Vec::new();
    for n in lists.into_iter().flatten() {
        if !out.iter().any(|o| o.name == n.name) {
            out.push(n);
        }
    }
    out
}

/// A variable's value from its bytes: a string for `MPI_CHAR`, numbers for the integer types
/// and `MPI_DOUBLE`, an array when `count` is more than one.
pub fn decode(type_name: &str, size: usize, count: usize, bytes: &[u8]) -> Result<Value, String> {
    if type_name == "MPI_CHAR" {
        let s = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
        return Ok(Value::from(String::from_utf8_lossy(s).into_owned()));
    }
    if type_name == "MPI_C_BOOL" || type_name == "MPI_CXX_BOOL" {
        // Open MPI's flags: one byte each.
        let v: Vec<Value> = bytes
            .iter()
            .take(count)
            .map(|&b| Value::from(b != 0))
            .collect();
        return Ok(match v.len() {
            1 => v.into_iter().next().unwrap_or(Value::Null),
            _ => Value::Array(v),
        });
    }
    let float = type_name == "MPI_DOUBLE";
    let unsigned = type_name.contains("UNSIGNED") || type_name.starts_with("MPI_UINT");
    if !(type_name.contains("INT")
        || type_name.contains("LONG")
        || type_name == "MPI_COUNT"
        || unsigned
        || float)
        || !(size == 4 || size == 8)
        || bytes.len() < size * count
    {
        return Err(format!(
            "a value of type {type_name} ({size} bytes) not read"
        ));
    }
    let one = |c: &[u8]| -> Value {
        let mut b8 = [0u8; 8];
        b8[..size].copy_from_slice(c);
        match (float, unsigned, size) {
            (true, _, 8) => serde_json::Number::from_f64(f64::from_ne_bytes(b8))
                .map_or(Value::Null, Value::Number),
            (_, true, 4) => Value::from(u32::from_ne_bytes([c[0], c[1], c[2], c[3]])),
            (_, false, 4) => Value::from(i32::from_ne_bytes([c[0], c[1], c[2], c[3]])),
            (_, true, _) => Value::from(u64::from_ne_bytes(b8)),
            (_, false, _) => Value::from(i64::from_ne_bytes(b8)),
        }
    };
    let v: Vec<Value> = bytes[..size * count].chunks_exact(size).map(one).collect();
    Ok(if v.len() == 1 {
        v.into_iter().next().unwrap_or(Value::Null)
    } else {
        Value::Array(v)
    })
}

/// The value of variable `i`.
fn read(s: &Session, i: c_int) -> Result<Value, String> {
    let r = s.read(i, MAX_VALUE_BYTES)?;
    decode(&r.type_name, r.size, r.count, &r.bytes)
}

/// Everything, between MPI_T_init_thread and MPI_T_finalize (the session's life).
fn read_all() -> Result<ControlVariables, String> {
    let t0 = std::time::Instant::now();
    let s = Session::open()?;
    let r = (|| {
        let count = s.count()?;
        let mut lists = vec![from_env(std::env::vars_os())];
        // Open MPI's parameter files, in its order (the user's first); MPICH has none.
        if let Some(Value::String(files)) = s
            .index("mca_base_param_files")
            .and_then(|i| read(&s, i).ok())
        {
            for f in files.split([':', ',']).filter(|f| !f.is_empty()) {
                if let Ok(t) = std::fs::read_to_string(f) {
                    lists.push(from_param_file(f, &t));
                }
            }
        }
        let names = merge(lists);
        let mut set = Vec::new();
        let mut unknown = Vec::new();
        let mut truncated = false;
        for n in names {
            match s.index(&n.name) {
                Some(i) if set.len() < MAX_LISTED => set.push(Cvar {
                    value: read(&s, i).into(),
                    named: n,
                }),
                None if unknown.len() < MAX_LISTED => unknown.push(n),
                _ => truncated = true,
            }
        }
        Ok(ControlVariables {
            rule: RULE,
            count,
            set,
            unknown,
            truncated,
            read_us: 0.0,
        })
    })();
    drop(s);
    r.map(|mut c| {
        c.read_us = t0.elapsed().as_secs_f64() * 1e6;
        c
    })
}

/// The run's control variables, or why they cannot be read. World rank 0, once.
pub fn control_variables() -> Fact<ControlVariables> {
    read_all().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_environment_and_files() {
        let env = [
            ("OMPI_MCA_btl", "self,vader"),
            ("OMPI_MCA_orte_hnp_uri", "1.0;tcp://x"),
            ("MPIR_CVAR_ASYNC_PROGRESS", "1"),
            ("MPICH_NEMESIS_NETMOD", "tcp"),
            ("OMPI_MCA_plm", "rsh"),
            ("OMPI_MCA_oob_tcp_if_include", "10.0.0.0/24"),
            ("OMPI_MCA_essential", "x"),
            ("OMPI_MCA_", "x"),
            ("HOME", "/root"),
        ]
        .into_iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let e = from_env(env);
        let names: Vec<(&str, bool)> = e.iter().map(|n| (n.name.as_str(), n.launcher)).collect();
        assert_eq!(
            names,
            [
                ("MPIR_CVAR_ASYNC_PROGRESS", false),
                ("MPIR_CVAR_NEMESIS_NETMOD", false),
                ("btl", false),
                ("essential", false),
                ("oob_tcp_if_include", true),
                ("orte_hnp_uri", true),
                ("plm", true)
            ]
        );
        assert_eq!(e[2].source, "environment OMPI_MCA_btl");
        let f = from_param_file(
            "/etc/openmpi/openmpi-mca-params.conf",
            "# comment\nbtl_base_warn_component_unused=0\nmtl = ^ofi\n\nbtl = ^uct,openib\nnot a line\n",
        );
        let fnames: Vec<&str> = f.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(fnames, ["btl_base_warn_component_unused", "mtl", "btl"]);
        let m = merge(vec![e, f]);
        let btl = m.iter().find(|n| n.name == "btl").unwrap();
        assert_eq!(btl.source, "environment OMPI_MCA_btl");
        assert_eq!(m.len(), 9);
    }

    #[test]
    fn values_by_type() {
        assert_eq!(
            decode("MPI_CHAR", 1, 8, b"tcp\0junk").unwrap(),
            Value::from("tcp")
        );
        assert_eq!(
            decode("MPI_INT", 4, 1, &(-3i32).to_ne_bytes()).unwrap(),
            Value::from(-3)
        );
        assert_eq!(
            decode("MPI_UNSIGNED_LONG", 8, 1, &u64::MAX.to_ne_bytes()).unwrap(),
            Value::from(u64::MAX)
        );
        assert_eq!(
            decode("MPI_DOUBLE", 8, 1, &0.5f64.to_ne_bytes()).unwrap(),
            Value::from(0.5)
        );
        let two: Vec<u8> = [1i32, 2].iter().flat_map(|x| x.to_ne_bytes()).collect();
        assert_eq!(
            decode("MPI_INT", 4, 2, &two).unwrap(),
            serde_json::json!([1, 2])
        );
        assert!(decode("MPI_INT", 4, 2, &two[..4]).is_err());
        assert!(decode("MPI_FLOAT_INT", 12, 1, &[0; 12]).is_err());
        assert_eq!(decode("MPI_C_BOOL", 1, 1, &[1]).unwrap(), Value::from(true));
        assert_eq!(
            decode("MPI_UINT32_T", 4, 1, &u32::MAX.to_ne_bytes()).unwrap(),
            Value::from(u32::MAX)
        );
    }
}
