/* MPI message and collective events (finalize/mpi_events.h). */
#include "finalize/mpi_events.h"
#include "buffer/mpi_calls.h"
#include "finalize/mpi_comms.h"

static OTF2_ErrorCode message(OTF2_EvtWriter *w, const ot_mpi_loc *m, const ot_rec *r, uint64_t t) {
  uint32_t peer = (uint32_t)(r->b >> 32), tag = (uint32_t)r->b;
  OTF2_CommRef comm = ot_mpi_comm_ref(r->a);
  if (comm == OTF2_UNDEFINED_COMM)
    return OTF2_SUCCESS;
  switch (r->kind) {
  case OT_MSG_SEND:
    return OTF2_EvtWriter_MpiSend(w, NULL, t, peer, comm, tag, r->c);
  case OT_MSG_RECV:
    return OTF2_EvtWriter_MpiRecv(w, NULL, t, peer, comm, tag, r->c);
  case OT_MSG_ISEND:
    return OTF2_EvtWriter_MpiIsend(w, NULL, t, peer, comm, tag, r->c, m->request);
  case OT_MSG_IRECV:
    return OTF2_EvtWriter_MpiIrecv(w, NULL, t, peer, comm, tag, r->c, m->request);
  default:
    return OTF2_SUCCESS;
  }
}

static OTF2_ErrorCode request(OTF2_EvtWriter *w, ot_mpi_loc *m, const ot_rec *r, uint64_t t) {
  switch (r->kind) {
  case OT_MSG_REQUEST:
    m->request = r->c;
    return OTF2_SUCCESS;
  case OT_MSG_ISEND_COMPLETE:
    return OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, r->c);
  case OT_MSG_IRECV_REQUEST:
    return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, r->c);
  default:
    return OTF2_SUCCESS;
  }
}

OTF2_ErrorCode ot_mpi_replay(OTF2_EvtWriter *w, ot_mpi_loc *m, const ot_rec *r, uint64_t t) {
  switch (r->type) {
  case OT_MPI_MSG:
    return message(w, m, r, t);
  case OT_MPI_REQ:
    return request(w, m, r, t);
  case OT_MPI_COLL_BEGIN:
    m->root = r->a;
    return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
  case OT_MPI_COLL_END: {
    OTF2_CommRef comm = ot_mpi_comm_ref(r->a);
    uint32_t root = m->root;
    m->root = OTF2_UNDEFINED_UINT32;
    if (comm == OTF2_UNDEFINED_COMM)
      return OTF2_SUCCESS;
    return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, (OTF2_CollectiveOp)r->kind, comm, root, r->b,
                                           r->c);
  }
  default:
    return OTF2_SUCCESS;
  }
}
