//! The command line as typed, read without looking at any file or path: argv normalised,
//! parsed by the clap command the option table generates, and each value in its type. What
//! the values mean on this machine (files read, paths probed, `-map` against the world size,
//! settings merged) is `resolve`'s job.

use super::mpi_opts::MPI;
use super::*;

/// A benchmark name from the command line, or an `-input` file of names, in argv order.
#[derive(Debug, Clone, PartialEq)]
pub enum Named {
    Name(String),
    Input(String),
}

/// Every option of the MPI executables as given (None or false: not given).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Raw {
    pub names: Vec<Named>,
    /// `-include`, `-exclude`: the comma lists, in argv order.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub npmin: Option<usize>,
    pub multi: Option<Multi>,
    pub map: Option<Map>,
    pub msglen: Option<String>,
    pub msglog: Option<(u32, u32)>,
    /// `-iter MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]]`.
    pub iter: Option<(usize, Option<usize>, Option<usize>)>,
    pub time: Option<f64>,
    /// `-mem` in GB as typed.
    pub mem_gb: Option<f64>,
    pub zero_size: Option<bool>,
    pub check: bool,
    pub thread_level: Option<ThreadLevel>,
    pub settings: Option<String>,
    pub json: Option<String>,
    pub aggregate_mode: Option<AggregateMode>,
    pub dir: Option<String>,
    pub overwrite: bool,
    pub adaptive: bool,
    pub cutoff: Option<f64>,
    pub min_reps: Option<usize>,
    pub max_reps: Option<usize>,
    pub force: bool,
    pub summary: bool,
    pub progress: Option<ProgressMode>,
    /// `-window_size` (imb-mpi1: Uniband, Biband).
    pub window_size: Option<usize>,
}

impl Raw {
    /// The options given on the command line, by name without the dash (the provenance's
    /// origins: any other option has its standard value).
    pub fn given(&self) -> Vec<String> {
        let set = [
            ("npmin", self.npmin.is_some()),
            ("multi", self.multi.is_some()),
            ("map", self.map.is_some()),
            ("msglen", self.msglen.is_some()),
            ("msglog", self.msglog.is_some()),
            ("iter", self.iter.is_some()),
            ("time", self.time.is_some()),
            ("mem", self.mem_gb.is_some()),
            ("zero_size", self.zero_size.is_some()),
            ("check", self.check),
            ("thread_level", self.thread_level.is_some()),
            ("settings", self.settings.is_some()),
            ("json", self.json.is_some()),
            ("aggregate_mode", self.aggregate_mode.is_some()),
            ("dir", self.dir.is_some()),
            ("overwrite", self.overwrite),
            ("adaptive", self.adaptive),
            ("cutoff", self.cutoff.is_some()),
            ("min_reps", self.min_reps.is_some()),
            ("max_reps", self.max_reps.is_some()),
            ("force", self.force),
        ];
        set.iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| n.to_string())
            .collect()
    }
}

/// What argv asks for, before anything is resolved.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Help,
    List,
    Run(Box<Raw>),
}

/// Read argv (without the program name). Pure: the same argv gives the same result anywhere.
pub fn read(args: &[String]) -> Result<Command> {
    let Some(norm) = normalise(args)? else {
        return Ok(Command::Help);
    };
    let m = table::command("imb", MPI)
        .try_get_matches_from(&norm)
        .map_err(from_clap)?;
    if m.get_flag("list") {
        return Ok(Command::List);
    }
    let one = |name: &str| m.get_one::<String>(name).cloned();
    let all = |name: &str| -> Vec<String> {
        m.get_many::<String>(name)
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    };
    // Names and -input files interleave in argv order.
    let mut names: Vec<(usize, Named)> = Vec::new();
    for (opt, named) in [
        ("names", Named::Name as fn(String) -> Named),
        ("input", Named::Input),
    ] {
        if let (Some(vals), Some(idx)) = (m.get_many::<String>(opt), m.indices_of(opt)) {
            names.extend(idx.zip(vals.map(|v| named(v.clone()))));
        }
    }
    names.sort_by_key(|(i, _)| *i);
    Ok(Command::Run(Box::new(Raw {
        names: names.into_iter().map(|(_, n)| n).collect(),
        include: all("include"),
        exclude: all("exclude"),
        npmin: m.get_one::<usize>("npmin").copied(),
        multi: m.get_one::<Multi>("multi").copied(),
        map: m.get_one::<Map>("map").copied(),
        msglen: one("msglen"),
        msglog: m.get_one::<(u32, u32)>("msglog").copied(),
        iter: m
            .get_one::<(usize, Option<usize>, Option<usize>)>("iter")
            .copied(),
        time: m.get_one::<f64>("time").copied(),
        mem_gb: m.get_one::<f64>("mem").copied(),
        zero_size: m.get_one::<bool>("zero_size").copied(),
        check: m.get_flag("check"),
        thread_level: m.get_one::<ThreadLevel>("thread_level").copied(),
        settings: one("settings"),
        json: one("json"),
        aggregate_mode: m.get_one::<AggregateMode>("aggregate_mode").copied(),
        dir: one("dir"),
        overwrite: m.get_flag("overwrite"),
        adaptive: m.get_flag("adaptive"),
        cutoff: m.get_one::<f64>("cutoff").copied(),
        min_reps: m.get_one::<usize>("min_reps").copied(),
        max_reps: m.get_one::<usize>("max_reps").copied(),
        force: m.get_flag("force"),
        summary: m.get_flag("summary"),
        progress: m.get_one::<ProgressMode>("progress").copied(),
        window_size: m.get_one::<usize>("window_size").copied(),
    })))
}
