/* The constants of the MPI library that the Rust bindings do not export, or name differently
 * in different libraries, as the library's mpi.h defines them (only mpi.h can say them):
 * - MPI_BYTE, MPI_CHAR and MPI_INT (IMB 2021's -data_type and -red_data_type, IMB-MT's
 *   datatypes): a handle's value differs between libraries (Open MPI: the address of a global
 *   object; MPICH: an integer constant);
 * - MPI_T_BIND_NO_OBJECT (the provenance's MPI_T reader, src/tool.rs): an enumerator whose value
 *   and whose name in the bindings differ (Open MPI: MPI_T_BIND_NO_OBJECT = 0; MPICH:
 *   MPIR_T_bind_t_MPI_T_BIND_NO_OBJECT = 9700). */
#include <mpi.h>

MPI_Datatype imb_mpi_byte(void) { return MPI_BYTE; }
MPI_Datatype imb_mpi_char(void) { return MPI_CHAR; }
MPI_Datatype imb_mpi_int(void) { return MPI_INT; }
int imb_mpi_t_bind_no_object(void) { return MPI_T_BIND_NO_OBJECT; }
