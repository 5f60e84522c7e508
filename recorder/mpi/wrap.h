/* One wrapper: Enter, the PMPI call, Leave, at the caller's return
 * address (its call site). */
#ifndef OMPTRACE_MPI_WRAP_H
#define OMPTRACE_MPI_WRAP_H

#include "mpi/comm.h"
#include "mpi/hook.h"

#include <mpi.h>

#define OT_WRAP(name, params, args)                                                                \
  int MPI_##name params {                                                                          \
    const void *cp = __builtin_return_address(0);                                                  \
    ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                          \
    int rc = PMPI_##name args;                                                                     \
    ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                          \
    return rc;                                                                                     \
  }

#endif
