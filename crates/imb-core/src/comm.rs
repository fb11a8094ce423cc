//! Communicators and the few world-wide exchanges the driver needs: broadcasting rank 0's
//! decisions, agreeing on success (so every rank leaves together), splitting the groups of one
//! plan step, and gathering results to rank 0.

use crate::kernel::Comm;
use crate::stats::RankResult;
use crate::table::Wire;
use mpi::collective::SystemOperation;
use mpi::topology::Color;
use mpi::traits::*;
use serde::{de::DeserializeOwned, Serialize};

/// Broadcast a value from world rank 0 (which passes `Some`) to every rank.
pub fn bcast<T: Serialize + DeserializeOwned>(world: &Comm, value: Option<T>) -> T {
    let root = world.process_at_rank(0);
    let mut bytes = match &value {
        Some(v) => serde_json::to_vec(v).expect("options serialise"),
        None => Vec::new(),
    };
    let mut len = bytes.len() as u64;
    root.broadcast_into(&mut len);
    bytes.resize(len as usize, 0);
    root.broadcast_into(&mut bytes[..]);
    match value {
        Some(v) => v,
        None => serde_json::from_slice(&bytes).expect("rank 0 sent valid options"),
    }
}

/// True on every rank iff `ok` is true on every rank.
pub fn agree(world: &Comm, ok: bool) -> bool {
    let mine = ok as i32;
    let mut all = 0i32;
    world.all_reduce_into(&mine, &mut all, SystemOperation::min());
    all == 1
}

/// The largest of a value over all ranks.
pub fn max_all(world: &Comm, v: f64) -> f64 {
    let mut m = 0.0f64;
    world.all_reduce_into(&v, &mut m, SystemOperation::max());
    m
}

/// The communicator of this rank's group (`role` = group number and rank in it), or `None` for
/// an idle rank. Collective over the world.
pub fn split(world: &Comm, role: Option<(usize, usize)>) -> Option<Comm> {
    match role {
        Some((g, pos)) => world.split_by_color_with_key(Color::with_value(g as i32), pos as i32),
        None => world.split_by_color(Color::undefined()),
    }
}

/// The error of the lowest world rank that has one, on every rank (None when no rank has
/// one): so that every rank leaves together and rank 0 can print what went wrong elsewhere.
pub fn first_error(world: &Comm, mine: Option<String>) -> Option<String> {
    let me = if mine.is_some() {
        world.rank()
    } else {
        world.size()
    };
    let mut first = 0i32;
    world.all_reduce_into(&me, &mut first, SystemOperation::min());
    if first == world.size() {
        return None;
    }
    let root = world.process_at_rank(first);
    let mut bytes = mine.unwrap_or_default().into_bytes();
    let mut len = bytes.len() as u64;
    root.broadcast_into(&mut len);
    bytes.resize(len as usize, 0);
    root.broadcast_into(&mut bytes[..]);
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Gather every rank's result to world rank 0 (in world-rank order), as one fixed-size
/// record of doubles per rank (`RankResult::to_wire`, the family's record encoded in it).
pub fn gather(world: &Comm, mine: RankResult<Wire>) -> Option<Vec<RankResult<Wire>>> {
    let enc = mine.to_wire();
    let root = world.process_at_rank(0);
    if world.rank() == 0 {
        let mut all = vec![0.0f64; enc.len() * world.size() as usize];
        root.gather_into_root(&enc[..], &mut all[..]);
        Some(
            all.chunks_exact(enc.len())
                .map(|c| RankResult::from_wire(c.try_into().expect("one record")))
                .collect(),
        )
    } else {
        root.gather_into(&enc[..]);
        None
    }
}

/// Broadcast a status code from rank 0.
pub fn bcast_code(world: &Comm, code: u8) -> u8 {
    let mut c = code;
    world.process_at_rank(0).broadcast_into(&mut c);
    c
}
