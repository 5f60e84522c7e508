/* Pending nonblocking requests (mpi/req.c): what the completing call
 * (MPI_Wait..., MPI_Test..., MPI_Request_free) needs to write the
 * request's completion, and the persistent requests' definitions that
 * MPI_Start needs. */
#ifndef OMPTRACE_MPI_REQ_H
#define OMPTRACE_MPI_REQ_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

enum { OT_REQ_SEND, OT_REQ_RECV, OT_REQ_NBC };

typedef struct ot_mpi_req {
  uint64_t id;    /* unique in this process, from 1 */
  uint64_t b, c;  /* NBC: bytes sent, received; a persistent definition:
                     peer << 32 | tag, bytes */
  uint32_t comm;  /* communicator id (mpi/comm.h) */
  uint32_t root;  /* NBC: root in comm (OTF2_UNDEFINED_UINT32: none) */
  uint8_t kind;   /* OT_REQ_* */
  uint8_t op;     /* NBC: OTF2_CollectiveOp */
  uint8_t cancel; /* MPI_Cancel was called on it: its completion asks
                     MPI_Test_cancelled (a receive's always does) */
} ot_mpi_req;

/* Inline on the wrappers' hot path (mpi/req.c): entries in use, the
 * table's room for them, each thread's block of ids. */
extern atomic_uint ot_mpi_req_used;
extern __thread uint64_t ot_mpi_req_next __attribute__((tls_model("initial-exec")));
extern __thread uint64_t ot_mpi_req_end __attribute__((tls_model("initial-exec")));
#define OT_MPI_REQ_ROOM 3520u
uint64_t ot_mpi_req_id_slow(void);

/* Before a call that starts a request: a new request id, or 0 when the
 * table is full (the call is then recorded without message records,
 * said once). */
static inline uint64_t ot_mpi_req_id(void) {
  if (__builtin_expect(ot_mpi_req_next != ot_mpi_req_end, 1) &&
      atomic_load_explicit(&ot_mpi_req_used, memory_order_relaxed) < OT_MPI_REQ_ROOM)
    return ot_mpi_req_next++;
  return ot_mpi_req_id_slow();
}
/* After it: request q, started through the program's variable at `var`,
 * is pending with r (r->id from ot_mpi_req_id). */
void ot_mpi_req_add(MPI_Request q, const MPI_Request *var, const ot_mpi_req *r);
/* The same for a send or receive (kind OT_REQ_SEND or OT_REQ_RECV). */
void ot_mpi_req_add_msg(MPI_Request q, const MPI_Request *var, uint64_t id, uint32_t comm,
                        int kind);
/* Writes the completion records of the requests a call completed: n
 * handles as they were before the call (the program's variables at var),
 * statuses s; idx NULL: all n, else the n array slots idx[0..n) of
 * old/var/s. Nothing for a handle the table does not hold. */
void ot_mpi_req_done(int n, const MPI_Request old[], const MPI_Request var[], const MPI_Status s[],
                     const int idx[]);
/* MPI_Request_free of q (the program's variable var), before the free: s
 * its status when it had completed (MPI_Request_get_status), else NULL.
 * Completion records when s, else none; forgets q's pending entry and its
 * persistent definition. */
void ot_mpi_req_free(MPI_Request q, const MPI_Request *var, const MPI_Status *s);
/* MPI_Cancel of q (the program's variable var): marks q's pending entry
 * (the one of var, else the oldest) so that its completion checks for
 * MPI_Test_cancelled and writes MpiRequestCancelled when it was. */
void ot_mpi_req_cancel(MPI_Request q, const MPI_Request *var);
/* 1 when the table holds anything for q. */
int ot_mpi_req_held(MPI_Request q);
/* A persistent request q was made with definition d (kind SEND or RECV,
 * comm, b, c); 0 when the table is full. */
int ot_mpi_req_define(MPI_Request q, const ot_mpi_req *d);
/* Copies q's persistent definition to d: 1, or 0 when there is none. */
int ot_mpi_req_definition(MPI_Request q, ot_mpi_req *d);

#endif
