//! IMB 2021's `-data_type`, `-red_data_type` and `-contig_type` under mpirun: the header names
//! the types, the sizes are X as given, check mode finds no defect for every layout at np 2
//! and 3, odd sizes included, and `-json` records the keys. Timings are never judged.

mod common;
use common::*;

const DATATYPES: &str = "# MPI_Datatype                   :   MPI_INT \n\
                         # MPI_Datatype for reductions    :   MPI_DOUBLE\n\
                         # MPI_Op                         :   MPI_SUM  \n";

fn ints_and_doubles(np: usize) {
    let o = mpirun(
        np,
        &[
            "-data_type",
            "int",
            "-red_data_type",
            "double",
            "-check",
            "Allreduce",
            "Reduce",
            "PingPong",
            "Bcast",
            "-msglog",
            "0:6",
            "-iter",
            "20",
        ],
    );
    no_defects(&o);
    assert!(o.stdout.contains(DATATYPES), "{}", o.stdout);
    for key in [
        "# !!   DATA_TYPE = int (standard byte)\n",
        "# !!   RED_DATA_TYPE = double (standard float)\n",
    ] {
        assert!(o.stdout.contains(key), "{}", o.stdout);
    }
    let t = tables(&o.stdout);
    let mut titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    // The collectives run on 2 and then 3 processes at np 3.
    titles.dedup();
    assert_eq!(titles, ["Allreduce", "Reduce", "PingPong", "Bcast"]);
    // Sizes are X as given: the elements are X/size of them, none below one element.
    for tb in &t {
        let want: Vec<usize> = if tb.title.starts_with("Reduce") || tb.title == "Allreduce" {
            vec![0, 4, 8, 16, 32, 64]
        } else {
            vec![0, 1, 2, 4, 8, 16, 32, 64]
        };
        assert_eq!(tb.ints("#bytes"), want, "{}", tb.title);
    }
}

#[test]
fn ints_and_doubles_np2() {
    ints_and_doubles(2);
}

#[test]
fn ints_and_doubles_np3() {
    ints_and_doubles(3);
}

/// Every benchmark but Jacobi2D, whose messages are its own doubles.
fn all() -> Vec<&'static str> {
    benchmarks_but(&["Jacobi2D"])
}

/// Every benchmark with `layout` and the types given, on lengths that are no multiples of the
/// element sizes: no defects.
fn every_benchmark(np: usize, layout: &str, data: &str, red: &str) {
    let d = scratch(&format!("types_{layout}_{np}"));
    let f = write(&d, "len", "0\n1\n3\n7\n12\n100\n4097\n");
    let mut args: Vec<&str> = all();
    args.extend([
        "-check",
        "-contig_type",
        layout,
        "-data_type",
        data,
        "-red_data_type",
        red,
        "-msglen",
        &f,
        "-iter",
        "5",
        "-window_size",
        "3",
    ]);
    let o = mpirun_in(&d, np, &args, 300);
    no_defects(&o);
    let line = format!("# !!   CONTIG_TYPE = {layout} (standard base)\n");
    assert_eq!(o.stdout.contains(&line), layout != "base", "{}", o.stdout);
}

#[test]
fn base_np3() {
    every_benchmark(3, "base", "char", "char");
}

#[test]
fn base_vec_np3() {
    every_benchmark(3, "base_vec", "double", "int");
}

#[test]
fn resize_np3() {
    every_benchmark(3, "resize", "int", "float");
}

#[test]
fn resize_vec_np2() {
    every_benchmark(2, "resize_vec", "float", "double");
}

#[test]
fn resize_vec_np3() {
    every_benchmark(3, "resize_vec", "char", "double");
}

/// The layout changes no type name: IMB 2021 prints the base types; the optional-mode block
/// names the layout, and `-json` records all three keys with their origins.
#[test]
fn resize_vec_keeps_the_type_names_and_json_records_the_keys() {
    let d = scratch("types_json");
    let o = mpirun_in(
        &d,
        2,
        &[
            "-contig_type",
            "resize_vec",
            "-red_data_type",
            "int",
            "PingPong",
            "Reduce",
            "-msglog",
            "0:3",
            "-iter",
            "5",
            "-json",
            "r.json",
        ],
        120,
    );
    ok(&o);
    assert!(
        o.stdout.contains(
            "# MPI_Datatype                   :   MPI_BYTE \n\
             # MPI_Datatype for reductions    :   MPI_INT\n"
        ),
        "{}",
        o.stdout
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.json")).unwrap()).unwrap();
    let params = doc["provenance"]["parameters"].as_array().unwrap();
    let param = |name: &str| {
        params
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name}"))
            .clone()
    };
    assert_eq!(param("CONTIG_TYPE")["value"], "resize_vec");
    assert_eq!(param("CONTIG_TYPE")["origin"], "command line");
    assert_eq!(param("RED_DATA_TYPE")["value"], "int");
    assert_eq!(param("DATA_TYPE")["value"], "byte");
    assert_eq!(param("DATA_TYPE")["origin"], "standard");
    let notes = doc["header"]["notes"].as_array().unwrap();
    let types = notes.iter().find(|n| n["kind"] == "datatypes").unwrap();
    assert_eq!(
        (types["data"].clone(), types["reductions"].clone()),
        ("MPI_BYTE".into(), "MPI_INT".into())
    );
}

/// IMB's types leave the header and the JSON as they were: no datatypes note, no key in the
/// optional-mode block.
#[test]
fn imb_types_change_nothing() {
    let d = scratch("types_default");
    let o = mpirun_in(
        &d,
        2,
        &[
            "-data_type",
            "byte",
            "-red_data_type",
            "float",
            "-contig_type",
            "base",
            "PingPong",
            "-json",
            "r.json",
            "-msglog",
            "0:2",
            "-iter",
            "5",
        ],
        120,
    );
    ok(&o);
    assert!(!o.stdout.contains("TYPE = "), "{}", o.stdout);
    assert!(o.stdout.contains(
        "# MPI_Datatype                   :   MPI_BYTE \n\
         # MPI_Datatype for reductions    :   MPI_FLOAT\n"
    ));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.json")).unwrap()).unwrap();
    let kinds: Vec<&str> = doc["header"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["optional_mode"]);
}

/// A value imb-rs cannot send is refused before anything runs, with the reason.
#[test]
fn half_precision_is_refused_with_the_reason() {
    for (o, v, why) in [
        ("-data_type", "float16", "MPIX_C_FLOAT16"),
        ("-red_data_type", "bfloat16", "MPIX_C_BF16"),
        (
            "-contig_type",
            "strided",
            "expected base, base_vec, resize or resize_vec",
        ),
    ] {
        let out = mpirun(1, &[o, v]);
        assert_eq!(out.code, Some(2), "{o} {v}");
        assert!(out.stderr.contains(why), "{o} {v}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{}", out.stdout);
    }
}
