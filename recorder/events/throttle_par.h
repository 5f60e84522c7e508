/* Throttling of parallel regions (core/throttle.h): the master decides at
 * parallel begin from its table, by the region's code address, and marks
 * the region's parallel_data; every team member that begins an implicit
 * task of a marked region hides until that task ends (ot_self NULL, its
 * thread in ot_thr_hidden), so the whole team records the region or none
 * of it, nested regions and tasks included. Its count and time (begin to
 * end) go to the master's table. */
#ifndef OMPTRACE_EVENTS_THROTTLE_PAR_H
#define OMPTRACE_EVENTS_THROTTLE_PAR_H

#include "events/throttle_scope.h"

/* parallel_data of a throttled region: the mark and the master's entry
 * (NULL for a region begun inside a throttled one). */
#define OT_THR_PAR_MARK (0xffffull << 48)
#define OT_THR_PAR_IS(v) (((v)&OT_THR_PAR_MARK) == OT_THR_PAR_MARK)

/* A hidden thread's parallel begin (a region nested in a throttled one):
 * its team hides too. 1 when the thread is hidden. */
static inline int ot_thr_par_hidden_begin(ompt_data_t *parallel_data) {
  if (!ot_thr_hidden)
    return 0;
  __atomic_store_n(&parallel_data->value, OT_THR_PAR_MARK, __ATOMIC_RELAXED);
  return 1;
}

/* parallel_begin on a recorded thread at `now`: 1 when the region is
 * throttled (parallel_data then holds the mark). Leagues and regions
 * begun while paused are recorded. */
static inline int ot_thr_par_begin(ot_thread *t, const void *cp, int flags,
                                   ompt_data_t *parallel_data, uint64_t now) {
  ot_thr_table *tab = t->throttle;
  if (tab->npar++ >= OT_THR_DEPTH)
    return 0;
  ot_thr_open *o = &tab->par[tab->npar - 1];
  int track = cp && !(flags & ompt_parallel_league) &&
              atomic_load_explicit(&ot_recording, memory_order_relaxed) == OT_REC_ON;
  o->e = track ? ot_thr_find(tab, ot_thr_key(OT_THR_PARALLEL, (uint64_t)cp), (uint64_t)cp) : NULL;
  o->t0 = now;
  o->throttled = o->e && ot_thr_decide(o->e);
  if (o->throttled)
    __atomic_store_n(&parallel_data->value, OT_THR_PAR_MARK | ((uint64_t)o->e & OT_THR_PTR_MASK),
                     __ATOMIC_RELAXED);
  return o->throttled;
}

/* parallel_end on the master at `now`: 1 when the region was throttled. */
static inline int ot_thr_par_end(ot_thread *t, uint64_t now) {
  ot_thr_table *tab = t->throttle;
  if (tab->npar == 0)
    return 0;
  if (--tab->npar >= OT_THR_DEPTH)
    return 0;
  return ot_thr_close(t, &tab->par[tab->npar], now);
}

/* Implicit task begin: 1 when the thread is (now) hidden. */
static inline int ot_thr_par_enter(ot_thread *t, const ompt_data_t *parallel_data) {
  ot_thread *h = ot_thr_hidden;
  if (h) {
    h->throttle->skip++;
    return 1;
  }
  if (!t || !t->throttle || !parallel_data ||
      !OT_THR_PAR_IS(__atomic_load_n(&parallel_data->value, __ATOMIC_RELAXED)))
    return 0;
  t->throttle->skip = 1;
  ot_thr_hidden = t;
  ot_self = NULL;
  return 1;
}

/* Implicit task end: 1 when it ends a task of a throttled region (the
 * thread shows again after the outermost). */
static inline int ot_thr_par_leave(void) {
  ot_thread *h = ot_thr_hidden;
  if (!h)
    return 0;
  if (--h->throttle->skip == 0) {
    ot_thr_hidden = NULL;
    ot_self = h;
  }
  return 1;
}

#endif
