/* Collective calls: MpiCollectiveBegin right after the Enter and
 * MpiCollectiveEnd (operation, communicator, root, bytes of
 * mpi/coll_bytes.h) right before the Leave; only the region on a
 * communicator the table does not know (mpi/comm.h). */
#include "mpi/coll_bytes.h"
#include "mpi/wrap.h"

#include <otf2/OTF2_Events.h>

#define NO_ROOT OTF2_UNDEFINED_UINT32

#define COLL_ENTER(name, c, root)                                                                  \
  const void *cp = __builtin_return_address(0);                                                    \
  ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                            \
  uint32_t id = ot_mpi_on() ? ot_mpi_comm_id(c) : OT_COMM_NONE;                                    \
  if (id != OT_COMM_NONE)                                                                          \
    ot_mpi_rec(OT_MR_COLL_BEGIN | OT_MR_AT_ENTER, 0, (uint32_t)(root), 0, 0);

#define COLL_LEAVE(name, op, bytes)                                                                \
  if (id != OT_COMM_NONE) {                                                                        \
    ot_coll_bytes b_ = bytes;                                                                      \
    ot_mpi_rec(OT_MR_COLL_END, OTF2_COLLECTIVE_OP_##op, id, b_.sent, b_.received);                 \
  }                                                                                                \
  ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                            \
  return rc;

int MPI_Barrier(MPI_Comm c) {
  COLL_ENTER(Barrier, c, NO_ROOT)
  int rc = PMPI_Barrier(c);
  COLL_LEAVE(Barrier, BARRIER, ((ot_coll_bytes){0, 0}))
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  COLL_ENTER(Bcast, c, root)
  int rc = PMPI_Bcast(b, n, t, root, c);
  COLL_LEAVE(Bcast, BCAST, ot_bytes_from_root(n, t, n, t, root, 0, c))
}

int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) {
  COLL_ENTER(Reduce, c, root)
  int rc = PMPI_Reduce(s, r, n, t, o, root, c);
  COLL_LEAVE(Reduce, REDUCE, ot_bytes_to_root(n, t, n, t, root, s == MPI_IN_PLACE, c))
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  COLL_ENTER(Allreduce, c, NO_ROOT)
  int rc = PMPI_Allreduce(s, r, n, t, o, c);
  COLL_LEAVE(Allreduce, ALLREDUCE, ot_bytes_all(n, t, n, t, s == MPI_IN_PLACE, c))
}

int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
               MPI_Comm c) {
  COLL_ENTER(Gather, c, root)
  int rc = PMPI_Gather(s, sn, st, r, rn, rt, root, c);
  COLL_LEAVE(Gather, GATHER, ot_bytes_to_root(sn, st, rn, rt, root, s == MPI_IN_PLACE, c))
}

int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int rd[],
                MPI_Datatype rt, int root, MPI_Comm c) {
  COLL_ENTER(Gatherv, c, root)
  int rc = PMPI_Gatherv(s, sn, st, r, rn, rd, rt, root, c);
  COLL_LEAVE(Gatherv, GATHERV, ot_bytes_gatherv(sn, st, rn, rt, root, s == MPI_IN_PLACE, c))
}

int MPI_Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c) {
  COLL_ENTER(Scatter, c, root)
  int rc = PMPI_Scatter(s, sn, st, r, rn, rt, root, c);
  COLL_LEAVE(Scatter, SCATTER, ot_bytes_from_root(sn, st, rn, rt, root, r == MPI_IN_PLACE, c))
}

int MPI_Scatterv(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r, int rn,
                 MPI_Datatype rt, int root, MPI_Comm c) {
  COLL_ENTER(Scatterv, c, root)
  int rc = PMPI_Scatterv(s, sn, sd, st, r, rn, rt, root, c);
  COLL_LEAVE(Scatterv, SCATTERV, ot_bytes_scatterv(sn, st, rn, rt, root, r == MPI_IN_PLACE, c))
}

int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  MPI_Comm c) {
  COLL_ENTER(Allgather, c, NO_ROOT)
  int rc = PMPI_Allgather(s, sn, st, r, rn, rt, c);
  COLL_LEAVE(Allgather, ALLGATHER, ot_bytes_all(sn, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int rd[],
                   MPI_Datatype rt, MPI_Comm c) {
  COLL_ENTER(Allgatherv, c, NO_ROOT)
  int rc = PMPI_Allgatherv(s, sn, st, r, rn, rd, rt, c);
  COLL_LEAVE(Allgatherv, ALLGATHERV, ot_bytes_allv(NULL, sn, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                 MPI_Comm c) {
  COLL_ENTER(Alltoall, c, NO_ROOT)
  int rc = PMPI_Alltoall(s, sn, st, r, rn, rt, c);
  COLL_LEAVE(Alltoall, ALLTOALL, ot_bytes_all(sn, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Alltoallv(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r,
                  const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
  COLL_ENTER(Alltoallv, c, NO_ROOT)
  int rc = PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
  COLL_LEAVE(Alltoallv, ALLTOALLV, ot_bytes_allv(sn, 0, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Reduce_scatter(const void *s, void *r, const int rn[], MPI_Datatype t, MPI_Op o,
                       MPI_Comm c) {
  COLL_ENTER(Reduce_scatter, c, NO_ROOT)
  int rc = PMPI_Reduce_scatter(s, r, rn, t, o, c);
  COLL_LEAVE(Reduce_scatter, REDUCE_SCATTER, ot_bytes_reduce_scatter(rn, t, s == MPI_IN_PLACE, c))
}
