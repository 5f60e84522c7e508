/* The directory this process records into, for libomptrace-mpi.so
 * (events/mpi_dir.c): the MPI wrappers write the rank's clock offsets
 * beside its archive (docs/mpi.md, "Clocks"). Found with dlsym, like
 * omptrace_mpi_event. */
#ifndef OMPTRACE_MPI_DIR_H
#define OMPTRACE_MPI_DIR_H

#define OT_MPI_DIR_SYMBOL "omptrace_mpi_dir"
/* The directory, or NULL when this process records nothing. */
typedef const char *ot_mpi_dir_fn(void);

#endif
