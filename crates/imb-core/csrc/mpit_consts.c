/* The MPI library's own value of MPI_T_BIND_NO_OBJECT, for the provenance's MPI_T reader
 * (src/provenance/mpit.rs). It is an enumerator whose value and whose name in the Rust
 * bindings differ between libraries (Open MPI: MPI_T_BIND_NO_OBJECT = 0; MPICH:
 * MPIR_T_bind_t_MPI_T_BIND_NO_OBJECT = 9700), so only the library's mpi.h can say it. */
#include <mpi.h>

int imb_mpi_t_bind_no_object(void) { return MPI_T_BIND_NO_OBJECT; }
