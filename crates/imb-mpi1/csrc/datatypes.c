/* The predefined datatypes IMB 2021's -data_type and -red_data_type name that the Rust
 * bindings do not export (MPI_BYTE, MPI_CHAR, MPI_INT), as the library's mpi.h defines them:
 * a handle's value differs between libraries (Open MPI: the address of a global object;
 * MPICH: an integer constant), so only mpi.h can say it. */
#include <mpi.h>

MPI_Datatype imb_mpi_byte(void) { return MPI_BYTE; }
MPI_Datatype imb_mpi_char(void) { return MPI_CHAR; }
MPI_Datatype imb_mpi_int(void) { return MPI_INT; }
