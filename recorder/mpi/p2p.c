/* Point-to-point calls and request completion. */
#include "mpi/wrap.h"

// clang-format off
OT_WRAP(Send, (const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c),
        (b, n, t, to, tag, c))
OT_WRAP(Ssend, (const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c),
        (b, n, t, to, tag, c))
OT_WRAP(Bsend, (const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c),
        (b, n, t, to, tag, c))
OT_WRAP(Rsend, (const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c),
        (b, n, t, to, tag, c))
OT_WRAP(Recv, (void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Status *s),
        (b, n, t, from, tag, c, s))
OT_WRAP(Isend, (const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c,
                MPI_Request *q), (b, n, t, to, tag, c, q))
OT_WRAP(Irecv, (void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *q),
        (b, n, t, from, tag, c, q))
OT_WRAP(Wait, (MPI_Request *q, MPI_Status *s), (q, s))
OT_WRAP(Waitall, (int n, MPI_Request q[], MPI_Status s[]), (n, q, s))
OT_WRAP(Waitany, (int n, MPI_Request q[], int *i, MPI_Status *s), (n, q, i, s))
OT_WRAP(Test, (MPI_Request *q, int *f, MPI_Status *s), (q, f, s))
OT_WRAP(Testall, (int n, MPI_Request q[], int *f, MPI_Status s[]), (n, q, f, s))
OT_WRAP(Sendrecv, (const void *sb, int sn, MPI_Datatype st, int to, int stag, void *rb, int rn,
                   MPI_Datatype rt, int from, int rtag, MPI_Comm c, MPI_Status *s),
        (sb, sn, st, to, stag, rb, rn, rt, from, rtag, c, s))
OT_WRAP(Probe, (int from, int tag, MPI_Comm c, MPI_Status *s), (from, tag, c, s))
// clang-format on
