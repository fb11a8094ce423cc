//! Who imports whom inside a crate: for every folder module (the crate root included), the
//! edges between its children, and the circles among them.

use std::collections::{BTreeMap, BTreeSet};

use super::paths::{paths, reexports, ModPath};
use super::{Crate, Kind};

/// child → used child → the places that tie them (`file: path`).
pub type Edges = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The edges inside every folder module of `krate` (its `src/` files that are not tests).
pub fn graph(krate: &Crate) -> BTreeMap<ModPath, Edges> {
    let code: Vec<_> = krate.files_of(Kind::Src).collect();
    // The folder modules: every module some other module sits inside, the root included.
    let mut folders: BTreeMap<ModPath, BTreeMap<String, String>> = code
        .iter()
        .flat_map(|f| (0..f.module.len()).map(|n| f.module[..n].to_vec()))
        .map(|m| (m, BTreeMap::new()))
        .collect();
    for f in &code {
        if let Some(names) = folders.get_mut(&f.module) {
            names.extend(reexports(&f.code));
        }
    }
    let is_child = |folder: &[String], name: &str| {
        code.iter().any(|f| {
            let m = &f.module;
            m.len() > folder.len() && m[..folder.len()] == *folder && m[folder.len()] == name
        })
    };
    let mut g = BTreeMap::<ModPath, Edges>::new();
    for f in &code {
        let at = &f.module;
        for used in paths(&f.code, at) {
            // Every folder module that holds both ends.
            for (folder, names) in &folders {
                let n = folder.len();
                if at.len() <= n
                    || used.len() <= n
                    || at[..n] != folder[..]
                    || used[..n] != folder[..]
                {
                    continue;
                }
                let from = at[n].clone();
                let to = names.get(&used[n]).unwrap_or(&used[n]).clone();
                if from != to && is_child(folder, &to) {
                    g.entry(folder.clone())
                        .or_default()
                        .entry(from)
                        .or_default()
                        .entry(to)
                        .or_default()
                        .insert(format!("{}: {}", f.rel, used.join("::")));
                }
            }
        }
    }
    g
}

/// The strongly connected components with more than one member (Tarjan), each sorted.
pub fn circles(edges: &Edges) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a Edges,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        out: Vec<Vec<String>>,
    }
    fn visit(t: &mut T, v: &str) {
        let k = t.index.len();
        t.index.insert(v.into(), k);
        t.low.insert(v.into(), k);
        t.stack.push(v.into());
        t.on.insert(v.into());
        let next: Vec<String> = t
            .edges
            .get(v)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for w in next {
            if !t.index.contains_key(&w) {
                visit(t, &w);
                let lw = t.low[&w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(&w);
                let done = w == v;
                scc.push(w);
                if done {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                t.out.push(scc);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&String> = edges
        .keys()
        .chain(edges.values().flat_map(|m| m.keys()))
        .collect();
    for v in nodes {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}
