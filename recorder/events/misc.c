/* Point events: flush, cancel, error directive (omp_control_tool: events/control.c). */
#include "events/emit.h"
#include "events/filter.h"
#include "events/handlers.h"

/* With a filter file; out of line, so the recording path saves no
 * registers for it. */
static __attribute__((noinline)) void flush_filtered(ot_thread *t, const void *codeptr_ra) {
  if (!ot_filt_drop(OT_FC_FLUSH, 0, codeptr_ra))
    ot_emit(t, OT_FLUSH, 0, 0, (uint64_t)codeptr_ra, 0);
}

void on_ompt_callback_flush(ompt_data_t *thread_data, const void *codeptr_ra) {
  (void)thread_data;
  ot_thread *t = ot_enter();
  if (t && __builtin_expect(ot_filter_on, 0))
    flush_filtered(t, codeptr_ra);
  else if (t)
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
