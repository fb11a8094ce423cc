//! Selectors: stored runs named wherever imb-compare takes a run (`@accepted`, `@latest`,
//! `@nightly`, `@2026-05-01..2026-05-07`, `@latest,system=vm`).
//!
//! A selector is `@` and terms joined by commas; every term narrows the runs chosen:
//! `accepted` (each system's accepted baseline), `latest` (the newest run added), a run number,
//! `label=L` (or a bare word), `tag=T`, `system=S`, `date=FROM..TO` (or a bare date or range;
//! days as YYYY-MM-DD, either end may be left open). Without `system=`, `--system` (or
//! `$IMB_RS_SYSTEM`) narrows them when given. What is chosen must be runs of one system: a
//! run's launches pool into one side of a comparison, and launches of two machines are not
//! one run. Their launch files are read back through the same readers as files on disk.

use super::catalog::RunInfo;
use super::db::Store;
use crate::error::Error;
use crate::read::sides::{self, Side};
use std::collections::BTreeSet;

/// Which of the narrowed runs a selector takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    All,
    Accepted,
    Latest,
}

/// A parsed selector.
#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    /// As the user wrote it, `@` included.
    pub text: String,
    pick: Pick,
    id: Option<i64>,
    label: Option<String>,
    tags: Vec<String>,
    system: Option<String>,
    /// Inclusive days, YYYY-MM-DD.
    from: Option<String>,
    to: Option<String>,
}

/// Whether a run argument is a selector rather than a path (`./@x` names a file `@x`).
pub fn is_selector(arg: &str) -> bool {
    arg.starts_with('@')
}

fn day(s: &str) -> Result<String, String> {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .map(|d| d.format("%Y-%m-%d").to_string())
        .map_err(|_| format!("{s:?} is not a day: write YYYY-MM-DD"))
}

fn looks_like_date(s: &str) -> bool {
    // Bytes, not a string slice: a selector may have a letter of several bytes anywhere.
    let b = s.as_bytes();
    b.len() >= 4 && b[..4].iter().all(u8::is_ascii_digit) && matches!(b.get(4), Some(b'-' | b'.'))
        || s.starts_with("..")
}

impl Selector {
    pub fn parse(text: &str) -> Result<Selector, Error> {
        let bad = |msg: String| Error::Arg {
            arg: crate::store::name::shown(text),
            msg,
        };
        let body = text
            .strip_prefix('@')
            .ok_or_else(|| bad("a selector starts with @".into()))?;
        let mut s = Selector {
            text: text.to_string(),
            pick: Pick::All,
            id: None,
            label: None,
            tags: Vec::new(),
            system: None,
            from: None,
            to: None,
        };
        if body.is_empty() {
            return Err(bad(
                "an empty selector: @accepted, @latest, @LABEL, @RUN, @FROM..TO, or terms like \
                 label=L, tag=T, system=S joined by commas"
                    .into(),
            ));
        }
        for term in body.split(',') {
            if term.is_empty() {
                return Err(bad(
                    "an empty term (a comma at an end, or two together): terms are joined by \
                     single commas"
                        .into(),
                ));
            }
            s.term(term, &bad)?;
        }
        Ok(s)
    }

    /// One term of the selector (`key=value`, or a word whose shape says its key) set into
    /// `self`; `bad` words an error about the whole selector.
    fn term(&mut self, term: &str, bad: &dyn Fn(String) -> Error) -> Result<(), Error> {
        let numeric = |t: &str| {
            let t = t.strip_prefix(['-', '+']).unwrap_or(t);
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
        };
        let (key, value) = match term.split_once('=') {
            Some((k, v)) => (k, v),
            None if term == "accepted" || term == "latest" => (term, ""),
            None if numeric(term) => ("run", term),
            // A range is of days: "@3..7" is no range of run numbers.
            None if looks_like_date(term) || term.contains("..") => ("date", term),
            None => ("label", term),
        };
        let once = |slot: bool| {
            if slot {
                Err(bad(format!("{key} given twice")))
            } else {
                Ok(())
            }
        };
        if value.is_empty() && !matches!(key, "accepted" | "latest") {
            return Err(bad(format!("{term:?}: {key}= needs a value")));
        }
        // A name no run can have (store add and --system refuse it) is said so, rather
        // than "no stored run matches".
        if matches!(key, "label" | "tag" | "system") {
            crate::store::name::name(value).map_err(|m| bad(format!("{key}: {m}")))?;
        }
        match key {
            "accepted" | "latest" => {
                once(self.pick != Pick::All)?;
                self.pick = if key == "accepted" {
                    Pick::Accepted
                } else {
                    Pick::Latest
                };
            }
            "run" => {
                once(self.id.is_some())?;
                // Run numbers start at 1 (SQLite's rowids): 0 or -1 names no run, and
                // would only ever say "no stored run matches".
                let id = value.parse::<i64>().ok().filter(|&n| n >= 1);
                self.id = Some(id.ok_or_else(|| {
                    bad(format!(
                        "run {value:?}: a run number is a whole number from 1 to {}",
                        i64::MAX
                    ))
                })?);
            }
            "label" => {
                once(self.label.is_some())?;
                self.label = Some(value.to_string());
            }
            "tag" => self.tags.push(value.to_string()),
            "system" => {
                once(self.system.is_some())?;
                self.system = Some(value.to_string());
            }
            "date" => {
                once(self.from.is_some() || self.to.is_some())?;
                let (a, b) = value.split_once("..").unwrap_or((value, value));
                if a.is_empty() && b.is_empty() {
                    return Err(bad("date=..: give FROM, TO or both".into()));
                }
                self.from = (!a.is_empty()).then(|| day(a)).transpose().map_err(bad)?;
                self.to = (!b.is_empty()).then(|| day(b)).transpose().map_err(bad)?;
            }
            _ => {
                return Err(bad(format!(
                    "{key:?}: a term is accepted, latest, a run number, label=, tag=, \
                     system= or date="
                )))
            }
        }
        Ok(())
    }
}

impl Store {
    /// The runs `sel` chooses, oldest first; `system` narrows them when the selector names
    /// none. An error when it chooses none, or runs of more than one system.
    pub fn select(&self, sel: &Selector, system: Option<&str>) -> Result<Vec<RunInfo>, Error> {
        let system = sel.system.as_deref().or(system);
        let fail = |msg: String| Error::Store {
            db: self.db.clone(),
            msg: format!("{}: {msg}", sel.text),
        };
        let mut runs: Vec<RunInfo> = self
            .runs()?
            .into_iter()
            .filter(|r| sel.id.is_none_or(|id| r.id == id))
            .filter(|r| system.is_none_or(|s| r.system == s))
            .filter(|r| sel.label.is_none() || r.label == sel.label)
            .filter(|r| sel.tags.iter().all(|t| r.tags.contains(t)))
            .filter(|r| {
                let d = r.date().get(..10).unwrap_or("");
                sel.from.as_deref().is_none_or(|f| d >= f)
                    && sel.to.as_deref().is_none_or(|t| d <= t)
            })
            .collect();
        if sel.pick == Pick::Accepted {
            runs.retain(|r| r.accepted);
        }
        if runs.is_empty() {
            let within = system
                .map(|s| format!(" of system {s}"))
                .unwrap_or_default();
            return Err(fail(match sel.pick {
                Pick::Accepted => format!(
                    "no accepted baseline{within}: mark one with imb-compare store accept RUN"
                ),
                _ => format!("no stored run{within} matches (imb-compare store list shows them)"),
            }));
        }
        let systems: BTreeSet<&str> = runs.iter().map(|r| r.system.as_str()).collect();
        if systems.len() > 1 {
            return Err(fail(format!(
                "runs of {} systems ({}): name one with system=NAME or --system NAME",
                systems.len(),
                systems.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
        if sel.pick == Pick::Latest {
            runs.drain(..runs.len() - 1);
        }
        Ok(runs)
    }

    /// The launch files of `runs` as one side: what a comparison reads for a selector.
    pub fn side(&self, label: String, runs: &[RunInfo]) -> Result<Side, Error> {
        let mut texts = Vec::new();
        for r in runs {
            for (_, name, text) in self.files(r.id)? {
                texts.push((format!("run {}/{name}", r.id), text));
            }
        }
        sides::from_texts(label, texts)
    }

    /// The side a selector names, labelled by the selector and the runs it chose.
    pub fn load(&self, sel: &Selector, system: Option<&str>) -> Result<Side, Error> {
        let runs = self.select(sel, system)?;
        let ids: Vec<String> = runs.iter().map(|r| r.id.to_string()).collect();
        let label = format!(
            "{} (run{} {})",
            sel.text,
            if ids.len() > 1 { "s" } else { "" },
            ids.join(", ")
        );
        self.side(label, &runs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::add::{prepare, Filing};
    use super::super::testdb::Scratch;
    use super::*;

    const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus");

    #[test]
    fn selectors_parse() {
        let s = Selector::parse("@accepted,system=vm").unwrap();
        assert_eq!((s.pick, s.system.as_deref()), (Pick::Accepted, Some("vm")));
        let s = Selector::parse("@nightly").unwrap();
        assert_eq!(s.label.as_deref(), Some("nightly"));
        let s = Selector::parse("@12").unwrap();
        assert_eq!(s.id, Some(12));
        let s = Selector::parse("@2026-05-01..2026-05-07").unwrap();
        assert_eq!(
            (s.from.as_deref(), s.to.as_deref()),
            (Some("2026-05-01"), Some("2026-05-07"))
        );
        let s = Selector::parse("@date=..2026-05-07,tag=a,tag=b").unwrap();
        assert_eq!((s.from, s.tags.len()), (None, 2));
        let s = Selector::parse("@2026-05-01").unwrap();
        assert_eq!(s.from, s.to);
        // A letter of several bytes at any place near the start is a label, never a panic.
        for odd in ["@abcé", "@é", "@12é4", "@202é-01", "@2026é"] {
            let s = Selector::parse(odd).unwrap();
            assert_eq!(s.label.as_deref(), Some(&odd[1..]), "{odd}");
        }
        for (bad, says) in [
            ("@", "an empty selector"),
            ("@latest,accepted", "given twice"),
            ("@2026-13-01", "is not a day"),
            ("@colour=red", "a term is accepted, latest"),
            ("@label=", "label= needs a value"),
        ] {
            let e = Selector::parse(bad).err().unwrap().to_string();
            assert!(
                e.starts_with(&format!("{bad}: ")) && e.contains(says),
                "{e}"
            );
        }
    }

    #[test]
    fn selectors_choose_runs() {
        let sc = Scratch::new("select");
        let mut st = Store::open_or_create(&sc.db()).unwrap();
        let add = |st: &mut Store, file: &str, system: &str, label: &str, tag: &str| {
            let p = prepare(&format!("{CORPUS}/{file}")).unwrap();
            let f = Filing {
                system: system.into(),
                label: Some(label.into()),
                tags: vec![tag.into()],
            };
            st.add(&p, &f).unwrap().run.unwrap().0
        };
        add(&mut st, "imbtext/imb-rs-mpi1.txt", "vm", "a", "x");
        add(&mut st, "imbtext/imb-rs-mpi1-multi.txt", "vm", "b", "y");
        add(&mut st, "imbtext/imb-3.0.txt", "old", "a", "x");
        fn pick_in(st: &Store, text: &str, system: Option<&str>) -> Result<Vec<i64>, String> {
            st.select(&Selector::parse(text).unwrap(), system)
                .map(|v| v.iter().map(|r| r.id).collect())
                .map_err(|e| e.to_string())
        }
        let pick = |text: &str, system: Option<&str>| pick_in(&st, text, system);
        assert_eq!(pick("@latest", Some("vm")), Ok(vec![2]));
        assert_eq!(pick("@latest,system=old", Some("vm")), Ok(vec![3]));
        let e = pick("@latest", None).unwrap_err();
        assert!(
            e.contains("@latest: runs of 2 systems (old, vm): name one"),
            "{e}"
        );
        assert_eq!(pick("@tag=x,system=vm", None), Ok(vec![1]));
        assert_eq!(pick("@2026-11-25", None), Ok(vec![1, 2]));
        assert_eq!(pick("@..2026-11-24", None), Ok(vec![3]));
        let e = pick("@accepted", Some("vm")).unwrap_err();
        assert!(e.ends_with("@accepted: no accepted baseline of system vm: mark one with imb-compare store accept RUN"), "{e}");
        st.accept(1).unwrap();
        assert_eq!(pick_in(&st, "@accepted", None), Ok(vec![1]));
        let e = pick_in(&st, "@9", None).unwrap_err();
        assert!(e.contains("no stored run matches"), "{e}");

        // A stored run read back is the run the file gives.
        let side = st
            .load(&Selector::parse("@accepted").unwrap(), None)
            .unwrap();
        assert_eq!(side.label, "@accepted (run 1)");
        assert_eq!(side.files, ["run 1/imb-rs-mpi1.txt"]);
        let disk = sides::load(&format!("{CORPUS}/imbtext/imb-rs-mpi1.txt")).unwrap();
        assert_eq!(side.runs, disk.runs);
    }
}
