/* OTF2 event callbacks of the global reader: each record is counted,
 * advances its location's clock (otr_loc_of) and becomes a stack operation
 * or a visitor call. Both the thread records of OTF2 3 and the older OpenMP
 * records (OmpFork, OmpAcquireLock, OmpTaskCreate, ...) are understood. */
#include "mpi.h"

#include <math.h>
#include <string.h>

#define A(u) ((otr_archive *)(u))

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t r = otr_idmap_get(&a->regions, region);
  if (ls && r != OTR_NONE)
    otr_enter_region(a, ls, r);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t r = otr_idmap_get(&a->regions, region);
  if (ls && r != OTR_NONE) {
    otr_mpi_leave(a, ls, r);
    otr_leave_region(a, ls, r);
  }
  return OTF2_CALLBACK_SUCCESS;
}

static uint32_t context_region(otr_archive *a, OTF2_CallingContextRef c) {
  uint32_t i = otr_idmap_get(&a->contexts, c);
  return i == OTR_NONE ? OTR_NONE : a->d.contexts[i].region;
}

static OTF2_CallbackCode on_cc_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_CallingContextRef c,
                                     uint32_t unwind) {
  (void)al, (void)unwind;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t r = context_region(a, c);
  if (ls && r != OTR_NONE)
    otr_enter_region(a, ls, r);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_cc_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_CallingContextRef c) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t r = context_region(a, c);
  if (ls && r != OTR_NONE) {
    otr_mpi_leave(a, ls, r);
    otr_leave_region(a, ls, r);
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm p, uint32_t n) {
  (void)al, (void)p;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    otr_fork(A(u), ls, n);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm p) {
  (void)al, (void)p;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    otr_join(A(u), ls);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_fork(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, uint32_t n) {
  return on_fork(l, t, u, al, OTF2_PARADIGM_OPENMP, n);
}

static OTF2_CallbackCode on_omp_join(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al) {
  return on_join(l, t, u, al, OTF2_PARADIGM_OPENMP);
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)al;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls) {
    A(u)->omp_events++;
    ls->has_team = true;
    ls->team_comm = team;
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)al, (void)team;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    A(u)->omp_events++;
  return OTF2_CALLBACK_SUCCESS;
}

static void acquire(otr_archive *a, otr_locstate *ls, uint32_t lock, uint32_t order) {
  a->omp_events++;
  uint64_t t = now(ls), w0 = t;
  uint32_t site = ls->depth ? ls->stack[ls->depth - 1].region : OTR_NONE;
  if (ls->mutex_open) {
    w0 = ls->mutex_t0;
    site = ls->mutex_site;
    ls->mutex_open = false;
  }
  if (a->v->lock_acquire)
    a->v->lock_acquire(a->v->user, &ls->pub, lock, order, w0, t, site);
}

static OTF2_CallbackCode on_acquire(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm p, uint32_t lock,
                                    uint32_t order) {
  (void)al, (void)p;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    acquire(A(u), ls, lock, order);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_release(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm p, uint32_t lock,
                                    uint32_t order) {
  (void)al, (void)p;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  if (ls) {
    a->omp_events++;
    if (a->v->lock_release)
      a->v->lock_release(a->v->user, &ls->pub, lock, order, now(ls));
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_acquire(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint32_t lock, uint32_t order) {
  return on_acquire(l, t, u, al, OTF2_PARADIGM_OPENMP, lock, order);
}

static OTF2_CallbackCode on_omp_release(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint32_t lock, uint32_t order) {
  return on_release(l, t, u, al, OTF2_PARADIGM_OPENMP, lock, order);
}

static uint64_t task_key(uint32_t creator, uint32_t gen) {
  return (uint64_t)creator << 32 | gen;
}

/* Pre-3.0 OpenMP task records carry one 64-bit id; bit 63 keeps them apart
 * from task_key values. */
static uint64_t legacy_task_key(uint64_t id) {
  return id | 1ULL << 63;
}

static void task_create(otr_archive *a, otr_locstate *ls, uint64_t key) {
  a->omp_events++;
  if (a->v->task_create)
    a->v->task_create(a->v->user, &ls->pub, now(ls), key);
}

static void task_switch(otr_archive *a, otr_locstate *ls, uint64_t key) {
  a->omp_events++;
  otr_task_switch(a, ls, key);
}

static void task_complete(otr_archive *a, otr_locstate *ls, uint64_t key) {
  a->omp_events++;
  if (a->v->task_complete)
    a->v->task_complete(a->v->user, &ls->pub, now(ls), key);
}

static OTF2_CallbackCode on_tcreate(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                    uint32_t gen) {
  (void)al, (void)team;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    task_create(A(u), ls, task_key(creator, gen));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_tswitch(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                    uint32_t gen) {
  (void)al, (void)team;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    task_switch(A(u), ls, gen ? task_key(creator, gen) : 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_tcomplete(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                      OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                      uint32_t gen) {
  (void)al, (void)team;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    task_complete(A(u), ls, task_key(creator, gen));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_tcreate(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint64_t id) {
  (void)al;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    task_create(A(u), ls, legacy_task_key(id));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_tswitch(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint64_t id) {
  (void)al;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    task_switch(A(u), ls, legacy_task_key(id));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_tcomplete(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                          OTF2_AttributeList *al, uint64_t id) {
  (void)al;
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  if (ls)
    task_complete(A(u), ls, legacy_task_key(id));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                   OTF2_AttributeList *al, OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types, const OTF2_MetricValue *vals) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t c = otr_idmap_get(&a->metrics, metric);
  if (!ls || c == OTR_NONE || !a->mclasses[c].slots)
    return OTF2_CALLBACK_SUCCESS;
  const otr_mclass *mc = &a->mclasses[c];
  for (uint32_t k = 0; k < n && k < mc->n; k++) {
    uint32_t s = mc->slots[k];
    if (s == OTR_NONE)
      continue;
    double v = types[k] == OTF2_TYPE_DOUBLE  ? vals[k].floating_point
               : types[k] == OTF2_TYPE_INT64 ? (double)vals[k].signed_int
                                             : (double)vals[k].unsigned_int;
    ls->pm[s] = v;
    if (isnan(ls->first[s]))
      ls->first[s] = v;
    ls->lastv[s] = v;
  }
  ls->pm_valid = ls->have_metrics = true;
  ls->pm_time = now(ls);
  if (a->v->metric)
    a->v->metric(a->v->user, &ls->pub, now(ls), ls->pm);
  return OTF2_CALLBACK_SUCCESS;
}

/* omptrace's loop chunks (docs/otf2-mapping.md): "omp chunk(K) first"
 * then "omp chunk(K) iterations"; "omp section" and "omp iteration" alone. */
static void chunk_param(otr_archive *a, otr_locstate *ls, const char *name, uint64_t v) {
  const char *k = name + 4, *end;
  size_t n;
  uint64_t first = v, iterations = 0;
  if (!strncmp(k, "chunk(", 6) && (end = strchr(k + 6, ')')) != NULL) {
    if (!strcmp(end, ") first")) {
      ls->chunk_first = v;
      return;
    }
    if (strcmp(end, ") iterations") != 0)
      return;
    k += 6;
    n = (size_t)(end - k);
    first = ls->chunk_first;
    iterations = v;
  } else if (!strcmp(k, "section") || !strcmp(k, "iteration")) {
    n = strlen(k);
  } else {
    return;
  }
  char kind[16];
  if (n >= sizeof kind)
    return;
  memcpy(kind, k, n);
  kind[n] = 0;
  a->omp_events++;
  if (a->v->chunk)
    a->v->chunk(a->v->user, &ls->pub, now(ls), ls->depth ? &ls->stack[ls->depth - 1] : NULL, kind,
                first, iterations);
}

static OTF2_CallbackCode on_param_uint(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *al, OTF2_ParameterRef p, uint64_t v) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t i = otr_idmap_get(&a->params, p);
  if (ls && i != OTR_NONE && !strncmp(a->param_names[i], "omp depend(", 11)) {
    a->omp_events++;
    if (a->v->task_dep)
      a->v->task_dep(a->v->user, &ls->pub, now(ls), a->param_names[i]);
  } else if (ls && i != OTR_NONE && !strncmp(a->param_names[i], "omp ", 4)) {
    chunk_param(a, ls, a->param_names[i], v);
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_sample(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                   OTF2_AttributeList *al, OTF2_CallingContextRef c,
                                   uint32_t unwind, OTF2_InterruptGeneratorRef g) {
  (void)al, (void)unwind;
  otr_archive *a = A(u);
  otr_locstate *ls = otr_loc_of(a, l, t);
  uint32_t ci = otr_idmap_get(&a->contexts, c);
  if (ls && ci != OTR_NONE && a->v->sample && !a->n_off) /* none in measurement gaps */
    a->v->sample(a->v->user, &ls->pub, now(ls), ci, otr_idmap_get(&a->generators, g));
  return OTF2_CALLBACK_SUCCESS;
}

/* ProgramBegin/End (Score-P) bound the run and name the program. */
static OTF2_CallbackCode on_program_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                          OTF2_AttributeList *al, OTF2_StringRef name, uint32_t n,
                                          const OTF2_StringRef *args) {
  (void)al, (void)n, (void)args;
  if (otr_loc_of(A(u), l, t))
    otr_program_begin(A(u), name);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, int64_t status) {
  (void)al, (void)status;
  otr_loc_of(A(u), l, t);
  return OTF2_CALLBACK_SUCCESS;
}

/* An OFF from omptrace carries the number of records lost (UINT64). */
static bool lost_records(const otr_archive *a, OTF2_AttributeList *al, uint64_t *n) {
  *n = 0;
  return a->has_lost_attr && al && OTF2_AttributeList_TestAttributeByID(al, a->lost_attr) &&
         OTF2_AttributeList_GetUint64(al, a->lost_attr, n) == OTF2_SUCCESS;
}

static OTF2_CallbackCode on_onoff(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_MeasurementMode m) {
  otr_locstate *ls = otr_loc_of(A(u), l, t);
  uint64_t n;
  bool known = lost_records(A(u), al, &n); /* before n is passed on */
  bool stopped =
      A(u)->has_stopped_attr && al && OTF2_AttributeList_TestAttributeByID(al, A(u)->stopped_attr);
  bool paused =
      A(u)->has_paused_attr && al && OTF2_AttributeList_TestAttributeByID(al, A(u)->paused_attr);
  if (ls && m == OTF2_MEASUREMENT_OFF) {
    bool was_off = ls->off; /* a second OFF adds to the gap */
    otr_measurement_off(A(u), ls, known, n, stopped);
    ls->off_paused = was_off ? ls->off_paused && paused : paused;
  } else if (ls && m == OTF2_MEASUREMENT_ON)
    otr_measurement_on(A(u), ls);
  if (ls && A(u)->v->onoff)
    A(u)->v->onoff(A(u)->v->user, &ls->pub, now(ls), m == OTF2_MEASUREMENT_ON, ls->off_paused);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_GlobalEvtReaderCallbacks *otr_callbacks(void) {
  OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetCallingContextEnterCallback(cb, on_cc_enter);
  OTF2_GlobalEvtReaderCallbacks_SetCallingContextLeaveCallback(cb, on_cc_leave);
  OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(cb, on_fork);
  OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(cb, on_join);
  OTF2_GlobalEvtReaderCallbacks_SetOmpForkCallback(cb, on_omp_fork);
  OTF2_GlobalEvtReaderCallbacks_SetOmpJoinCallback(cb, on_omp_join);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end);
  OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire);
  OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release);
  OTF2_GlobalEvtReaderCallbacks_SetOmpAcquireLockCallback(cb, on_omp_acquire);
  OTF2_GlobalEvtReaderCallbacks_SetOmpReleaseLockCallback(cb, on_omp_release);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(cb, on_tcreate);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, on_tswitch);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, on_tcomplete);
  OTF2_GlobalEvtReaderCallbacks_SetOmpTaskCreateCallback(cb, on_omp_tcreate);
  OTF2_GlobalEvtReaderCallbacks_SetOmpTaskSwitchCallback(cb, on_omp_tswitch);
  OTF2_GlobalEvtReaderCallbacks_SetOmpTaskCompleteCallback(cb, on_omp_tcomplete);
  OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(cb, on_metric);
  OTF2_GlobalEvtReaderCallbacks_SetParameterUnsignedIntCallback(cb, on_param_uint);
  OTF2_GlobalEvtReaderCallbacks_SetCallingContextSampleCallback(cb, on_sample);
  OTF2_GlobalEvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_onoff);
  OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin);
  OTF2_GlobalEvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end);
  otr_mpi_evt_callbacks(cb);
  return cb;
}
