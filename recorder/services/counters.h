/* Hardware/software counters through PAPI (services/counters.c).
 * Initialised once from OMPTRACE_METRICS; every OpenMP thread gets its own
 * event set at thread_begin (or, while an SDE counter waits for its
 * library, at its first parallel region). Values are read on the hot path
 * into the record's trailing slots; the OTF2 writer asks for the metric
 * definitions at finalize. */
#ifndef OMPTRACE_COUNTERS_H
#define OMPTRACE_COUNTERS_H

#include "core/thread.h"
#include <stdatomic.h>
#include <stdint.h>

/* Bit i set: records of type i (enum ot_rec_type) carry counter values. */
extern uint64_t ot_counter_rec_mask;

void ot_counters_init(void);                 /* after ot_config_load; never fatal */
unsigned ot_counters_count(void);            /* configured counters that work */
void ot_counters_thread_begin(ot_thread *t); /* sets t->nctr, t->counters */
void ot_counters_thread_end(ot_thread *t);
void ot_counters_finalize(void);
/* Threads whose counters wait for the counter set to be complete: an SDE
 * counter was not registered when the tool started (docs/counters.md). */
extern atomic_int ot_counters_deferred;
void ot_counters_thread_resume(ot_thread *t);
/* At every parallel region's begin, on the encountering thread: a thread
 * that waits starts its counters now (once). One relaxed load otherwise. */
static inline void ot_counters_parallel_begin(ot_thread *t) {
  if (__builtin_expect(atomic_load_explicit(&ot_counters_deferred, memory_order_relaxed) != 0, 0))
    ot_counters_thread_resume(t);
}
/* Hot path: writes t->nctr values (accumulated since the thread's start). */
void ot_counters_read(ot_thread *t, uint64_t *out);

const char *ot_counters_name(unsigned i);
const char *ot_counters_unit(unsigned i);
const char *ot_counters_description(unsigned i);
int ot_counters_is_estimate(unsigned i); /* multiplexed: values are estimates */
/* 1 when every Enter/Leave the writer emits carries values (strict
 * synchronous MetricClass), 0 otherwise. */
int ot_counters_strict(void);

#endif
