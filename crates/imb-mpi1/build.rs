//! Compiles csrc/datatypes.c against the MPI library's mpi.h, found as mpi-sys finds it: the
//! handles of MPI_BYTE, MPI_CHAR and MPI_INT, which the Rust bindings do not export.

fn main() {
    println!("cargo:rerun-if-changed=csrc/datatypes.c");
    println!("cargo:rerun-if-changed=build.rs");
    let lib = build_probe_mpi::probe().unwrap_or_else(|errs| {
        panic!("imb-mpi1: no MPI library found to compile csrc/datatypes.c against: {errs:?}")
    });
    cc::Build::new()
        .file("csrc/datatypes.c")
        .includes(&lib.include_paths)
        .compile("imb_mpi1_datatypes");
}
