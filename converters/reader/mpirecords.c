/* OTF2 callbacks of the MPI records (docs/otf2-mapping.md, "MPI"): peers
 * are comm ranks, turned into world ranks here; MPI_Irecv's request gives
 * the receive's posting time, MpiIrecv in the completing call the message
 * (MpiRequestCancelled instead: none); nonblocking collectives go to
 * mpinbc.c. */
#include "mpi.h"
#include "xalloc.h"

#define A(u) ((otr_archive *)(u))

/* The location's state for a record; NULL for an unknown location. */
static otr_locstate *loc(otr_archive *a, OTF2_LocationRef l, uint64_t t) {
  otr_locstate *ls = otr_loc_of(a, l, t);
  if (ls)
    otr_mpi_state(a)->records++;
  return ls;
}

/* Comm index and the peer's world rank; false (noted) when unknown. */
static bool peer(otr_archive *a, otr_locstate *ls, OTF2_CommRef comm, uint32_t p, uint32_t *c,
                 uint32_t *w) {
  uint32_t self = a->d.location_rank[ls->pub.index];
  *c = otr_mpi_comm(a, comm);
  *w = *c == OTR_NONE || self == OTR_NONE ? OTR_NONE : otr_mpi_world(a, *c, p, self);
  if (*w != OTR_NONE)
    return true;
  a->mpi->unmatched++;
  if (self == OTR_NONE)
    otr_mpi_note(a, "%s has MPI records but belongs to no rank (a location group 'rank R')",
                 a->d.location_names[ls->pub.index]);
  else if (*c == OTR_NONE)
    otr_mpi_note(a, "%s has a message on communicator %llu, which is not defined",
                 a->d.location_names[ls->pub.index], (unsigned long long)comm);
  else
    otr_mpi_note(a, "%s has a message with peer %u outside %s", a->d.location_names[ls->pub.index],
                 p, a->d.comms[*c].name);
  return false;
}

static void send(otr_archive *a, otr_locstate *ls, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                 bool isend) {
  uint32_t c, w;
  if (!peer(a, ls, comm, to, &c, &w))
    return;
  uint64_t begin;
  uint32_t region;
  otr_msg *m = &otr_mpi_pend(a, ls, 's', &begin, &region)->m;
  m->comm = c, m->tag = tag, m->sender = a->d.location_rank[ls->pub.index], m->receiver = w;
  m->send_loc = ls->pub.index, m->send_t = now(ls), m->send_begin = begin;
  m->send_region = region, m->isend = isend;
  otr_mpi_settle(a, ls);
}

static void recv(otr_archive *a, otr_locstate *ls, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                 uint64_t bytes, const uint64_t *req) {
  uint32_t c, w;
  if (!peer(a, ls, comm, from, &c, &w))
    return;
  uint64_t begin, post = req ? otr_mpi_posted(a, ls->pub.index, *req) : UINT64_MAX;
  uint32_t region;
  otr_msg *m = &otr_mpi_pend(a, ls, 'r', &begin, &region)->m;
  m->comm = c, m->tag = tag, m->sender = w, m->receiver = a->d.location_rank[ls->pub.index];
  m->recv_loc = ls->pub.index, m->recv_t = now(ls), m->recv_begin = begin, m->bytes = bytes;
  m->recv_region = region, m->irecv = req != NULL;
  m->posted = post == UINT64_MAX ? begin : post;
  otr_mpi_settle(a, ls);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, uint32_t to, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)al, (void)bytes;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    send(A(u), ls, to, comm, tag, false);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, uint32_t to, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)al, (void)bytes, (void)req;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    send(A(u), ls, to, comm, tag, true);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_request(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, uint64_t req) {
  (void)al;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    otr_mpi_post(A(u), ls->pub.index, req, now(ls));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                           OTF2_AttributeList *al, uint64_t req) {
  (void)al, (void)req;
  loc(A(u), l, t);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, uint32_t from, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)al;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    recv(A(u), ls, from, comm, tag, bytes, NULL);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, uint32_t from, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)al;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    recv(A(u), ls, from, comm, tag, bytes, &req);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *al) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc(a, l, t);
  if (!ls)
    return OTF2_CALLBACK_SUCCESS;
  a->mpi->coll_begin[ls->pub.index] = now(ls) + 1; /* 0: none open */
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc(a, l, t);
  uint32_t c, w;
  if (!ls || !peer(a, ls, comm, 0, &c, &w))
    return OTF2_CALLBACK_SUCCESS;
  uint64_t b;
  uint32_t region, i = ls->pub.index;
  otr_coll *p = &otr_mpi_pend(a, ls, 'c', &b, &region)->c;
  p->loc = i, p->rank = a->d.location_rank[i], p->comm = c, p->op = op;
  p->root = root == OTF2_UNDEFINED_UINT32 ? OTR_NONE : root;
  p->sent = sent, p->received = received, p->region = region, p->end = now(ls);
  p->begin = a->mpi->coll_begin[i] ? a->mpi->coll_begin[i] - 1 : b;
  a->mpi->coll_begin[i] = 0;
  otr_mpi_settle(a, ls);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_cancelled(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                      OTF2_AttributeList *al, uint64_t req) {
  (void)al;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    otr_mpi_unpost(A(u), ls->pub.index, req);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_nbc_request(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint64_t req) {
  (void)al;
  otr_locstate *ls = loc(A(u), l, t);
  if (ls)
    otr_mpi_nbc_issue(A(u), ls->pub.index, req, now(ls));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                         OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received, uint64_t req) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc(a, l, t);
  uint32_t c, w, i, k;
  if (!ls || !peer(a, ls, comm, 0, &c, &w))
    return OTF2_CALLBACK_SUCCESS;
  i = ls->pub.index;
  for (k = ls->depth; k-- > 0;) /* the completing call: the innermost MPI region */
    if (a->d.regions[ls->stack[k].region].paradigm == OTF2_PARADIGM_MPI)
      break;
  otr_coll p = {.loc = i,
                .rank = a->d.location_rank[i],
                .comm = c,
                .op = op,
                .sent = sent,
                .received = received,
                .end = now(ls),
                .nbc = true,
                .root = root == OTF2_UNDEFINED_UINT32 ? OTR_NONE : root,
                .region = k == UINT32_MAX ? OTR_NONE : ls->stack[k].region};
  otr_mpi_nbc_done(a, i, req, &p);
  return OTF2_CALLBACK_SUCCESS;
}

void otr_mpi_evt_callbacks(OTF2_GlobalEvtReaderCallbacks *cb) {
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_cancelled);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_request);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
}
