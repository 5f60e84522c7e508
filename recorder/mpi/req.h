/* Pending nonblocking requests (mpi/req.c): what the completing call
 * (MPI_Wait..., MPI_Test...) needs to write the request's completion. */
#ifndef OMPTRACE_MPI_REQ_H
#define OMPTRACE_MPI_REQ_H

#include <mpi.h>
#include <stdint.h>

typedef struct ot_mpi_req {
  MPI_Request handle; /* MPI_REQUEST_NULL: a free slot */
  uint64_t id;        /* unique in this process, from 1 */
  uint32_t comm;      /* a receive's communicator id (mpi/comm.h) */
  int send;
} ot_mpi_req;

/* Remembers a request just started; its id, or 0 when the table is full
 * (the call is then recorded without message records, said once). */
uint64_t ot_mpi_req_add(MPI_Request q, uint32_t comm, int send);
/* Writes the completion records of request q (its handle before the
 * completing call) with its status s and forgets it; nothing for a
 * request the table does not hold. */
void ot_mpi_req_done(MPI_Request q, const MPI_Status *s);

#endif
