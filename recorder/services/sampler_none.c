/* The sampling service of a build without libunwind (OMPTRACE_SAMPLING
 * off or not found): a sampling rate gets one line and recording goes on
 * without samples. Same interface as services/sampler*.c; the archive
 * side is finalize/samples_none.c. */
#include "core/config.h"
#include "core/features.h"
#include "core/log.h"
#include "services/sampler.h"
#include "services/sampler_buf.h"
#include "services/sampler_ompt.h"

void ot_sampler_set_lookup(ompt_function_lookup_t lookup) {
  (void)lookup;
}

void ot_sampler_init(void) {
  if (ot_cfg.sampling_ns)
    ot_warn("sampling unavailable: %s; OMPTRACE_SAMPLING ignored",
            ot_feature_missing("OMPTRACE_SAMPLING"));
}

/* The log's META then says sampling_ns=0: no samples to rebuild. */
int ot_sampler_enabled(void) {
  return 0;
}

uint64_t ot_sampler_period_ns(void) {
  return 0;
}

void ot_sampler_thread_begin(ot_thread *t) {
  t->sampler = NULL;
}

void ot_sampler_thread_end(ot_thread *t) {
  (void)t;
}

void ot_sampler_stop(void) {}

void ot_sampler_fork_child(void) {}

void ot_sampler_fork_context(ot_thread *t, uint64_t parallel_id, const void *codeptr) {
  (void)t;
  (void)parallel_id;
  (void)codeptr;
}

void ot_sampler_task_context(ot_thread *t, uint64_t task_id, const void *codeptr) {
  (void)t;
  (void)task_id;
  (void)codeptr;
}
