/* Throttling of scoped constructs on the hot path (core/throttle.h):
 * work-sharing constructs (loop, sections, single, ...) and masked, by
 * kind and code address per thread. A begin decides for its end (whose
 * code address differs) through the table's stack of open constructs; a
 * throttled instance writes no records, so what it contains nests in its
 * parent. Its implicit barrier stays recorded (events/sync.c). */
#ifndef OMPTRACE_EVENTS_THROTTLE_SCOPE_H
#define OMPTRACE_EVENTS_THROTTLE_SCOPE_H

#include "core/filter.h"
#include "events/throttle.h"

/* The open stack, emptied after a pause or resume: ends that fall in a
 * pause never reach the handlers. */
static inline ot_thr_table *ot_thr_scopes(ot_thread *t) {
  ot_thr_table *tab = t->throttle;
  unsigned e = atomic_load_explicit(&ot_filter_epoch, memory_order_relaxed);
  if (__builtin_expect(tab->epoch != e, 0)) {
    tab->epoch = e;
    tab->depth = tab->nwait = 0;
  }
  return tab;
}

/* Begin of a construct of class cls (OT_THR_WORK, OT_THR_MASKED) and kind
 * at cp, at `now`; 1 when it (and its end) are not recorded. track 0:
 * never throttled, but nested (taskloop: its address is in the runtime). */
static inline int ot_thr_scope_begin(ot_thread *t, unsigned cls, unsigned kind, const void *cp,
                                     int track, uint64_t now) {
  ot_thr_table *tab = ot_thr_scopes(t);
  if (tab->depth++ >= OT_THR_DEPTH)
    return 0; /* too deep to remember: recorded */
  ot_thr_open *o = &tab->open[tab->depth - 1];
  o->e =
      track && cp ? ot_thr_find(tab, ot_thr_kind_key(cls, kind, (uint64_t)cp), (uint64_t)cp) : NULL;
  o->t0 = now;
  o->throttled = o->e && ot_thr_decide(o->e);
  return o->throttled;
}

/* An instance of o's construct ended at `now`: its duration to the
 * window (recorded) or to the count (throttled, returns 1). */
static inline int ot_thr_close(ot_thread *t, const ot_thr_open *o, uint64_t now) {
  uint64_t d = now > o->t0 ? now - o->t0 : 0;
  if (!o->e)
    return 0;
  if (!o->throttled) {
    ot_thr_done(o->e, d, 1);
    return 0;
  }
  o->e->count++;
  o->e->ticks += d;
  ot_thr_counted(t, o->e, now);
  return 1;
}

/* The matching end at `now`: 1 when its begin was throttled (counted). */
static inline int ot_thr_scope_end(ot_thread *t, uint64_t now) {
  ot_thr_table *tab = ot_thr_scopes(t);
  if (tab->depth == 0)
    return 0; /* its begin fell in a pause */
  if (--tab->depth >= OT_THR_DEPTH)
    return 0;
  const ot_thr_open *o = &tab->open[tab->depth];
  if (!ot_thr_close(t, o, now))
    return 0;
  if ((atomic_load_explicit(&o->e->key, memory_order_relaxed) >> 56) == OT_THR_WORK) {
    tab->after_cp = o->e->cp;
    tab->after_rec = t->records;
  }
  return 1;
}

/* A wait of sync kind `kind` begins (begin 1) or ends in task `task`:
 * where a throttled task it runs spends its time. */
static inline void ot_thr_wait(ot_thread *t, unsigned kind, int begin, uint64_t task) {
  ot_thr_table *tab = ot_thr_scopes(t);
  if (!begin) {
    tab->nwait -= tab->nwait > 0;
    return;
  }
  if (tab->nwait++ >= OT_THR_DEPTH)
    return;
  unsigned w =
      kind == ompt_sync_region_taskwait    ? OT_THR_W_TASKWAIT
      : kind == ompt_sync_region_taskgroup ? OT_THR_W_TASKGROUP
      : kind == ompt_sync_region_barrier_explicit || kind == ompt_sync_region_barrier_implementation
          ? OT_THR_W_BARRIER
      : kind == ompt_sync_region_reduction ? 0xffu
                                           : OT_THR_W_IBARRIER;
  tab->wait_kind[tab->nwait - 1] = (uint8_t)w;
  tab->wait_task[tab->nwait - 1] = task;
}

/* An implicit barrier's begin without code address (libomp gives none
 * after some critical sections): the throttled work-sharing construct
 * that ended just before it, or 0. Finalize tells it from the parallel
 * region's end barrier as it does after a recorded construct. */
static inline uint64_t ot_thr_barrier_cp(const ot_thread *t) {
  const ot_thr_table *tab = t->throttle;
  return tab->after_rec == t->records ? tab->after_cp : 0;
}

#endif
