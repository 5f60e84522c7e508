/* Collective calls. */
#include "mpi/wrap.h"

// clang-format off
OT_WRAP(Barrier, (MPI_Comm c), (c))
OT_WRAP(Bcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c))
OT_WRAP(Reduce, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c),
        (s, r, n, t, o, root, c))
OT_WRAP(Allreduce, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
        (s, r, n, t, o, c))
OT_WRAP(Gather, (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                 int root, MPI_Comm c), (s, sn, st, r, rn, rt, root, c))
OT_WRAP(Gatherv, (const void *s, int sn, MPI_Datatype st, void *r, const int rn[],
                  const int rd[], MPI_Datatype rt, int root, MPI_Comm c),
        (s, sn, st, r, rn, rd, rt, root, c))
OT_WRAP(Allgather, (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                    MPI_Comm c), (s, sn, st, r, rn, rt, c))
OT_WRAP(Allgatherv, (const void *s, int sn, MPI_Datatype st, void *r, const int rn[],
                     const int rd[], MPI_Datatype rt, MPI_Comm c), (s, sn, st, r, rn, rd, rt, c))
OT_WRAP(Scatter, (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  int root, MPI_Comm c), (s, sn, st, r, rn, rt, root, c))
OT_WRAP(Scatterv, (const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r,
                   int rn, MPI_Datatype rt, int root, MPI_Comm c),
        (s, sn, sd, st, r, rn, rt, root, c))
OT_WRAP(Alltoall, (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   MPI_Comm c), (s, sn, st, r, rn, rt, c))
OT_WRAP(Alltoallv, (const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r,
                    const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c),
        (s, sn, sd, st, r, rn, rd, rt, c))
OT_WRAP(Reduce_scatter, (const void *s, void *r, const int rn[], MPI_Datatype t, MPI_Op o,
                         MPI_Comm c), (s, r, rn, t, o, c))
// clang-format on
