//! What every executable's record of argv holds, whichever rows it has: the values of the
//! shared rows (`shared`), the options given, and the values a reader kept for later. The
//! argv readers (`table`) write here, so this sits below both.

use super::value::ProgressMode;

/// A benchmark name from the command line, or an `-input` file of names, in argv order.
#[derive(Debug, Clone, PartialEq)]
pub enum Named {
    Name(String),
    Input(String),
}

/// What the shared rows store, in every executable's record of argv.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shared {
    /// Benchmark (or construct) names, and `-input` files, in argv order.
    pub names: Vec<Named>,
    pub list: bool,
    pub settings: Option<String>,
    pub json: Option<String>,
    pub force: bool,
    pub progress: Option<ProgressMode>,
    /// The options given, by name, each once, in argv order (the provenance's origins).
    pub given: Vec<&'static str>,
    /// Values a setter refused, with the error, when the reader leaves the order of the
    /// errors to the suite (`table::read_dashes`; `check`).
    pub wrong: Vec<(&'static str, String)>,
}

impl Shared {
    /// Option `name` was given.
    pub fn mark(&mut self, name: &'static str) {
        if !self.given.contains(&name) {
            self.given.push(name);
        }
    }
    /// Whether option `name` was given.
    pub fn was_given(&self, name: &str) -> bool {
        self.given.contains(&name)
    }
    /// The error of option `name`'s value, if its setter refused it: a suite checks each
    /// where its resolution reaches that option.
    pub fn check(&self, name: &str) -> Result<(), String> {
        match self.wrong.iter().find(|(n, _)| *n == name) {
            Some((_, e)) => Err(e.clone()),
            None => Ok(()),
        }
    }
}

/// A record of argv that holds the shared rows' values.
pub trait HasShared {
    fn shared(&mut self) -> &mut Shared;
}
