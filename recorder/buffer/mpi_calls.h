/* The MPI calls libomptrace-mpi.so records: one list shared by the wrappers
 * (recorder/mpi/) that write MPI_ENTER/MPI_LEAVE records with the call's
 * index and the finalize pipeline that names its region. Indices are part
 * of the record log format: append only. X(name, role) with role the
 * OTF2_REGION_ROLE_* suffix (docs/otf2-mapping.md, section MPI). */
#ifndef OMPTRACE_MPI_CALLS_H
#define OMPTRACE_MPI_CALLS_H

#include <stdint.h>

// clang-format off
#define OT_MPI_CALLS(X)                                                                            \
  X(Init, FUNCTION) X(Init_thread, FUNCTION) X(Finalize, FUNCTION) X(Abort, FUNCTION)              \
  X(Send, POINT2POINT) X(Ssend, POINT2POINT) X(Bsend, POINT2POINT) X(Rsend, POINT2POINT)           \
  X(Recv, POINT2POINT) X(Isend, POINT2POINT) X(Irecv, POINT2POINT) X(Wait, POINT2POINT)            \
  X(Waitall, POINT2POINT) X(Waitany, POINT2POINT) X(Test, POINT2POINT)                             \
  X(Testall, POINT2POINT) X(Sendrecv, POINT2POINT) X(Probe, POINT2POINT)                           \
  X(Barrier, BARRIER) X(Bcast, COLL_ONE2ALL) X(Reduce, COLL_ALL2ONE)                               \
  X(Allreduce, COLL_ALL2ALL) X(Gather, COLL_ALL2ONE) X(Gatherv, COLL_ALL2ONE)                      \
  X(Allgather, COLL_ALL2ALL) X(Allgatherv, COLL_ALL2ALL) X(Scatter, COLL_ONE2ALL)                  \
  X(Scatterv, COLL_ONE2ALL) X(Alltoall, COLL_ALL2ALL) X(Alltoallv, COLL_ALL2ALL)                   \
  X(Reduce_scatter, COLL_ALL2ALL) X(Comm_dup, FUNCTION) X(Comm_split, FUNCTION)                    \
  X(Comm_free, FUNCTION) X(Comm_create, FUNCTION) X(Waitsome, POINT2POINT)                        \
  X(Testany, POINT2POINT) X(Testsome, POINT2POINT) X(Sendrecv_replace, POINT2POINT)                \
  X(Issend, POINT2POINT) X(Ibsend, POINT2POINT) X(Irsend, POINT2POINT) X(Send_init, POINT2POINT)   \
  X(Ssend_init, POINT2POINT) X(Bsend_init, POINT2POINT) X(Rsend_init, POINT2POINT)                 \
  X(Recv_init, POINT2POINT) X(Start, POINT2POINT) X(Startall, POINT2POINT)                         \
  X(Request_free, POINT2POINT) X(Ibarrier, BARRIER) X(Ibcast, COLL_ONE2ALL)                        \
  X(Ireduce, COLL_ALL2ONE) X(Iallreduce, COLL_ALL2ALL) X(Igather, COLL_ALL2ONE)                    \
  X(Igatherv, COLL_ALL2ONE) X(Iscatter, COLL_ONE2ALL) X(Iscatterv, COLL_ONE2ALL)                   \
  X(Iallgather, COLL_ALL2ALL) X(Iallgatherv, COLL_ALL2ALL) X(Ialltoall, COLL_ALL2ALL)              \
  X(Ialltoallv, COLL_ALL2ALL) X(Ireduce_scatter, COLL_ALL2ALL) X(Cancel, POINT2POINT)
// clang-format on

enum ot_mpi_call {
#define OT_MPI_CALL_ENUM(name, role) OT_MPI_##name,
  OT_MPI_CALLS(OT_MPI_CALL_ENUM)
#undef OT_MPI_CALL_ENUM
      OT_MPI_CALL_COUNT
};

/* The entry point libomptrace.so exports for libomptrace-mpi.so, found
 * with dlsym so either library may load first (docs/mpi.md): appends an
 * MPI_ENTER (leave = 0) or MPI_LEAVE record for `call` at call site `cp`
 * to the calling thread's buffer; nothing when the thread is not recorded.
 * arg goes into the record's c: the leave of MPI_Init/MPI_Init_thread
 * carries the rank in MPI_COMM_WORLD plus one (0: unknown).
 * Hot path: no allocation, lock or syscall. */
#define OT_MPI_EVENT_SYMBOL "omptrace_mpi_event"
typedef void ot_mpi_event_fn(unsigned call, int leave, const void *cp, uint64_t arg);
/* Called by MPI_Abort before the job is torn down: writes this rank's
 * archive now (mpirun kills the processes right after). */
#define OT_MPI_ABORT_SYMBOL "omptrace_mpi_abort"

/* The records inside a call (buffer/record.h, MPI_MSG onwards), in record
 * type order: `what` of ot_mpi_record_fn. */
enum ot_mpi_rec {
  OT_MR_MSG,        /* kind OT_MSG_SEND/RECV/ISEND/IRECV */
  OT_MR_REQ,        /* kind OT_MSG_REQUEST/ISEND_COMPLETE/IRECV_REQUEST/NBC_* and CANCELLED */
  OT_MR_COLL_BEGIN, /* right after the call's Enter (or after NBC_COMPLETE) */
  OT_MR_COLL_END,   /* right before its Leave */
  OT_MR_COMM,       /* a communicator's definition ... */
  OT_MR_MEMBER,     /* ... and its members' world ranks */
  OT_MR_COUNT
};
/* Or'ed into `what`: the record takes the time of the Enter of the
 * thread's MPI call in progress (the current time when there is none), so
 * a wrapper's records before its PMPI call read no clock. */
#define OT_MR_AT_ENTER 0x100u
/* MPI_MSG and MPI_REQ kinds. OT_MSG_REQUEST gives the request id of the
 * MPI_MSG (ISEND or IRECV) that follows it on the thread. A nonblocking
 * collective writes OT_MSG_NBC_REQUEST in its initiating call; the call
 * completing it writes OT_MSG_NBC_COMPLETE (the request id), then an
 * MPI_COLL_BEGIN (only its root) and an MPI_COLL_END: together one
 * NonBlockingCollectiveComplete event. OT_MSG_CANCELLED: the completing
 * call found the request (its id) cancelled (MpiRequestCancelled, in
 * place of MpiIsendComplete or MpiIrecv). */
enum {
  OT_MSG_SEND,
  OT_MSG_RECV,
  OT_MSG_ISEND,
  OT_MSG_IRECV,
  OT_MSG_REQUEST,
  OT_MSG_ISEND_COMPLETE,
  OT_MSG_IRECV_REQUEST,
  OT_MSG_NBC_REQUEST,
  OT_MSG_NBC_COMPLETE,
  OT_MSG_CANCELLED
};
/* MPI_COMM kinds: a created communicator is followed by one MPI_MEMBER
 * record per member (WORLD's members are 0..size-1, SELF has none). */
enum { OT_COMM_WORLD = 1, OT_COMM_SELF = 2, OT_COMM_CREATED = 3 };
#define OT_COMM_NONE UINT32_MAX /* no parent */

/* Appends record OT_MPI_MSG + what to the calling thread's buffer (the
 * definitions OT_MR_COMM and OT_MR_MEMBER also while recording is
 * paused: later records refer to them). Hot path like ot_mpi_event_fn. */
#define OT_MPI_RECORD_SYMBOL "omptrace_mpi_record"
typedef void ot_mpi_record_fn(unsigned what, unsigned kind, uint32_t a, uint64_t b, uint64_t c);
/* A nonblocking message's two records in one call (the hot path): the
 * MPI_REQ OT_MSG_REQUEST with `request`, then the MPI_MSG of `kind` (or'ed
 * with OT_MR_AT_ENTER or not) with a, b, c; both at one time. */
#define OT_MPI_MESSAGE_SYMBOL "omptrace_mpi_message"
typedef void ot_mpi_message_fn(unsigned kind, uint32_t a, uint64_t b, uint64_t c, uint64_t request);

#endif
