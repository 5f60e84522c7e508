/* Barriers, taskwait, taskgroup: the region and the wait inside it. The
 * parallel barrier's end comes with parallel_data == NULL (recorded as 0);
 * finalize tells it from a work-sharing barrier. */
#include "events/emit.h"
#include "events/handlers.h"

static inline void sync_event(unsigned begin_type, ompt_sync_region_t kind,
                              ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                              const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  uint64_t pid = ot_parallel_of(parallel_data);
  if (endpoint != ompt_scope_end)
    ot_emit(t, begin_type, (unsigned)kind, 0, (uint64_t)codeptr_ra, pid);
  if (endpoint != ompt_scope_begin) /* end, or both for beginend */
    ot_emit(t, begin_type + 1, (unsigned)kind, 0, (uint64_t)codeptr_ra, pid);
}

void on_ompt_callback_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                  ompt_data_t *parallel_data, ompt_data_t *task_data,
                                  const void *codeptr_ra) {
  (void)task_data;
  sync_event(OT_SYNC_BEGIN, kind, endpoint, parallel_data, codeptr_ra);
}

void on_ompt_callback_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                       ompt_data_t *parallel_data, ompt_data_t *task_data,
                                       const void *codeptr_ra) {
  (void)task_data;
  sync_event(OT_SYNC_WAIT_BEGIN, kind, endpoint, parallel_data, codeptr_ra);
}

_Static_assert(OT_SYNC_END == OT_SYNC_BEGIN + 1 && OT_SYNC_WAIT_END == OT_SYNC_WAIT_BEGIN + 1,
               "end record follows its begin record");
