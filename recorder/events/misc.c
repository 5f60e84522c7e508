/* Point events: flush, cancel, error directive (omp_control_tool: events/control.c). */
#include "events/emit.h"
#include "events/filter.h"
#include "events/handlers.h"
#include "events/throttle.h"

/* With a filter file or throttling; out of line, so the recording path
 * saves no registers for them. 1 when the flush is not recorded. */
static __attribute__((noinline)) int flush_dropped(ot_thread *t, const void *codeptr_ra) {
  if (ot_filter_on && ot_filt_drop(OT_FC_FLUSH, 0, codeptr_ra))
    return 1;
  return t->throttle && ot_thr_point(t, OT_THR_FLUSH, codeptr_ra);
}

void on_ompt_callback_flush(ompt_data_t *thread_data, const void *codeptr_ra) {
  (void)thread_data;
  ot_thread *t = ot_enter();
  if (t && ot_filt_special(t) && flush_dropped(t, codeptr_ra))
    return;
  if (t)
    ot_emit(t, OT_FLUSH, 0, 0, (uint64_t)codeptr_ra, 0);
}

void on_ompt_callback_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_CANCEL, 0, (uint32_t)flags, (uint64_t)codeptr_ra, 0);
}

void on_ompt_callback_error(ompt_severity_t severity, const char *message, size_t length,
                            const void *codeptr_ra) {
  (void)message;
  (void)length;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_ERROR, (unsigned)severity, 0, (uint64_t)codeptr_ra, 0);
}
