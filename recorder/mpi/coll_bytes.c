/* Bytes of collective calls (mpi/coll_bytes.h). */
#include "mpi/coll_bytes.h"

uint64_t ot_type_bytes(int n, MPI_Datatype t) {
  int size = 0;
  if (n <= 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS || size < 0)
    return 0;
  return (uint64_t)n * (uint64_t)size;
}

static int me_in(MPI_Comm c) {
  int me = 0;
  PMPI_Comm_rank(c, &me);
  return me;
}

static uint64_t members(MPI_Comm c) {
  int n = 0;
  PMPI_Comm_size(c, &n);
  return n > 0 ? (uint64_t)n : 0;
}

static uint64_t sum(const int v[], MPI_Datatype t, MPI_Comm c) {
  uint64_t s = 0, n = members(c);
  for (uint64_t i = 0; i < n; i++)
    s += ot_type_bytes(v[i], t);
  return s;
}

ot_coll_bytes ot_bytes_to_root(int sn, MPI_Datatype st, int rn, MPI_Datatype rt, int root,
                               int inplace, MPI_Comm c) {
  if (me_in(c) != root)
    return (ot_coll_bytes){ot_type_bytes(sn, st), 0};
  uint64_t block = ot_type_bytes(rn, rt), n = members(c);
  return inplace ? (ot_coll_bytes){0, (n - 1) * block} : (ot_coll_bytes){block, n * block};
}

ot_coll_bytes ot_bytes_from_root(int sn, MPI_Datatype st, int rn, MPI_Datatype rt, int root,
                                 int inplace, MPI_Comm c) {
  ot_coll_bytes b = ot_bytes_to_root(rn, rt, sn, st, root, inplace, c);
  return (ot_coll_bytes){b.received, b.sent};
}

ot_coll_bytes ot_bytes_gatherv(int sn, MPI_Datatype st, const int rn[], MPI_Datatype rt, int root,
                               int inplace, MPI_Comm c) {
  int me = me_in(c);
  if (me != root)
    return (ot_coll_bytes){ot_type_bytes(sn, st), 0};
  uint64_t all = sum(rn, rt, c), own = ot_type_bytes(rn[me], rt);
  return inplace ? (ot_coll_bytes){0, all - own} : (ot_coll_bytes){own, all};
}

ot_coll_bytes ot_bytes_scatterv(const int sn[], MPI_Datatype st, int rn, MPI_Datatype rt, int root,
                                int inplace, MPI_Comm c) {
  ot_coll_bytes b = ot_bytes_gatherv(rn, rt, sn, st, root, inplace, c);
  return (ot_coll_bytes){b.received, b.sent};
}

ot_coll_bytes ot_bytes_all(int sn, MPI_Datatype st, int rn, MPI_Datatype rt, int inplace,
                           MPI_Comm c) {
  uint64_t n = members(c), rb = ot_type_bytes(rn, rt);
  if (inplace)
    return (ot_coll_bytes){(n - 1) * rb, (n - 1) * rb};
  return (ot_coll_bytes){n * ot_type_bytes(sn, st), n * rb};
}

ot_coll_bytes ot_bytes_allv(const int sn[], int sn0, MPI_Datatype st, const int rn[],
                            MPI_Datatype rt, int inplace, MPI_Comm c) {
  uint64_t n = members(c), all = sum(rn, rt, c);
  if (inplace) {
    uint64_t own = ot_type_bytes(rn[me_in(c)], rt);
    return (ot_coll_bytes){sn ? all - own : (n - 1) * own, all - own};
  }
  return (ot_coll_bytes){sn ? sum(sn, st, c) : n * ot_type_bytes(sn0, st), all};
}

ot_coll_bytes ot_bytes_reduce_scatter(const int rn[], MPI_Datatype t, int inplace, MPI_Comm c) {
  uint64_t n = members(c), all = sum(rn, t, c), own = ot_type_bytes(rn[me_in(c)], t);
  if (inplace)
    return (ot_coll_bytes){all - own, (n - 1) * own};
  return (ot_coll_bytes){all, n * own};
}
