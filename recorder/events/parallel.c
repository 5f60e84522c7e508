/* Parallel regions and implicit tasks: ids are assigned here and carried
 * in parallel_data / task_data so every team member records the same (or,
 * for a throttled region, nothing: events/throttle_par.h). */
#include "core/config.h"
#include "events/emit.h"
#include "events/handlers.h"
#include "events/throttle_par.h"
#include "services/sampler.h"

/* ompt_parallel_flag_t -> record kind (record.h): the league/team bits
 * live in the top of the int, beyond the byte a record keeps. */
static inline unsigned parallel_kind(int flags) {
  unsigned f = (unsigned)flags;
  return (f & OT_PAR_INVOKER_MASK) | (f & (unsigned)ompt_parallel_league ? OT_PAR_LEAGUE : 0) |
         (f & (unsigned)ompt_parallel_team ? OT_PAR_TEAM : 0);
}

void on_ompt_callback_parallel_begin(ompt_data_t *encountering_task_data,
                                     const ompt_frame_t *encountering_task_frame,
                                     ompt_data_t *parallel_data, unsigned int requested_parallelism,
                                     int flags, const void *codeptr_ra) {
  (void)encountering_task_data;
  (void)encountering_task_frame;
  ot_thread *t = ot_enter_structural();
  if (!t) {
    ot_thr_par_hidden_begin(parallel_data);
    return;
  }
  ot_counters_parallel_begin(t); /* counters deferred until now (rare) */
  uint64_t now = 0;
  if (t->throttle) {
    now = ot_clock_now();
    if (ot_thr_par_begin(t, codeptr_ra, flags, parallel_data, now))
      return;
  }
  uint64_t id = OT_PARALLEL_ID(t->loc, ++t->parallel_seq);
  __atomic_store_n(&parallel_data->value, id, __ATOMIC_RELAXED);
  ot_emit_at(t, now, OT_PARALLEL_BEGIN, parallel_kind(flags), requested_parallelism,
             (uint64_t)codeptr_ra, id);
}

void on_ompt_callback_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                                   int flags, const void *codeptr_ra) {
  (void)encountering_task_data;
  ot_thread *t = ot_enter_structural();
  if (!t)
    return;
  if (t->throttle && ot_thr_par_end(t, ot_clock_now()))
    return;
  /* Acquire: a sampler on another team member may have set the flag. */
  uint64_t raw = parallel_data ? __atomic_load_n(&parallel_data->value, __ATOMIC_ACQUIRE) : 0;
  uint64_t id = OT_PARALLEL_CLEAN(raw);
  ot_emit(t, OT_PARALLEL_END, parallel_kind(flags), 0, (uint64_t)codeptr_ra, id);
  if ((raw & OT_PARALLEL_SAMPLED_BIT) || ot_cfg.sample_contexts == 1)
    ot_sampler_fork_context(t, id, codeptr_ra);
}

void on_ompt_callback_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                    ompt_data_t *task_data, unsigned int actual_parallelism,
                                    unsigned int index, int flags) {
  if (__builtin_expect(ot_thr_hidden != NULL, 0) ||
      (ot_throttle_n && endpoint == ompt_scope_begin)) {
    if (endpoint == ompt_scope_begin ? ot_thr_par_enter(ot_self, parallel_data)
                                     : ot_thr_par_leave())
      return;
  }
  ot_thread *t = ot_enter_structural();
  if (!t)
    return;
  uint64_t pid = ot_parallel_of(parallel_data);
  if (endpoint == ompt_scope_begin) {
    task_data->value = OT_TASK_ID(t->loc, 0, 0);
    t->cur_parallel = pid;
    ot_emit(t, OT_IMPLICIT_BEGIN, (unsigned)flags & 0xff, actual_parallelism, pid, index);
  } else {
    /* The enclosing region is not tracked: 0 until the next implicit
     * task begins (nested regions only). */
    t->cur_parallel = 0;
    if (t->throttle)
      ot_thr_write_dirty(t);
    ot_emit(t, OT_IMPLICIT_END, (unsigned)flags & 0xff, actual_parallelism, pid, index);
  }
}
