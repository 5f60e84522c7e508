/* Reading one rank's events for the causality correction (causal.c): all
 * its locations at once, in time order (one clock per rank), keeping every
 * event's time, its message records (MpiSend/MpiIsend, MpiRecv/MpiIrecv)
 * with world ranks and global communicator ids, and its blocking
 * collectives (MpiCollectiveBegin .. MpiCollectiveEnd, timed by the
 * surrounding Enter and Leave). Other records, also ones this reader does
 * not know, only count as events. Read again where the correction moved a
 * rank, to count its moved events: no list of every event's time. */
#include "merge/merge.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK OTF2_CALLBACK_SUCCESS

/* A location's collective in progress: its Enter's mg_cev, then its
 * MpiCollectiveEnd's fields until the Leave. */
typedef struct loc_state {
  uint64_t loc, enter_t;
  int in_coll, ended;
  size_t enter;
  uint32_t op, root;
  uint64_t comm;
} loc_state;

typedef struct reading {
  mg_job *j;
  mg_rank *r;
  loc_state *locs;
  size_t nlocs;
  mg_hash *seq;   /* global comm id -> collectives so far */
  mg_hash *posts; /* (location, request id) -> its MpiIrecvRequest's time */
  int have_last;  /* global_comm's last lookup */
  OTF2_CommRef last_local;
  uint64_t last_global;
  const mg_clock *before; /* counting: the points without the correction */
  size_t nbefore;
  int bad;
} reading;

static loc_state *state(reading *x, uint64_t loc) {
  for (size_t i = 0; i < x->nlocs; i++)
    if (x->locs[i].loc == loc)
      return &x->locs[i];
  return &x->locs[0]; /* not reached: every location read is defined */
}

/* Every event: the rank's first and last time; counting, whether the
 * correction moved it. */
static OTF2_CallbackCode note(reading *x, uint64_t t) {
  mg_rank *r = x->r;
  if (x->before) {
    uint64_t a = mg_clock_apply_pts(x->before, x->nbefore, t);
    uint64_t b = mg_clock_apply_pts(r->clock, r->nclock, t);
    uint64_t d = b > a ? b - a : a - b;
    x->j->moved += d != 0;
    x->j->max_move = d > x->j->max_move ? d : x->j->max_move;
    return OK;
  }
  if (!r->nevents++ || t < r->first)
    r->first = t;
  r->last = t > r->last ? t : r->last;
  return OK;
}

static size_t add_cev(mg_rank *r, uint64_t t, int anchor) {
  mg_grow((void **)&r->cev, &r->capcev, r->ncev, sizeof *r->cev);
  r->cev[r->ncev] = (mg_cev){.t = t, .anchor = anchor, .order = r->ncev};
  return r->ncev++;
}

/* The world rank of rank `peer` of communicator `comm` (global id), or
 * UINT64_MAX when the communicator or the rank is unknown. */
static uint64_t world(const reading *x, uint64_t comm, uint32_t peer) {
  const mg_job *j = x->j;
  for (size_t c = 0; c < j->global[K_COMM].n; c++) {
    const mg_def *d = &j->global[K_COMM].v[c];
    if (d->id != comm)
      continue;
    for (size_t g = 0; g < j->global[K_GROUP].n; g++) {
      const mg_def *grp = &j->global[K_GROUP].v[g];
      if (grp->id != d->f[1])
        continue;
      if (grp->f[1] == OTF2_GROUP_TYPE_COMM_SELF)
        return peer == 0 ? (uint64_t)x->r->rank : UINT64_MAX;
      return peer < grp->n ? grp->members[peer] : UINT64_MAX;
    }
  }
  return UINT64_MAX;
}

/* The last communicator looked up: a program mostly uses one or two. */
static uint64_t global_comm(reading *x, OTF2_CommRef comm) {
  if (x->have_last && x->last_local == comm)
    return x->last_global;
  uint64_t local = comm, *g = mg_hash_get(x->r->map[K_COMM], &local, sizeof local);
  x->have_last = 1, x->last_local = comm, x->last_global = g ? *g : UINT64_MAX;
  return x->last_global;
}

static void message(reading *x, uint64_t t, uint64_t posted, int send, uint32_t peer,
                    OTF2_CommRef comm, uint32_t tag) {
  if (x->before)
    return;
  uint64_t gc = global_comm(x, comm), w = world(x, gc, peer), me = (uint64_t)x->r->rank;
  if (w == UINT64_MAX)
    return; /* a communicator the archive does not define: no constraint */
  mg_job *j = x->j;
  mg_msg m = {gc, send ? me : w, send ? w : me, tag, posted, (uint32_t)x->r->rank, 0, 0};
  m.ev = add_cev(x->r, t, send);
  if (send) {
    mg_grow((void **)&j->sends, &j->capsends, j->nsends, sizeof m);
    m.seq = j->nsends, j->sends[j->nsends++] = m;
  } else {
    mg_grow((void **)&j->recvs, &j->caprecvs, j->nrecvs, sizeof m);
    m.seq = j->nrecvs, j->recvs[j->nrecvs++] = m;
  }
}

static OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len) {
  (void)l, (void)a, (void)len;
  message(u, t, t, 1, peer, c, tag);
  return note(u, t);
}
static OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                  uint32_t tag, uint64_t len, uint64_t req) {
  (void)req;
  return on_send(l, t, u, a, peer, c, tag, len);
}
static OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len) {
  (void)a, (void)len;
  message(u, t, state(u, l)->enter_t, 0, peer, c, tag);
  return note(u, t);
}
static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                          OTF2_AttributeList *a, uint64_t req) {
  (void)a;
  uint64_t key[2] = {l, req}, *v = mg_hash_get(((reading *)u)->posts, key, sizeof key);
  if (v)
    *v = t;
  else
    mg_hash_put(((reading *)u)->posts, key, sizeof key, t);
  return note(u, t);
}
/* Posted when its request was (MPI_Waitall completes them in any order). */
static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                  uint32_t tag, uint64_t len, uint64_t req) {
  (void)a, (void)len;
  uint64_t key[2] = {l, req}, *v = mg_hash_get(((reading *)u)->posts, key, sizeof key);
  message(u, t, v ? *v : t, 0, peer, c, tag);
  return note(u, t);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region) {
  (void)a, (void)region;
  state(u, l)->enter_t = t;
  return note(u, t);
}
static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *a) {
  (void)a;
  loc_state *s = state(u, l);
  if (((reading *)u)->before)
    return note(u, t);
  s->in_coll = 1, s->ended = 0;
  s->enter = add_cev(((reading *)u)->r, s->enter_t, 1);
  return note(u, t);
}
static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *a, OTF2_CollectiveOp op, OTF2_CommRef c,
                                     uint32_t root, uint64_t sent, uint64_t received) {
  (void)a, (void)sent, (void)received;
  loc_state *s = state(u, l);
  if (s->in_coll) {
    s->ended = 1, s->op = op, s->root = root;
    s->comm = global_comm(u, c);
  }
  return note(u, t);
}
static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region) {
  (void)a, (void)region;
  reading *x = u;
  loc_state *s = state(x, l);
  if (s->in_coll && s->ended && s->comm != UINT64_MAX) {
    uint64_t n = 0, *seq = mg_hash_get(x->seq, &s->comm, sizeof s->comm);
    if (!seq)
      mg_hash_put(x->seq, &s->comm, sizeof s->comm, 0), seq = mg_hash_get(x->seq, &s->comm, 8);
    n = (*seq)++;
    uint64_t root = s->root == OTF2_UNDEFINED_UINT32 ? UINT64_MAX : world(x, s->comm, s->root);
    mg_job *j = x->j;
    mg_grow((void **)&j->colls, &j->capcolls, j->ncolls, sizeof *j->colls);
    j->colls[j->ncolls++] = (mg_coll){s->comm,
                                      n,
                                      s->op,
                                      root == UINT64_MAX ? UINT32_MAX : (uint32_t)root,
                                      (uint32_t)x->r->rank,
                                      s->enter,
                                      add_cev(x->r, t, 0)};
  }
  s->in_coll = s->ended = 0;
  return note(u, t);
}

/* Every other record the recorder writes only counts: one callback per
 * signature (the fields differ, the first four are the same, and only the
 * time is used). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define COUNT(name, ...)                                                                           \
  static OTF2_CallbackCode count_##name(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,             \
                                        OTF2_AttributeList *a, __VA_ARGS__) {                      \
    (void)l, (void)a;                                                                              \
    return note(u, t);                                                                             \
  }
COUNT(join, OTF2_Paradigm p)
COUNT(team, OTF2_CommRef c)
COUNT(measurement, OTF2_MeasurementMode m)
COUNT(request, uint64_t id)
COUNT(flush, OTF2_TimeStamp stop)
COUNT(metric, OTF2_MetricRef m, uint8_t n, const OTF2_Type *ty, const OTF2_MetricValue *v)
COUNT(fork, OTF2_Paradigm p, uint32_t n)
COUNT(task, OTF2_CommRef c, uint32_t creator, uint32_t gen)
COUNT(lock, OTF2_Paradigm p, uint32_t id, uint32_t order)
COUNT(param_int, OTF2_ParameterRef p, int64_t v)
COUNT(param_uint, OTF2_ParameterRef p, uint64_t v)
COUNT(param_string, OTF2_ParameterRef p, OTF2_StringRef v)
COUNT(sample, OTF2_CallingContextRef c, uint32_t d, OTF2_InterruptGeneratorRef g)
COUNT(nbc, OTF2_CollectiveOp op, OTF2_CommRef c, uint32_t root, uint64_t s, uint64_t r,
      uint64_t req)
COUNT(begin, OTF2_StringRef name, uint32_t n, const OTF2_StringRef *args)
COUNT(end, int64_t status)
#pragma GCC diagnostic pop
static OTF2_CallbackCode count_unknown(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *a) {
  (void)l, (void)a;
  return note(u, t);
}

#define SET(what, fn) OTF2_GlobalEvtReaderCallbacks_Set##what##Callback(c, fn)

static OTF2_GlobalEvtReaderCallbacks *callbacks(void) {
  OTF2_GlobalEvtReaderCallbacks *c = OTF2_GlobalEvtReaderCallbacks_New();
  SET(Enter, on_enter);
  SET(Leave, on_leave);
  SET(MpiSend, on_send);
  SET(MpiIsend, on_isend);
  SET(MpiRecv, on_recv);
  SET(MpiIrecv, on_irecv);
  SET(MpiCollectiveBegin, on_coll_begin);
  SET(MpiCollectiveEnd, on_coll_end);
  SET(Unknown, count_unknown);
  SET(Metric, count_metric);
  SET(ThreadFork, count_fork);
  SET(ThreadJoin, count_join);
  SET(ThreadTeamBegin, count_team);
  SET(ThreadTeamEnd, count_team);
  SET(ThreadTaskCreate, count_task);
  SET(ThreadTaskSwitch, count_task);
  SET(ThreadTaskComplete, count_task);
  SET(ThreadAcquireLock, count_lock);
  SET(ThreadReleaseLock, count_lock);
  SET(MeasurementOnOff, count_measurement);
  SET(ParameterInt, count_param_int);
  SET(ParameterUnsignedInt, count_param_uint);
  SET(ParameterString, count_param_string);
  SET(CallingContextSample, count_sample);
  SET(MpiIsendComplete, count_request);
  SET(MpiIrecvRequest, on_irecv_request);
  SET(MpiRequestTest, count_request);
  SET(MpiRequestCancelled, count_request);
  SET(NonBlockingCollectiveRequest, count_request);
  SET(NonBlockingCollectiveComplete, count_nbc);
  SET(ProgramBegin, count_begin);
  SET(ProgramEnd, count_end);
  SET(BufferFlush, count_flush);
  return c;
}

static int by_time(const void *a, const void *b) {
  const mg_cev *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* The rank's mg_cevs in time order (an Enter is added at its collective's
 * begin, after events of other locations), message and collective
 * references renumbered along. */
static void sort_cevs(mg_job *j, mg_rank *r, size_t msg0[2], size_t coll0) {
  if (!r->ncev)
    return;
  qsort(r->cev, r->ncev, sizeof *r->cev, by_time);
  size_t *where = mg_xalloc((r->ncev ? r->ncev : 1) * sizeof *where);
  for (size_t i = 0; i < r->ncev; i++)
    where[r->cev[i].order] = i, r->cev[i].order = i;
  for (size_t i = msg0[0]; i < j->nsends; i++)
    j->sends[i].ev = where[j->sends[i].ev];
  for (size_t i = msg0[1]; i < j->nrecvs; i++)
    j->recvs[i].ev = where[j->recvs[i].ev];
  for (size_t i = coll0; i < j->ncolls; i++)
    j->colls[i].enter = where[j->colls[i].enter], j->colls[i].leave = where[j->colls[i].leave];
  free(where);
}

int mg_read_events(mg_job *j, mg_rank *r, const mg_clock *before, size_t nbefore) {
  char anchor[4096];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", r->dir);
  OTF2_Reader *rd = OTF2_Reader_Open(anchor);
  if (!rd) {
    mg_error("%s: not a readable OTF2 archive", anchor);
    return -1;
  }
  reading x = {.j = j, .r = r, .before = before, .nbefore = nbefore};
  x.locs = mg_xalloc((r->defs[K_LOCATION].n + 1) * sizeof *x.locs);
  x.seq = mg_hash_new(), x.posts = mg_hash_new();
  size_t msg0[2] = {j->nsends, j->nrecvs}, coll0 = j->ncolls;
  OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
  for (size_t i = 0; e == OTF2_SUCCESS && i < r->defs[K_LOCATION].n; i++) {
    const mg_def *loc = &r->defs[K_LOCATION].v[i];
    if (loc->f[2] == 0)
      continue; /* no events, maybe no file */
    x.locs[x.nlocs++] = (loc_state){.loc = loc->id};
    e = OTF2_Reader_SelectLocation(rd, loc->id);
  }
  if (e == OTF2_SUCCESS && x.nlocs)
    e = OTF2_Reader_OpenEvtFiles(rd);
  for (size_t i = 0; e == OTF2_SUCCESS && i < x.nlocs; i++)
    if (!OTF2_Reader_GetEvtReader(rd, x.locs[i].loc))
      e = OTF2_ERROR_FILE_CAN_NOT_OPEN;
  if (e == OTF2_SUCCESS && x.nlocs) {
    OTF2_GlobalEvtReader *g = OTF2_Reader_GetGlobalEvtReader(rd);
    if (!g) {
      e = OTF2_ERROR_FILE_CAN_NOT_OPEN;
    } else {
      OTF2_GlobalEvtReaderCallbacks *c = callbacks();
      e = OTF2_Reader_RegisterGlobalEvtCallbacks(rd, g, c, &x);
      OTF2_GlobalEvtReaderCallbacks_Delete(c);
      uint64_t n = 0;
      if (e == OTF2_SUCCESS)
        e = OTF2_Reader_ReadAllGlobalEvents(rd, g, &n);
      OTF2_Reader_CloseGlobalEvtReader(rd, g);
    }
    OTF2_Reader_CloseEvtFiles(rd);
  }
  OTF2_Reader_Close(rd);
  free(x.locs);
  mg_hash_free(x.seq);
  mg_hash_free(x.posts);
  if (e != OTF2_SUCCESS) {
    mg_error("%s: cannot read its events (%s)", anchor, mg_otf2_message(e));
    return -1;
  }
  if (!before)
    sort_cevs(j, r, msg0, coll0);
  return 0;
}
