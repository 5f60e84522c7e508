/* Work-sharing constructs, masked and reductions. */
#include "events/emit.h"
#include "events/handlers.h"

void on_ompt_callback_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                           const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned type = endpoint == ompt_scope_begin ? OT_WORK_BEGIN : OT_WORK_END;
  ot_emit(t, type, (unsigned)wstype, ot_sat32(count), (uint64_t)codeptr_ra,
          ot_parallel_of(parallel_data));
}

void on_ompt_callback_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned type = endpoint == ompt_scope_begin ? OT_MASKED_BEGIN : OT_MASKED_END;
  ot_emit(t, type, 0, 0, (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}

void on_ompt_callback_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned type = endpoint == ompt_scope_begin ? OT_REDUCTION_BEGIN : OT_REDUCTION_END;
  ot_emit(t, type, (unsigned)kind, 0, (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}
