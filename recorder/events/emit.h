/* The hot path shared by every handler: timestamp and append one record
 * to the calling thread's buffer. No locks, no allocation, no syscall
 * (the chunk hand-off in ot_buffer_refill runs once per chunk). */
#ifndef OMPTRACE_EMIT_H
#define OMPTRACE_EMIT_H

#include "buffer/buffer.h"
#include "buffer/record.h"
#include "core/clock.h"
#include "core/thread.h"
#include "services/counters.h"

#include <omp-tools.h>
#include <stdatomic.h>

/* The recording thread, or NULL when this thread is not recorded or
 * finalize has begun. Every handler starts with it. */
static inline ot_thread *ot_enter(void) {
  ot_thread *t = ot_self;
  if (__builtin_expect(!t, 0) ||
      __builtin_expect(atomic_load_explicit(&ot_recording, memory_order_relaxed) != OT_REC_ON, 0))
    return NULL;
  return t;
}

/* A handler's leaf, reached with a jump. Leaves are defined without
 * static (the library's default visibility hides them), so the compiler
 * keeps their argument list, which repeats the callback's, and the jump
 * needs no argument moves. */
#define OT_LEAF __attribute__((noinline))

/* The same for the records that keep nesting right across a pause
 * (thread, parallel, implicit task, task switch): kept while paused. */
static inline ot_thread *ot_enter_structural(void) {
  ot_thread *t = ot_self;
  int s = atomic_load_explicit(&ot_recording, memory_order_relaxed);
  if (__builtin_expect(!t, 0) || __builtin_expect(s != OT_REC_ON && s != OT_REC_PAUSED, 0))
    return NULL;
  return t;
}

/* Bit i set: records of type i take the general path (counter values, or
 * the clock is not the TSC). Set once by ot_emit_prepare. */
extern uint64_t ot_emit_slow_types;
/* After ot_clock_init and ot_counters_init. */
void ot_emit_prepare(void);
/* The general path: counters, clock_gettime, chunk hand-off. Kept out of
 * line so the common path needs no call and no saved registers. */
void ot_emit_slow(ot_thread *t, uint64_t ts, unsigned type, unsigned kind, uint32_t a, uint64_t b,
                  uint64_t c);

/* Appends one record stamped `ts`, or the current time when ts is 0. */
static inline void ot_emit_at(ot_thread *t, uint64_t ts, unsigned type, unsigned kind, uint32_t a,
                              uint64_t b, uint64_t c) {
  uint8_t *p = atomic_load_explicit(&t->cur, memory_order_relaxed);
  if (__builtin_expect(((ot_emit_slow_types >> type) & 1) | ((size_t)(t->end - p) < sizeof(ot_rec)),
                       0)) {
    ot_emit_slow(t, ts, type, kind, a, b, c);
    return;
  }
  ot_rec *r = (ot_rec *)p;
  r->ts = ts ? ts : __rdtsc();
  r->type = (uint8_t)type;
  r->kind = (uint8_t)kind;
  r->nval = 0;
  r->a = a;
  r->b = b;
  r->c = c;
  t->records++;
  /* Release: a reader that sees the new cur sees the whole record. */
  atomic_store_explicit(&t->cur, p + sizeof(ot_rec), memory_order_release);
}

static inline void ot_emit(ot_thread *t, unsigned type, unsigned kind, uint32_t a, uint64_t b,
                           uint64_t c) {
  ot_emit_at(t, 0, type, kind, a, b, c);
}

/* Id kept in a parallel_data, without the sampler's flag; 0 if none. */
static inline uint64_t ot_parallel_of(const ompt_data_t *d) {
  return d ? OT_PARALLEL_CLEAN(__atomic_load_n(&d->value, __ATOMIC_RELAXED)) : 0;
}

static inline uint64_t ot_task_of(const ompt_data_t *d) {
  return d ? d->value : 0;
}

static inline uint32_t ot_sat32(uint64_t v) {
  return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

#endif
