//! The suite's declarations: names, order, classes, modes, tables and sizes as IMB-RMA has
//! them.

use super::*;
use imb_core::bench::{BufShape, Mode, Procs};
use imb_core::table;

#[test]
fn imb_rma_names_in_default_order_then_on_request() {
    assert_eq!(
        SUITE.names(),
        [
            "Unidir_put",
            "Bidir_put",
            "Unidir_get",
            "Bidir_get",
            "Put_local",
            "Put_all_local",
            "One_put_all",
            "All_put_all",
            "One_get_all",
            "All_get_all",
            "Exchange_put",
            "Exchange_get",
            "Accumulate",
            "Get_accumulate",
            "Fetch_and_op",
            "Compare_and_swap",
            "Truly_passive_put",
            "Get_local",
            "Get_all_local",
        ]
    );
    assert_eq!(SUITE.defaults(), 17);
}

#[test]
fn processes_modes_tables_and_checks() {
    for b in BENCHMARKS {
        let i = b.info();
        let two_modes = [Mode::NonAggregate, Mode::Aggregate];
        let (procs, modes, kind, checked): (_, &[Mode], _, _) = match i.name {
            "Unidir_put" | "Bidir_put" | "Unidir_get" | "Bidir_get" | "Put_local" | "Get_local"
            | "Accumulate" | "Get_accumulate" | "Fetch_and_op" | "Compare_and_swap" => {
                (Procs::Pair, &two_modes, "single", true)
            }
            "Truly_passive_put" => (Procs::Pair, &[Mode::Plain], "rma-truly-passive", true),
            "One_put_all" | "Put_all_local" => {
                (Procs::Any, &[Mode::Plain], "rma-mult-passive", true)
            }
            "One_get_all" | "Get_all_local" => {
                (Procs::Any, &[Mode::Plain], "rma-mult-passive", false)
            }
            "All_get_all" | "All_put_all" => (Procs::Any, &[Mode::Plain], "collective", false),
            "Exchange_put" | "Exchange_get" => (Procs::Any, &[Mode::Plain], "collective", true),
            n => panic!("{n}"),
        };
        assert_eq!(
            (i.procs, i.modes, i.table.name, i.checked),
            (procs, modes, kind, checked),
            "{}",
            i.name
        );
        assert_eq!(
            i.on_request,
            i.name.starts_with("Get_") && i.name.ends_with("local")
        );
    }
    let single: Vec<_> = BENCHMARKS
        .iter()
        .map(|b| b.info())
        .filter(|i| i.table == &table::SINGLE)
        .collect();
    assert!(single
        .iter()
        .all(|i| i.table.merged == Some(&table::PARALLEL)));
}

#[test]
fn units_buffers_and_one_size() {
    for b in BENCHMARKS {
        let i = b.info();
        let (unit, bufs, one) = match i.name {
            "Accumulate" => (4, BufShape::Blocks(1), None),
            "Get_accumulate" => (4, BufShape::Blocks(2), None),
            "Fetch_and_op" => (4, BufShape::Blocks(2), Some(4)),
            "Compare_and_swap" => (4, BufShape::Blocks(3), Some(4)),
            "Exchange_put" | "Exchange_get" => (1, BufShape::Blocks(2), None),
            _ => (1, BufShape::Plain, None),
        };
        assert_eq!(
            (i.unit, i.bufs, i.one_size),
            (unit, bufs, one),
            "{}",
            i.name
        );
        if let Some(x) = one {
            assert_eq!((i.min_x, i.max_x), (x, x));
        }
    }
}

/// IMB 2021 has its datatype options only in IMB-MPI1: refused, naming imb-mpi1.
#[test]
fn datatype_options_are_imb_mpi1s() {
    for (o, what) in [
        ("data_type", "imb-rma moves MPI_BYTE"),
        ("red_data_type", "imb-rma sums MPI_FLOAT"),
        ("contig_type", "imb-rma's messages are contiguous"),
    ] {
        let args = [format!("-{o}"), "int".to_string()];
        let e = imb_core::driver::parse(&SUITE, &args, 2)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!("-{o}: IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {what}")
        );
    }
}
