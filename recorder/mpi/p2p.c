/* Point-to-point calls: a send's MpiSend (MpiIsend with a request id)
 * takes the time of the call's Enter, before the message can leave (the
 * blocking sends write it before the PMPI call, so a rank killed inside
 * it still shows the send); receives write MpiRecv from their status
 * after the PMPI call, once the message arrived (so MPI_ANY_SOURCE and
 * MPI_ANY_TAG are resolved); MPI_Irecv writes MpiIrecvRequest and its
 * completion (mpi/wait.c) MpiIrecv. A blocking send whose PMPI call fails
 * keeps its record (MPI's default error handler ends the job anyway). No
 * records towards MPI_PROC_NULL or on a communicator the table does not
 * know (mpi/comm.h). Persistent requests: mpi/persist.c. */
#include "mpi/msg.h"
#include "mpi/req.h"
#include "mpi/wrap.h"

static void send_msg(int n, MPI_Datatype t, int to, int tag, MPI_Comm c) {
  uint32_t id = to != MPI_PROC_NULL && ot_mpi_on() ? ot_mpi_comm_id(c) : OT_COMM_NONE;
  if (id != OT_COMM_NONE)
    ot_mpi_rec(OT_MR_MSG | OT_MR_AT_ENTER, OT_MSG_SEND, id, ot_peer_tag(to, tag),
               ot_bytes_of(n, t));
}

/* The MPI_MSG record of a receive that completed with status s. */
static void recv_done(MPI_Comm c, const MPI_Status *s) {
  int bytes = 0;
  uint32_t id = s->MPI_SOURCE != MPI_PROC_NULL ? ot_mpi_comm_id(c) : OT_COMM_NONE;
  if (id == OT_COMM_NONE)
    return;
  if (PMPI_Get_count(s, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED)
    bytes = 0;
  ot_mpi_rec(OT_MR_MSG, OT_MSG_RECV, id, ot_peer_tag(s->MPI_SOURCE, s->MPI_TAG), (uint64_t)bytes);
}

#define SEND(name)                                                                                 \
  int MPI_##name(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c) {              \
    const void *cp = __builtin_return_address(0);                                                  \
    ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                          \
    send_msg(n, t, to, tag, c);                                                                    \
    int rc = PMPI_##name(b, n, t, to, tag, c);                                                     \
    ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                          \
    return rc;                                                                                     \
  }

SEND(Send)
SEND(Ssend)
SEND(Bsend)
SEND(Rsend)

int MPI_Recv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Status *s) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Recv, 0, cp, 0);
  MPI_Status own;
  MPI_Status *st = s == MPI_STATUS_IGNORE ? &own : s;
  int rc = PMPI_Recv(b, n, t, from, tag, c, st);
  if (rc == MPI_SUCCESS && ot_mpi_on())
    recv_done(c, st);
  ot_mpi_hook(OT_MPI_Recv, 1, cp, 0);
  return rc;
}

int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype stype, int to, int stag, void *rb, int rn,
                 MPI_Datatype rtype, int from, int rtag, MPI_Comm c, MPI_Status *s) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Sendrecv, 0, cp, 0);
  send_msg(sn, stype, to, stag, c);
  MPI_Status own;
  MPI_Status *st = s == MPI_STATUS_IGNORE ? &own : s;
  int rc = PMPI_Sendrecv(sb, sn, stype, to, stag, rb, rn, rtype, from, rtag, c, st);
  if (rc == MPI_SUCCESS && ot_mpi_on())
    recv_done(c, st);
  ot_mpi_hook(OT_MPI_Sendrecv, 1, cp, 0);
  return rc;
}

/* A nonblocking send's records are stamped with the time of the call's
 * Enter, read before PMPI_Isend, so the send's time precedes the message
 * whenever it is written. They are written right after PMPI_Isend (the
 * thread records nothing in between: the archive is the same as had
 * they been written before), so the recording does not delay the message
 * (two records before it made an 8-byte exchange 14% slower); then the
 * request is added to the table, where another thread may complete it. */
#define ISEND(name)                                                                                \
  int MPI_##name(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c,                \
                 MPI_Request *q) {                                                                 \
    const void *cp = __builtin_return_address(0);                                                  \
    ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                          \
    int rc = PMPI_##name(b, n, t, to, tag, c, q);                                                  \
    uint32_t id = rc == MPI_SUCCESS && to != MPI_PROC_NULL && ot_mpi_on() ? ot_mpi_comm_id(c)      \
                                                                          : OT_COMM_NONE;          \
    uint64_t rid = id != OT_COMM_NONE ? ot_mpi_req_id() : 0;                                       \
    if (rid) {                                                                                     \
      ot_mpi_msg(OT_MSG_ISEND | OT_MR_AT_ENTER, id, ot_peer_tag(to, tag), ot_bytes_of(n, t), rid); \
      ot_mpi_req_add_msg(*q, q, rid, id, OT_REQ_SEND);                                             \
    }                                                                                              \
    ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                          \
    return rc;                                                                                     \
  }

ISEND(Isend)
ISEND(Issend)
ISEND(Ibsend)
ISEND(Irsend)

int MPI_Irecv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *q) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Irecv, 0, cp, 0);
  int rc = PMPI_Irecv(b, n, t, from, tag, c, q);
  uint32_t id =
      rc == MPI_SUCCESS && from != MPI_PROC_NULL && ot_mpi_on() ? ot_mpi_comm_id(c) : OT_COMM_NONE;
  uint64_t rid = id != OT_COMM_NONE ? ot_mpi_req_id() : 0;
  if (rid) { /* the record first: another thread may complete q once it is added */
    ot_mpi_rec(OT_MR_REQ, OT_MSG_IRECV_REQUEST, 0, 0, rid);
    ot_mpi_req_add_msg(*q, q, rid, id, OT_REQ_RECV);
  }
  ot_mpi_hook(OT_MPI_Irecv, 1, cp, 0);
  return rc;
}

int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int to, int stag, int from, int rtag,
                         MPI_Comm c, MPI_Status *s) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Sendrecv_replace, 0, cp, 0);
  send_msg(n, t, to, stag, c);
  MPI_Status own;
  MPI_Status *st = s == MPI_STATUS_IGNORE ? &own : s;
  int rc = PMPI_Sendrecv_replace(b, n, t, to, stag, from, rtag, c, st);
  if (rc == MPI_SUCCESS && ot_mpi_on())
    recv_done(c, st);
  ot_mpi_hook(OT_MPI_Sendrecv_replace, 1, cp, 0);
  return rc;
}

// clang-format off
OT_WRAP(Probe, (int from, int tag, MPI_Comm c, MPI_Status *s), (from, tag, c, s))
// clang-format on
