//! Compiles csrc/handles.c against the MPI library's mpi.h, found as mpi-sys finds it: the
//! handles of MPI_INT, MPI_CHAR and MPI_BYTE, which the Rust bindings do not export.

fn main() {
    println!("cargo:rerun-if-changed=csrc/handles.c");
    println!("cargo:rerun-if-changed=build.rs");
    let lib = build_probe_mpi::probe().unwrap_or_else(|errs| {
        panic!("imb-mt: no MPI library found to compile csrc/handles.c against: {errs:?}")
    });
    cc::Build::new()
        .file("csrc/handles.c")
        .includes(&lib.include_paths)
        .compile("imb_mt_handles");
}
