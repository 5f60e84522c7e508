/* Throttling of tiny constructs (OMPTRACE_THROTTLE=N,T, docs/control.md):
 * per thread, a fixed table keyed by construct class and code address (a
 * task's creation site) counts recorded instances; once a window of N of
 * them has a mean duration below T the construct is throttled for the rest
 * of the run, and its instances only add to a count and a summed duration.
 * The hot path does a hash and at most OT_THR_PROBES loads; no lock, no
 * allocation, no call. A full table means "record". */
#ifndef OMPTRACE_THROTTLE_H
#define OMPTRACE_THROTTLE_H

#include "core/thread.h"

#include <stdatomic.h>
#include <stdint.h>

/* Construct classes, the kind of an OT_THROTTLED record. */
enum {
  OT_THR_TASK = 1,
  OT_THR_FLUSH = 2,
  OT_THR_MUTEX = 3,
  OT_THR_WORK = 4,
  OT_THR_MASKED = 5,
  OT_THR_PARALLEL = 6,
  OT_THR_WAIT = 7 /* throttled task time inside a wait; sub: OT_THR_W_* */
};
/* The waits a throttled task may run in (the summary counts its time as
 * work, not as that wait): the sub of an OT_THR_WAIT record. */
enum { OT_THR_W_IBARRIER, OT_THR_W_BARRIER, OT_THR_W_TASKWAIT, OT_THR_W_TASKGROUP, OT_THR_NWAIT };
/* Kind byte of an OT_THROTTLED record: the class, and for a mutex its
 * ompt_mutex_t (for work sharing its ompt_work_t) in the upper four bits. */
#define OT_THR_KIND(cls, sub) ((unsigned)(cls) | ((unsigned)(sub) << 4))

#define OT_THR_SLOTS 1024u /* power of two */
#define OT_THR_PROBES 8u
/* Throttled instances between two OT_THROTTLED records of one entry: a
 * crashed run's recovery misses at most this many per entry and thread. */
#define OT_THR_EMIT_EVERY 1024u

typedef struct ot_thr_entry {
  _Atomic uint64_t key; /* class << 56 | code address (tasks: site id); 0 = free */
  uint64_t cp;          /* the code address (a task's creation site) */
  /* Recorded instances completed and their summed ticks; tasks: added by
   * whichever thread ran them (sum before done). */
  _Atomic uint64_t done, sum;
  /* Owner only: the window being judged, and the verdict. */
  uint64_t next_check, snap_done, snap_sum;
  int throttled;
  /* Throttled instances this thread ran: all, and those already written
   * in OT_THROTTLED records. */
  uint64_t count, ticks, emitted_count, emitted_ticks;
  int dirty; /* in the table's dirty list */
} ot_thr_entry;

/* Entries with throttled instances not yet written, written at the end of
 * each implicit task (parallel region) and thread: the counts stay in the
 * region they were taken in, and reach the log for recovery. */
#define OT_THR_DIRTY 16u

/* Lock acquisitions in progress or held (critical, ordered, locks): the
 * release has another address, so it is matched by wait id. */
#define OT_THR_HELD 8u

typedef struct ot_thr_held {
  uint64_t wait;
  ot_thr_entry *e;
  uint64_t t0;
  int throttled;
} ot_thr_held;

/* Work-sharing and masked constructs open on the thread (they nest in
 * program order on a thread): deeper ones are recorded. */
#define OT_THR_DEPTH 16u

typedef struct ot_thr_open {
  ot_thr_entry *e; /* NULL: not tracked (recorded) */
  uint64_t t0;
  int throttled;
} ot_thr_open;

typedef struct ot_thr_table {
  ot_thr_entry e[OT_THR_SLOTS];
  ot_thr_entry *dirty[OT_THR_DIRTY];
  uint32_t ndirty;
  ot_thr_held acq; /* the last mutex_acquire; e NULL: not tracked */
  ot_thr_held held[OT_THR_HELD];
  uint32_t nheld;
  ot_thr_open open[OT_THR_DEPTH];
  uint32_t depth; /* open scoped constructs, tracked or not */
  unsigned epoch; /* ot_filter_epoch the open stack belongs to */
  /* The last throttled work-sharing end: its address and the thread's
   * record count then (an implicit barrier right after it is its own). */
  uint64_t after_cp, after_rec;
  /* Parallel regions this thread began (their master), and the depth of
   * implicit tasks of a throttled region it is in (ot_thr_hidden). */
  ot_thr_open par[OT_THR_DEPTH];
  uint32_t npar, skip;
  /* Open waits (innermost last): their OT_THR_W_* (0xff: none) and the
   * task that waits; the wait the running throttled task runs in (+1, 0:
   * none); the throttled task time per wait, and how much is written. */
  uint8_t wait_kind[OT_THR_DEPTH];
  uint64_t wait_task[OT_THR_DEPTH];
  uint32_t nwait;
  unsigned run_wait;
  uint64_t wait_ticks[OT_THR_NWAIT], wait_emitted[OT_THR_NWAIT];
} ot_thr_table;

/* The thread while it runs in a throttled parallel region: its ot_self is
 * NULL then, so every handler skips it at no cost (events/throttle_par.h). */
extern __thread ot_thread *ot_thr_hidden __attribute__((tls_model("initial-exec")));

/* 0 when throttling is off; else N and T in clock ticks. */
extern uint64_t ot_throttle_n, ot_throttle_ticks;

static inline uint64_t ot_thr_key(unsigned cls, uint64_t id) {
  return ((uint64_t)cls << 56) | (id & 0xffffffffffffffull);
}

/* A key with a kind (mutex, work sharing), which names the construct. */
static inline uint64_t ot_thr_kind_key(unsigned cls, unsigned kind, uint64_t cp) {
  return ((uint64_t)cls << 56) | ((uint64_t)(kind & 0xfu) << 48) | (cp & 0xffffffffffffull);
}

static inline uint64_t ot_thr_mutex_key(unsigned kind, uint64_t cp) {
  return ot_thr_kind_key(OT_THR_MUTEX, kind, cp);
}

/* The entry of key in tab, inserted for code address cp when missing and
 * cp is nonzero; NULL when absent or the table is full. Only the owner
 * thread inserts. */
static inline ot_thr_entry *ot_thr_find(ot_thr_table *tab, uint64_t key, uint64_t cp) {
  uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & (OT_THR_SLOTS - 1);
  for (unsigned i = 0; i < OT_THR_PROBES; i++, h = (h + 1) & (OT_THR_SLOTS - 1)) {
    ot_thr_entry *e = &tab->e[h];
    uint64_t k = atomic_load_explicit(&e->key, memory_order_acquire);
    if (k == key)
      return e;
    if (k == 0) {
      if (!cp)
        return NULL;
      e->cp = cp;
      e->next_check = ot_throttle_n;
      atomic_store_explicit(&e->key, key, memory_order_release);
      return e;
    }
  }
  return NULL;
}

/* Owner: 1 when e is throttled, deciding when a window of at least N
 * completed recorded instances is due. */
static inline int ot_thr_decide(ot_thr_entry *e) {
  if (e->throttled)
    return 1;
  uint64_t done = atomic_load_explicit(&e->done, memory_order_acquire);
  if (done < e->next_check)
    return 0;
  uint64_t sum = atomic_load_explicit(&e->sum, memory_order_relaxed);
  if (sum - e->snap_sum < (done - e->snap_done) * ot_throttle_ticks)
    return e->throttled = 1;
  e->snap_done = done;
  e->snap_sum = sum;
  e->next_check = done + ot_throttle_n;
  return 0;
}

/* A recorded instance of e completed after `ticks` (any thread). */
static inline void ot_thr_done(ot_thr_entry *e, uint64_t ticks, int complete) {
  atomic_fetch_add_explicit(&e->sum, ticks, memory_order_relaxed);
  if (complete)
    atomic_fetch_add_explicit(&e->done, 1, memory_order_release);
}

/* Reads OMPTRACE_THROTTLE's values (ot_cfg) after ot_clock_init. */
void ot_throttle_init(void);
/* The calling thread's table (thread_begin); NULL when off or no memory. */
ot_thr_table *ot_throttle_table_new(void);
/* Finalize: calls f for each entry of every thread with throttled
 * instances not yet written in a record (kind byte as OT_THR_KIND, count
 * and ticks not written). */
void ot_throttle_unwritten(void (*f)(uint32_t loc, unsigned kind, uint64_t cp, uint64_t count,
                                     uint64_t ticks, void *ctx),
                           void *ctx);

#endif
