/* Region stacks: every record first charges the time since the location's
 * previous record to the category of its innermost open region, then opens
 * or closes regions. Categories, parallel-region instances (teams) and the
 * count of locations inside parallel regions (for serial time) live here. */
#include "locstate.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

otr_locstate *otr_loc_of(otr_archive *a, OTF2_LocationRef id, uint64_t t) {
  uint32_t i = otr_idmap_get(&a->locations, id);
  if (i == OTR_NONE)
    return NULL;
  otr_locstate *ls = &a->ls[i];
  a->events++;
  ls->pub.events++;
  otr_check_range(a, ls, t);
  if (!ls->seen) {
    ls->seen = true;
    ls->pub.first = ls->last_t = t;
    if (a->par_change == UINT64_MAX) {
      a->first = t;
      a->par_change = t;
    }
    ls->lost_first = ls->lost_mark = otr_lost_until(a, t);
  }
  if (t < ls->last_t) /* out of order on one location: clamp */
    t = ls->last_t;
  if (t > a->last)
    a->last = t;
  ls->pub.last = t;
  /* charge the elapsed time to the current category, except what any
   * location lost in a measurement gap meanwhile: that is in no category */
  uint64_t dt = t - ls->last_t;
  if (dt) {
    uint64_t mark = otr_lost_until(a, t), lost = mark - ls->lost_mark;
    lost = lost < dt ? lost : dt;
    ls->pub.lost += lost;
    ls->lost_mark = mark;
    if (dt > lost) {
      ls->pub.cat_time[ls->cat] += dt - lost;
      if (otr_cat_is_wait(ls->cat))
        ls->pub.wait_cum += dt - lost;
      if (a->v->span)
        a->v->span(a->v->user, &ls->pub, ls->cat, ls->last_t, t,
                   ls->depth ? &ls->stack[ls->depth - 1] : NULL);
    }
    ls->last_t = t;
  }
  return ls;
}

/* The job's state from the counts: parallel while any location is in a
 * parallel region or fork, else MPI only while any is in an MPI call,
 * else serial. */
static int job_state(const otr_archive *a) {
  return a->in_par ? OTR_S_PAR : a->in_mpi ? OTR_S_MPI : OTR_S_OUTSIDE;
}

/* Charges the time since the job's state last changed, gaps left out, to
 * that state (serial or MPI only; parallel time is the rest). */
static void job_charge(otr_archive *a, uint64_t t, int st) {
  if (a->par_change == UINT64_MAX || t <= a->par_change)
    return;
  uint64_t lost = otr_lost_until(a, t) - a->lost_at_change, dt = t - a->par_change;
  dt = dt > lost ? dt - lost : 0;
  if (st == OTR_S_OUTSIDE)
    a->serial += dt;
  else if (st == OTR_S_MPI)
    a->mpi_only += dt;
}

/* Keeps the counts of locations in parallel regions and in MPI calls. */
static void update_active(otr_archive *a, otr_locstate *ls) {
  ls->cat = ls->depth ? ls->stack[ls->depth - 1].cat : OTR_T_OUTSIDE;
  uint8_t st = ls->cat == OTR_T_OUTSIDE ? OTR_S_OUTSIDE
               : ls->cat == OTR_T_MPI   ? OTR_S_MPI
                                        : OTR_S_PAR;
  if (st == ls->state)
    return;
  int before = job_state(a);
  a->in_par -= ls->state == OTR_S_PAR;
  a->in_mpi -= ls->state == OTR_S_MPI;
  a->in_par += st == OTR_S_PAR;
  a->in_mpi += st == OTR_S_MPI;
  ls->state = st;
  if (job_state(a) == before)
    return;
  uint64_t t = now(ls);
  job_charge(a, t, before);
  if (t > a->par_change || a->par_change == UINT64_MAX) {
    a->par_change = t;
    a->lost_at_change = otr_lost_until(a, t);
  }
}

void otr_job_state_finish(otr_archive *a) {
  job_charge(a, a->last, job_state(a));
}

/* MPI calls are MPI time wherever they are made; a region without a
 * category of its own (a user function) takes its caller's. */
static otr_cat frame_cat(otr_class cls, bool mpi, const otr_frame *parent, bool in_par) {
  if (mpi)
    return OTR_T_MPI;
  if (!in_par) {
    if (parent && parent->cat == OTR_T_MPI && cls == OTR_C_USER) /* code run by an MPI call */
      return OTR_T_MPI;
    return parent && parent->cat == OTR_T_FORKJOIN ? OTR_T_FORKJOIN : OTR_T_OUTSIDE;
  }
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

static bool is_ws(otr_class c) {
  return c == OTR_C_LOOP || c == OTR_C_SECTIONS || c == OTR_C_SINGLE || c == OTR_C_WORKSHARE;
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
  f->mpi0 = ls->pub.cat_time[OTR_T_MPI];
  f->barrier0 = ls->pub.cat_time[OTR_T_IBARRIER] + ls->pub.cat_time[OTR_T_EBARRIER];
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

/* Score-P names an implicit barrier whose code address has no source line
 * "!$omp implicit barrier @0x<address>". At its first Enter it takes the
 * line of the construct it ends: the work-sharing construct its parent
 * left last (or that encloses it), else its parallel region. */
static void name_barrier(otr_archive *a, uint32_t r, const otr_frame *parent,
                         const otr_team *team) {
  uint32_t from = team ? team->region : OTR_NONE;
  if (parent && is_ws(parent->cls))
    from = parent->region;
  else if (parent && parent->last_child != OTR_NONE && is_ws(a->d.regions[parent->last_child].cls))
    from = parent->last_child;
  if (from != OTR_NONE)
    otr_region_site_from(a, r, from);
}

void otr_enter_region(otr_archive *a, otr_locstate *ls, uint32_t r) {
  const otr_region *reg = &a->d.regions[r];
  otr_frame *f = push(a, ls); /* may move the stack: take the parent after it */
  const otr_frame *parent = ls->depth > 1 ? f - 1 : NULL;
  f->region = r;
  f->cls = reg->cls;
  if (f->cls == OTR_C_PARALLEL) {
    f->depth_par++;
    f->team = team_join(a, ls, r);
  }
  if (reg->paradigm == OTF2_PARADIGM_OPENMP || f->cls != OTR_C_USER)
    a->omp_events++;
  bool mpi = reg->paradigm == OTF2_PARADIGM_MPI;
  f->cat = frame_cat(f->cls, mpi, parent, f->depth_par > 0);
  if (mpi && !f->depth_par) /* MPI called outside parallel regions: the rank's main thread */
    ls->pub.forked = true;
  if (f->cls == OTR_C_TASK)
    f->task = ls->cur_task;
  if (f->cls == OTR_C_IBARRIER && !reg->line && strstr(reg->name, "@0x"))
    name_barrier(a, r, parent, f->team);
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

void otr_pop(otr_archive *a, otr_locstate *ls) {
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
    for (uint32_t i = ls->depth - 1; i-- > 0;) /* the nearest enclosing task frame */
      if (ls->stack[i].cls == OTR_C_TASK && !ls->stack[i].fork_marker) {
        ls->stack[i].nested_task += incl;
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

void otr_leave_region(otr_archive *a, otr_locstate *ls, uint32_t r) {
  uint32_t i = ls->depth;
  while (i > 0 && (ls->stack[i - 1].region != r || ls->stack[i - 1].fork_marker))
    i--;
  if (i == 0) /* unbalanced Leave: nothing to close */
    return;
  while (ls->depth >= i)
    otr_pop(a, ls);
}

void otr_fork(otr_archive *a, otr_locstate *ls, uint32_t n) {
  a->omp_events++;
  otr_frame *f = push(a, ls);
  f->fork_marker = true;
  f->cat = f->depth_par ? (ls->depth > 1 ? f[-1].cat : OTR_T_WORK) : OTR_T_FORKJOIN;
  ls->fork_n = n;
  if (!f->depth_par) /* a nested fork does not make a worker a serial thread */
    ls->pub.forked = true;
  update_active(a, ls);
}

void otr_join(otr_archive *a, otr_locstate *ls) {
  a->omp_events++;
  uint32_t i = ls->depth;
  while (i > 0 && !ls->stack[i - 1].fork_marker)
    i--;
  if (i == 0)
    return;
  while (ls->depth >= i)
    otr_pop(a, ls);
}
