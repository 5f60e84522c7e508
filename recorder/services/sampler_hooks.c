/* Context captures outside the signal handler: the master's call path at a
 * fork (lazily, for regions a sample fell into) and, in eager mode, at
 * every fork and task creation. Also the OMPT inquiry entry points. */
#include "buffer/record.h"
#include "core/clock.h"
#include "core/config.h"
#include "services/sampler.h"
#include "services/sampler_buf.h"
#include "services/sampler_ompt.h"

ompt_get_state_t ot_smp_get_state;
ompt_get_task_info_t ot_smp_get_task_info;
ompt_get_parallel_info_t ot_smp_get_parallel_info;

void ot_sampler_set_lookup(ompt_function_lookup_t lookup) {
  if (!lookup)
    return;
  ot_smp_get_state = (ompt_get_state_t)lookup("ompt_get_state");
  ot_smp_get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  ot_smp_get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
}

static void take_context(ot_thread *t, int kind, uint64_t key, const void *codeptr) {
  ot_sampler_thread *st = t ? (ot_sampler_thread *)t->sampler : NULL;
  if (!st || !st->contexts.base)
    return;
  /* Keeps our own signal handler out of libunwind while we walk. */
  st->busy = 1;
  atomic_signal_fence(memory_order_seq_cst);
  ot_capture *c = ot_capture_take(st, &st->contexts, NULL, kind);
  if (c) {
    c->key = key;
    c->codeptr = (uint64_t)(uintptr_t)codeptr;
    st->contexts.used += c->size;
    st->ctx_taken++;
    st->ctx_ticks += ot_clock_now() - c->ts;
  } else {
    st->ctx_full++;
  }
  atomic_signal_fence(memory_order_seq_cst);
  st->busy = 0;
}

void ot_sampler_fork_context(ot_thread *t, uint64_t parallel_id, const void *codeptr) {
  take_context(t, OT_CAP_FORK, OT_PARALLEL_CLEAN(parallel_id), codeptr);
}

void ot_sampler_task_context(ot_thread *t, uint64_t task_id, const void *codeptr) {
  take_context(t, OT_CAP_TASK, task_id, codeptr);
}
