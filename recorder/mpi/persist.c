/* Persistent requests and freed requests. MPI_Send_init and friends and
 * MPI_Recv_init record nothing but keep the request's definition
 * (mpi/req.h); each MPI_Start is one send or receive: a send writes its
 * request id and MpiIsend before PMPI_Start, a receive MpiIrecvRequest
 * after it, and the completing call the completion, as for MPI_Isend and
 * MPI_Irecv. MPI_Request_free forgets the request: one that had completed
 * (MPI_Request_get_status, which frees nothing) gets its completion
 * records there; one still active gets none, since MPI tells no one when
 * it completes (docs/mpi.md). */
#include "mpi/msg.h"
#include "mpi/req.h"
#include "mpi/wrap.h"

#include <stdlib.h>

#define ON_STACK 16

static void define(int rc, MPI_Request q, int send, int peer, int tag, int n, MPI_Datatype t,
                   MPI_Comm c) {
  uint32_t id =
      rc == MPI_SUCCESS && peer != MPI_PROC_NULL && ot_mpi_on() ? ot_mpi_comm_id(c) : OT_COMM_NONE;
  if (id != OT_COMM_NONE)
    ot_mpi_req_define(q, &(ot_mpi_req){.kind = send ? OT_REQ_SEND : OT_REQ_RECV,
                                       .comm = id,
                                       .b = ot_peer_tag(peer, tag),
                                       .c = ot_bytes_of(n, t)});
}

#define SEND_INIT(name)                                                                            \
  int MPI_##name(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c,                \
                 MPI_Request *q) {                                                                 \
    const void *cp = __builtin_return_address(0);                                                  \
    ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                          \
    int rc = PMPI_##name(b, n, t, to, tag, c, q);                                                  \
    define(rc, *q, 1, to, tag, n, t, c);                                                           \
    ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                          \
    return rc;                                                                                     \
  }

SEND_INIT(Send_init)
SEND_INIT(Ssend_init)
SEND_INIT(Bsend_init)
SEND_INIT(Rsend_init)

int MPI_Recv_init(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *q) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Recv_init, 0, cp, 0);
  int rc = PMPI_Recv_init(b, n, t, from, tag, c, q);
  define(rc, *q, 0, from, tag, n, t, c);
  ot_mpi_hook(OT_MPI_Recv_init, 1, cp, 0);
  return rc;
}

/* Before starting q: its definition with a new id in d (d->id 0: not
 * recorded), a send's records written. */
static void start_begin(MPI_Request q, ot_mpi_req *d) {
  d->id = 0;
  if (!ot_mpi_on() || !ot_mpi_req_definition(q, d) || !(d->id = ot_mpi_req_id()))
    return;
  if (d->kind == OT_REQ_SEND) {
    ot_mpi_msg(OT_MSG_ISEND | OT_MR_AT_ENTER, d->comm, d->b, d->c, d->id);
  }
}

/* After: q (the variable var) is pending. */
static void start_end(MPI_Request *var, const ot_mpi_req *d) {
  if (!d->id)
    return;
  if (d->kind == OT_REQ_RECV)
    ot_mpi_rec(OT_MR_REQ, OT_MSG_IRECV_REQUEST, 0, 0, d->id);
  ot_mpi_req_add(*var, var, d);
}

int MPI_Start(MPI_Request *q) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Start, 0, cp, 0);
  ot_mpi_req d;
  start_begin(*q, &d);
  int rc = PMPI_Start(q);
  if (rc == MPI_SUCCESS)
    start_end(q, &d);
  ot_mpi_hook(OT_MPI_Start, 1, cp, 0);
  return rc;
}

int MPI_Startall(int n, MPI_Request q[]) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Startall, 0, cp, 0);
  ot_mpi_req own[ON_STACK];
  ot_mpi_req *d = n <= ON_STACK ? own : ot_mpi_on() ? malloc((size_t)n * sizeof *d) : NULL;
  for (int i = 0; d && i < n; i++)
    start_begin(q[i], &d[i]);
  int rc = PMPI_Startall(n, q);
  for (int i = 0; d && rc == MPI_SUCCESS && i < n; i++)
    start_end(&q[i], &d[i]);
  if (d != own)
    free(d);
  ot_mpi_hook(OT_MPI_Startall, 1, cp, 0);
  return rc;
}

int MPI_Request_free(MPI_Request *q) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Request_free, 0, cp, 0);
  MPI_Request old = *q;
  int held = ot_mpi_on() && ot_mpi_req_held(old), done = 0;
  MPI_Status st;
  if (held && PMPI_Request_get_status(old, &done, &st) != MPI_SUCCESS)
    done = 0;
  int rc = PMPI_Request_free(q);
  if (held && rc == MPI_SUCCESS)
    ot_mpi_req_free(old, q, done ? &st : NULL);
  ot_mpi_hook(OT_MPI_Request_free, 1, cp, 0);
  return rc;
}
