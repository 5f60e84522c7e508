/* MPI message and collective events (finalize/mpi_events.h). */
#include "finalize/mpi_events.h"
#include "buffer/mpi_calls.h"
#include "finalize/evt_out.h"
#include "finalize/mpi_comms.h"

static OTF2_ErrorCode message(uint32_t loc, const ot_mpi_loc *m, const ot_rec *r, uint64_t t) {
  uint32_t peer = (uint32_t)(r->b >> 32), tag = (uint32_t)r->b;
  OTF2_CommRef comm = ot_mpi_comm_ref(r->a);
  if (comm == OTF2_UNDEFINED_COMM)
    return OTF2_SUCCESS;
  switch (r->kind) {
  case OT_MSG_SEND:
    return ot_evt_mpi_send(loc, t, peer, comm, tag, r->c);
  case OT_MSG_RECV:
    return ot_evt_mpi_recv(loc, t, peer, comm, tag, r->c);
  case OT_MSG_ISEND:
    return ot_evt_mpi_isend(loc, t, peer, comm, tag, r->c, m->request);
  case OT_MSG_IRECV:
    return ot_evt_mpi_irecv(loc, t, peer, comm, tag, r->c, m->request);
  default:
    return OTF2_SUCCESS;
  }
}

static OTF2_ErrorCode request(uint32_t loc, ot_mpi_loc *m, const ot_rec *r, uint64_t t) {
  switch (r->kind) {
  case OT_MSG_REQUEST:
    m->request = r->c;
    return OTF2_SUCCESS;
  case OT_MSG_ISEND_COMPLETE:
    return ot_evt_mpi_isend_complete(loc, t, r->c);
  case OT_MSG_IRECV_REQUEST:
    return ot_evt_mpi_irecv_request(loc, t, r->c);
  case OT_MSG_NBC_REQUEST:
    return ot_evt_mpi_nbc_request(loc, t, r->c);
  case OT_MSG_CANCELLED:
    return ot_evt_mpi_request_cancelled(loc, t, r->c);
  case OT_MSG_NBC_COMPLETE: /* its MPI_COLL_BEGIN and MPI_COLL_END follow */
    m->nbc = r->c;
    m->in_nbc = 1;
    return OTF2_SUCCESS;
  default:
    return OTF2_SUCCESS;
  }
}

OTF2_ErrorCode ot_mpi_replay(uint32_t loc, ot_mpi_loc *m, const ot_rec *r, uint64_t t) {
  switch (r->type) {
  case OT_MPI_MSG:
    return message(loc, m, r, t);
  case OT_MPI_REQ:
    return request(loc, m, r, t);
  case OT_MPI_COLL_BEGIN:
    m->root = r->a;
    return m->in_nbc ? OTF2_SUCCESS : ot_evt_mpi_collective_begin(loc, t);
  case OT_MPI_COLL_END: {
    OTF2_CommRef comm = ot_mpi_comm_ref(r->a);
    uint32_t root = m->root;
    int nbc = m->in_nbc;
    m->root = OTF2_UNDEFINED_UINT32;
    m->in_nbc = 0;
    if (comm == OTF2_UNDEFINED_COMM)
      return OTF2_SUCCESS;
    if (nbc)
      return ot_evt_mpi_nbc_complete(loc, t, (OTF2_CollectiveOp)r->kind, comm, root, r->b, r->c,
                                     m->nbc);
    return ot_evt_mpi_collective_end(loc, t, (OTF2_CollectiveOp)r->kind, comm, root, r->b, r->c);
  }
  default:
    return OTF2_SUCCESS;
  }
}
