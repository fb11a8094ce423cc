//! The command line as typed: every option of the MPI executables in its type, as the rows of
//! `mpi_opts` and of the family store it, without looking at any file or path. What the values mean on this
//! machine (files read, paths probed, `-map` against the world size, settings merged) is
//! `resolve`'s job.

use super::record::{HasShared, Shared};
use super::value::{AggregateMode, Iter, ThreadLevel};
use crate::values::Values;
use crate::vocab::{Map, Multi};

pub use super::record::Named;

/// Every option of the MPI executables as given (None or false: not given).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Raw {
    /// Names, `-input`, `-list`, `-settings`, `-json`, `-force`, `-progress`, and which
    /// options were given.
    pub shared: Shared,
    /// `-include`, `-exclude`: the comma lists, in argv order.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub npmin: Option<usize>,
    pub multi: Option<Multi>,
    pub map: Option<Map>,
    pub msglen: Option<String>,
    /// `-msgsize`'s lengths, or those of a family row that gives them its own way (imb-p2p's
    /// `-msgsz` and `-msglog`).
    pub msgsize: Option<Vec<usize>>,
    /// The option that gave `msgsize` last (None: `-msgsize`), which an error about the
    /// lengths names: the user typed it.
    pub msgsize_by: Option<&'static str>,
    pub msglog: Option<(u32, u32)>,
    /// `-iter MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]]`.
    pub iter: Option<Iter>,
    pub time: Option<f64>,
    /// `-mem` in GB as typed.
    pub mem_gb: Option<f64>,
    pub zero_size: Option<bool>,
    pub check: bool,
    pub thread_level: Option<ThreadLevel>,
    pub aggregate_mode: Option<AggregateMode>,
    pub adaptive: bool,
    pub cutoff: Option<f64>,
    pub min_reps: Option<usize>,
    pub max_reps: Option<usize>,
    pub summary: bool,
    /// `-compat` and the IMB 2021 options that refine its method.
    pub method: crate::method::Given,
    /// What the family's own rows stored, through its slots (`cli::Family`).
    pub family: Values,
}

impl HasShared for Raw {
    fn shared(&mut self) -> &mut Shared {
        &mut self.shared
    }
}

/// What argv asks for, before anything is resolved.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Help,
    /// `-list`, under the profile given (`-compat 2021` lists IMB 2021's defaults).
    List(crate::method::Compat),
    Run(Box<Raw>),
}
