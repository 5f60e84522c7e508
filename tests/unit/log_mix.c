/* Synthetic record stream (log_mix.h). */
#include "log_mix.h"

#include "buffer/record.h"

#include <string.h>

uint64_t ot_mix_rand(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545f4914f6cdd1dull;
}

typedef struct mix {
  uint8_t *p, *end;
  unsigned nval;
  uint64_t rng, ts, ctr[16];
  uint32_t n;
} mix;

/* Appends one record after a gap of 100-5000 ticks; counters (cycles,
 * instructions, ...) grow with the gap. */
static void emit(mix *m, unsigned type, unsigned kind, uint32_t a, uint64_t b, uint64_t c) {
  size_t size = sizeof(ot_rec) + 8u * m->nval;
  if ((size_t)(m->end - m->p) < size)
    return;
  uint64_t gap = 100 + ot_mix_rand(&m->rng) % 4901;
  m->ts += gap;
  ot_rec *r = (ot_rec *)m->p;
  *r = (ot_rec){.ts = m->ts,
                .type = (uint8_t)type,
                .kind = (uint8_t)kind,
                .nval = (uint16_t)m->nval,
                .a = a,
                .b = b,
                .c = c};
  uint64_t *v = ot_rec_values_mut(r);
  for (unsigned i = 0; i < m->nval; i++) {
    m->ctr[i] += gap * (i + 1) + ot_mix_rand(&m->rng) % 64;
    v[i] = m->ctr[i];
  }
  m->p += size;
  m->n++;
}

#define TEXT 0x55d4c3a21000ull     /* a PIE's text */
#define SYNC_BARRIER_IMPLICIT_WS 6 /* ompt_sync_region_barrier_implicit_workshare */
#define SYNC_BARRIER_PARALLEL 7
#define SYNC_TASKWAIT 5

size_t ot_mix_generate(uint8_t *buf, size_t cap, unsigned nval, uint64_t seed, uint32_t *nrec) {
  mix m = {.p = buf,
           .end = buf + cap,
           .nval = nval > 16 ? 16 : nval,
           .rng = seed | 1,
           .ts = 0x3a5f00000000ull + seed % 100000};
  uint64_t par_seq = 0, task_gen = 0;
  size_t rec_size = sizeof(ot_rec) + 8u * m.nval;
  while ((size_t)(m.end - m.p) >= 64 * rec_size) {
    unsigned site = (unsigned)(ot_mix_rand(&m.rng) % 3);
    uint64_t cp = TEXT + 0x1a40 + 0x120 * site;
    uint64_t pid = OT_PARALLEL_ID(0, ++par_seq);
    uint64_t implicit = OT_TASK_ID(0, 0, 0) + par_seq;
    emit(&m, OT_PARALLEL_BEGIN, 1, 4, cp, pid);
    emit(&m, OT_IMPLICIT_BEGIN, 2, 4, pid, 0);
    /* two work-sharing loops, each with its barrier */
    for (unsigned l = 0; l < 2; l++) {
      uint64_t wcp = cp + 0x40 + 0x30 * l;
      emit(&m, OT_WORK_BEGIN, 1, (uint32_t)(1000 + 24 * l), wcp, pid);
      emit(&m, OT_WORK_END, 1, (uint32_t)(1000 + 24 * l), wcp, pid);
      emit(&m, OT_SYNC_BEGIN, SYNC_BARRIER_IMPLICIT_WS, 0, wcp + 8, pid);
      emit(&m, OT_SYNC_WAIT_BEGIN, SYNC_BARRIER_IMPLICIT_WS, 0, wcp + 8, pid);
      emit(&m, OT_SYNC_WAIT_END, SYNC_BARRIER_IMPLICIT_WS, 0, wcp + 8, pid);
      emit(&m, OT_SYNC_END, SYNC_BARRIER_IMPLICIT_WS, 0, wcp + 8, pid);
    }
    /* a critical section */
    emit(&m, OT_MUTEX_ACQUIRE, 3, 0, TEXT + 0x9000, cp + 0xa0);
    emit(&m, OT_MUTEX_ACQUIRED, 3, 0, TEXT + 0x9000, cp + 0xa0);
    emit(&m, OT_MUTEX_RELEASED, 3, 0, TEXT + 0x9000, cp + 0xa0);
    /* tasks created from one of two sites, some run here */
    unsigned ntask = 4 + (unsigned)(ot_mix_rand(&m.rng) % 5);
    for (unsigned t = 0; t < ntask; t++) {
      unsigned tsite = 1 + (t & 1);
      uint64_t id = OT_TASK_ID(0, tsite, ++task_gen);
      emit(&m, OT_TASK_CREATE, 0, 4, cp + 0xc0 + 0x10 * tsite, id);
      if (ot_mix_rand(&m.rng) % 2) {
        emit(&m, OT_TASK_SCHEDULE, 2, 0, implicit, id); /* ompt_task_switch */
        emit(&m, OT_TASK_SCHEDULE, 1, 0, id, implicit); /* ompt_task_complete */
      }
    }
    emit(&m, OT_SYNC_BEGIN, SYNC_TASKWAIT, 0, cp + 0xf0, pid);
    emit(&m, OT_SYNC_WAIT_BEGIN, SYNC_TASKWAIT, 0, cp + 0xf0, pid);
    emit(&m, OT_SYNC_WAIT_END, SYNC_TASKWAIT, 0, cp + 0xf0, pid);
    emit(&m, OT_SYNC_END, SYNC_TASKWAIT, 0, cp + 0xf0, pid);
    emit(&m, OT_SYNC_BEGIN, SYNC_BARRIER_PARALLEL, 0, cp, pid);
    emit(&m, OT_SYNC_WAIT_BEGIN, SYNC_BARRIER_PARALLEL, 0, cp, pid);
    emit(&m, OT_SYNC_WAIT_END, SYNC_BARRIER_PARALLEL, 0, cp, 0);
    emit(&m, OT_SYNC_END, SYNC_BARRIER_PARALLEL, 0, cp, 0);
    emit(&m, OT_IMPLICIT_END, 2, 4, 0, 0);
    emit(&m, OT_PARALLEL_END, 1, 0, cp, pid);
  }
  *nrec = m.n;
  return (size_t)(m.p - buf);
}
