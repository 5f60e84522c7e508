/* The filter on the hot path (core/filter.h): one table lookup per
 * construct, no lock, no allocation, no call. A begin record decides for
 * its end (whose code address often differs) through a per-thread bit
 * stack. A key seen for the first time is decided at the flusher's next
 * pass (a chunk hand-off or OMPTRACE_FLUSH_INTERVAL). */
#ifndef OMPTRACE_EVENTS_FILTER_H
#define OMPTRACE_EVENTS_FILTER_H

#include "core/filter.h"

/* 1 when the construct (class, kind) at cp is excluded. cp 0 and keys not
 * yet decided are recorded: finalize decides them. */
static inline int ot_filt_drop(unsigned fclass, unsigned kind, const void *cp) {
  if (!cp)
    return 0;
  int claimed = 0;
  return ot_filter_lookup(ot_filter_key(fclass, kind, (uint64_t)cp), &claimed) == OT_FILT_DROP;
}

/* The calling thread's state, emptied after a pause or resume. */
static inline ot_filter_tls *ot_filt_self(void) {
  ot_filter_tls *f = &ot_filter_self;
  unsigned e = atomic_load_explicit(&ot_filter_epoch, memory_order_relaxed);
  if (__builtin_expect(f->epoch != e, 0)) {
    f->epoch = e;
    f->depth = f->nheld = 0;
    f->acq_drop = 0;
  }
  return f;
}

/* The fast path's view (events/sync.c): the decision for a key found in
 * its home slot, or OT_FILT_EMPTY (not there, or cp 0: take the full
 * path, which probes on and claims). */
static inline unsigned ot_filt_home(unsigned fclass, unsigned kind, const void *cp) {
  uint64_t key = ot_filter_key(fclass, kind, (uint64_t)cp);
  uint32_t h = ot_filter_hash(key);
  if (!cp || atomic_load_explicit(&ot_filter_keys[h], memory_order_acquire) != key)
    return OT_FILT_EMPTY;
  return atomic_load_explicit(&ot_filter_state[h], memory_order_acquire);
}

/* 1 when the calling thread's state is of the current epoch (else the
 * full path empties it first). */
static inline int ot_filt_current(const ot_filter_tls *f) {
  return f->epoch == atomic_load_explicit(&ot_filter_epoch, memory_order_relaxed);
}

/* A begin decided from its home slot (f current): 1 dropped, 0 recorded,
 * its bit pushed either way; -1 not decided here (take ot_filt_begin). */
static inline int ot_filt_begin_home(ot_filter_tls *f, unsigned fclass, unsigned kind,
                                     const void *cp) {
  unsigned s = ot_filt_home(fclass, kind, cp);
  if (s == OT_FILT_EMPTY || f->depth >= OT_FILTER_DEPTH)
    return -1;
  int drop = s == OT_FILT_DROP;
  f->bits = drop ? f->bits | (1ull << f->depth) : f->bits & ~(1ull << f->depth);
  f->depth++;
  return drop;
}

/* A begin record: 1 when it (and its end) are dropped. */
static inline int ot_filt_begin(unsigned fclass, unsigned kind, const void *cp) {
  ot_filter_tls *f = ot_filt_self();
  int drop = ot_filt_drop(fclass, kind, cp);
  if (f->depth < OT_FILTER_DEPTH)
    f->bits = drop ? f->bits | (1ull << f->depth) : f->bits & ~(1ull << f->depth);
  else
    drop = 0; /* too deep to remember: recorded, finalize decides */
  f->depth++;
  return drop;
}

/* An end record: 1 when its begin was dropped. */
static inline int ot_filt_end_of(ot_filter_tls *f) {
  if (f->depth == 0)
    return 0;
  f->depth--;
  return f->depth < OT_FILTER_DEPTH && ((f->bits >> f->depth) & 1);
}

static inline int ot_filt_end(void) {
  return ot_filt_end_of(ot_filt_self());
}

/* A record inside the innermost open construct (a sync region's wait). */
static inline int ot_filt_inside_of(const ot_filter_tls *f) {
  return f->depth > 0 && f->depth <= OT_FILTER_DEPTH && ((f->bits >> (f->depth - 1)) & 1);
}

static inline int ot_filt_inside(void) {
  return ot_filt_inside_of(ot_filt_self());
}

/* Lock acquisition: mutex_acquire decides (with room left to remember the
 * lock), its mutex_acquired follows that decision even when the table's
 * changed in between, and a dropped acquisition is remembered by wait id
 * so its release (at another address) goes too. */
static inline int ot_filt_acquire(unsigned kind, uint64_t wait_id, const void *cp, int acquired) {
  ot_filter_tls *f = ot_filt_self();
  if (!acquired) {
    f->acq_wait = wait_id;
    f->acq_drop = f->nheld < OT_FILTER_HELD && ot_filt_drop(OT_FC_MUTEX, kind, cp);
    return f->acq_drop;
  }
  int drop = f->acq_drop && f->acq_wait == wait_id;
  f->acq_drop = 0;
  if (drop)
    f->held[f->nheld++] = wait_id;
  return drop;
}

static inline int ot_filt_release(uint64_t wait_id) {
  ot_filter_tls *f = ot_filt_self();
  for (uint32_t i = f->nheld; i-- > 0;)
    if (f->held[i] == wait_id) {
      f->held[i] = f->held[--f->nheld];
      return 1;
    }
  return 0;
}

#endif
