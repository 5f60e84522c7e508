/* Throttling on the hot path (core/throttle.h): which instances of tasks
 * and flushes are recorded, and what the timeline sees of the others. A
 * throttled task carries no id but its creator's table entry (location
 * 0xffff in the id, never a real one), so the thread that runs it finds
 * the entry with one mask. Its create and schedule records go; a switch
 * between a recorded task and a throttled one is written as a switch
 * to or from the implicit task, so the timeline stays balanced. */
#ifndef OMPTRACE_EVENTS_THROTTLE_H
#define OMPTRACE_EVENTS_THROTTLE_H

#include "core/threads.h"
#include "core/throttle.h"
#include "events/emit.h"

#define OT_THR_TASK_MARK (0xffffull << 48)
#define OT_THR_IS_TASK(id) (((id)&OT_THR_TASK_MARK) == OT_THR_TASK_MARK)
#define OT_THR_PTR_MASK 0xffffffffffffull

/* Writes e's throttled instances not yet in a record. */
static inline void ot_thr_write(ot_thread *t, ot_thr_entry *e, uint64_t now) {
  uint64_t n = e->count - e->emitted_count, ticks = e->ticks - e->emitted_ticks;
  uint64_t key = atomic_load_explicit(&e->key, memory_order_relaxed);
  ot_emit_at(t, now, OT_THROTTLED, OT_THR_KIND(key >> 56, (key >> 48) & 0xfu), ot_sat32(n), e->cp,
             ticks);
  e->emitted_count += ot_sat32(n);
  e->emitted_ticks += ticks;
}

/* A throttled instance was counted in e: written at the next implicit
 * task end, or now when OT_THR_EMIT_EVERY are due (dirty list full). */
static inline void ot_thr_counted(ot_thread *t, ot_thr_entry *e, uint64_t now) {
  ot_thr_table *tab = t->throttle;
  if (!e->dirty && tab->ndirty < OT_THR_DIRTY) {
    e->dirty = 1;
    tab->dirty[tab->ndirty++] = e;
  }
  if (e->count - e->emitted_count >= OT_THR_EMIT_EVERY)
    ot_thr_write(t, e, now ? now : ot_clock_now());
}

/* The throttled task time run inside waits not yet in records. */
static inline void ot_thr_write_waits(ot_thread *t, uint64_t now) {
  ot_thr_table *tab = t->throttle;
  for (unsigned k = 0; k < OT_THR_NWAIT; k++)
    if (tab->wait_ticks[k] > tab->wait_emitted[k]) {
      ot_emit_at(t, now ? now : ot_clock_now(), OT_THROTTLED, OT_THR_KIND(OT_THR_WAIT, k), 0, 0,
                 tab->wait_ticks[k] - tab->wait_emitted[k]);
      tab->wait_emitted[k] = tab->wait_ticks[k];
    }
}

/* End of an implicit task or of the thread: the dirty entries' counts
 * into records. */
static inline void ot_thr_write_dirty(ot_thread *t) {
  ot_thr_table *tab = t->throttle;
  uint64_t now = tab->ndirty ? ot_clock_now() : 0;
  ot_thr_write_waits(t, now);
  for (uint32_t i = 0; i < tab->ndirty; i++) {
    ot_thr_entry *e = tab->dirty[i];
    e->dirty = 0;
    if (e->count > e->emitted_count)
      ot_thr_write(t, e, now);
  }
  tab->ndirty = 0;
}

/* One throttled instance of the construct of creator entry ce ran here. */
static inline void ot_thr_ran(ot_thread *t, const ot_thr_entry *ce, uint64_t ticks, int complete,
                              uint64_t now) {
  ot_thr_entry *e =
      ot_thr_find(t->throttle, atomic_load_explicit(&ce->key, memory_order_relaxed), ce->cp);
  if (!e)
    return; /* this thread's table is full: not counted (docs/control.md) */
  e->ticks += ticks;
  e->count += (unsigned)complete;
  ot_thr_counted(t, e, now);
}

/* Task creation: 1 when the task is throttled (its data then holds the
 * creator's entry). Tasks with dependences, untied tasks and the
 * runtime's pseudo tasks are always recorded. */
static inline int ot_thr_task_create(ot_thread *t, int flags, int has_deps, uint32_t site,
                                     const void *cp, ompt_data_t *task) {
  if (has_deps || !site || (flags & (ompt_task_untied | ompt_task_taskwait)))
    return 0;
  ot_thr_entry *e = ot_thr_find(t->throttle, ot_thr_key(OT_THR_TASK, site), (uint64_t)cp);
  if (!e || !ot_thr_decide(e))
    return 0;
  task->value = OT_THR_TASK_MARK | ((uint64_t)e & OT_THR_PTR_MASK);
  return 1;
}

/* A recorded explicit task ran `ticks` here (completed or not): its
 * creator's entry learns the duration. */
static inline void ot_thr_recorded(uint64_t id, uint64_t ticks, int complete) {
  ot_thread *c = ot_thread_get(OT_TASK_THREAD(id));
  ot_thr_entry *e = c && c->throttle
                        ? ot_thr_find(c->throttle, ot_thr_key(OT_THR_TASK, OT_TASK_SITE(id)), 0)
                        : NULL;
  if (e)
    ot_thr_done(e, ticks, complete);
}

/* task_schedule with throttling on: accounts the segment that ends and
 * writes what the timeline needs. */
static inline void ot_thr_schedule(ot_thread *t, uint64_t prior, unsigned status, uint64_t next) {
  uint64_t now = ot_clock_now();
  uint64_t seg = t->thr_seg && now > t->thr_seg ? now - t->thr_seg : 0;
  /* a detached task's body is done: counted now (its fulfil writes nothing) */
  int complete =
      status == ompt_task_complete || status == ompt_task_cancel || status == ompt_task_detach;
  int pt = OT_THR_IS_TASK(prior), nt = OT_THR_IS_TASK(next);
  ot_thr_table *tab = t->throttle;
  if (pt && tab->run_wait) /* its time lies in that wait */
    tab->wait_ticks[tab->run_wait - 1] += seg;
  if (nt && !pt) /* a throttled task starts: in the wait of the task it suspends? */
    tab->run_wait = tab->nwait && tab->nwait <= OT_THR_DEPTH &&
                            tab->wait_task[tab->nwait - 1] == prior &&
                            tab->wait_kind[tab->nwait - 1] != 0xff
                        ? tab->wait_kind[tab->nwait - 1] + 1u
                        : 0;
  if (pt)
    ot_thr_ran(t, (const ot_thr_entry *)(prior & OT_THR_PTR_MASK), seg, complete, now);
  else if (OT_TASK_GEN(prior) != 0 && !(OT_TASK_GEN(prior) & 0x80000000u))
    ot_thr_recorded(prior, seg, complete);
  t->thr_seg = now;
  if (!pt && !nt)
    ot_emit_at(t, now, OT_TASK_SCHEDULE, status, 0, prior, next);
  else if (!pt && OT_TASK_GEN(prior) != 0) /* leaves a recorded task for a throttled one */
    ot_emit_at(t, now, OT_TASK_SCHEDULE, status, 0, prior, 0);
  else if (!nt && OT_TASK_GEN(next) != 0) /* back from a throttled task to a recorded one */
    ot_emit_at(t, now, OT_TASK_SCHEDULE, ompt_task_switch, 0, 0, next);
}

/* A point construct (flush) at cp: 1 when throttled (counted, not recorded). */
static inline int ot_thr_point(ot_thread *t, unsigned cls, const void *cp) {
  ot_thr_entry *e =
      cp ? ot_thr_find(t->throttle, ot_thr_key(cls, (uint64_t)cp), (uint64_t)cp) : NULL;
  if (!e)
    return 0;
  if (e->throttled) {
    e->count++;
    ot_thr_counted(t, e, 0);
    return 1;
  }
  ot_thr_done(e, 0, 1);
  ot_thr_decide(e);
  return 0;
}

/* mutex_acquire (acquired 0) and mutex_acquired (1) of a critical,
 * ordered or lock: 1 when not recorded. The acquisition is judged at the
 * acquire; its acquired and release follow that judgement. */
static inline int ot_thr_acquire(ot_thread *t, unsigned kind, uint64_t wait, const void *cp,
                                 int acquired) {
  ot_thr_table *tab = t->throttle;
  if (acquired) {
    ot_thr_held a = tab->acq;
    tab->acq.e = NULL;
    if (!a.e || a.wait != wait)
      return 0;
    tab->held[tab->nheld++] = a;
    return a.throttled;
  }
  tab->acq.e = NULL;
  if (kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock || !cp ||
      tab->nheld >= OT_THR_HELD)
    return 0; /* nest locks: re-acquisitions are NEST_LOCK records; recorded */
  ot_thr_entry *e = ot_thr_find(tab, ot_thr_mutex_key(kind, (uint64_t)cp), (uint64_t)cp);
  if (!e)
    return 0;
  tab->acq = (ot_thr_held){wait, e, ot_clock_now(), ot_thr_decide(e)};
  return tab->acq.throttled;
}

/* mutex_released: 1 when its acquisition was throttled. */
static inline int ot_thr_release(ot_thread *t, uint64_t wait) {
  ot_thr_table *tab = t->throttle;
  for (uint32_t i = tab->nheld; i-- > 0;)
    if (tab->held[i].wait == wait) {
      ot_thr_held h = tab->held[i];
      tab->held[i] = tab->held[--tab->nheld];
      uint64_t now = ot_clock_now(), d = now > h.t0 ? now - h.t0 : 0;
      if (!h.throttled) {
        ot_thr_done(h.e, d, 1);
        return 0;
      }
      h.e->count++;
      h.e->ticks += d;
      ot_thr_counted(t, h.e, now);
      return 1;
    }
  return 0;
}

/* thread_end: the rest of every entry into the record log. */
static inline void ot_thr_thread_end(ot_thread *t) {
  ot_thr_write_dirty(t);
  uint64_t now = ot_clock_now();
  for (uint32_t i = 0; i < OT_THR_SLOTS; i++) {
    ot_thr_entry *e = &t->throttle->e[i];
    if (atomic_load_explicit(&e->key, memory_order_relaxed) && e->count > e->emitted_count)
      ot_thr_write(t, e, now);
  }
}

#endif
