/* MPI_Cancel: a region of its own, and the request's pending entry
 * marked, so that the call completing it (MPI_Wait..., MPI_Test...,
 * MPI_Request_free) writes MpiRequestCancelled when MPI_Test_cancelled
 * says it was, instead of MpiIsendComplete or MpiIrecv (mpi/req.c). */
#include "mpi/req.h"
#include "mpi/wrap.h"

int MPI_Cancel(MPI_Request *q) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Cancel, 0, cp, 0);
  MPI_Request old = *q;
  int rc = PMPI_Cancel(q);
  if (rc == MPI_SUCCESS && ot_mpi_on())
    ot_mpi_req_cancel(old, q);
  ot_mpi_hook(OT_MPI_Cancel, 1, cp, 0);
  return rc;
}
