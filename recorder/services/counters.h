/* Hardware/software counters through PAPI (services/counters.c).
 * Initialised once from OMPTRACE_METRICS; every OpenMP thread gets its own
 * event set at thread_begin. Values are read on the hot path into the
 * record's trailing slots; the OTF2 writer asks for the metric
 * definitions at finalize. */
#ifndef OMPTRACE_COUNTERS_H
#define OMPTRACE_COUNTERS_H

#include "core/thread.h"
#include <stdint.h>

/* Bit i set: records of type i (enum ot_rec_type) carry counter values. */
extern uint64_t ot_counter_rec_mask;

void ot_counters_init(void);                 /* after ot_config_load; never fatal */
unsigned ot_counters_count(void);            /* configured counters that work */
void ot_counters_thread_begin(ot_thread *t); /* sets t->nctr, t->counters */
void ot_counters_thread_end(ot_thread *t);
void ot_counters_finalize(void);
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
