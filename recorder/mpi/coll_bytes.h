/* Bytes a collective call sends and receives on this rank, by Score-P's
 * conventions (docs/otf2-mapping.md, section MPI): a root counts the data
 * it sends to or receives from itself unless MPI_IN_PLACE; an all-to-all
 * call counts one block per member. Intracommunicators only. */
#ifndef OMPTRACE_MPI_COLL_BYTES_H
#define OMPTRACE_MPI_COLL_BYTES_H

#include <mpi.h>
#include <stdint.h>

typedef struct ot_coll_bytes {
  uint64_t sent, received;
} ot_coll_bytes;

uint64_t ot_type_bytes(int n, MPI_Datatype t);
/* Gather and Reduce (rn, rt: the root's receive block), in place at the root. */
ot_coll_bytes ot_bytes_to_root(int sn, MPI_Datatype st, int rn, MPI_Datatype rt, int root,
                               int inplace, MPI_Comm c);
/* Bcast and Scatter: the same with the directions swapped. */
ot_coll_bytes ot_bytes_from_root(int sn, MPI_Datatype st, int rn, MPI_Datatype rt, int root,
                                 int inplace, MPI_Comm c);
ot_coll_bytes ot_bytes_gatherv(int sn, MPI_Datatype st, const int rn[], MPI_Datatype rt, int root,
                               int inplace, MPI_Comm c);
ot_coll_bytes ot_bytes_scatterv(const int sn[], MPI_Datatype st, int rn, MPI_Datatype rt, int root,
                                int inplace, MPI_Comm c);
/* Alltoall, Allgather and Allreduce. */
ot_coll_bytes ot_bytes_all(int sn, MPI_Datatype st, int rn, MPI_Datatype rt, int inplace,
                           MPI_Comm c);
/* Allgatherv (sn = NULL: one block of sn0 to every member) and Alltoallv. */
ot_coll_bytes ot_bytes_allv(const int sn[], int sn0, MPI_Datatype st, const int rn[],
                            MPI_Datatype rt, int inplace, MPI_Comm c);
ot_coll_bytes ot_bytes_reduce_scatter(const int rn[], MPI_Datatype t, int inplace, MPI_Comm c);

#endif
