/* The fields of a message record (buffer/mpi_calls.h, MPI_MSG) that the
 * point-to-point wrappers (mpi/p2p.c, mpi/persist.c) share. */
#ifndef OMPTRACE_MPI_MSG_H
#define OMPTRACE_MPI_MSG_H

#include <mpi.h>
#include <stdint.h>

static inline uint64_t ot_peer_tag(int peer, int tag) {
  return (uint64_t)(uint32_t)peer << 32 | (uint32_t)tag;
}

/* n elements of type t in bytes (0 when MPI cannot say). */
static inline uint64_t ot_bytes_of(int n, MPI_Datatype t) {
  int size = 0;
  if (PMPI_Type_size(t, &size) != MPI_SUCCESS || size < 0 || n < 0)
    return 0;
  return (uint64_t)n * (uint64_t)size;
}

#endif
