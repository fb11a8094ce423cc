//! The provenance of an MPI run, collected once before the first benchmark, outside every
//! timed region: every rank sends its host, CPUs and clock facts to rank 0 (a variable-length
//! gather of JSON bytes), rank 0 names one rank per host, those read their host's facts and
//! send them (a broadcast and a second gather), and rank 0 adds the library, its control
//! variables and the parameters.

use crate::cli::{Options, ThreadLevel};
use crate::kernel::{Comm, Suite};
use crate::provenance::host::{self, HostDetail};
use crate::provenance::{clock, mpi_parameters, mpit, Local, MpiFacts, Provenance};
use crate::sysinfo;
use imb_mpi::attr::wtime_is_global;
use mpi::datatype::PartitionMut;
use mpi::traits::*;
use mpi::Threading;

fn level_name(t: ThreadLevel) -> &'static str {
    match t {
        ThreadLevel::Single => "MPI_THREAD_SINGLE",
        ThreadLevel::Funneled => "MPI_THREAD_FUNNELED",
        ThreadLevel::Serialized => "MPI_THREAD_SERIALIZED",
        ThreadLevel::Multiple => "MPI_THREAD_MULTIPLE",
    }
}

/// Every rank's `bytes`, on rank 0 in rank order (None on the others): one gather of the
/// lengths, one variable-length gather of the bytes.
fn gather_bytes(world: &Comm, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
    // An empty Vec's data pointer is 1, which is Open MPI's MPI_IN_PLACE: a rank with nothing
    // to send sends an empty slice of a real buffer instead.
    let none = [0u8; 1];
    let bytes = if bytes.is_empty() { &none[..0] } else { bytes };
    let len = bytes.len() as i32;
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_into(&len);
        root.gather_varcount_into(bytes);
        return None;
    }
    let mut lens = vec![0i32; world.size() as usize];
    root.gather_into_root(&len, &mut lens[..]);
    let displs: Vec<i32> = lens
        .iter()
        .scan(0i32, |at, &l| {
            let d = *at;
            *at += l;
            Some(d)
        })
        .collect();
    let mut all = vec![0u8; lens.iter().map(|&l| l as usize).sum()];
    root.gather_varcount_into_root(
        bytes,
        &mut PartitionMut::new(&mut all[..], &lens[..], &displs[..]),
    );
    Some(
        lens.iter()
            .zip(&displs)
            .map(|(&l, &d)| all[d as usize..(d + l) as usize].to_vec())
            .collect(),
    )
}

/// Per world rank, whether it reads its host's facts: the lowest rank of each host name.
/// (Not MPI's shared-memory node: two names on one machine, two UTS namespaces, are two
/// hosts to the provenance, and each reads its own, e.g. its own network devices.)
fn readers(locals: &[Local]) -> Vec<u8> {
    let mut seen: Vec<&str> = Vec::new();
    locals
        .iter()
        .map(|l| {
            let first = !seen.contains(&l.host.as_str());
            if first {
                seen.push(&l.host);
            }
            u8::from(first)
        })
        .collect()
}

/// Collective over the world: the run's provenance on rank 0 (None on the others). Every rank
/// sends its host, CPUs and clock facts; then one rank per host reads and sends its host's
/// facts; rank 0 adds the library, its control variables, the build, the launcher and the
/// parameters, and what all that took on it.
pub fn gather(
    world: &Comm,
    suite: &Suite,
    opts: &Options,
    granted: Threading,
) -> Option<Provenance> {
    let t0 = std::time::Instant::now();
    let wtick = mpi::time_resolution();
    let mut mine = Local::here(Some(wtick), wtime_is_global());
    // The node as MPI sees it: its rank 0 is its lowest world rank (the split keeps world order).
    let node = world.split_shared(world.rank());
    let mut lowest = world.rank();
    node.process_at_rank(0).broadcast_into(&mut lowest);
    mine.mpi_node = usize::try_from(lowest).ok();
    let bytes = serde_json::to_vec(&mine).expect("JSON of plain data");
    let mut locals: Option<Vec<Local>> = gather_bytes(world, &bytes).map(|all| {
        all.iter()
            .map(|b| serde_json::from_slice(b).expect("a rank's facts"))
            .collect()
    });
    let mut read = locals.as_deref().map(readers).unwrap_or_default();
    read.resize(world.size() as usize, 0);
    world.process_at_rank(0).broadcast_into(&mut read[..]);
    let detail = (read[world.rank() as usize] == 1).then(|| {
        let clock = || clock::measure("MPI_Wtime", &mpi::time, Some(wtick));
        HostDetail::read(&host::Root::system(), Some(&clock))
    });
    let bytes = match &detail {
        Some(d) => serde_json::to_vec(d).expect("JSON of plain data"),
        None => Vec::new(),
    };
    let details = gather_bytes(world, &bytes);
    let (mut locals, details) = (locals.take()?, details?);
    for (l, d) in locals.iter_mut().zip(details) {
        if !d.is_empty() {
            l.detail = Some(Box::new(
                serde_json::from_slice(&d).expect("a host's facts"),
            ));
        }
    }
    let aggregate = suite
        .benchmarks
        .iter()
        .any(|b| b.info().modes.contains(&crate::vocab::Mode::Aggregate));
    let mpi = MpiFacts {
        library_version: sysinfo::mpi_library(),
        standard_version: sysinfo::mpi_version(),
        thread_level: sysinfo::thread_name(granted).to_string(),
        thread_level_requested: level_name(opts.thread_level).to_string(),
        control_variables: mpit::control_variables(),
    };
    let mut p = Provenance::new(
        mpi_parameters(opts, suite.settings, aggregate),
        opts.settings.source.clone(),
        Some(mpi),
        locals,
    );
    p.collection_us = t0.elapsed().as_secs_f64() * 1e6;
    Some(p)
}
