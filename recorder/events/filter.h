/* The filter on the hot path (core/filter.h): one table lookup per
 * construct, no lock, no allocation, no call. A begin record decides for
 * its end (whose code address often differs) through a per-thread bit
 * stack. A key seen for the first time is decided at the flusher's next
 * pass (a chunk hand-off or OMPTRACE_FLUSH_INTERVAL).
 *
 * Two ways in: the fast one (ot_filt_fast: a filter file, no throttling,
 * no pause or resume since the thread's last full decision) reads the
 * key's home slot and the bit stack and nothing else; the full one
 * (ot_filt_self and what takes no state) probes on, claims new keys and
 * resets a stale bit stack. Both keep the same stack. */
#ifndef OMPTRACE_EVENTS_FILTER_H
#define OMPTRACE_EVENTS_FILTER_H

#include "core/filter.h"
#include "core/thread.h"

/* 1 when the construct (class, kind) at cp is excluded. cp 0 and keys not
 * yet decided are recorded: finalize decides them. */
static inline int ot_filt_drop(unsigned fclass, unsigned kind, const void *cp) {
  if (!cp)
    return 0;
  int claimed = 0;
  return ot_filter_lookup(ot_filter_key(fclass, kind, (uint64_t)cp), &claimed) == OT_FILT_DROP;
}

/* 1 when t's handlers take their filter or throttle leaf. */
static inline int ot_filt_special(const ot_thread *t) {
  return __builtin_expect(atomic_load_explicit(&t->special, memory_order_relaxed) != 0, 0);
}

/* 1 when t may take the fast path. */
static inline int ot_filt_fast(const ot_thread *t) {
  return atomic_load_explicit(&t->special, memory_order_relaxed) == OT_SP_FILTER;
}

/* The calling thread's state, emptied after a pause or resume (the full
 * path; clears the thread's OT_SP_STALE before it reads the epoch). */
static inline ot_filter_stack *ot_filt_self(void) {
  ot_thread *t = ot_self;
  ot_filter_stack *f = &t->filt;
  if ((atomic_load_explicit(&t->special, memory_order_relaxed) & OT_SP_STALE))
    atomic_fetch_and_explicit(&t->special, ~(unsigned)OT_SP_STALE, memory_order_seq_cst);
  unsigned e = atomic_load_explicit(&ot_filter_epoch, memory_order_relaxed);
  if (__builtin_expect(f->epoch != e, 0)) {
    f->epoch = e;
    f->bits = 0;
    f->depth = f->nheld = 0;
    f->acq_drop = 0;
  }
  return f;
}

/* The fast path's view: the decision for a key found in its home slot,
 * or OT_FILT_EMPTY (not there: take the full path, which probes on and
 * claims; a key of code address 0 is never there). */
static inline unsigned ot_filt_home(unsigned fclass, unsigned kind, const void *cp) {
  uint64_t key = ot_filter_key(fclass, kind, (uint64_t)cp);
  uint32_t h = ot_filter_hash(key);
  if (atomic_load_explicit(&ot_filter_keys[h], memory_order_acquire) != key)
    return OT_FILT_EMPTY;
  return atomic_load_explicit(&ot_filter_state[h], memory_order_acquire);
}

/* Pushes a begin's decision; one too deep to remember is recorded
 * (finalize decides it), so the result is what to do with the begin. */
static inline int ot_filt_push(ot_filter_stack *f, int drop) {
  if (f->depth++ >= OT_FILTER_DEPTH)
    return 0;
  f->bits = f->bits << 1 | (uint64_t)drop;
  return drop;
}

/* A begin decided from its home slot: 1 dropped, 0 recorded, pushed
 * either way; -1 not decided here (take ot_filt_begin). */
static inline int ot_filt_begin_home(ot_filter_stack *f, unsigned fclass, unsigned kind,
                                     const void *cp) {
  unsigned s = ot_filt_home(fclass, kind, cp);
  if (s == OT_FILT_EMPTY)
    return -1;
  return ot_filt_push(f, s == OT_FILT_DROP);
}

/* A begin record: 1 when it (and its end) are dropped. */
static inline int ot_filt_begin(unsigned fclass, unsigned kind, const void *cp) {
  return ot_filt_push(ot_filt_self(), ot_filt_drop(fclass, kind, cp));
}

/* An end record: 1 when its begin was dropped. */
static inline int ot_filt_end_of(ot_filter_stack *f) {
  if (f->depth == 0 || --f->depth >= OT_FILTER_DEPTH)
    return 0;
  int drop = (int)(f->bits & 1);
  f->bits >>= 1;
  return drop;
}

static inline int ot_filt_end(void) {
  return ot_filt_end_of(ot_filt_self());
}

/* A record inside the innermost open construct (a sync region's wait). */
static inline int ot_filt_inside_of(const ot_filter_stack *f) {
  return f->depth - 1u < OT_FILTER_DEPTH && (f->bits & 1);
}

static inline int ot_filt_inside(void) {
  return ot_filt_inside_of(ot_filt_self());
}

/* Lock acquisition: mutex_acquire decides (with room left to remember the
 * lock), its mutex_acquired follows that decision even when the table's
 * changed in between, and a dropped acquisition is remembered by wait id
 * so its release (at another address) goes too. */
static inline int ot_filt_acquire_of(ot_filter_stack *f, uint64_t wait_id, int drop) {
  f->acq_wait = wait_id;
  f->acq_drop = drop;
  return drop;
}

static inline int ot_filt_acquired_of(ot_filter_stack *f, uint64_t wait_id) {
  int drop = f->acq_drop && f->acq_wait == wait_id;
  f->acq_drop = 0;
  if (drop)
    f->held[f->nheld++] = wait_id;
  return drop;
}

static inline int ot_filt_release_of(ot_filter_stack *f, uint64_t wait_id) {
  for (uint32_t i = f->nheld; i-- > 0;)
    if (f->held[i] == wait_id) {
      f->held[i] = f->held[--f->nheld];
      return 1;
    }
  return 0;
}

static inline int ot_filt_acquire(unsigned kind, uint64_t wait_id, const void *cp, int acquired) {
  ot_filter_stack *f = ot_filt_self();
  if (acquired)
    return ot_filt_acquired_of(f, wait_id);
  return ot_filt_acquire_of(f, wait_id,
                            f->nheld < OT_FILTER_HELD && ot_filt_drop(OT_FC_MUTEX, kind, cp));
}

static inline int ot_filt_release(uint64_t wait_id) {
  return ot_filt_release_of(ot_filt_self(), wait_id);
}

#endif
