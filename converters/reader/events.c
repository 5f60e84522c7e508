/* The event pass: one global, time-ordered read of all locations. Each
 * location keeps a stack of open regions; every record first charges the
 * time since the location's previous record to the category of its innermost
 * region, then updates the stack and calls the visitor. */
#include "archive.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct otr_locstate {
  otr_loc pub;
  otr_frame *stack;
  double *snap; /* cap x n_metrics counter values at enter */
  uint32_t depth, cap;
  uint64_t last_t;
  otr_cat cat;
  bool seen, active; /* active: inside a parallel region or a fork */
  bool has_team;
  uint32_t team_comm;
  uint32_t fork_n;
  uint64_t cur_task;
  bool mutex_open;
  uint32_t mutex_depth, mutex_site;
  uint64_t mutex_t0;
  /* counters */
  bool pm_valid, have_metrics;
  uint64_t pm_time;
  double *pm, *first, *lastv, *delta;
};

#define A(u) ((otr_archive *)(u))

static otr_locstate *loc_of(otr_archive *a, OTF2_LocationRef id, uint64_t t) {
  uint32_t i = otr_idmap_get(&a->locations, id);
  if (i == OTR_NONE)
    return NULL;
  otr_locstate *ls = &a->ls[i];
  a->events++;
  ls->pub.events++;
  if (!ls->seen) {
    ls->seen = true;
    ls->pub.first = ls->last_t = t;
    if (a->par_change == UINT64_MAX) {
      a->first = t;
      a->par_change = t;
    }
  }
  if (t < ls->last_t) /* out of order on one location: clamp */
    t = ls->last_t;
  if (t > a->last)
    a->last = t;
  ls->pub.last = t;
  /* charge the elapsed time to the current category */
  uint64_t dt = t - ls->last_t;
  if (dt) {
    ls->pub.cat_time[ls->cat] += dt;
    if (otr_cat_is_wait(ls->cat))
      ls->pub.wait_cum += dt;
    if (a->v->span)
      a->v->span(a->v->user, &ls->pub, ls->cat, ls->last_t, t,
                 ls->depth ? &ls->stack[ls->depth - 1] : NULL);
    ls->last_t = t;
  }
  return ls;
}

static uint64_t now(const otr_locstate *ls) {
  return ls->last_t;
}

/* Keeps the count of active locations, for serial time. */
static void update_active(otr_archive *a, otr_locstate *ls) {
  ls->cat = ls->depth ? ls->stack[ls->depth - 1].cat : OTR_T_OUTSIDE;
  bool act = ls->cat != OTR_T_OUTSIDE;
  if (act == ls->active)
    return;
  ls->active = act;
  uint64_t t = now(ls);
  if (act) {
    if (a->in_par++ == 0 && t > a->par_change)
      a->serial += t - a->par_change;
  } else if (--a->in_par == 0) {
    a->par_change = t;
  }
}

static otr_cat frame_cat(otr_class cls, const otr_frame *parent, bool in_par) {
  if (!in_par)
    return parent && parent->cat == OTR_T_FORKJOIN ? OTR_T_FORKJOIN : OTR_T_OUTSIDE;
  switch (cls) {
  case OTR_C_IBARRIER:
    return OTR_T_IBARRIER;
  case OTR_C_EBARRIER:
    return OTR_T_EBARRIER;
  case OTR_C_TASKWAIT:
    return OTR_T_TASKWAIT;
  case OTR_C_TASKGROUP:
    return OTR_T_TASKGROUP;
  case OTR_C_LOCK:
    return OTR_T_LOCK;
  case OTR_C_CRITICAL:
    return OTR_T_CRITICAL;
  case OTR_C_ORDERED:
    return OTR_T_ORDERED;
  case OTR_C_TASK_CREATE:
    return OTR_T_TASKCREATE;
  case OTR_C_RUNTIME:
    return OTR_T_RUNTIME;
  case OTR_C_USER: /* user functions take their caller's category */
    return parent && parent->cat != OTR_T_OUTSIDE ? parent->cat : OTR_T_WORK;
  default:
    return OTR_T_WORK;
  }
}

static otr_frame *push(otr_archive *a, otr_locstate *ls) {
  if (ls->depth == ls->cap) {
    ls->cap = ls->cap ? 2 * ls->cap : 16;
    ls->stack = otr_xrealloc(ls->stack, ls->cap * sizeof *ls->stack);
    if (a->d.n_metrics)
      ls->snap = otr_xrealloc(ls->snap, (size_t)ls->cap * a->d.n_metrics * sizeof *ls->snap);
  }
  otr_frame *f = &ls->stack[ls->depth++];
  memset(f, 0, sizeof *f);
  f->enter = now(ls);
  f->wait0 = ls->pub.wait_cum;
  f->last_child = OTR_NONE;
  f->region = OTR_NONE;
  if (ls->depth > 1) {
    otr_frame *p = f - 1;
    f->depth_par = p->depth_par;
    f->team = p->team;
  }
  return f;
}

static otr_team *team_join(otr_archive *a, otr_locstate *ls, uint32_t region) {
  uint64_t key = ls->has_team ? ls->team_comm : (1ULL << 40) | region;
  ls->has_team = false;
  otr_team *t = a->teams;
  while (t && !(t->key == key && t->inside > 0))
    t = t->next;
  if (!t) {
    t = otr_xcalloc(1, sizeof *t);
    t->id = ++a->team_seq;
    t->key = key;
    t->region = region;
    t->begin = now(ls);
    t->next = a->teams;
    a->teams = t;
  }
  if (ls->fork_n) {
    if (!t->size)
      t->size = ls->fork_n;
    ls->fork_n = 0;
  }
  t->joined++;
  t->inside++;
  return t;
}

static void team_leave(otr_archive *a, otr_team *t, uint64_t when) {
  if (when > t->end)
    t->end = when;
  if (--t->inside)
    return;
  if (t->size < t->joined)
    t->size = t->joined;
  otr_team **pp = &a->teams;
  while (*pp && *pp != t)
    pp = &(*pp)->next;
  if (*pp)
    *pp = t->next;
  if (a->v->team_end)
    a->v->team_end(a->v->user, t);
  free(t);
}

static void enter_region(otr_archive *a, otr_locstate *ls, uint32_t r) {
  const otr_region *reg = &a->d.regions[r];
  otr_frame *parent = ls->depth ? &ls->stack[ls->depth - 1] : NULL;
  otr_frame *f = push(a, ls);
  f->region = r;
  f->cls = reg->cls;
  if (f->cls == OTR_C_PARALLEL) {
    f->depth_par++;
    f->team = team_join(a, ls, r);
  }
  if (reg->paradigm == OTF2_PARADIGM_OPENMP || f->cls != OTR_C_USER)
    a->omp_events++;
  f->cat = frame_cat(f->cls, parent, f->depth_par > 0);
  if (f->cls == OTR_C_TASK)
    f->task = ls->cur_task;
  if ((f->cls == OTR_C_LOCK || f->cls == OTR_C_CRITICAL || f->cls == OTR_C_ORDERED) &&
      !ls->mutex_open) {
    ls->mutex_open = true;
    ls->mutex_depth = ls->depth;
    ls->mutex_site = r;
    ls->mutex_t0 = f->enter;
  }
  if (ls->pm_valid && ls->pm_time == f->enter) {
    f->metrics = true;
    memcpy(ls->snap + (size_t)(ls->depth - 1) * a->d.n_metrics, ls->pm,
           a->d.n_metrics * sizeof *ls->pm);
  }
  update_active(a, ls);
  if (a->v->enter)
    a->v->enter(a->v->user, &ls->pub, f);
}

static void pop(otr_archive *a, otr_locstate *ls) {
  otr_frame *f = &ls->stack[ls->depth - 1];
  otr_frame *parent = ls->depth > 1 ? f - 1 : NULL;
  uint64_t t = now(ls), incl = t - f->enter;
  if (!f->fork_marker && a->v->leave) {
    const double *md = NULL;
    if (f->metrics && ls->pm_valid && ls->pm_time == t) {
      const double *s = ls->snap + (size_t)(ls->depth - 1) * a->d.n_metrics;
      for (uint32_t k = 0; k < a->d.n_metrics; k++)
        ls->delta[k] = ls->pm[k] - s[k];
      md = ls->delta;
    }
    a->v->leave(a->v->user, &ls->pub, f, parent, t, md);
  }
  if (f->cls == OTR_C_TASK && !f->fork_marker) {
    if (a->v->task_fragment)
      a->v->task_fragment(a->v->user, &ls->pub, f->task, f->region, incl - f->nested_task);
    for (otr_frame *p = parent; p && p >= ls->stack; p--)
      if (p->cls == OTR_C_TASK && !p->fork_marker) {
        p->nested_task += incl;
        break;
      }
  }
  if (parent) {
    parent->child += incl;
    parent->last_child = f->region;
  }
  if (ls->mutex_open && ls->mutex_depth == ls->depth)
    ls->mutex_open = false;
  otr_team *team = f->cls == OTR_C_PARALLEL && !f->fork_marker ? f->team : NULL;
  ls->depth--;
  update_active(a, ls);
  if (team)
    team_leave(a, team, t);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
  uint32_t r = otr_idmap_get(&a->regions, region);
  if (ls && r != OTR_NONE)
    enter_region(a, ls, r);
  return OTF2_CALLBACK_SUCCESS;
}

static void leave_region(otr_archive *a, otr_locstate *ls, uint32_t r) {
  uint32_t i = ls->depth;
  while (i > 0 && (ls->stack[i - 1].region != r || ls->stack[i - 1].fork_marker))
    i--;
  if (i == 0) /* unbalanced Leave: nothing to close */
    return;
  while (ls->depth >= i)
    pop(a, ls);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
  uint32_t r = otr_idmap_get(&a->regions, region);
  if (ls && r != OTR_NONE)
    leave_region(a, ls, r);
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
  otr_locstate *ls = loc_of(a, l, t);
  uint32_t r = context_region(a, c);
  if (ls && r != OTR_NONE)
    enter_region(a, ls, r);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_cc_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_CallingContextRef c) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
  uint32_t r = context_region(a, c);
  if (ls && r != OTR_NONE)
    leave_region(a, ls, r);
  return OTF2_CALLBACK_SUCCESS;
}

static void fork_(otr_archive *a, otr_locstate *ls, uint32_t n) {
  a->omp_events++;
  otr_frame *f = push(a, ls);
  f->fork_marker = true;
  f->cat = f->depth_par ? (ls->depth > 1 ? f[-1].cat : OTR_T_WORK) : OTR_T_FORKJOIN;
  ls->fork_n = n;
  if (!f->depth_par) /* a nested fork does not make a worker a serial thread */
    ls->pub.forked = true;
  update_active(a, ls);
}

static void join_(otr_archive *a, otr_locstate *ls) {
  a->omp_events++;
  uint32_t i = ls->depth;
  while (i > 0 && !ls->stack[i - 1].fork_marker)
    i--;
  if (i == 0)
    return;
  while (ls->depth >= i)
    pop(a, ls);
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm p, uint32_t n) {
  (void)al, (void)p;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    fork_(A(u), ls, n);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm p) {
  (void)al, (void)p;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    join_(A(u), ls);
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
  otr_locstate *ls = loc_of(A(u), l, t);
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
  otr_locstate *ls = loc_of(A(u), l, t);
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
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    acquire(A(u), ls, lock, order);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_release(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm p, uint32_t lock,
                                    uint32_t order) {
  (void)al, (void)p;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
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

static void task_create(otr_archive *a, otr_locstate *ls, uint64_t key) {
  a->omp_events++;
  if (a->v->task_create)
    a->v->task_create(a->v->user, &ls->pub, now(ls), key);
}

static void task_switch(otr_archive *a, otr_locstate *ls, uint64_t key) {
  a->omp_events++;
  ls->cur_task = key;
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
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    task_create(A(u), ls, task_key(creator, gen));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_tswitch(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                    OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                    uint32_t gen) {
  (void)al, (void)team;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    task_switch(A(u), ls, gen ? task_key(creator, gen) : 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_tcomplete(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                      OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                      uint32_t gen) {
  (void)al, (void)team;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    task_complete(A(u), ls, task_key(creator, gen));
  return OTF2_CALLBACK_SUCCESS;
}

/* Pre-3.0 OpenMP task records carry one 64-bit id; bit 63 keeps them apart. */
static OTF2_CallbackCode on_omp_tcreate(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint64_t id) {
  (void)al;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    task_create(A(u), ls, id | 1ULL << 63);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_tswitch(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *al, uint64_t id) {
  (void)al;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    task_switch(A(u), ls, id | 1ULL << 63);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_omp_tcomplete(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                          OTF2_AttributeList *al, uint64_t id) {
  (void)al;
  otr_locstate *ls = loc_of(A(u), l, t);
  if (ls)
    task_complete(A(u), ls, id | 1ULL << 63);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                   OTF2_AttributeList *al, OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types, const OTF2_MetricValue *vals) {
  (void)al;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
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
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_param_uint(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *al, OTF2_ParameterRef p, uint64_t v) {
  (void)al, (void)v;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
  uint32_t i = otr_idmap_get(&a->params, p);
  if (ls && i != OTR_NONE && !strncmp(a->param_names[i], "omp depend(", 11)) {
    a->omp_events++;
    if (a->v->task_dep)
      a->v->task_dep(a->v->user, &ls->pub, now(ls), a->param_names[i]);
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_sample(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                   OTF2_AttributeList *al, OTF2_CallingContextRef c,
                                   uint32_t unwind, OTF2_InterruptGeneratorRef g) {
  (void)al, (void)unwind;
  otr_archive *a = A(u);
  otr_locstate *ls = loc_of(a, l, t);
  uint32_t ci = otr_idmap_get(&a->contexts, c);
  if (ls && ci != OTR_NONE && a->v->sample)
    a->v->sample(a->v->user, &ls->pub, now(ls), ci, otr_idmap_get(&a->generators, g));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_any(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                OTF2_AttributeList *al) {
  (void)al;
  loc_of(A(u), l, t); /* counts the event and advances the clock */
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_onoff(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *al, OTF2_MeasurementMode m) {
  (void)m;
  return on_any(l, t, u, al);
}

static OTF2_GlobalEvtReaderCallbacks *callbacks(void) {
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
  return cb;
}

/* Mapping tables of local definitions (Score-P writes them) must be read
 * before the events; a missing local file is not an error. */
static void read_local_defs(otr_archive *a) {
  if (OTF2_Reader_OpenDefFiles(a->rd) != OTF2_SUCCESS)
    return;
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(a->rd, a->d.location_ids[i]);
    if (!dr)
      continue;
    uint64_t n = 0;
    OTF2_Reader_ReadAllLocalDefinitions(a->rd, dr, &n);
    OTF2_Reader_CloseDefReader(a->rd, dr);
  }
  OTF2_Reader_CloseDefFiles(a->rd);
}

static void init_locations(otr_archive *a) {
  uint32_t n = a->d.n_locations, m = a->d.n_metrics;
  a->ls = otr_xcalloc(n, sizeof *a->ls);
  for (uint32_t i = 0; i < n; i++) {
    otr_locstate *ls = &a->ls[i];
    ls->pub.index = i;
    if (m) {
      ls->pm = otr_xmalloc(4 * (size_t)m * sizeof(double));
      ls->first = ls->pm + m;
      ls->lastv = ls->pm + 2 * m;
      ls->delta = ls->pm + 3 * m;
      for (uint32_t k = 0; k < 4 * m; k++)
        ls->pm[k] = NAN;
    }
  }
  a->par_change = UINT64_MAX;
  a->first = 0;
  a->last = 0;
}

/* Closes what is still open at each location's last time and completes the
 * per-location totals over the whole run. */
static void finish(otr_archive *a) {
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    otr_locstate *ls = &a->ls[i];
    while (ls->depth)
      pop(a, ls);
  }
  if (a->in_par == 0 && a->par_change != UINT64_MAX && a->last > a->par_change)
    a->serial += a->last - a->par_change;
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    otr_locstate *ls = &a->ls[i];
    if (!ls->seen) {
      ls->pub.cat_time[OTR_T_OUTSIDE] += a->last - a->first;
      continue;
    }
    ls->pub.cat_time[OTR_T_OUTSIDE] += (ls->pub.first - a->first) + (a->last - ls->pub.last);
    if (ls->have_metrics && a->v->metric_total)
      a->v->metric_total(a->v->user, &ls->pub, ls->first, ls->lastv);
  }
}

/* Teams still open after an error: the visitor sees their end so that it
 * can release what it attached to them. */
static void drop_teams(otr_archive *a) {
  while (a->teams) {
    otr_team *t = a->teams;
    a->teams = t->next;
    if (a->v->team_end)
      a->v->team_end(a->v->user, t);
    free(t);
  }
}

bool otr_read(otr_archive *a, const otr_visitor *v, char *err, size_t errlen) {
  static const otr_visitor none = {0};
  a->v = v ? v : &none;
  read_local_defs(a);
  otr_reset_error();
  init_locations(a);
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    OTF2_Reader_SelectLocation(a->rd, a->d.location_ids[i]);
  if (OTF2_Reader_OpenEvtFiles(a->rd) != OTF2_SUCCESS) {
    snprintf(err, errlen, "cannot open the event files: %s", otr_last_error());
    return false;
  }
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    if (!OTF2_Reader_GetEvtReader(a->rd, a->d.location_ids[i])) {
      snprintf(err, errlen, "cannot open the events of location %s: %s", a->d.location_names[i],
               otr_last_error());
      OTF2_Reader_CloseEvtFiles(a->rd);
      return false;
    }
  OTF2_GlobalEvtReader *g = OTF2_Reader_GetGlobalEvtReader(a->rd);
  if (!g) {
    snprintf(err, errlen, "cannot read the events: %s", otr_last_error());
    OTF2_Reader_CloseEvtFiles(a->rd);
    return false;
  }
  OTF2_GlobalEvtReaderCallbacks *cb = callbacks();
  OTF2_Reader_RegisterGlobalEvtCallbacks(a->rd, g, cb, a);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  bool ok = true;
  otr_progress(a, 0, false); /* starts the clock */
  for (;;) {
    uint64_t got = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadGlobalEvents(a->rd, g, 1u << 20, &got);
    if (rc != OTF2_SUCCESS) {
      snprintf(err, errlen, "corrupt or truncated events after %llu records: %s",
               (unsigned long long)a->events, otr_last_error());
      ok = false;
      break;
    }
    otr_progress(a, a->events, false);
    if (got < (1u << 20))
      break;
  }
  otr_progress(a, a->events, true);
  OTF2_Reader_CloseGlobalEvtReader(a->rd, g);
  OTF2_Reader_CloseEvtFiles(a->rd);
  if (ok)
    finish(a);
  drop_teams(a);
  if (!ok)
    return false;
  if (a->events == 0) {
    snprintf(err, errlen, "the archive holds no events");
    return false;
  }
  if (a->omp_events == 0) {
    snprintf(err, errlen, "the archive holds no OpenMP records");
    return false;
  }
  return true;
}

const otr_loc *otr_location(const otr_archive *a, uint32_t i) {
  return &a->ls[i].pub;
}

uint64_t otr_first_time(const otr_archive *a) {
  return a->first;
}
uint64_t otr_last_time(const otr_archive *a) {
  return a->last;
}
uint64_t otr_serial_ticks(const otr_archive *a) {
  return a->serial;
}
uint64_t otr_events_read(const otr_archive *a) {
  return a->events;
}

void otr_events_free(otr_archive *a) {
  if (!a->ls)
    return;
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    free(a->ls[i].stack);
    free(a->ls[i].snap);
    free(a->ls[i].pm);
  }
  free(a->ls);
  a->ls = NULL;
  while (a->teams) {
    otr_team *t = a->teams;
    a->teams = t->next;
    free(t);
  }
}
