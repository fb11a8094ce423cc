/* The predefined handles imb-mt needs that the Rust bindings do not export: in Open MPI they
 * are addresses of library globals, in MPICH constants, so they are read through functions
 * compiled against the library's own mpi.h. */
#include <mpi.h>

MPI_Datatype imb_mt_int(void) { return MPI_INT; }
MPI_Datatype imb_mt_char(void) { return MPI_CHAR; }
MPI_Datatype imb_mt_byte(void) { return MPI_BYTE; }
