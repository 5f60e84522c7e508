/* Where this process records (events/mpi_dir.h), for the MPI wrappers. */
#include "events/mpi_dir.h"
#include "core/config.h"

__attribute__((visibility("default"))) ot_mpi_dir_fn omptrace_mpi_dir;

const char *omptrace_mpi_dir(void) {
  return ot_cfg.output[0] ? ot_cfg.output : NULL;
}
