//! What a family adds to the MPI executables' options (doc/ARCHITECTURE.md, "A new option"):
//! rows of its own, which write into `Raw::family` through the family's typed slots; what
//! those rows mean on this machine (`resolve`, on rank 0, after the settings merge); and the
//! options of other executables it refuses with a reason instead of "unknown option". The
//! engine names none of them: it reads, merges, broadcasts and shows what the family declares.

use super::raw::Raw;
use super::table::{Accept, Opt, Takes};
use super::value::ThreadLevel;
use crate::error::Result;
use crate::settings::Params;
use crate::values::Values;

/// A family's options.
pub struct Family {
    /// Its own rows, listed in `-help` after `-aggregate_mode`, in the calling sequence where
    /// their place says. A row whose slot is a key of the suite's settings file (`settings::
    /// Spec::keys`) sets that parameter, with the command line as its origin.
    pub rows: &'static [Opt<Raw>],
    /// Options other executables have and this one refuses, in the order they are checked.
    pub refused: &'static [Refused],
    /// What the rows mean, once the settings are merged: paths probed, values checked
    /// against the settings and the world size. The values it returns are the family's
    /// resolved options (`Options::family`): its benchmarks read them through its slots, and
    /// `-json` lists each as `-key` after `-aggregate_mode`.
    pub resolve: fn(&FamilyIn) -> Result<Values>,
    /// How much buffer a message of X bytes spans, in units of X, given the merged parameters
    /// and the resolved options (`Options::span`): 1 unless the family lays its elements out
    /// with gaps (imb-mpi1's `-contig_type resize`: one element every two, as IMB 2021 does).
    /// The engine allocates, and counts against `-mem`, that many times the bytes.
    pub span: fn(&Params, &Values) -> usize,
    /// The thread level MPI_Init_thread asks for when `-thread_level` is not given (imb-mt's
    /// threads call MPI concurrently: `Multiple`).
    pub thread_level: ThreadLevel,
    /// The message lengths the family's options give, once `resolve` has given its values
    /// (imb-mt: `-count`'s element counts times `-datatype`'s size); None: the ladder. A
    /// `-msglen` file or `-msgsize` list given on the command line comes first.
    pub lengths: fn(&FamilyIn, &Values) -> Option<Vec<usize>>,
}

/// An option of another executable: refused, naming why (`{exe}` is this executable).
#[derive(Debug, Clone, Copy)]
pub struct Refused {
    pub name: &'static str,
    /// `Value` when it takes one (so its value is not mistaken for a benchmark name).
    pub takes: Takes,
    pub why: &'static str,
}

/// What `Family::resolve` sees.
pub struct FamilyIn<'a> {
    pub exe: &'a str,
    /// The values its rows stored (`Raw::family`).
    pub raw: &'a Values,
    /// The parameters in force after the settings merge (the suite's own keys included).
    pub params: &'a Params,
    /// The world size.
    pub np: usize,
    /// The thread level MPI_Init_thread asks for (`-thread_level`, or `Family::thread_level`).
    pub thread_level: ThreadLevel,
}

fn nothing(_: &FamilyIn) -> Result<Values> {
    Ok(Values::default())
}

fn ladder(_: &FamilyIn, _: &Values) -> Option<Vec<usize>> {
    None
}

fn dense(_: &Params, _: &Values) -> usize {
    1
}

impl Family {
    /// Whether one of the family's rows takes the place of the engine's row `name`.
    pub fn replaces(&self, name: &str) -> bool {
        self.rows.iter().any(|r| r.name == name)
    }

    /// No options of its own, none refused.
    pub const NONE: Family = Family {
        rows: &[],
        refused: &[],
        resolve: nothing,
        span: dense,
        thread_level: ThreadLevel::Single,
        lengths: ladder,
    };
}

fn refuse(_: &mut Raw, _: &str) -> std::result::Result<(), String> {
    Ok(())
}

/// The rows argv is read against: the engine's, the family's, and a hidden row for each
/// refused option (stored in `Raw::refused` by `mpi_opts::read`). A family row named as an
/// engine row replaces it: the option keeps its name and takes the family's meaning
/// (imb-p2p's `-msglog`, which IMB-P2P reads its own way). A refused option replaces the
/// engine's row of its name too, so its value is never read: it is refused whatever it is.
/// So does an engine row the executable does not list (`-aggregate_mode` where `aggregate`
/// is false), which `resolve` refuses.
pub(super) fn all_rows(engine: &[Opt<Raw>], family: &Family, aggregate: bool) -> Vec<Opt<Raw>> {
    engine
        .iter()
        .filter(|o| !family.replaces(o.name) && !family.refused.iter().any(|r| r.name == o.name))
        .map(|o| match o.accept {
            Accept::Aggregate if !aggregate => Opt::plain(o.name, o.takes, refuse),
            _ => *o,
        })
        .chain(family.rows.iter().copied())
        .chain(
            family
                .refused
                .iter()
                .map(|r| Opt::plain(r.name, r.takes, refuse)),
        )
        .collect()
}
