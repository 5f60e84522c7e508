/* Nonblocking collectives, as Score-P records them: the initiating call
 * writes NonBlockingCollectiveRequest (OT_MSG_NBC_REQUEST, before the PMPI
 * call) and the call completing the request NonBlockingCollectiveComplete
 * with the operation, communicator, root and bytes of mpi/coll_bytes.h
 * (mpi/req.c); no MpiCollectiveBegin/End. Only the region on a
 * communicator the table does not know (mpi/comm.h). */
#include "mpi/coll_bytes.h"
#include "mpi/req.h"
#include "mpi/wrap.h"

#include <otf2/OTF2_Events.h>

#define NO_ROOT OTF2_UNDEFINED_UINT32

#define NBC_BEGIN(name, c, root)                                                                   \
  const void *cp = __builtin_return_address(0);                                                    \
  ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                            \
  uint32_t id = ot_mpi_on() ? ot_mpi_comm_id(c) : OT_COMM_NONE;                                    \
  uint64_t rid = id != OT_COMM_NONE ? ot_mpi_req_id() : 0;                                         \
  uint32_t root_ = (uint32_t)(root);                                                               \
  if (rid)                                                                                         \
    ot_mpi_rec(OT_MR_REQ | OT_MR_AT_ENTER, OT_MSG_NBC_REQUEST, 0, 0, rid);

#define NBC_END(name, opname, bytes)                                                               \
  if (rid && rc == MPI_SUCCESS) {                                                                  \
    ot_coll_bytes b_ = bytes;                                                                      \
    ot_mpi_req_add(*q, q,                                                                          \
                   &(ot_mpi_req){.id = rid,                                                        \
                                 .comm = id,                                                       \
                                 .root = root_,                                                    \
                                 .kind = OT_REQ_NBC,                                               \
                                 .op = OTF2_COLLECTIVE_OP_##opname,                                \
                                 .b = b_.sent,                                                     \
                                 .c = b_.received});                                               \
  }                                                                                                \
  ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                            \
  return rc;

int MPI_Ibarrier(MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Ibarrier, c, NO_ROOT)
  int rc = PMPI_Ibarrier(c, q);
  NBC_END(Ibarrier, BARRIER, ((ot_coll_bytes){0, 0}))
}

int MPI_Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Ibcast, c, root)
  int rc = PMPI_Ibcast(b, n, t, root, c, q);
  NBC_END(Ibcast, BCAST, ot_bytes_from_root(n, t, n, t, root, 0, c))
}

int MPI_Ireduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c,
                MPI_Request *q) {
  NBC_BEGIN(Ireduce, c, root)
  int rc = PMPI_Ireduce(s, r, n, t, o, root, c, q);
  NBC_END(Ireduce, REDUCE, ot_bytes_to_root(n, t, n, t, root, s == MPI_IN_PLACE, c))
}

int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c,
                   MPI_Request *q) {
  NBC_BEGIN(Iallreduce, c, NO_ROOT)
  int rc = PMPI_Iallreduce(s, r, n, t, o, c, q);
  NBC_END(Iallreduce, ALLREDUCE, ot_bytes_all(n, t, n, t, s == MPI_IN_PLACE, c))
}

int MPI_Igather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Igather, c, root)
  int rc = PMPI_Igather(s, sn, st, r, rn, rt, root, c, q);
  NBC_END(Igather, GATHER, ot_bytes_to_root(sn, st, rn, rt, root, s == MPI_IN_PLACE, c))
}

int MPI_Igatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int rd[],
                 MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Igatherv, c, root)
  int rc = PMPI_Igatherv(s, sn, st, r, rn, rd, rt, root, c, q);
  NBC_END(Igatherv, GATHERV, ot_bytes_gatherv(sn, st, rn, rt, root, s == MPI_IN_PLACE, c))
}

int MPI_Iscatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Iscatter, c, root)
  int rc = PMPI_Iscatter(s, sn, st, r, rn, rt, root, c, q);
  NBC_END(Iscatter, SCATTER, ot_bytes_from_root(sn, st, rn, rt, root, r == MPI_IN_PLACE, c))
}

int MPI_Iscatterv(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r, int rn,
                  MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Iscatterv, c, root)
  int rc = PMPI_Iscatterv(s, sn, sd, st, r, rn, rt, root, c, q);
  NBC_END(Iscatterv, SCATTERV, ot_bytes_scatterv(sn, st, rn, rt, root, r == MPI_IN_PLACE, c))
}

int MPI_Iallgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Iallgather, c, NO_ROOT)
  int rc = PMPI_Iallgather(s, sn, st, r, rn, rt, c, q);
  NBC_END(Iallgather, ALLGATHER, ot_bytes_all(sn, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Iallgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int rd[],
                    MPI_Datatype rt, MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Iallgatherv, c, NO_ROOT)
  int rc = PMPI_Iallgatherv(s, sn, st, r, rn, rd, rt, c, q);
  NBC_END(Iallgatherv, ALLGATHERV, ot_bytes_allv(NULL, sn, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Ialltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Ialltoall, c, NO_ROOT)
  int rc = PMPI_Ialltoall(s, sn, st, r, rn, rt, c, q);
  NBC_END(Ialltoall, ALLTOALL, ot_bytes_all(sn, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Ialltoallv(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r,
                   const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Ialltoallv, c, NO_ROOT)
  int rc = PMPI_Ialltoallv(s, sn, sd, st, r, rn, rd, rt, c, q);
  NBC_END(Ialltoallv, ALLTOALLV, ot_bytes_allv(sn, 0, st, rn, rt, s == MPI_IN_PLACE, c))
}

int MPI_Ireduce_scatter(const void *s, void *r, const int rn[], MPI_Datatype t, MPI_Op o,
                        MPI_Comm c, MPI_Request *q) {
  NBC_BEGIN(Ireduce_scatter, c, NO_ROOT)
  int rc = PMPI_Ireduce_scatter(s, r, rn, t, o, c, q);
  NBC_END(Ireduce_scatter, REDUCE_SCATTER, ot_bytes_reduce_scatter(rn, t, s == MPI_IN_PLACE, c))
}
