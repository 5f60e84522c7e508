/* The out-of-line half of the emit helper (events/emit.h): records with
 * counter values, the clock_gettime clock and chunk hand-offs. */
#include "events/emit.h"

uint64_t ot_emit_slow_types;

void ot_emit_prepare(void) {
  ot_emit_slow_types = ot_counter_rec_mask | (ot_clock_use_tsc ? 0 : ~(uint64_t)0);
}

void ot_emit_slow(ot_thread *t, uint64_t ts, unsigned type, unsigned kind, uint32_t a, uint64_t b,
                  uint64_t c) {
  uint32_t nval = (ot_counter_rec_mask >> type & 1) ? t->nctr : 0;
  uint32_t size = (uint32_t)sizeof(ot_rec) + 8u * nval;
  uint8_t *p = atomic_load_explicit(&t->cur, memory_order_relaxed);
  if ((size_t)(t->end - p) < size) {
    p = ot_buffer_refill(t);
    if (!p)
      return; /* recording stopped meanwhile */
  }
  ot_rec *r = (ot_rec *)p;
  r->ts = ts ? ts : ot_clock_now();
  r->type = (uint8_t)type;
  r->kind = (uint8_t)kind;
  r->nval = (uint16_t)nval;
  r->a = a;
  r->b = b;
  r->c = c;
  if (nval)
    ot_counters_read(t, ot_rec_values_mut(r));
  t->records++;
  atomic_store_explicit(&t->cur, p + size, memory_order_release);
}
