//! Compiles csrc/handles.c against the MPI library's mpi.h, found as mpi-sys finds it: the
//! constants the Rust bindings do not export portably (MPI_BYTE, MPI_CHAR, MPI_INT and
//! MPI_T_BIND_NO_OBJECT).

fn main() {
    println!("cargo:rerun-if-changed=csrc/handles.c");
    println!("cargo:rerun-if-changed=build.rs");
    let lib = build_probe_mpi::probe().unwrap_or_else(|errs| {
        panic!("imb-mpi: no MPI library found to compile csrc/handles.c against: {errs:?}")
    });
    cc::Build::new()
        .file("csrc/handles.c")
        .includes(&lib.include_paths)
        .compile("imb_mpi_handles");
}
