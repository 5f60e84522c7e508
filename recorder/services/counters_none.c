/* The counter service of a build without PAPI (OMPTRACE_COUNTERS off or
 * not found): OMPTRACE_METRICS gets one line and recording goes on
 * without counter values. Same interface as services/counters.c. */
#include "core/features.h"
#include "core/log.h"
#include "services/counters.h"

#include <stdlib.h>

uint64_t ot_counter_rec_mask; /* 0: no record carries values */
atomic_int ot_counters_deferred;

void ot_counters_init(void) {
  if (getenv("OMPTRACE_METRICS"))
    ot_warn("counters unavailable: %s; OMPTRACE_METRICS ignored",
            ot_feature_missing("OMPTRACE_METRICS"));
}

unsigned ot_counters_count(void) {
  return 0;
}

void ot_counters_thread_begin(ot_thread *t) {
  t->nctr = 0;
  t->counters = NULL;
}

void ot_counters_thread_end(ot_thread *t) {
  (void)t;
}

void ot_counters_finalize(void) {}

void ot_counters_thread_resume(ot_thread *t) {
  (void)t;
}

void ot_counters_read(ot_thread *t, uint64_t *out) {
  (void)t;
  (void)out;
}

const char *ot_counters_name(unsigned i) {
  (void)i;
  return "";
}

const char *ot_counters_unit(unsigned i) {
  (void)i;
  return "";
}

const char *ot_counters_description(unsigned i) {
  (void)i;
  return "";
}

int ot_counters_is_estimate(unsigned i) {
  (void)i;
  return 0;
}

int ot_counters_strict(void) {
  return 0;
}
